package konanecensus

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games/konane"
)

// bruteForce solves whole rows by memoised minimax over each player's
// moves, with no canonical forms and no decomposition.
type bruteForce map[[2]konane.Row]bool

// wins reports whether the player to move (Left when left) wins r.
func (b bruteForce) wins(r konane.Row, left bool) bool {
	k := [2]konane.Row{r}
	if left {
		k[1] = konane.EmptyRow(1)
	}
	if w, ok := b[k]; ok {
		return w
	}
	w := false
	for _, o := range r.Options(left, nil) {
		if !b.wins(o, !left) {
			w = true
			break
		}
	}
	b[k] = w
	return w
}

func (b bruteForce) outcome(r konane.Row) cgt.Outcome {
	return cgt.OutcomeOf(b.wins(r, true), !b.wins(r, false))
}

// TestCensusRow8 is the essay's check: a Kōnane row of eight squares has
// 6,561 arrangements, 3,493 of them P-positions, and 36 distinct values.
// The reading that gives these numbers is the natural one: all 3^8 rows,
// including the empty row and the rows of one colour only (all of them 0,
// so all P-positions), each valued whole on its eight squares, with the
// edge of the row stopping a jump.
func TestCensusRow8(t *testing.T) {
	c, err := Count(context.Background(), 8)
	if err != nil {
		t.Fatal(err)
	}
	if c.Arrangements != 6561 {
		t.Errorf("arrangements %d, want 6,561", c.Arrangements)
	}
	if c.Outcomes["P"] != 3493 {
		t.Errorf("P-positions %d, want 3,493", c.Outcomes["P"])
	}
	if c.DistinctValues != 36 || len(c.Values) != 36 {
		t.Errorf("distinct values %d (%d listed), want 36", c.DistinctValues, len(c.Values))
	}
	checkCensus(t, c)
}

// checkCensus checks what must hold of any census: the counts add up, the
// colour swap pairs L with R and each value with its negative, the list
// is sorted, and the example of each value has it.
func checkCensus(t *testing.T, c *Census) {
	t.Helper()
	total := 0
	for _, n := range c.Outcomes {
		total += n
	}
	if total != c.Arrangements {
		t.Errorf("outcomes add up to %d, not %d", total, c.Arrangements)
	}
	if c.Outcomes["L"] != c.Outcomes["R"] {
		t.Errorf("L %d != R %d under the colour swap", c.Outcomes["L"], c.Outcomes["R"])
	}
	v := NewValuer[konane.Row]()
	tab := v.Table()
	byValue := map[string]int{}
	sum := 0
	for i, e := range c.Values {
		sum += e.Count
		byValue[e.Value] = e.Count
		if i > 0 && e.Count > c.Values[i-1].Count {
			t.Errorf("values not sorted by count at %d", i)
		}
		id := v.Value(konane.MustParseRow(e.Example))
		if got := tab.String(id); got != e.Value {
			t.Errorf("example %s has value %s, listed as %s", e.Example, got, e.Value)
		}
		if got := tab.Outcome(id).String(); got != e.Outcome {
			t.Errorf("value %s has outcome %s, listed as %s", e.Value, got, e.Outcome)
		}
	}
	if sum != c.Arrangements {
		t.Errorf("value counts add up to %d, not %d", sum, c.Arrangements)
	}
	for _, e := range c.Values {
		neg := tab.String(tab.Neg(tab.MustParse(e.Value)))
		if byValue[neg] != e.Count {
			t.Errorf("%s occurs %d times, its negative %s %d times", e.Value, e.Count, neg, byValue[neg])
		}
	}
}

// TestOutcomeBruteForce checks the outcome class of the canonical value of
// every row of up to eight squares against brute force.
func TestOutcomeBruteForce(t *testing.T) {
	v := NewValuer[konane.Row]()
	bf := bruteForce{}
	n3 := uint64(1)
	for n := 1; n <= 8; n++ {
		n3 *= 3
		for i := uint64(0); i < n3; i++ {
			r := konane.FromIndex(n, i)
			got := v.Table().Outcome(v.Value(r))
			if want := bf.outcome(r); got != want {
				t.Fatalf("%s: value %s has outcome %s, brute force %s", r, v.Table().String(v.Value(r)), got, want)
			}
		}
	}
}

// TestKnownValues checks small rows whose values follow from the rules by
// hand; the derivation is in each comment.
func TestKnownValues(t *testing.T) {
	for _, tc := range []struct{ row, want string }{
		// No stones, or no opponent to jump: no moves, { | } = 0.
		{"........", "0"},
		{"xx.x..o", "0"},
		// Black jumps to ..x (0); White's stone has no square beyond
		// Black's: {0 | } = 1. White's mirror image is -1.
		{"xo.", "1"},
		{".ox", "1"},
		{"ox.", "-1"},
		// Each side has one jump, each to a lone stone: {0 | 0} = *.
		{".ox.", "*"},
		// Black: x2 over o3 to 4 leaves x...x (0). White: o3 over x2 to 1
		// leaves xo... (1, as above). {0 | 1} = 1/2.
		{"x.xo.", "1/2"},
		// Black: x0 to 2 leaves ..xxo (1: x3 jumps to 5, White has no
		// move), or x2 to 4 leaves xo..x (1). White: o1 is hemmed in by x0
		// and x2, o3 by x2 and the edge. {1 | } = 2.
		{"xoxo..", "2"},
		// Black: x4 over o3 to 2 leaves .ox... (*) or on over o1 to 0
		// leaves x..... (0). White: o3 over x4 to 5 leaves .o...o (0).
		// {0, * | 0} = ^* (up star).
		{".o.ox.", "^*"},
		// Black: x0 to 2 leaves ..xo. (*: each side has one jump, to a lone
		// stone) or on to 4 leaves ....x (0); White has no move. In
		// {0, * | } the option * reverses through its Right option 0 to
		// nothing, so the value is {0 | } = 1.
		{"xo.o.", "1"},
	} {
		t.Run(tc.row, func(t *testing.T) {
			v := NewValuer[konane.Row]()
			if got := v.Table().String(v.Value(konane.MustParseRow(tc.row))); got != tc.want {
				t.Errorf("%s = %s, want %s", tc.row, got, tc.want)
			}
		})
	}
}

// pad is r with left empty squares added on its left and right on its
// right.
func pad(r konane.Row, left, right int) konane.Row {
	return konane.EmptyRow(left).Concat(r).Concat(konane.EmptyRow(right))
}

// TestSums checks the value of a row that Independent splits against the
// sum of the values of its two parts, each padded so that its moves never
// reach the edge, and the outcome of that sum against brute force on the
// whole row.
func TestSums(t *testing.T) {
	v := NewValuer[konane.Row]()
	tab := v.Table()
	bf := bruteForce{}
	rng := rand.New(rand.NewPCG(15, 4))
	kinds := map[cgt.Outcome]int{}
	checked := 0
	for checked < 400 {
		la, lb := 1+rng.IntN(6), 1+rng.IntN(6)
		a := konane.FromIndex(la, uint64(rng.IntN(pow3(la))))
		b := konane.FromIndex(lb, uint64(rng.IntN(pow3(lb))))
		gap := rng.IntN(12)
		whole := a.Concat(konane.EmptyRow(gap)).Concat(b)
		if whole.Len() > 20 || !Independent(a, b, gap) {
			continue
		}
		ka, kb := a.Stones(), b.Stones()
		pa, pb := pad(a, 0, ka), pad(b, kb, 0)
		sum := tab.Add(v.Value(pa), v.Value(pb))
		if got := v.Value(whole); got != sum {
			t.Errorf("%s = %s, but %s + %s = %s", whole, tab.String(got), pa, pb, tab.String(sum))
		}
		if got, want := bf.outcome(whole), tab.Outcome(sum); got != want {
			t.Errorf("%s: brute force %s, sum of parts %s", whole, got, want)
		}
		kinds[tab.Outcome(sum)]++
		checked++
	}
	for _, o := range []cgt.Outcome{cgt.L, cgt.R, cgt.N, cgt.P} {
		if kinds[o] == 0 {
			t.Errorf("no sum of outcome %s checked: %v", o, kinds)
		}
	}
	t.Logf("%d sums, outcomes %v", checked, kinds)
}

func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}

// TestTwoEmptySquaresAreNotEnough is the package comment's example: the
// groups ox and oxxo. two empty squares apart interact, so the row is not
// the sum of its two parts.
func TestTwoEmptySquaresAreNotEnough(t *testing.T) {
	v := NewValuer[konane.Row]()
	tab := v.Table()
	a, b := konane.MustParseRow("ox"), konane.MustParseRow("oxxo.")
	if Independent(a, b, 2) {
		t.Errorf("Independent(ox, oxxo., 2)")
	}
	whole := konane.MustParseRow("ox..oxxo.")
	// Each part padded with room for its moves.
	pa, pb := pad(a, 0, a.Stones()), pad(b, b.Stones(), 0)
	sum := tab.Add(v.Value(pa), v.Value(pb))
	if got := v.Value(whole); got == sum {
		t.Errorf("%s = %s, the sum of its parts", whole, tab.String(sum))
	} else {
		t.Logf("%s = %s; %s + %s = %s", whole, tab.String(got), pa, pb, tab.String(sum))
	}
}

func TestCountBounds(t *testing.T) {
	for _, n := range []int{0, -1, MaxLen + 1} {
		if _, err := Count(context.Background(), n); err == nil {
			t.Errorf("Count(%d) succeeded", n)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Count(ctx, 9); !errors.Is(err, context.Canceled) {
		t.Errorf("Count on a cancelled context: %v", err)
	}
}

// TestSmallCensuses checks each census up to N = 7 against brute force
// outcomes counted directly.
func TestSmallCensuses(t *testing.T) {
	bf := bruteForce{}
	for n := 1; n <= 7; n++ {
		c, err := Count(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"L": 0, "R": 0, "N": 0, "P": 0}
		for i := 0; i < pow3(n); i++ {
			want[bf.outcome(konane.FromIndex(n, uint64(i))).String()]++
		}
		for k, w := range want {
			if c.Outcomes[k] != w {
				t.Errorf("N=%d: %s %d, brute force %d", n, k, c.Outcomes[k], w)
			}
		}
		checkCensus(t, c)
		if !strings.Contains(c.Table(), c.Values[0].Value) {
			t.Errorf("N=%d: table lacks %s", n, c.Values[0].Value)
		}
	}
}

package cgt

import (
	"math/rand/v2"
	"testing"
)

// tree is a game given by its options, with no simplification: the
// definition-level games the tests check the table against.
type tree struct{ l, r []*tree }

// randomTree returns a random game of birthday at most depth.
func randomTree(rng *rand.Rand, depth int) *tree {
	g := &tree{}
	if depth == 0 {
		return g
	}
	for range rng.IntN(3) {
		g.l = append(g.l, randomTree(rng, depth-1-rng.IntN(depth)))
	}
	for range rng.IntN(3) {
		g.r = append(g.r, randomTree(rng, depth-1-rng.IntN(depth)))
	}
	return g
}

// defs computes comparisons and sums of trees straight from the
// definitions: G <= H iff no G^L >= H and no H^R <= G; G + H has the options
// G^L + H, G + H^L | G^R + H, G + H^R.
type defs struct {
	le  map[[2]*tree]bool
	sum map[[2]*tree]*tree
}

func newDefs() *defs { return &defs{le: map[[2]*tree]bool{}, sum: map[[2]*tree]*tree{}} }

func (d *defs) leq(g, h *tree) bool {
	k := [2]*tree{g, h}
	if v, ok := d.le[k]; ok {
		return v
	}
	v := true
	for _, gl := range g.l {
		if d.leq(h, gl) {
			v = false
			break
		}
	}
	for _, hr := range h.r {
		if v && d.leq(hr, g) {
			v = false
		}
	}
	d.le[k] = v
	return v
}

func (d *defs) add(g, h *tree) *tree {
	k := [2]*tree{g, h}
	if s, ok := d.sum[k]; ok {
		return s
	}
	s := &tree{}
	for _, gl := range g.l {
		s.l = append(s.l, d.add(gl, h))
	}
	for _, hl := range h.l {
		s.l = append(s.l, d.add(g, hl))
	}
	for _, gr := range g.r {
		s.r = append(s.r, d.add(gr, h))
	}
	for _, hr := range h.r {
		s.r = append(s.r, d.add(g, hr))
	}
	d.sum[k] = s
	return s
}

// outcome plays the tree out: Left moving first wins iff some G^L is won
// by Left moving second, and so on.
func outcome(g *tree) Outcome {
	var first func(g *tree, left bool) bool // does the player to move win?
	first = func(g *tree, left bool) bool {
		opts := g.r
		if left {
			opts = g.l
		}
		for _, o := range opts {
			if !first(o, !left) {
				return true
			}
		}
		return false
	}
	return OutcomeOf(first(g, true), !first(g, false))
}

func (tb *Table) fromTree(g *tree) ID { return tb.fromTreeMemo(g, map[*tree]ID{}) }

func (tb *Table) fromTreeMemo(g *tree, memo map[*tree]ID) ID {
	if id, ok := memo[g]; ok {
		return id
	}
	var l, r []ID
	for _, o := range g.l {
		l = append(l, tb.fromTreeMemo(o, memo))
	}
	for _, o := range g.r {
		r = append(r, tb.fromTreeMemo(o, memo))
	}
	id := tb.New(l, r)
	memo[g] = id
	return id
}

// TestAgainstDefinitions compares canonical forms with the definitions on
// random games: order, outcome and sums.
func TestAgainstDefinitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	tb := NewTable()
	d := newDefs()
	trees := make([]*tree, 300)
	ids := make([]ID, len(trees))
	for i := range trees {
		trees[i] = randomTree(rng, 1+rng.IntN(4))
		ids[i] = tb.fromTree(trees[i])
	}
	for i := range trees {
		if got, want := tb.Outcome(ids[i]), outcome(trees[i]); got != want {
			t.Errorf("outcome of %s = %s, by play %s", tb.String(ids[i]), got, want)
		}
	}
	for range 3000 {
		i, j := rng.IntN(len(trees)), rng.IntN(len(trees))
		if got, want := tb.Le(ids[i], ids[j]), d.leq(trees[i], trees[j]); got != want {
			t.Errorf("%s <= %s: %v, by definition %v", tb.String(ids[i]), tb.String(ids[j]), got, want)
		}
	}
	for range 300 {
		i, j, k := rng.IntN(len(trees)), rng.IntN(len(trees)), rng.IntN(len(trees))
		s := d.add(trees[i], trees[j])
		if got, want := tb.Outcome(tb.Add(ids[i], ids[j])), outcome(s); got != want {
			t.Errorf("outcome of %s + %s = %s, by play %s", tb.String(ids[i]), tb.String(ids[j]), got, want)
		}
		if got, want := tb.Le(tb.Add(ids[i], ids[j]), ids[k]), d.leq(s, trees[k]); got != want {
			t.Errorf("%s + %s <= %s: %v, by definition %v", tb.String(ids[i]), tb.String(ids[j]), tb.String(ids[k]), got, want)
		}
		// The canonical form of the explicit sum is the table's sum.
		if got, want := tb.fromTree(s), tb.Add(ids[i], ids[j]); got != want {
			t.Errorf("canonical form of the sum tree %s, Add %s", tb.String(got), tb.String(want))
		}
	}
}

// TestAlgebra checks the group laws on random canonical games: G + -G = 0,
// commutativity and associativity of sums, and that the printed form reads
// back as the same game.
func TestAlgebra(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tb := NewTable()
	var ids []ID
	for range 200 {
		ids = append(ids, tb.fromTree(randomTree(rng, 1+rng.IntN(4))))
	}
	for _, g := range ids {
		if s := tb.Add(g, tb.Neg(g)); s != Zero {
			t.Errorf("%s + -(%s) = %s, want 0", tb.String(g), tb.String(g), tb.String(s))
		}
		if tb.Neg(tb.Neg(g)) != g {
			t.Errorf("--(%s) = %s", tb.String(g), tb.String(tb.Neg(tb.Neg(g))))
		}
		if back, err := tb.Parse(tb.String(g)); err != nil || back != g {
			t.Errorf("%s reads back as %v (%v)", tb.String(g), back, err)
		}
	}
	for range 300 {
		a, b, c := ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]
		if tb.Add(a, b) != tb.Add(b, a) {
			t.Errorf("%s + %s is not commutative", tb.String(a), tb.String(b))
		}
		if l, r := tb.Add(tb.Add(a, b), c), tb.Add(a, tb.Add(b, c)); l != r {
			t.Errorf("(%s + %s) + %s = %s, but %s", tb.String(a), tb.String(b), tb.String(c), tb.String(l), tb.String(r))
		}
		// g <= h iff h - g >= 0.
		if tb.Le(a, b) != tb.Le(Zero, tb.Sub(b, a)) {
			t.Errorf("%s <= %s disagrees with the difference", tb.String(a), tb.String(b))
		}
	}
}

// TestNumberUpStar builds x + n.↑ + *m as an explicit sum of trees
// (↑ = {0|*}, *m by the definition of nimbers [WW ch. 3], numbers as in
// ONAG ch. 0), and checks that its canonical form is the one NUS builds and
// is recognised as such.
func TestNumberUpStar(t *testing.T) {
	d := newDefs()
	zero := &tree{}
	stars := []*tree{zero}
	for m := 1; m <= 3; m++ {
		stars = append(stars, &tree{l: stars[:m:m], r: stars[:m:m]})
	}
	up := &tree{l: []*tree{zero}, r: []*tree{stars[1]}}
	down := &tree{l: []*tree{stars[1]}, r: []*tree{zero}}
	half := &tree{l: []*tree{zero}, r: []*tree{{l: []*tree{zero}}}}
	minusOne := &tree{r: []*tree{zero}}
	numbers := []struct {
		tr *tree
		x  Dyadic
	}{{zero, Dyadic{}}, {half, MakeDyadic(1, 1)}, {minusOne, Int(-1)}}
	for _, num := range numbers {
		for n := -3; n <= 3; n++ {
			for m := 0; m <= 3; m++ {
				s := d.add(num.tr, stars[m])
				for range max(n, -n) {
					if n > 0 {
						s = d.add(s, up)
					} else {
						s = d.add(s, down)
					}
				}
				tb := NewTable()
				g := tb.fromTree(s)
				if want := tb.NUS(num.x, n, m); g != want {
					t.Errorf("%s + %d.^ + *%d: canonical form %s, NUS %s", num.x, n, m, tb.String(g), tb.String(want))
				}
				x, ups, nim, ok := tb.NumberUpStar(g)
				if !ok || x != num.x || ups != n || nim != m {
					t.Errorf("%s + %d.^ + *%d recognised as %v %s %d %d", num.x, n, m, ok, x, ups, nim)
				}
			}
		}
	}
}

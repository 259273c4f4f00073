package play

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/games/mutorere"
)

func newRules(t *testing.T, game, board string) (*GameRules, uint64) {
	t.Helper()
	g, err := all.New(game, board, "")
	if err != nil {
		t.Fatal(err)
	}
	return NewGameRules(g.(games.Mover)), g.Start()
}

// plainOutcome is the verdict of s by plain minimax with no memo and no
// early stop: an independent check of Solver.
func plainOutcome(r Rules, s State) Verdict {
	v := Loss
	for _, t := range r.Moves(s, nil) {
		if plainOutcome(r, t) == Loss {
			v = Win
		}
	}
	return v
}

// reachable lists every state reachable from pos with either player to
// move first.
func reachable(r Rules, pos uint64) []State {
	seen := map[State]bool{}
	var out []State
	stack := []State{{pos, true}, {pos, false}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
		stack = r.Moves(s, stack)
	}
	return out
}

func TestSolverMatchesPlainMinimax(t *testing.T) {
	for _, c := range [][2]string{{"clobber", "2x3"}, {"domineering", "3x3"}, {"amazons", "2x3"}} {
		r, start := newRules(t, c[0], c[1])
		sv := NewSolver(r)
		states := reachable(r, start)
		for _, s := range states {
			if got, want := sv.Outcome(s), plainOutcome(r, s); got != want {
				t.Fatalf("%s %s: state %+v: solver %s, plain minimax %s", c[0], c[1], s, got, want)
			}
		}
		t.Logf("%s %s: %d states agree", c[0], c[1], len(states))
	}
}

// TestPerfectNeverLosesAWonPosition starts the perfect player in every
// reachable state it has won, and sums every branch against the random
// player and against itself: it must win with probability 1. From every
// lost state the perfect opponent must win likewise.
func TestPerfectNeverLosesAWonPosition(t *testing.T) {
	for _, c := range [][2]string{{"clobber", "3x3"}, {"domineering", "3x4"}, {"amazons", "2x4"}} {
		r, start := newRules(t, c[0], c[1])
		sv := NewSolver(r)
		won := 0
		for _, s := range reachable(r, start) {
			for _, q := range []Player{Random{}, &Perfect{Oracle: sv}} {
				pFirst := sv.Outcome(s) == Win
				seat := Seat{PLeft: s.Left == pFirst, PFirst: pFirst}
				m := &Match{Rules: r, P: &Perfect{Oracle: sv}, Q: q, Start: s.Pos}
				e, err := m.Exact(seat, 1<<20)
				if err != nil {
					t.Fatal(err)
				}
				// No branch may reach a loss: the losses' sum is zero,
				// not merely small.
				if e.QWins != 0 || math.Abs(e.PWins-1) > 1e-12 {
					t.Fatalf("%s %s: perfect player from %+v (its verdict %s, P first %v) against %s wins with probability %v, loses with %v",
						c[0], c[1], s, sv.Outcome(s), pFirst, q, e.PWins, e.QWins)
				}
			}
			if sv.Outcome(s) == Win {
				won++
			}
		}
		if won == 0 {
			t.Fatalf("%s %s: no won state", c[0], c[1])
		}
	}
}

// TestChoiceTrees checks choiceProbabilities on trees whose answer is
// known by hand.
func TestChoiceTrees(t *testing.T) {
	u := treeNode{kind: kindUniform}
	won, lost := treeNode{kind: kindWon}, treeNode{kind: kindLost}
	minOf := func(n int32) treeNode { return treeNode{kind: kindMin, children: n} }
	maxOf := func(n int32) treeNode { return treeNode{kind: kindMax, children: n} }
	for _, c := range []struct {
		name   string
		nodes  []treeNode
		n      int
		leaves int
		want   []float64
	}{
		// P(U > min(U1, U2)) = 2/3.
		{"min of two against one", []treeNode{u, u, minOf(2), u}, 2, 3, []float64{1.0 / 3, 2.0 / 3}},
		// P(max(U1, U2) > U) = 2/3 (the opponent's max is the root's min
		// only through a min node; here the child is a min over a max).
		{"min of a max", []treeNode{u, u, maxOf(2), minOf(1), u}, 2, 3, []float64{2.0 / 3, 1.0 / 3}},
		{"three leaves", []treeNode{u, u, u}, 3, 3, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{"a win", []treeNode{won, u}, 2, 1, []float64{1, 0}},
		{"two wins", []treeNode{won, u, won}, 3, 1, []float64{0.5, 0, 0.5}},
		{"all lost", []treeNode{lost, lost}, 2, 0, []float64{0.5, 0.5}},
		{"a loss", []treeNode{lost, u}, 2, 1, []float64{0, 1}},
		// The child is won when the opponent's one reply ends the game
		// for it: min(won) = won; the other is a min of a loss (the
		// opponent can win at once) and a leaf: always 0.
		{"forced", []treeNode{won, minOf(1), lost, u, minOf(2)}, 2, 1, []float64{1, 0}},
		// min(U, won) = U, against U: a half each.
		{"won reply ignored", []treeNode{u, won, minOf(2), u}, 2, 2, []float64{0.5, 0.5}},
	} {
		p := make([]float64, c.n)
		choiceProbabilities(c.nodes, c.leaves, c.n, p)
		for i := range p {
			if math.Abs(p[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s: p = %v, want %v", c.name, p, c.want)
				break
			}
		}
	}
}

// TestMinimaxDistMatchesSearch compares the exact choice probabilities of
// depths 1 to 3 with the frequencies of the sampled search, on positions
// along a game of Clobber 3x4: every frequency must lie within 4.5
// standard errors.
func TestMinimaxDistMatchesSearch(t *testing.T) {
	r, start := newRules(t, "clobber", "3x4")
	rng := rand.New(rand.NewPCG(3, 4))
	s := State{start, true}
	const samples = 4000
	checked := 0
	for ply := 0; ply < 8; ply++ {
		moves := r.Moves(s, nil)
		if len(moves) == 0 {
			break
		}
		for d := 1; d <= 3; d++ {
			m := NewMinimax(r, d)
			m.MaxLeaves = 1 << 14
			p := make([]float64, len(moves))
			if !m.Dist(s, moves, p) {
				continue
			}
			sum := 0.0
			for _, x := range p {
				sum += x
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("ply %d depth %d: probabilities sum to %v", ply, d, sum)
			}
			count := make([]int, len(moves))
			for range samples {
				count[m.Choose(s, moves, rng)]++
			}
			for i := range p {
				f := float64(count[i]) / samples
				se := math.Sqrt(max(p[i]*(1-p[i]), 1e-4) / samples)
				if math.Abs(f-p[i]) > 4.5*se {
					t.Fatalf("ply %d depth %d move %d: exact %.4f, sampled %.4f", ply, d, i, p[i], f)
				}
			}
			checked++
		}
		s = moves[rng.IntN(len(moves))]
	}
	if checked < 10 {
		t.Fatalf("only %d choices checked", checked)
	}
}

// TestExactMatchesSample: the exact win rate lies within the sampled
// games' interval, widened to 99.9%.
func TestExactMatchesSample(t *testing.T) {
	r, start := newRules(t, "domineering", "3x4")
	sv := NewSolver(r)
	m := &Match{Rules: r, P: NewMinimax(r, 2), Q: &Perfect{Oracle: sv}, Start: start}
	tallies, err := m.Sample(11, 4*3000)
	if err != nil {
		t.Fatal(err)
	}
	for i, seat := range Seats {
		e, err := m.Exact(seat, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(e.PWins+e.QWins-1) > 1e-12 {
			t.Fatalf("%s: P %v + Q %v != 1", seat, e.PWins, e.QWins)
		}
		f := float64(tallies[i].PWins) / float64(tallies[i].Games)
		se := math.Sqrt(max(e.PWins*(1-e.PWins), 1e-4) / float64(tallies[i].Games))
		if math.Abs(f-e.PWins) > 3.3*se {
			t.Fatalf("%s: exact %.4f, sampled %.4f of %d", seat, e.PWins, f, tallies[i].Games)
		}
	}
}

func TestSampleReproducible(t *testing.T) {
	r, start := newRules(t, "clobber", "3x4")
	sv := NewSolver(r)
	run := func(seed uint64) []Tally {
		m := &Match{Rules: r, P: NewMinimax(r, 3), Q: &Perfect{Oracle: sv}, Start: start}
		tl, err := m.Sample(seed, 200)
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	a, b, c := run(5), run(5), run(6)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("seed 5 twice: %+v then %+v", a, b)
		}
	}
	same := true
	for i := range a {
		same = same && a[i] == c[i]
	}
	if same {
		t.Fatalf("seeds 5 and 6 gave the same tallies %+v", a)
	}
}

// TestMutorereRandomAgainstPerfect reproduces the retrograde analysis's
// exact figure (results/mutorere-8/summary.json, random_player.black):
// the random player, Black and moving first, has lost within 10 of its
// own moves with probability 0.2655164930555555.
func TestMutorereRandomAgainstPerfect(t *testing.T) {
	r, err := mutorere.New(8, mutorere.Classic)
	if err != nil {
		t.Fatal(err)
	}
	mt, err := NewMutorere(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	// Ten moves of the random player and ten replies, then its turn.
	m := &Match{Rules: mt, P: Random{}, Q: &Perfect{Oracle: mt}, Start: mt.Start(), MaxMoves: 21}
	e, err := m.Exact(Seat{PLeft: true, PFirst: true}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if want := 0.2655164930555555; math.Abs(e.QWins-want) > 1e-12 || e.PWins != 0 {
		t.Fatalf("random lost within 10 moves with probability %v (won %v), want %v and 0", e.QWins, e.PWins, want)
	}
}

func TestWilson(t *testing.T) {
	// Published values of the 95% Wilson interval (Newcombe 1998, table I:
	// 0/10 and 81/263).
	for _, c := range []struct {
		w, n   int
		lo, hi float64
	}{{0, 10, 0, 0.2775}, {81, 263, 0.2553, 0.3662}} {
		lo, hi := Wilson(c.w, c.n)
		if math.Abs(lo-c.lo) > 5e-5 || math.Abs(hi-c.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.w, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

// TestMobility measures a first move of Domineering 2x3 by hand: Left
// (vertical) has three moves, one per column. After an outer one Right
// (horizontal) has two replies, one in each row of the other two columns,
// and Left two moves; after the middle one Right has none and Left two.
func TestMobility(t *testing.T) {
	r, start := newRules(t, "domineering", "2x3")
	s := State{start, true}
	moves := r.Moves(s, nil)
	if len(moves) != 3 {
		t.Fatalf("%d moves", len(moves))
	}
	for i, t2 := range moves {
		var mb Mobility
		mb.add(r, s, moves, i, nil)
		replies, repliesMean, own, ownMean := mb.Means()
		wantReplies := 2.0
		if t2.Pos&0b010010 != 0 { // the middle column
			wantReplies = 0
		}
		if replies != wantReplies || math.Abs(repliesMean-4.0/3) > 1e-15 || own != 2 || ownMean != 2 {
			t.Errorf("move %d: replies %v (mean %v), own %v (mean %v)", i, replies, repliesMean, own, ownMean)
		}
	}
}

package retro

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/games/mutorere"
)

// listGraph is a graph given by its successor lists.
type listGraph struct {
	succ, pred [][]uint64
}

func newListGraph(succ [][]uint64) *listGraph {
	g := &listGraph{succ: succ, pred: make([][]uint64, len(succ))}
	for s, ts := range succ {
		for _, t := range ts {
			g.pred[t] = append(g.pred[t], uint64(s))
		}
	}
	return g
}

func (g *listGraph) NumStates() uint64 { return uint64(len(g.succ)) }
func (g *listGraph) Successors(s uint64, dst []uint64) []uint64 {
	return append(dst, g.succ[s]...)
}
func (g *listGraph) Predecessors(s uint64, dst []uint64) []uint64 {
	return append(dst, g.pred[s]...)
}

func TestSolveHand(t *testing.T) {
	for _, tc := range []struct {
		name    string
		succ    [][]uint64
		verdict string
		rem     []uint16
	}{
		{"stuck", [][]uint64{{}}, "L", []uint16{0}},
		{"chain", [][]uint64{{1}, {2}, {3}, {}}, "WLWL", []uint16{3, 2, 1, 0}},
		{"cycle", [][]uint64{{1}, {0}}, "DD", []uint16{0, 0}},
		// 0 can win at once (to 1) or slowly (to 2 -> 3 -> 4 stuck).
		{"fastest win", [][]uint64{{2, 1}, {}, {3}, {4}, {}}, "WLLWL", []uint16{1, 0, 2, 1, 0}},
		// 0 loses either way: to 1 (won in 1) or to 2 (won in 3); it
		// holds out by going to 2.
		{"slowest loss", [][]uint64{{1, 2}, {3}, {4}, {}, {5}, {6}, {}}, "LWWLLWL", []uint16{4, 1, 3, 0, 2, 1, 0}},
		// 0 may enter a loop (1 <-> 0) or go to 2, won for the opponent:
		// drawn, as is the loop.
		{"draw beats loss", [][]uint64{{1, 2}, {0}, {3}, {}}, "DDWL", []uint16{0, 0, 1, 0}},
		// Two moves to the same state count twice.
		{"double edge", [][]uint64{{1, 1}, {2}, {}}, "LWL", []uint16{2, 1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Solve(context.Background(), newListGraph(tc.succ))
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, v := range res.Verdict {
				got += v.String()
			}
			if got != tc.verdict || !slices.Equal(res.Remoteness, tc.rem) {
				t.Errorf("verdicts %s remoteness %v, want %s %v", got, res.Remoteness, tc.verdict, tc.rem)
			}
		})
	}
}

// naive labels the states of g straight from the definitions, with no
// counters and no predecessors: in round i it labels every state whose
// verdict follows from the labels of round i-1 (a move to a lost state, or
// every move to a won state), so the states of remoteness r are labelled
// in round r+1 with their remoteness; it stops after a round that labels
// nothing.
func naive(g Graph) ([]Verdict, []uint16) {
	n := g.NumStates()
	v := make([]Verdict, n)
	rem := make([]uint16, n)
	for {
		nv := slices.Clone(v)
		nr := slices.Clone(rem)
		changed := false
		for s := range n {
			if v[s] != Draw {
				continue
			}
			succ := g.Successors(s, nil)
			win, allWon := false, true
			var minL, maxW uint16 = 1<<16 - 1, 0
			for _, u := range succ {
				switch v[u] {
				case Loss:
					win = true
					minL = min(minL, rem[u])
				case Win:
					maxW = max(maxW, rem[u])
				default:
					allWon = false
				}
				if v[u] != Win {
					allWon = false
				}
			}
			switch {
			case win:
				nv[s], nr[s], changed = Win, minL+1, true
			case len(succ) == 0:
				nv[s], changed = Loss, true
			case allWon:
				nv[s], nr[s], changed = Loss, maxW+1, true
			}
		}
		v, rem = nv, nr
		if !changed {
			return v, rem
		}
	}
}

// randomGraph has n states with 0 to 3 moves each, to random states.
func randomGraph(rng *rand.Rand, n int) *listGraph {
	succ := make([][]uint64, n)
	for s := range succ {
		for range rng.IntN(4) {
			succ[s] = append(succ[s], uint64(rng.IntN(n)))
		}
	}
	return newListGraph(succ)
}

func TestSolveAgreesWithNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		g := randomGraph(rng, 1+rng.IntN(60))
		res, err := Solve(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		v, rem := naive(g)
		if !slices.Equal(res.Verdict, v) || !slices.Equal(res.Remoteness, rem) {
			t.Fatalf("graph %d %v:\nSolve %v %v\nnaive %v %v", i, g.succ, res.Verdict, res.Remoteness, v, rem)
		}
	}
}

func TestSolveCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, newListGraph([][]uint64{{}})); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
}

func TestDistances(t *testing.T) {
	g := newListGraph([][]uint64{{1, 2}, {3}, {3}, {0}, {0}})
	d, err := Distances(context.Background(), g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int32{0, 1, 1, 2, Unreached}; !slices.Equal(d, want) {
		t.Errorf("distances %v, want %v", d, want)
	}
}

// TestSolveMutorereAgreesWithNaive checks Solve against the definitions on
// every state of Mū tōrere's stars of 4 to 10 points, both variants.
func TestSolveMutorereAgreesWithNaive(t *testing.T) {
	for _, v := range []mutorere.Variant{mutorere.Classic, mutorere.FreeCentre} {
		for _, points := range []int{4, 6, 8, 10} {
			r, err := mutorere.New(points, v)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Solve(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			nv, nr := naive(r)
			for s := range r.NumStates() {
				if res.Verdict[s] != nv[s] || res.Remoteness[s] != nr[s] {
					a, c := r.State(s)
					t.Fatalf("%s %d points, %s with %s to move: Solve %s in %d, naive %s in %d",
						v, points, r.String(a), c, res.Verdict[s], res.Remoteness[s], nv[s], nr[s])
				}
			}
		}
	}
}

package retro_test

import (
	"context"
	"math"
	"testing"

	"github.com/census-cgt/census/games/mutorere"
	"github.com/census-cgt/census/retro"
)

// loopGraph: at 0 the random player may blunder (to 1, whence the perfect
// player leaves it stuck at 3) or not (to 2, whence the perfect player, who
// has nothing better than a draw, returns to 0). The number of moves the
// random player makes is geometric: P(T = j) = 2^-j, E[T] = 2.
type loopGraph struct{}

var loopSucc = [][]uint64{{1, 2}, {3}, {0}, {}}
var loopPred = [][]uint64{{2}, {0}, {0}, {1}}

func (loopGraph) NumStates() uint64 { return 4 }
func (loopGraph) Successors(s uint64, dst []uint64) []uint64 {
	return append(dst, loopSucc[s]...)
}
func (loopGraph) Predecessors(s uint64, dst []uint64) []uint64 {
	return append(dst, loopPred[s]...)
}

func TestAnalyseRandomHand(t *testing.T) {
	res, err := retro.Solve(context.Background(), loopGraph{})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := retro.AnalyseRandom(context.Background(), loopGraph{}, res, 0, true, retro.TieUniform, 20)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 20; k++ {
		if want := 1 - math.Pow(2, -float64(k)); math.Abs(rp.LostWithin[k-1]-want) > 1e-15 {
			t.Errorf("lost within %d: %v, want %v", k, rp.LostWithin[k-1], want)
		}
	}
	if math.Abs(rp.Expected-2) > 1e-9 || rp.Never != 0 || rp.Won != 0 || rp.States != 2 {
		t.Errorf("expected %v never %v won %v states %d, want 2, 0, 0, 2", rp.Expected, rp.Never, rp.Won, rp.States)
	}
}

// TestAnalyseRandomMutorere checks the chain's answers on Mū tōrere against
// an independent computation: the expected number of moves by Gaussian
// elimination on the equations written straight from the state graph, and
// the probabilities of having lost by pushing the distribution over states
// forward move by move.
func TestAnalyseRandomMutorere(t *testing.T) {
	r, err := mutorere.New(8, mutorere.Classic)
	if err != nil {
		t.Fatal(err)
	}
	res, err := retro.Solve(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		random mutorere.Colour
		tie    retro.TieBreak
	}{
		{"black uniform", mutorere.Black, retro.TieUniform},
		{"white uniform", mutorere.White, retro.TieUniform},
		{"black first", mutorere.Black, retro.TieFirst},
		{"white first", mutorere.White, retro.TieFirst},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rp, err := retro.AnalyseRandom(context.Background(), r, res, r.StartState(), tc.random == mutorere.Black, tc.tie, 100)
			if err != nil {
				t.Fatal(err)
			}
			p := play{r: r, res: res, tie: tc.tie}
			init := p.first(tc.random)
			within := p.lostWithin(init, 100)
			for k := range within {
				if math.Abs(within[k]-rp.LostWithin[k]) > 1e-12 {
					t.Fatalf("lost within %d: chain %v, forward %v", k+1, rp.LostWithin[k], within[k])
				}
			}
			e := p.expected(init, tc.random)
			if math.Abs(e-rp.Expected) > 1e-9 {
				t.Errorf("expected moves: chain %v, elimination %v", rp.Expected, e)
			}
			t.Logf("within 10 %.4f, 50 %.4f, 100 %.4f; mean %.4f", within[9], within[49], within[99], e)
		})
	}
}

// play is the random player against the perfect one on the Mū tōrere
// graph, written out from the definitions.
type play struct {
	r   *mutorere.Rules
	res *retro.Result
	tie retro.TieBreak
}

// replies is the perfect player's moves from y, each with its probability.
func (p play) replies(y uint64) map[uint64]float64 {
	var best []uint64
	for _, z := range p.r.Successors(y, nil) {
		ok := false
		switch p.res.Verdict[y] {
		case retro.Win:
			ok = p.res.Verdict[z] == retro.Loss && p.res.Remoteness[z] == p.res.Remoteness[y]-1
		case retro.Loss:
			ok = p.res.Verdict[z] == retro.Win && p.res.Remoteness[z] == p.res.Remoteness[y]-1
		default:
			ok = p.res.Verdict[z] == retro.Draw
		}
		if ok {
			best = append(best, z)
		}
	}
	// A stuck perfect player (only in states the play never reaches)
	// has no reply: the game ends there.
	if p.tie == retro.TieFirst && len(best) > 0 {
		best = best[:1]
	}
	out := map[uint64]float64{}
	for _, z := range best {
		out[z] += 1 / float64(len(best))
	}
	return out
}

func (p play) first(random mutorere.Colour) map[uint64]float64 {
	if random == mutorere.Black {
		return map[uint64]float64{p.r.StartState(): 1}
	}
	return p.replies(p.r.StartState())
}

func (p play) lostWithin(dist map[uint64]float64, horizon int) []float64 {
	var out []float64
	lost := 0.0
	for j := 0; j <= horizon; j++ {
		next := map[uint64]float64{}
		for x, px := range dist {
			succ := p.r.Successors(x, nil)
			if len(succ) == 0 {
				lost += px
				continue
			}
			for _, y := range succ {
				for z, pz := range p.replies(y) {
					next[z] += px * pz / float64(len(succ))
				}
			}
		}
		if j > 0 {
			out = append(out, lost)
		}
		dist = next
	}
	return out
}

// expected solves E(x) = 0 when x is stuck, else 1 + the mean over the
// random player's moves y and the perfect replies z of E(z), over every
// state with the random player to move, by Gaussian elimination with
// partial pivoting.
func (p play) expected(init map[uint64]float64, random mutorere.Colour) float64 {
	var states []uint64
	index := map[uint64]int{}
	for s := range p.r.NumStates() {
		if mutorere.Colour(s%2) == random {
			index[s] = len(states)
			states = append(states, s)
		}
	}
	n := len(states)
	a := make([][]float64, n)
	for i, x := range states {
		a[i] = make([]float64, n+1)
		a[i][i] = 1
		succ := p.r.Successors(x, nil)
		if len(succ) == 0 {
			continue
		}
		a[i][n] = 1
		for _, y := range succ {
			for z, pz := range p.replies(y) {
				a[i][index[z]] -= pz / float64(len(succ))
			}
		}
	}
	for c := range n {
		piv := c
		for i := c + 1; i < n; i++ {
			if math.Abs(a[i][c]) > math.Abs(a[piv][c]) {
				piv = i
			}
		}
		a[c], a[piv] = a[piv], a[c]
		if a[c][c] == 0 {
			// A state from which the game never ends: only states the
			// play cannot reach may be singular here, which the caller's
			// comparison would catch through init.
			continue
		}
		for i := range n {
			if i == c || a[i][c] == 0 {
				continue
			}
			f := a[i][c] / a[c][c]
			for j := c; j <= n; j++ {
				a[i][j] -= f * a[c][j]
			}
		}
	}
	e := 0.0
	for s, ps := range init {
		i := index[s]
		e += ps * a[i][n] / a[i][i]
	}
	return e
}

// cycleGraph is a loop with no way out: the random player never loses.
type cycleGraph struct{}

func (cycleGraph) NumStates() uint64 { return 2 }
func (cycleGraph) Successors(s uint64, dst []uint64) []uint64 {
	return append(dst, 1-s)
}
func (cycleGraph) Predecessors(s uint64, dst []uint64) []uint64 {
	return append(dst, 1-s)
}

func TestAnalyseRandomNeverEnds(t *testing.T) {
	res, err := retro.Solve(context.Background(), cycleGraph{})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := retro.AnalyseRandom(context.Background(), cycleGraph{}, res, 0, false, retro.TieFirst, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(rp.Expected, 1) || rp.Never != 1 || rp.LostWithin[4] != 0 {
		t.Errorf("expected %v never %v lost within 5 %v, want +Inf, 1, 0", rp.Expected, rp.Never, rp.LostWithin[4])
	}
}

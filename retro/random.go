package retro

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// TieBreak is how the perfect player chooses among equally good moves.
type TieBreak uint8

const (
	// TieUniform picks uniformly at random among the equally good moves.
	TieUniform TieBreak = iota
	// TieFirst picks the first of them in the order of Successors.
	TieFirst
)

// String names the tie-break as the CLI and summary spell it.
func (t TieBreak) String() string {
	if t == TieFirst {
		return "first"
	}
	return "uniform"
}

// RandomPlay is the exact outcome of a random player against a perfect one.
type RandomPlay struct {
	// LostWithin[k-1] is the probability that the random player has lost
	// within k of its own moves: that it is stuck, at its turn, having made
	// at most k moves.
	LostWithin []float64
	// Expected is the expected number of moves the random player makes
	// before it is stuck; +Inf when with positive probability it is never
	// stuck. It solves the absorption equations of the Markov chain to
	// within Tolerance.
	Expected float64
	// Never is the probability that the random player is never stuck.
	Never float64
	// Won is the probability that the perfect player is stuck instead
	// (zero unless the perfect player starts from a lost state).
	Won float64
	// States is the number of states with the random player to move that
	// the play reaches.
	States int
}

// Tolerance bounds the change in every expectation over the last sweep of
// the iterative solution; the expectations approach their limit from below.
const Tolerance = 1e-12

// chain is the Markov chain of the states with the random player to move:
// from state i it goes to next[off[i]:off[i+1]] with probabilities prob.
// stuck[i] marks states where the random player cannot move; lostP is the
// probability of moving from i into a state where the perfect player is
// stuck.
type chain struct {
	states []uint64
	off    []int
	next   []int32
	prob   []float64
	stuck  []bool
	lostP  []float64
	// init is the distribution of the random player's first state.
	init []weighted
}

// weighted is a state of the chain with a probability.
type weighted struct {
	i int
	p float64
}

// AnalyseRandom plays a player who picks uniformly among its legal moves
// against a perfect one, from state start, with the random player to move
// first when randomFirst. The perfect player wins as fast as it can when it
// can (a move to a lost state of least remoteness), else draws (a move to a
// drawn state), else loses as slowly as it can; tie decides among equally
// good moves. Every branch is summed: nothing is sampled. LostWithin has
// horizon entries. It fails when res is not g's solution, or with ctx's
// error.
func AnalyseRandom(ctx context.Context, g Graph, res *Result, start uint64, randomFirst bool, tie TieBreak, horizon int) (*RandomPlay, error) {
	ch, err := buildChain(ctx, g, res, start, randomFirst, tie)
	if err != nil {
		return nil, fmt.Errorf("build random player's chain: %w", err)
	}
	rp := &RandomPlay{States: len(ch.states), LostWithin: make([]float64, horizon)}
	// Forward: dist[i] is the probability of being at state i at the
	// random player's turn after j moves.
	dist := make([]float64, len(ch.states))
	nd := make([]float64, len(ch.states))
	for _, w := range ch.init {
		dist[w.i] += w.p
	}
	lost := 0.0
	for j := 0; j <= horizon; j++ {
		clear(nd)
		for i, p := range dist {
			if p == 0 {
				continue
			}
			if ch.stuck[i] {
				lost += p
				continue
			}
			rp.Won += p * ch.lostP[i]
			for e := ch.off[i]; e < ch.off[i+1]; e++ {
				nd[ch.next[e]] += p * ch.prob[e]
			}
		}
		if j > 0 {
			rp.LostWithin[j-1] = lost
		}
		dist, nd = nd, dist
	}
	rp.Expected, rp.Never, err = ch.absorption(ctx)
	return rp, err
}

// errNotSolution is returned when the verdicts contradict the graph.
var errNotSolution = errors.New("result is not the graph's solution")

// choices appends the perfect player's equally good moves from y.
func choices(res *Result, y uint64, succ []uint64, dst []uint64) ([]uint64, error) {
	want, rem := Draw, uint16(0)
	switch res.Verdict[y] {
	case Win:
		want, rem = Loss, res.Remoteness[y]-1
	case Loss:
		want, rem = Win, res.Remoteness[y]-1
	}
	for _, z := range succ {
		if res.Verdict[z] == want && res.Remoteness[z] == rem {
			dst = append(dst, z)
		}
	}
	if len(dst) == 0 {
		return nil, fmt.Errorf("state %d: no move keeps its verdict: %w", y, errNotSolution)
	}
	return dst, nil
}

func buildChain(ctx context.Context, g Graph, res *Result, start uint64, randomFirst bool, tie TieBreak) (*chain, error) {
	ch := &chain{off: []int{0}}
	n := g.NumStates()
	if n > maxStates {
		return nil, fmt.Errorf("index %d states: %w", n, ErrTooLarge)
	}
	// index[s] is 1 + the chain's number of state s, 0 for states not in
	// the chain: 4 bytes a state of the graph.
	index := make([]uint32, n)
	add := func(s uint64) int {
		if index[s] == 0 {
			ch.states = append(ch.states, s)
			index[s] = uint32(len(ch.states))
		}
		return int(index[s]) - 1
	}
	var succ, best, sy []uint64
	// perfect appends the perfect player's move(s) from y with their
	// probabilities, weighted by w, to the chain's edges of the current
	// state; it reports whether y is stuck.
	perfect := func(y uint64, w float64) (bool, error) {
		sy = g.Successors(y, sy[:0])
		if len(sy) == 0 {
			return true, nil
		}
		var err error
		if best, err = choices(res, y, sy, best[:0]); err != nil {
			return false, err
		}
		if tie == TieFirst {
			best = best[:1]
		}
		for _, z := range best {
			ch.next = append(ch.next, int32(add(z)))
			ch.prob = append(ch.prob, w/float64(len(best)))
		}
		return false, nil
	}
	if randomFirst {
		ch.init = []weighted{{add(start), 1}}
	} else {
		// The perfect player's first move leads to the random player's
		// first state (or states, under TieUniform).
		sy = g.Successors(start, sy[:0])
		if len(sy) == 0 {
			return nil, fmt.Errorf("start %d: the perfect player cannot move", start)
		}
		b, err := choices(res, start, sy, nil)
		if err != nil {
			return nil, err
		}
		if tie == TieFirst {
			b = b[:1]
		}
		for _, z := range b {
			ch.init = append(ch.init, weighted{add(z), 1 / float64(len(b))})
		}
	}
	for i := 0; i < len(ch.states); i++ {
		if i%(1<<16) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		succ = g.Successors(ch.states[i], succ[:0])
		ch.stuck = append(ch.stuck, len(succ) == 0)
		lostP := 0.0
		for _, y := range succ {
			w := 1 / float64(len(succ))
			stuck, err := perfect(y, w)
			if err != nil {
				return nil, err
			}
			if stuck {
				lostP += w
			}
		}
		ch.lostP = append(ch.lostP, lostP)
		ch.off = append(ch.off, len(ch.next))
	}
	return ch, nil
}

// absorption solves E[i] = 0 for a stuck state, else 1 + Σ prob·E[next],
// the expected number of the random player's moves from i until the game
// ends, by Gauss–Seidel sweeps from zero until no value changes by more
// than Tolerance. States from which the chain cannot end get +Inf; never is
// the probability of reaching one from the first state.
func (ch *chain) absorption(ctx context.Context) (expected, never float64, err error) {
	n := len(ch.states)
	// ends[i]: the game can end from i (backward search over the edges).
	ends := make([]bool, n)
	// The edges reversed, in compressed rows: the states with an edge to
	// j are from[start[j]:start[j+1]].
	start := make([]int, n+1)
	for _, j := range ch.next {
		start[j+1]++
	}
	for j := range n {
		start[j+1] += start[j]
	}
	from := make([]int32, len(ch.next))
	fill := slices.Clone(start[:n])
	var queue []int
	for i := range n {
		if ch.stuck[i] || ch.lostP[i] > 0 {
			ends[i] = true
			queue = append(queue, i)
		}
		for e := ch.off[i]; e < ch.off[i+1]; e++ {
			j := ch.next[e]
			from[fill[j]] = int32(i)
			fill[j]++
		}
	}
	for len(queue) > 0 {
		j := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range from[start[j]:start[j+1]] {
			if !ends[i] {
				ends[i] = true
				queue = append(queue, int(i))
			}
		}
	}
	// If a state that cannot end is reachable, the probability of never
	// ending is positive and the expectation infinite.
	for i := range n {
		if !ends[i] {
			return math.Inf(1), ch.neverEnds(ends), nil
		}
	}
	e := make([]float64, n)
	for sweep := 0; ; sweep++ {
		if sweep%64 == 0 && ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		change := 0.0
		for i := range n {
			if ch.stuck[i] {
				continue
			}
			v := 1.0
			for k := ch.off[i]; k < ch.off[i+1]; k++ {
				v += ch.prob[k] * e[ch.next[k]]
			}
			change = max(change, math.Abs(v-e[i]))
			e[i] = v
		}
		if change <= Tolerance {
			return ch.fromInit(e), 0, nil
		}
	}
}

// neverEnds is the probability, from the first state, of reaching a state
// from which the game cannot end, by iterating the reach probabilities.
func (ch *chain) neverEnds(ends []bool) float64 {
	n := len(ch.states)
	h := make([]float64, n) // h[i]: probability of ever reaching a trap from i
	for i := range n {
		if !ends[i] {
			h[i] = 1
		}
	}
	for {
		change := 0.0
		for i := range n {
			if !ends[i] || ch.stuck[i] {
				continue
			}
			v := 0.0
			for k := ch.off[i]; k < ch.off[i+1]; k++ {
				v += ch.prob[k] * h[ch.next[k]]
			}
			change = max(change, math.Abs(v-h[i]))
			h[i] = v
		}
		if change <= Tolerance {
			return ch.fromInit(h)
		}
	}
}

// fromInit is the expectation of v[i] over the first state.
func (ch *chain) fromInit(v []float64) float64 {
	sum := 0.0
	for _, w := range ch.init {
		sum += w.p * v[w.i]
	}
	return sum
}

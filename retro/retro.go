// Package retro solves loopy two-player games by retrograde analysis: given
// an explicit graph of states, each with a player to move, it labels every
// state won, lost or drawn for the player to move, with its remoteness.
//
// # The rule of the game
//
// A player who cannot move loses (normal play). A state with no move is lost
// at remoteness 0. A state with a move to a lost state is won, at remoteness
// one more than the least remoteness among its lost successors (the winner
// wins as fast as it can). A state all of whose moves lead to won states is
// lost, at remoteness one more than the greatest remoteness among them (the
// loser holds out as long as it can). Every other state is drawn: neither
// player can force a win, and play with best moves goes on for ever.
//
// # The algorithm
//
// Solve keeps, for each state, a counter of its successors not yet known to
// be won. It starts from the stuck states (lost, remoteness 0) and works
// back through Predecessors in a first-in first-out queue, so states are
// resolved in order of remoteness: a predecessor of a lost state becomes won
// the first time it is reached (the least remoteness); a predecessor of a
// won state has its counter decremented and becomes lost when the counter
// reaches zero (its last, hence greatest, won successor). States never
// resolved are drawn. Each edge is looked at once from each end: the time is
// linear in the edges, and the memory is 5 bytes a state (verdict,
// remoteness, counter) plus the queue of 4 bytes a resolved state.
//
// # Sharding
//
// The queue is processed level by level (all states at remoteness r before
// any at r+1), which is what a sharded run would make explicit: states are
// split into shards by a hash of their number, each shard owning the
// counters, verdicts and remoteness of its states. Level r's newly resolved
// states are published as messages to the shards owning their
// predecessors; each shard applies them (decrement or set won) and resolves
// its level r+1 states; the coordinator advances r when every shard has
// acknowledged level r, and stops after a level that resolves nothing.
// Nothing else crosses shards, so the same counters-and-levels scheme runs
// over the project's job queue with one job per shard and level. Mū tōrere
// does not need it: the stars census runs fit in memory (docs/retrograde.md
// has the measurements and what a new loopy game must provide).
//
// # Beyond the verdicts
//
// Distances follows play forward from the start. AnalyseRandom plays a
// random player against a perfect one over the solved graph, exactly, as a
// Markov chain.
package retro

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Graph is a finite game graph whose states are numbered 0..NumStates()-1.
// Each state has a player to move; a move hands the turn to the other
// player, so the verdict of a successor is from the opponent's side. The
// methods must be safe for concurrent use and consistent: Predecessors(t)
// lists s once for each move from s to t in Successors(s).
type Graph interface {
	NumStates() uint64
	// Successors appends the state after each legal move from s to dst,
	// one per move.
	Successors(s uint64, dst []uint64) []uint64
	// Predecessors appends to dst each state with a move to s, once per
	// such move.
	Predecessors(s uint64, dst []uint64) []uint64
}

// Verdict is the outcome of a state for the player to move.
type Verdict uint8

const (
	Draw Verdict = iota
	Win
	Loss
)

// String is "D", "W" or "L".
func (v Verdict) String() string { return [...]string{"D", "W", "L"}[v] }

// Result is the solution of a graph: Verdict[s] and Remoteness[s] for every
// state s. Remoteness is the number of moves to the end with best play (0
// for a stuck state) and 0 for drawn states.
type Result struct {
	Verdict    []Verdict
	Remoteness []uint16
	// MaxLevel is the greatest remoteness of a decided state.
	MaxLevel int
}

// ErrTooLarge is returned for a graph with more states than fit the
// in-memory arrays, a state with more moves than a counter holds, or a
// remoteness beyond 65,534.
var ErrTooLarge = errors.New("graph too large for in-memory retrograde analysis")

// maxStates bounds the states Solve takes: the queue holds uint32 numbers.
const maxStates = math.MaxUint32

// Solve labels every state of g. The labels are only as right as g is
// consistent (Predecessors the exact reverse of Successors): Solve cannot
// tell. It returns ErrTooLarge, or ctx's error when ctx is cancelled, which it checks between levels and
// every few million states.
func Solve(ctx context.Context, g Graph) (*Result, error) {
	n := g.NumStates()
	if n > maxStates {
		return nil, fmt.Errorf("solve %d states: %w", n, ErrTooLarge)
	}
	res := &Result{Verdict: make([]Verdict, n), Remoteness: make([]uint16, n)}
	counts := make([]uint16, n)
	queue := make([]uint32, 0, 1024)
	var buf []uint64
	for s := range n {
		if s%(1<<22) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		buf = g.Successors(s, buf[:0])
		if len(buf) > math.MaxUint16 {
			return nil, fmt.Errorf("count moves of state %d: %d moves: %w", s, len(buf), ErrTooLarge)
		}
		counts[s] = uint16(len(buf))
		if len(buf) == 0 {
			res.Verdict[s] = Loss
			queue = append(queue, uint32(s))
		}
	}
	for head := 0; head < len(queue); head++ {
		if head%(1<<22) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		t := uint64(queue[head])
		r := res.Remoteness[t]
		if r == math.MaxUint16 {
			return nil, fmt.Errorf("remoteness of state %d: %w", t, ErrTooLarge)
		}
		res.MaxLevel = int(r)
		buf = g.Predecessors(t, buf[:0])
		for _, p := range buf {
			if res.Verdict[p] != Draw {
				continue
			}
			if res.Verdict[t] == Loss {
				res.Verdict[p], res.Remoteness[p] = Win, r+1
				queue = append(queue, uint32(p))
				continue
			}
			counts[p]--
			if counts[p] == 0 {
				res.Verdict[p], res.Remoteness[p] = Loss, r+1
				queue = append(queue, uint32(p))
			}
		}
	}
	return res, nil
}

// Unreached marks a state Distances did not reach.
const Unreached = -1

// Distances is the number of moves on a shortest path from start to every
// state (breadth first along Successors), Unreached where there is none. It
// returns ctx's error when ctx is cancelled.
func Distances(ctx context.Context, g Graph, start uint64) ([]int32, error) {
	n := g.NumStates()
	if n > maxStates {
		return nil, fmt.Errorf("search %d states: %w", n, ErrTooLarge)
	}
	dist := make([]int32, n)
	for i := range dist {
		dist[i] = Unreached
	}
	dist[start] = 0
	queue := []uint32{uint32(start)}
	var buf []uint64
	for head := 0; head < len(queue); head++ {
		if head%(1<<22) == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s := uint64(queue[head])
		buf = g.Successors(s, buf[:0])
		for _, t := range buf {
			if dist[t] == Unreached {
				dist[t] = dist[s] + 1
				queue = append(queue, uint32(t))
			}
		}
	}
	return dist, nil
}

// Package loopy takes the census of a loopy game, one whose positions can
// recur (Mū tōrere): it solves every state by retrograde analysis (package
// retro), follows play from the start, counts what summary.json reports,
// plays a random player exactly against a perfect one, and writes the
// states table.
//
// A run is in memory and takes a few bytes a state; see Run for what it
// holds. The game's states must number 2i + m for arrangement i with player
// m to move (0 first, 1 second), so that the two states of an arrangement
// sit side by side.
package loopy

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/census-cgt/census/retro"
	"github.com/census-cgt/census/schema"
)

// Game is what a census of a loopy game needs of its rules.
type Game interface {
	retro.Graph
	// StartState is the state play starts from.
	StartState() uint64
	// Describe draws state s: the arrangement and the player to move.
	Describe(s uint64) (arrangement, mover string)
	// StateImages appends to dst the images of state s under the game's
	// symmetries, the identity included. Symmetries keep the player to
	// move.
	StateImages(s uint64, dst []uint64) []uint64
}

// Options are the settings of a run.
type Options struct {
	// Game and Board name the census in the summary (e.g. "mutorere",
	// "8"); Variant names the rules ("classic", "free-centre").
	Game, Board, Variant string
	// Horizon is the number of the random player's moves LostWithin
	// covers (DefaultHorizon when zero).
	Horizon int
	// TieBreak is how the perfect player chooses among equally good moves.
	TieBreak retro.TieBreak
}

// DefaultHorizon is the default Options.Horizon.
const DefaultHorizon = 100

// Census is a finished run: the solution of every state, the distance of
// every state from the start, and the summary.
type Census struct {
	g       Game
	res     *retro.Result
	dist    []int32
	Summary Summary
}

// Run takes the census of g. It holds the verdict and remoteness (3 bytes),
// the distance from the start (4) and, while it plays the random player,
// an index (4) for every state, plus the retrograde queue and counters
// while it solves. It fails when the graph is too large for memory
// (retro.ErrTooLarge) or with ctx's error.
func Run(ctx context.Context, g Game, o Options) (*Census, error) {
	if o.Horizon <= 0 {
		o.Horizon = DefaultHorizon
	}
	res, err := retro.Solve(ctx, g)
	if err != nil {
		return nil, fmt.Errorf("solve %s %s: %w", o.Game, o.Board, err)
	}
	dist, err := retro.Distances(ctx, g, g.StartState())
	if err != nil {
		return nil, fmt.Errorf("follow play from the start: %w", err)
	}
	c := &Census{g: g, res: res, dist: dist}
	if err := c.summarise(ctx, o); err != nil {
		return nil, err
	}
	return c, nil
}

// moves counts the legal moves of s and the losing ones: those to a state
// won for the opponent.
func (c *Census) moves(s uint64, buf []uint64) (legal, losing int, _ []uint64) {
	buf = c.g.Successors(s, buf[:0])
	for _, t := range buf {
		if c.res.Verdict[t] == retro.Win {
			losing++
		}
	}
	return len(buf), losing, buf
}

// leastInOrbit reports whether s is the least of images (the orbit of s)
// among the states for which in is true (s itself must be one).
func leastInOrbit(s uint64, images []uint64, in func(uint64) bool) bool {
	for _, t := range images {
		if t < s && in(t) {
			return false
		}
	}
	return true
}

// WriteStates writes the states table, one row per state in order, to w.
// It returns an error when writing fails.
func (c *Census) WriteStates(w io.Writer) error {
	sw, err := schema.NewStateWriter(w)
	if err != nil {
		return err
	}
	var buf []uint64
	for s := range c.g.NumStates() {
		arr, mover := c.g.Describe(s)
		var legal, losing int
		legal, losing, buf = c.moves(s, buf)
		row := schema.StateRow{
			State: s, Arrangement: arr, Mover: mover,
			Verdict:     c.res.Verdict[s].String(),
			Reachable:   c.dist[s] != retro.Unreached,
			LegalMoves:  int32(legal),
			LosingMoves: int32(losing),
		}
		if c.res.Verdict[s] != retro.Draw {
			rem := int32(c.res.Remoteness[s])
			row.Remoteness = &rem
		}
		if row.Reachable {
			d := c.dist[s]
			row.FirstReached = &d
		}
		if err := sw.Write(row); err != nil {
			sw.Close()
			return err
		}
	}
	return sw.Close()
}

// finite is v, or nil when v is infinite (JSON has no infinity).
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

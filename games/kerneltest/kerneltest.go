// Package kerneltest checks a game's own kernel (games.KernelMaker)
// against the plain kernel built from the Game and Group methods, for the
// tests of the games' packages: a Pair visits positions with both and fails
// the test on the first Visit or move measure that differs; Walk takes
// pairs over every position reachable from a game's start.
package kerneltest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// Pair runs a game's own kernel and the plain kernel side by side on one
// group, each with its own MoveStats (one pair with the moved-piece
// histograms, one without).
type Pair struct {
	t          testing.TB
	g          games.Game
	gr         *games.Group
	own, plain games.Kernel
	mo, mp     *games.MoveStats // with histograms, for visits with successors
	mo0, mp0   *games.MoveStats // without, for visits without
	vo, vp     games.Visit
}

// NewStartPair is NewPair on the start's group of g (on), or on the
// identity alone.
func NewStartPair(t testing.TB, g games.Game, on bool) *Pair {
	gr := games.StartGroup(g, on)
	return NewPair(t, g, &gr)
}

// NewPair pairs g's own kernel for gr with the plain one. It fails the test
// when g has no kernel of its own.
func NewPair(t testing.TB, g games.Game, gr *games.Group) *Pair {
	t.Helper()
	km, ok := g.(games.KernelMaker)
	if !ok {
		t.Fatalf("%s has no kernel of its own", g.Name())
	}
	return &Pair{t: t, g: g, gr: gr, own: km.NewKernel(gr), plain: games.NewPlainKernel(g, gr),
		mo: games.NewMoveStats(true), mp: games.NewMoveStats(true),
		mo0: games.NewMoveStats(false), mp0: games.NewMoveStats(false)}
}

// Check visits pos with both kernels, without successors (adding to the
// MoveStats without histograms) and with them (adding to those with), and
// fails the test when the Visits or the move measures differ.
func (k *Pair) Check(pos uint64) {
	k.t.Helper()
	for _, successors := range []bool{false, true} {
		mo, mp := k.mo0, k.mp0
		if successors {
			mo, mp = k.mo, k.mp
		}
		k.own.Visit(pos, &k.vo, mo, successors)
		k.plain.Visit(pos, &k.vp, mp, successors)
		where := fmt.Sprintf("%s %s %s, %d maps, successors %v", k.g.Name(), k.g.Board(), k.g.Format(pos), k.gr.Size(), successors)
		if !successors && (len(k.vo.Succ) != 0 || len(k.vp.Succ) != 0) {
			k.t.Fatalf("%s: successors listed: own %d, plain %d", where, len(k.vo.Succ), len(k.vp.Succ))
		}
		if !games.SameVisit(&k.vo, &k.vp) {
			k.t.Fatalf("%s: own kernel's visit\n%+v\nplain visit\n%+v", where, k.vo, k.vp)
		}
		if mo.Moves != mp.Moves || mo.Joins != mp.Joins || mo.EdgeRuleJoins != mp.EdgeRuleJoins {
			k.t.Fatalf("%s: own kernel's MoveStats %d moves %d joins %d edge-rule joins, plain %d %d %d",
				where, mo.Moves, mo.Joins, mo.EdgeRuleJoins, mp.Moves, mp.Joins, mp.EdgeRuleJoins)
		}
		if !slices.Equal(mo.MovedPiece, mp.MovedPiece) || !slices.Equal(mo.MovedPieceSplit, mp.MovedPieceSplit) {
			k.t.Fatalf("%s: moved-piece histograms differ", where)
		}
	}
}

// Finish checks what the pair's visits left in the MoveStats.
func (k *Pair) Finish() {
	k.t.Helper()
	if k.mo0.MovedPiece != nil {
		k.t.Errorf("%s: MoveStats without histograms grew them", k.g.Board())
	}
}

// Walk visits every position reachable from g's start breadth first with
// each pair, then finishes them: the representatives of the orbits under
// the start's group when on, as a census stores them, and every position
// otherwise, which each pair visits under its own group (so a pair with
// symmetry also sees keys that are not the least of their orbits). It
// returns the positions visited.
func Walk(t testing.TB, g games.Game, on bool, pairs ...*Pair) int {
	t.Helper()
	gr := games.StartGroup(g, on)
	start := gr.Canon(g.Start())
	seen := map[uint64]bool{start: true}
	tier := []uint64{start}
	var succ []uint64
	var pcs []games.Piece
	for len(tier) > 0 {
		var next []uint64
		for _, pos := range tier {
			for _, k := range pairs {
				k.Check(pos)
			}
			pcs = g.Pieces(pos, pcs[:0])
			succ = g.Expand(pos, pcs, succ[:0], games.NewMoveStats(false), 1)
			for _, s := range succ {
				if s = gr.Canon(s); !seen[s] {
					seen[s] = true
					next = append(next, s)
				}
			}
		}
		tier = next
	}
	for _, k := range pairs {
		k.Finish()
	}
	return len(seen)
}

// Group is the group the pair's kernels work under.
func (k *Pair) Group() *games.Group { return k.gr }

// Package probetest builds probe tables from a solve made in memory, for
// tests of the packages that serve probes: every position reachable from
// a small board's start, solved whole-board by internal/refsolve.
package probetest

import (
	"fmt"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/internal/refsolve"
	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/values"
)

// memory holds every stored position's record, by tier.
type memory map[uint64]solve.Record

func (m memory) Record(_ int, canon uint64) (solve.Record, bool, error) {
	r, ok := m[canon]
	return r, ok, nil
}

// Table solves game on board from its standard start (start "") or from
// start, with the symmetry reduction when symmetry is set, and returns a
// table over the solve. It is for boards whose whole-board solve takes
// seconds (up to some 16 squares).
func Table(game, board, start string, symmetry bool) (*probe.Table, error) {
	return table(game, board, start, symmetry, false)
}

// ValuedTable is Table with every live piece of every reachable position
// valued (values.Valuer, uncapped), as a valued run's table answers.
func ValuedTable(game, board string) (*probe.Table, error) {
	return table(game, board, "", true, true)
}

func table(game, board, start string, symmetry, valued bool) (*probe.Table, error) {
	g, err := all.New(game, board, start)
	if err != nil {
		return nil, err
	}
	mv, ok := g.(games.Mover)
	if !ok {
		return nil, fmt.Errorf("%s lists no player's moves", game)
	}
	group := games.StartGroup(g, symmetry)
	rec := refsolve.NewRecorder(mv)
	m := memory{}
	tiers := refsolve.Reachable(g)
	var n uint64
	for _, tier := range tiers {
		for _, pos := range tier {
			n++
			if c, _ := group.CanonSign(pos); c == pos {
				m[pos] = rec.Record(pos)
			}
		}
	}
	info := probe.RunInfo{Name: schema.RunName(game, board), Game: game, Board: board,
		Rows: g.Board().Rows, Cols: g.Board().Cols, Start: g.Format(g.Start()),
		Positions: n, Stored: uint64(len(m)), Tiers: len(tiers),
		StartOutcome: rec.Record(g.Start()).Outcome().String()}
	var x *values.Index
	if valued {
		v, err := values.New(game, 0)
		if err != nil {
			return nil, err
		}
		for _, tier := range tiers {
			for _, pos := range tier {
				for _, p := range g.Pieces(pos, nil) {
					if p.Live {
						v.Value(g.Translate(p.Key))
					}
				}
			}
		}
		x = values.IndexOf(g, v)
	}
	return probe.New(info, mv, group, m, x), nil
}

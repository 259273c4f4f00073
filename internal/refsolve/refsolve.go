// Package refsolve is the plain whole-board solver the solve stage is
// checked against: memoised minimax over whole positions, with no split
// into pieces and no symmetry.
package refsolve

import (
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/solve"
)

// Solver memoises the outcome of every position it has solved.
type Solver struct {
	g    games.Mover
	memo map[uint64]solve.Outcome
}

// New returns a solver for g.
func New(g games.Mover) *Solver { return &Solver{g: g, memo: map[uint64]solve.Outcome{}} }

// Outcome solves pos: Left wins moving first when some Left option is won
// by Left moving second, and moving second when every Right option is won
// by Left moving first.
func (s *Solver) Outcome(pos uint64) solve.Outcome {
	if o, ok := s.memo[pos]; ok {
		return o
	}
	var o solve.Outcome
	for _, opt := range s.g.Options(pos, true, nil) {
		if s.Outcome(opt)&solve.LeftSecond != 0 {
			o |= solve.LeftFirst
			break
		}
	}
	second := true
	for _, opt := range s.g.Options(pos, false, nil) {
		if s.Outcome(opt)&solve.LeftFirst == 0 {
			second = false
			break
		}
	}
	if second {
		o |= solve.LeftSecond
	}
	s.memo[pos] = o
	return o
}

// Reachable lists every position reachable from the start, by tier.
func Reachable(g games.Game) [][]uint64 {
	seen := map[uint64]bool{g.Start(): true}
	tiers := [][]uint64{{g.Start()}}
	for t := 0; len(tiers[t]) > 0; t++ {
		var next []uint64
		for _, pos := range tiers[t] {
			for _, s := range g.Expand(pos, g.Pieces(pos, nil), nil, games.NewMoveStats(false), 1) {
				if !seen[s] {
					seen[s] = true
					next = append(next, s)
				}
			}
		}
		tiers = append(tiers, next)
	}
	return tiers[:len(tiers)-1]
}

// Recorder memoises the remoteness of every position it has solved, for
// each player to move, by the definitions of solve.Record applied directly:
// no decomposition, no symmetry, no shortcut.
type Recorder struct {
	g    games.Mover
	memo map[uint64]solve.Record
}

// NewRecorder returns a recorder for g.
func NewRecorder(g games.Mover) *Recorder {
	return &Recorder{g: g, memo: map[uint64]solve.Record{}}
}

// Record solves pos for each player to move.
func (s *Recorder) Record(pos uint64) solve.Record {
	if r, ok := s.memo[pos]; ok {
		return r
	}
	r := solve.Record{Left: s.side(pos, true), Right: s.side(pos, false)}
	s.memo[pos] = r
	return r
}

// side is the remoteness of pos with Left (left) or Right to move: 0
// without a move; else, when some option leaves the opponent lost (an even
// remoteness with the opponent to move), 1 + the least such remoteness;
// else 1 + the greatest remoteness of any option.
func (s *Recorder) side(pos uint64, left bool) uint8 {
	opts := s.g.Options(pos, left, nil)
	if len(opts) == 0 {
		return 0
	}
	win, most := -1, 0
	for _, o := range opts {
		rec := s.Record(o)
		r := int(rec.Left)
		if left {
			r = int(rec.Right)
		}
		if r%2 == 0 && (win < 0 || r < win) {
			win = r
		}
		most = max(most, r)
	}
	if win >= 0 {
		return uint8(win + 1)
	}
	return uint8(most + 1)
}

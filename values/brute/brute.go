// Package brute solves positions of the census's games by plain memoised
// minimax over whole boards: no decomposition into pieces, no canonical
// forms. It is the independent check of package values' outcome classes,
// for tests; its memory grows with every position it solves.
package brute

import (
	"fmt"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// Solver solves positions of one game. It is not safe for concurrent use.
type Solver struct {
	game  string
	boxes map[string]games.Mover
	memo  map[[3]uint64]bool
}

// New returns a Solver of the named game, or an error for an unknown game.
func New(game string) (*Solver, error) {
	if _, err := all.New(game, "2x2", ""); err != nil {
		return nil, fmt.Errorf("brute-force solver: %w", err)
	}
	return &Solver{game: game, boxes: map[string]games.Mover{}, memo: map[[3]uint64]bool{}}, nil
}

// board returns the game on a board of rows x cols.
func (s *Solver) board(rows, cols int) (games.Mover, error) {
	name := fmt.Sprintf("%dx%d", rows, cols)
	if g, ok := s.boxes[name]; ok {
		return g, nil
	}
	g, err := all.New(s.game, name, "")
	if err != nil {
		return nil, fmt.Errorf("brute-force solver: %w", err)
	}
	s.boxes[name] = g.(games.Mover)
	return s.boxes[name], nil
}

// wins reports whether the player to move (Left when left) wins pos.
func (s *Solver) wins(g games.Mover, pos uint64, left bool) bool {
	bd := g.Board()
	k := [3]uint64{uint64(bd.Rows)<<8 | uint64(bd.Cols), pos, 0}
	if left {
		k[2] = 1
	}
	if w, ok := s.memo[k]; ok {
		return w
	}
	w := false
	for _, o := range g.Options(pos, left, nil) {
		if !s.wins(g, o, !left) {
			w = true
			break
		}
	}
	s.memo[k] = w
	return w
}

// Outcome is the outcome class of pos, a position of g: "L", "R", "N" or
// "P".
func (s *Solver) Outcome(g games.Mover, pos uint64) string {
	lf, rf := s.wins(g, pos, true), s.wins(g, pos, false)
	switch {
	case lf && !rf:
		return "L"
	case !lf && rf:
		return "R"
	case lf && rf:
		return "N"
	}
	return "P"
}

// PieceOutcome is the outcome class of the translated piece k alone on the
// board of its bounding box.
func (s *Solver) PieceOutcome(k games.PieceKey) (string, error) {
	rows, cols := k.Dims()
	g, err := s.board(rows, cols)
	if err != nil {
		return "", err
	}
	return s.Outcome(g, g.PiecePosition(k)), nil
}

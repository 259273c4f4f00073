package konanecensus

import (
	"context"
	"errors"
	"fmt"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games/konane"
)

// ErrTooLarge is returned by CountOpenings when the positions it would
// have to hold exceed its cap.
var ErrTooLarge = errors.New("too many positions")

// OpeningsOptions says how CountOpenings solves a board.
type OpeningsOptions struct {
	// Values asks for the canonical value of each opening, which values
	// every position reached by moves of either player. Without it each
	// opening is solved for its outcome class by memoised minimax, which
	// visits only the positions reached in alternating play.
	Values bool
	// MaxPositions caps the positions (with Values) or the positions with
	// a player to move (without) held in memory; 0 means
	// DefaultMaxPositions.
	MaxPositions int
}

// DefaultMaxPositions is the default cap of OpeningsOptions.MaxPositions:
// about 300 MB of memo. Measured on one core: the 12 openings of 4x4 take
// 11,708 positions to value (16 ms) and 1,777 to solve by minimax; 5x5
// takes 149,109 to solve by minimax (0.3 s) but about 4.4 million to value,
// which passes 2 million after 40 s; 6x6 passes 6 million by minimax
// after 22 s.
const DefaultMaxPositions = 1 << 22

// OpeningResult is the solution of one opening.
type OpeningResult struct {
	// BlackRemoves and WhiteRemoves are the emptied squares, row and
	// column from the top left, from 0.
	BlackRemoves [2]int `json:"black_removes"`
	WhiteRemoves [2]int `json:"white_removes"`
	// Board is the position Black makes the first jump on.
	Board string `json:"board"`
	// Outcome is the outcome class: L, R, N or P.
	Outcome string `json:"outcome"`
	// BlackWins is true when Black, who jumps first, wins.
	BlackWins bool `json:"black_wins"`
	// Value is the canonical value, when asked for.
	Value string `json:"value,omitempty"`
}

// BoardCensus is the solution of every usual opening of one board.
type BoardCensus struct {
	Board    string `json:"board"`
	Openings int    `json:"openings"`
	// Method is "values" (canonical forms) or "minimax" (outcomes only).
	Method string `json:"method"`
	// Positions is the number of positions valued ("values") or of
	// positions with a player to move solved ("minimax").
	Positions int `json:"positions"`
	// Outcomes counts the openings by outcome class, keys L, R, N, P.
	Outcomes map[string]int `json:"outcomes"`
	// BlackWins counts the openings Black, jumping first, wins.
	BlackWins int             `json:"black_wins"`
	Results   []OpeningResult `json:"results"`
}

// CountOpenings solves every usual opening (konane.Openings) of the
// board of rows x cols squares.
//
// Positions are solved whole. The row's rule for independent groups
// carries over to the rectangle (a move removes a stone and lands at most
// one square beyond the bounding box of its group, so a group of k stones
// stays within its box grown by k-1 squares on every side), and it is
// sound, but on a board filled from an opening no group has room to grow
// that far, so it splits nothing there; a tighter sound rule would be
// needed to value 5x5 and 6x6 by parts, and the memo's cap is what stops
// them. It returns ErrTooLarge when the positions
// it holds reach opts.MaxPositions, and ctx's error when ctx is cancelled
// between openings.
func CountOpenings(ctx context.Context, rows, cols int, opts OpeningsOptions) (*BoardCensus, error) {
	what := fmt.Sprintf("count openings of %dx%d", rows, cols)
	ops, err := konane.Openings(rows, cols)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	max := opts.MaxPositions
	if max <= 0 {
		max = DefaultMaxPositions
	}
	c := &BoardCensus{Board: fmt.Sprintf("%dx%d", rows, cols), Openings: len(ops),
		Outcomes: map[string]int{"L": 0, "R": 0, "N": 0, "P": 0}}
	var outcome func(b konane.Board) (cgt.Outcome, string)
	var held func() (int, bool)
	if opts.Values {
		c.Method = "values"
		v := NewValuer[konane.Board]()
		v.SetLimit(max)
		outcome = func(b konane.Board) (cgt.Outcome, string) {
			id := v.Value(b)
			return v.Table().Outcome(id), v.Table().String(id)
		}
		held = func() (int, bool) { return v.Len(), v.Exceeded() }
	} else {
		c.Method = "minimax"
		s := &solver{memo: map[turn]bool{}, limit: max}
		outcome = func(b konane.Board) (cgt.Outcome, string) {
			return cgt.OutcomeOf(s.wins(b, true), !s.wins(b, false)), ""
		}
		held = func() (int, bool) { return len(s.memo), s.exceeded }
	}
	for _, o := range ops {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out, val := outcome(o.Board)
		if n, over := held(); over {
			return nil, fmt.Errorf("%s: over %d positions: %w", what, n, ErrTooLarge)
		}
		r := OpeningResult{BlackRemoves: o.BlackRemoves, WhiteRemoves: o.WhiteRemoves,
			Board: o.Board.String(), Outcome: out.String(), BlackWins: out == cgt.L || out == cgt.N, Value: val}
		c.Outcomes[r.Outcome]++
		if r.BlackWins {
			c.BlackWins++
		}
		c.Results = append(c.Results, r)
	}
	c.Positions, _ = held()
	return c, nil
}

// turn is a position with the player to move.
type turn struct {
	b    konane.Board
	left bool
}

// solver solves positions by memoised minimax over alternating moves, with
// no canonical forms.
type solver struct {
	memo     map[turn]bool
	limit    int
	exceeded bool
}

// wins reports whether the player to move (Left when left) wins b. Once
// the memo is full its answers are meaningless and exceeded is set.
func (s *solver) wins(b konane.Board, left bool) bool {
	k := turn{b, left}
	if w, ok := s.memo[k]; ok {
		return w
	}
	if s.exceeded {
		return false
	}
	w := false
	for _, o := range b.Options(left, nil) {
		if !s.wins(o, !left) {
			w = true
			break
		}
	}
	s.memo[k] = w
	if len(s.memo) >= s.limit {
		s.exceeded = true
	}
	return w
}

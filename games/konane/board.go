package konane

import (
	"fmt"
	"math/bits"
	"strings"
)

// MaxSquares is the most squares a Board holds: one bit a square in each
// of two uint64 masks.
const MaxSquares = 64

// Board is Kōnane on a rectangle of rows x cols squares, the squares
// numbered row by row from the top left. Stones jump along rows and
// columns, never diagonally, and a multiple jump keeps one direction.
// Boards are values: comparable, and usable as map keys.
type Board struct {
	black, white uint64
	rows, cols   uint8
}

// NewBoard returns the empty board of rows x cols squares; it fails when
// either side is below 1 or the board has more than MaxSquares squares.
func NewBoard(rows, cols int) (Board, error) {
	if rows < 1 || cols < 1 || rows*cols > MaxSquares {
		return Board{}, fmt.Errorf("new board %dx%d: want 1 to %d squares: %w", rows, cols, MaxSquares, ErrLength)
	}
	return Board{rows: uint8(rows), cols: uint8(cols)}, nil
}

// ParseBoard reads a board written row by row, rows separated by '/',
// one character a square as in ParseRow. It fails when the rows differ in
// length, on a bad character, or on more than MaxSquares squares.
func ParseBoard(s string) (Board, error) {
	lines := strings.Split(s, "/")
	b, err := NewBoard(len(lines), len(lines[0]))
	if err != nil {
		return Board{}, fmt.Errorf("parse board %q: %w", s, err)
	}
	for r, line := range lines {
		if len(line) != b.Cols() {
			return Board{}, fmt.Errorf("parse board %q: row %d has %d squares, not %d: %w", s, r, len(line), b.Cols(), ErrLength)
		}
		for c := 0; c < len(line); c++ {
			switch line[c] {
			case '.':
			case 'x':
				b = b.With(r, c, Black)
			case 'o':
				b = b.With(r, c, White)
			default:
				return Board{}, fmt.Errorf("parse board %q: row %d square %d %q: %w", s, r, c, line[c], ErrSquare)
			}
		}
	}
	return b, nil
}

// MustParseBoard is ParseBoard that panics on a bad board; for tests.
func MustParseBoard(s string) Board {
	b, err := ParseBoard(s)
	if err != nil {
		panic(err)
	}
	return b
}

// Rows is the number of rows.
func (b Board) Rows() int { return int(b.rows) }

// Cols is the number of columns.
func (b Board) Cols() int { return int(b.cols) }

// At is the content of the square in row r, column c.
func (b Board) At(r, c int) Square {
	bit := uint64(1) << (r*b.Cols() + c)
	switch {
	case b.black&bit != 0:
		return Black
	case b.white&bit != 0:
		return White
	}
	return Empty
}

// With is b with the square in row r, column c set to q.
func (b Board) With(r, c int, q Square) Board {
	bit := uint64(1) << (r*b.Cols() + c)
	b.black &^= bit
	b.white &^= bit
	switch q {
	case Black:
		b.black |= bit
	case White:
		b.white |= bit
	}
	return b
}

// Stones is the number of stones on the board.
func (b Board) Stones() int { return bits.OnesCount64(b.black) + bits.OnesCount64(b.white) }

// String writes the board row by row, rows separated by '/'.
func (b Board) String() string {
	var s strings.Builder
	for r := 0; r < b.Rows(); r++ {
		if r > 0 {
			s.WriteByte('/')
		}
		for c := 0; c < b.Cols(); c++ {
			s.WriteByte(".xo"[b.At(r, c)])
		}
	}
	return s.String()
}

// directions are the four directions of a jump, as (row, column) steps.
var directions = [4][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}

// Options appends to dst the boards reached by one move of Left (Black)
// when left is true, of Right (White) otherwise, each stopping point of a
// multiple jump its own option, and returns the extended slice.
func (b Board) Options(left bool, dst []Board) []Board {
	me, them := Black, White
	if !left {
		me, them = White, Black
	}
	rows, cols := b.Rows(), b.Cols()
	inside := func(r, c int) bool { return r >= 0 && r < rows && c >= 0 && c < cols }
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if b.At(r, c) != me {
				continue
			}
			for _, d := range directions {
				cur, pr, pc := b.With(r, c, Empty), r, c
				for {
					or, oc := pr+d[0], pc+d[1]
					lr, lc := pr+2*d[0], pc+2*d[1]
					if !inside(lr, lc) || cur.At(or, oc) != them || cur.At(lr, lc) != Empty {
						break
					}
					cur = cur.With(or, oc, Empty)
					pr, pc = lr, lc
					dst = append(dst, cur.With(pr, pc, me))
				}
			}
		}
	}
	return dst
}

// Full is the board filled in a checkerboard pattern, Black on the
// squares whose row and column add up to an even number (so Black holds
// the top-left corner, and on a board of odd sides all four corners and
// the centre).
func Full(rows, cols int) (Board, error) {
	b, err := NewBoard(rows, cols)
	if err != nil {
		return Board{}, err
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			b = b.With(r, c, Square(1+(r+c)%2))
		}
	}
	return b, nil
}

// Opening is one way to open a game of Kōnane: the squares emptied by
// Black and then by White, and the board Black makes the first jump on.
type Opening struct {
	BlackRemoves, WhiteRemoves [2]int // row, column
	Board                      Board
}

// Openings lists the usual openings of the full board of rows x cols
// squares: Black removes one of its stones from a corner or from the
// centre (the middle square, or one of the two or four middle squares of
// a board of even sides), then White removes one of its stones
// orthogonally next to that gap. Openings are listed in the order of
// Black's square, then White's, each row by row.
func Openings(rows, cols int) ([]Opening, error) {
	full, err := Full(rows, cols)
	if err != nil {
		return nil, fmt.Errorf("list openings: %w", err)
	}
	candidates := map[[2]int]bool{}
	for _, r := range []int{0, rows - 1} {
		for _, c := range []int{0, cols - 1} {
			candidates[[2]int{r, c}] = true
		}
	}
	for _, r := range []int{(rows - 1) / 2, rows / 2} {
		for _, c := range []int{(cols - 1) / 2, cols / 2} {
			candidates[[2]int{r, c}] = true
		}
	}
	var out []Opening
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if !candidates[[2]int{r, c}] || full.At(r, c) != Black {
				continue
			}
			gap := full.With(r, c, Empty)
			// Neighbours in row-by-row order: up, left, right, down.
			for _, d := range [4][2]int{{-1, 0}, {0, -1}, {0, 1}, {1, 0}} {
				wr, wc := r+d[0], c+d[1]
				if wr < 0 || wr >= rows || wc < 0 || wc >= cols || gap.At(wr, wc) != White {
					continue
				}
				out = append(out, Opening{BlackRemoves: [2]int{r, c}, WhiteRemoves: [2]int{wr, wc}, Board: gap.With(wr, wc, Empty)})
			}
		}
	}
	return out, nil
}

package games

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Board is a rectangle of Rows x Cols squares; square (r, c) is bit r*Cols+c
// of a mask.
//
// The methods that move and fill masks take a pointer: the kernels call
// them for every piece and move, and a call on a copy of the board (five
// words, copied sixteen bytes at a time) stalls when its fields are read
// back from the copy before the copy has landed.
type Board struct {
	Rows, Cols int
	// Full has a bit for every square.
	Full uint64
	// notFirst and notLast are Full without the first or last column.
	notFirst, notLast uint64
}

// NewBoard returns the board of rows x cols squares; it fails when the board
// is empty or has more than maxSquares squares.
func NewBoard(rows, cols, maxSquares int) (Board, error) {
	if rows < 1 || cols < 1 {
		return Board{}, errorf(ErrBadBoard, "%dx%d: rows and columns must be at least 1", rows, cols)
	}
	if rows > maxSquares || cols > maxSquares || rows*cols > maxSquares {
		return Board{}, errorf(ErrBadBoard, "%dx%d has %d squares, more than the limit of %d", rows, cols, rows*cols, maxSquares)
	}
	b := Board{Rows: rows, Cols: cols}
	n := rows * cols
	b.Full = ^uint64(0) >> (64 - n)
	var first uint64
	for r := 0; r < rows; r++ {
		first |= 1 << (r * cols)
	}
	b.notFirst = b.Full &^ first
	b.notLast = b.Full &^ (first << (cols - 1))
	return b, nil
}

// ParseBoard parses "ROWSxCOLS" into its two numbers; it fails with a
// message naming s when s is not of that form.
func ParseBoard(s string) (rows, cols int, err error) {
	a, b, ok := strings.Cut(s, "x")
	if !ok || strings.Contains(b, "x") {
		return 0, 0, errorf(ErrBadBoard, "%q: want ROWSxCOLS, e.g. 4x4", s)
	}
	rows, err1 := strconv.Atoi(a)
	cols, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || rows < 1 || cols < 1 || a[0] == '+' || b[0] == '+' {
		return 0, 0, errorf(ErrBadBoard, "%q: want ROWSxCOLS with positive whole numbers, e.g. 4x4", s)
	}
	return rows, cols, nil
}

// String is the board's name, ROWSxCOLS.
func (b Board) String() string { return fmt.Sprintf("%dx%d", b.Rows, b.Cols) }

// Squares is the number of squares.
func (b Board) Squares() int { return b.Rows * b.Cols }

// InnerColumns returns Full without its first column and Full without its
// last: the squares a move one column right, or left, can land on.
func (b *Board) InnerColumns() (notFirst, notLast uint64) { return b.notFirst, b.notLast }

// East moves every bit of m one column right, dropping those that leave the board.
func (b *Board) East(m uint64) uint64 { return (m << 1) & b.notFirst }

// West moves every bit of m one column left.
func (b *Board) West(m uint64) uint64 { return (m >> 1) & b.notLast }

// South moves every bit of m one row down.
func (b *Board) South(m uint64) uint64 { return (m << b.Cols) & b.Full }

// North moves every bit of m one row up.
func (b *Board) North(m uint64) uint64 { return m >> b.Cols }

// Nbrs4 is the set of squares orthogonally adjacent to some square of m.
func (b *Board) Nbrs4(m uint64) uint64 {
	return b.East(m) | b.West(m) | b.South(m) | b.North(m)
}

// Nbrs8 is the set of squares king-adjacent to some square of m, and m.
func (b *Board) Nbrs8(m uint64) uint64 {
	h := m | b.East(m) | b.West(m)
	return h | b.South(h) | b.North(h)
}

// Fill4 is the orthogonally connected component of within that holds seed.
//
// Each round fills whole runs of within along the rows, both ways, by
// doubling steps (which cover runs of up to 8 squares at once, and longer
// ones over several rounds), then takes one step up and down; the rounds
// stop when nothing changes.
func (b *Board) Fill4(seed, within uint64) uint64 {
	// e1 are the squares that can be reached from their west neighbour, e2
	// from the one two squares west through e1, e4 likewise; w1, w2, w4
	// the same eastward.
	e1 := within & b.notFirst
	e2 := e1 & (e1 << 1)
	e4 := e2 & (e2 << 2)
	w1 := within & b.notLast
	w2 := w1 & (w1 >> 1)
	w4 := w2 & (w2 >> 2)
	x := seed & within
	for {
		y := x | e1&(x<<1)
		y |= e2 & (y << 2)
		y |= e4 & (y << 4)
		y |= w1 & (y >> 1)
		y |= w2 & (y >> 2)
		y |= w4 & (y >> 4)
		y |= (y<<b.Cols | y>>b.Cols) & within
		if y == x {
			return x
		}
		x = y
	}
}

// Fill8 is the king-connected component of within that holds seed.
func (b *Board) Fill8(seed, within uint64) uint64 {
	x := seed & within
	for {
		y := b.Nbrs8(x) & within
		if y == x {
			return x
		}
		x = y
	}
}

// Crop cuts the bounding box of region out of the plane m: it returns the
// box's size and the cells of m inside it, with row stride cols.
func (b *Board) Crop(region uint64, planes ...*uint64) (rows, cols int) {
	// The rows come from the lowest and highest squares of region, the
	// columns from the union of its rows.
	r0 := bits.TrailingZeros64(region) / b.Cols
	r1 := (63 - bits.LeadingZeros64(region)) / b.Cols
	boardRow := uint64(1)<<b.Cols - 1
	var colsUsed uint64
	for r := r0; r <= r1; r++ {
		colsUsed |= region >> (r * b.Cols)
	}
	colsUsed &= boardRow
	c0, c1 := bits.TrailingZeros64(colsUsed), 63-bits.LeadingZeros64(colsUsed)
	rows, cols = r1-r0+1, c1-c0+1
	rowMask := uint64(1)<<cols - 1
	for _, p := range planes {
		var out uint64
		for r := 0; r < rows; r++ {
			out |= (*p >> ((r0+r)*b.Cols + c0) & rowMask) << (r * cols)
		}
		*p = out
	}
	return rows, cols
}

// LowBit returns the index of the lowest set bit of a non-zero m.
func LowBit(m uint64) int { return bits.TrailingZeros64(m) }

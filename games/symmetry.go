package games

import "math/bits"

// A Symmetry is one of the 8 rotations and reflections of a rectangle.
type Symmetry uint8

// The 8 symmetries. The first four keep rows as rows and columns as columns
// (for Domineering they keep vertical dominoes vertical); the last four
// exchange them.
const (
	Identity Symmetry = iota
	FlipRows          // upside down
	FlipCols          // mirror left to right
	HalfTurn
	Transpose
	QuarterTurn // clockwise
	AntiTranspose
	ThreeQuarterTurn
)

// Symmetries lists all 8 symmetries; Symmetries[:4] keep vertical vertical.
var Symmetries = [8]Symmetry{Identity, FlipRows, FlipCols, HalfTurn, Transpose, QuarterTurn, AntiTranspose, ThreeQuarterTurn}

// Swaps reports whether s exchanges rows and columns.
func (s Symmetry) Swaps() bool { return s >= Transpose }

// Map returns where s takes cell (r, c) of a rows x cols rectangle.
func (s Symmetry) Map(r, c, rows, cols int) (int, int) {
	switch s {
	case FlipRows:
		return rows - 1 - r, c
	case FlipCols:
		return r, cols - 1 - c
	case HalfTurn:
		return rows - 1 - r, cols - 1 - c
	case Transpose:
		return c, r
	case QuarterTurn:
		return c, rows - 1 - r
	case AntiTranspose:
		return cols - 1 - c, rows - 1 - r
	case ThreeQuarterTurn:
		return cols - 1 - c, r
	}
	return r, c
}

// Apply maps a plane of a rows x cols rectangle (row stride cols) through s.
// It returns the new plane with row stride of the new width.
//
// Rectangles of up to 8 x 8 are mapped with word operations on an 8 x 8
// board (see apply8); larger ones (a 1 x 32 Clobber board) square by square.
func (s Symmetry) Apply(plane uint64, rows, cols int) uint64 {
	if rows <= 8 && cols <= 8 {
		nr, nc := s.Dims(rows, cols)
		return gather8(s.apply8(embed8(plane, rows, cols), rows, cols), nr, nc)
	}
	return s.applyBits(plane, rows, cols)
}

// applyBits is Apply square by square, for any rectangle.
func (s Symmetry) applyBits(plane uint64, rows, cols int) uint64 {
	newCols := cols
	if s.Swaps() {
		newCols = rows
	}
	var out uint64
	for x := plane; x != 0; x &= x - 1 {
		i := bits.TrailingZeros64(x)
		r, c := s.Map(i/cols, i%cols, rows, cols)
		out |= 1 << (r*newCols + c)
	}
	return out
}

// embed8 spreads a plane of a rows x cols rectangle (row stride cols, both
// at most 8) over an 8 x 8 board: square (r, c) goes to bit 8r+c. The
// spreading keeps the order of squares, so two planes of one rectangle
// compare as numbers the same way before and after it.
func embed8(plane uint64, rows, cols int) uint64 {
	if cols == 8 {
		return plane
	}
	rowMask := uint64(1)<<cols - 1
	var e uint64
	for r := 0; r < rows; r++ {
		e |= (plane >> (r * cols) & rowMask) << (8 * r)
	}
	return e
}

// gather8 is the inverse of embed8.
func gather8(e uint64, rows, cols int) uint64 {
	if cols == 8 {
		return e
	}
	rowMask := uint64(1)<<cols - 1
	var out uint64
	for r := 0; r < rows; r++ {
		out |= (e >> (8 * r) & rowMask) << (r * cols)
	}
	return out
}

// mirror8 reverses the bits of every byte: column c of an 8 x 8 board goes
// to column 7-c.
func mirror8(x uint64) uint64 {
	x = x>>1&0x5555555555555555 | x&0x5555555555555555<<1
	x = x>>2&0x3333333333333333 | x&0x3333333333333333<<2
	return x>>4&0x0f0f0f0f0f0f0f0f | x&0x0f0f0f0f0f0f0f0f<<4
}

// transpose8 exchanges rows and columns of an 8 x 8 board with three delta
// swaps: square (r, c) goes to (c, r).
func transpose8(x uint64) uint64 {
	t := 0x0f0f0f0f00000000 & (x ^ x<<28)
	x ^= t ^ t>>28
	t = 0x3333000033330000 & (x ^ x<<14)
	x ^= t ^ t>>14
	t = 0x5500550055005500 & (x ^ x<<7)
	return x ^ t ^ t>>7
}

// apply8 maps a rows x cols rectangle at the top-left corner of an 8 x 8
// board (see embed8) through s; the image is again at the top-left corner,
// of size s.Dims(rows, cols). The reversal of the whole word turns the
// board half round, the byte reversal flips its rows, mirror8 its columns;
// each leaves the image at the far side of the board, whence a shift brings
// it back to the corner.
func (s Symmetry) apply8(e uint64, rows, cols int) uint64 {
	switch s {
	case FlipRows:
		return bits.ReverseBytes64(e) >> (8 * (8 - rows))
	case FlipCols:
		return mirror8(e) >> (8 - cols)
	case HalfTurn:
		return bits.Reverse64(e) >> (8*(8-rows) + 8 - cols)
	case Transpose:
		return transpose8(e)
	case QuarterTurn:
		return mirror8(transpose8(e)) >> (8 - rows)
	case AntiTranspose:
		return bits.Reverse64(transpose8(e)) >> (8*(8-cols) + 8 - rows)
	case ThreeQuarterTurn:
		return bits.ReverseBytes64(transpose8(e)) >> (8 * (8 - cols))
	}
	return e
}

// Dims returns the size of a rows x cols rectangle after s.
func (s Symmetry) Dims(rows, cols int) (int, int) {
	if s.Swaps() {
		return cols, rows
	}
	return rows, cols
}

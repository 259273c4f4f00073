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
func (s Symmetry) Apply(plane uint64, rows, cols int) uint64 {
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

// Dims returns the size of a rows x cols rectangle after s.
func (s Symmetry) Dims(rows, cols int) (int, int) {
	if s.Swaps() {
		return cols, rows
	}
	return rows, cols
}

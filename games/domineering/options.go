package domineering

import (
	"math/bits"

	"github.com/census-cgt/census/games"
)

var _ games.Mover = (*Game)(nil)

// Options appends the successor of every vertical domino (Left's) when left
// is true, else of every horizontal one (Right's).
func (g *Game) Options(pos uint64, left bool, dst []uint64) []uint64 {
	empty := g.b.Full &^ pos
	tops, delta := empty&(empty>>g.b.Cols), g.b.Cols
	if !left {
		tops, delta = empty&g.b.West(empty), 1
	}
	for ; tops != 0; tops &= tops - 1 {
		i := bits.TrailingZeros64(tops)
		dst = append(dst, pos|uint64(1)<<i|uint64(1)<<(i+delta))
	}
	return dst
}

// PiecePosition covers the squares of the box outside the region.
func (g *Game) PiecePosition(k games.PieceKey) uint64 { return g.b.Full &^ k.Lo }

package clobber

import (
	"math/bits"

	"github.com/census-cgt/census/games"
)

var _ games.Mover = (*Game)(nil)

// Options appends the successor of every capture by Left (Black) when left
// is true, else by Right (White).
func (g *Game) Options(pos uint64, left bool, dst []uint64) []uint64 {
	black, white := split(pos)
	mine, theirs, shift := black, white, 0
	if !left {
		mine, theirs, shift = white, black, 32
	}
	b := g.b
	for dir := 0; dir < 4; dir++ {
		var targets uint64
		var delta int
		switch dir {
		case 0:
			targets, delta = b.East(mine)&theirs, 1
		case 1:
			targets, delta = b.West(mine)&theirs, -1
		case 2:
			targets, delta = b.South(mine)&theirs, b.Cols
		case 3:
			targets, delta = b.North(mine)&theirs, -b.Cols
		}
		for ; targets != 0; targets &= targets - 1 {
			t := bits.TrailingZeros64(targets)
			from, to := uint64(1)<<(t-delta), uint64(1)<<t
			dst = append(dst, pos&^(from<<shift|to<<(32-shift))|to<<shift)
		}
	}
	return dst
}

// PiecePosition is the translated piece itself: its cells are a position
// on the board of its box.
func (g *Game) PiecePosition(k games.PieceKey) uint64 { return k.Lo }

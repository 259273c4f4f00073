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
		targets, delta := captures(&b, dir, mine, theirs)
		for ; targets != 0; targets &= targets - 1 {
			t := bits.TrailingZeros64(targets)
			from, to := uint64(1)<<(t-delta), uint64(1)<<t
			dst = append(dst, pos&^(from<<shift|to<<(32-shift))|to<<shift)
		}
	}
	return dst
}

// captures is the squares onto which the stones mine capture stones of
// theirs in direction dir (0 east, 1 west, 2 south, 3 north), and the
// distance delta of such a capture: the capturing stone is at t-delta for
// a target t.
func captures(b *games.Board, dir int, mine, theirs uint64) (targets uint64, delta int) {
	switch dir {
	case 0:
		return b.East(mine) & theirs, 1
	case 1:
		return b.West(mine) & theirs, -1
	case 2:
		return b.South(mine) & theirs, b.Cols
	}
	return b.North(mine) & theirs, -b.Cols
}

// PiecePosition is the translated piece itself: its cells are a position
// on the board of its box.
func (g *Game) PiecePosition(k games.PieceKey) uint64 { return k.Lo }

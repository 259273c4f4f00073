package amazons

import (
	"math/bits"

	"github.com/census-cgt/census/games"
)

var _ games.Mover = (*Game)(nil)

// Options appends the successor of every move of a Black amazon (Left's)
// when left is true, else of a White one (Right's): a queen move through
// empty squares, then an arrow shot like a queen from where it lands.
func (g *Game) Options(pos uint64, left bool, dst []uint64) []uint64 {
	lo, hi := pos&0xffffffff, pos>>32
	open := g.b.Full &^ (lo & hi)
	amazons := lo ^ hi
	empty := open &^ amazons
	movers, plane := lo&^hi, 0
	if !left {
		movers, plane = hi&^lo, 32
	}
	for ; movers != 0; movers &= movers - 1 {
		f := bits.TrailingZeros64(movers)
		from := uint64(1) << f
		for _, ray := range g.rays[f] {
			for _, t := range ray {
				to := uint64(1) << t
				if empty&to == 0 {
					break
				}
				moved := pos&^(from<<plane) | to<<plane
				free := (empty | from) &^ to
				for _, shot := range g.rays[t] {
					for _, s := range shot {
						arrow := uint64(1) << s
						if free&arrow == 0 {
							break
						}
						dst = append(dst, moved|arrow|arrow<<32)
					}
				}
			}
		}
	}
	return dst
}

// PiecePosition is the translated piece itself: the cells of the box
// outside the region are already burnt.
func (g *Game) PiecePosition(k games.PieceKey) uint64 { return k.Lo }

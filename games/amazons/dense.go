package amazons

import (
	"math/bits"

	"github.com/census-cgt/census/games"
)

// A Game numbers its tiers densely when its start has one amazon a side
// and no burnt square (DenseTiers). Tier t then holds the arrangements of
// the two amazons and t burnt squares on the board's N squares: the n =
// t+2 occupied squares U, ranked in colex order among the sets of their
// size, times the n(n-1) placings of the amazons in U. An arrangement's
// rank is
//
//	colex(U)*n(n-1) + ib*(n-1) + iw
//
// where ib is Black's index among the squares of U in order, and iw
// White's among those left without Black's.
var _ games.Dense = (*Game)(nil)

// binom[n][k] is n choose k.
var binom = binomials()

func binomials() (c [MaxSquares + 1][MaxSquares + 1]uint64) {
	for n := range c {
		c[n][0] = 1
		for k := 1; k <= n; k++ {
			c[n][k] = c[n-1][k-1] + c[n-1][k]
		}
	}
	return c
}

// colex holds a table for each byte q of a square set, from colexOff[q]:
// an entry for every count c of set squares below the byte (0 to 8q) and
// every value of the byte, at colexOff[q] + c<<8 | byte. The entry is the
// byte's part of the colex rank of the set: the sum of binom[s][i] over
// its squares s, the i-th square of the set from the lowest (counting
// from 1). A set's colex rank is the sum of its four bytes' entries, below
// C(32, 16) < 2^32. It does not depend on the board, so the tables serve
// every board.
var colex = colexTables()

const (
	colexOff1 = 1 << 8
	colexOff2 = 10 << 8
	colexOff3 = 27 << 8
	colexLen  = 52 << 8
)

var colexOff = [4]int{0, colexOff1, colexOff2, colexOff3}

func colexTables() (tab [colexLen]uint32) {
	for q, off := range colexOff {
		for c := 0; c <= 8*q; c++ {
			row := tab[off+c<<8 : off+(c+1)<<8]
			// The byte's entry is the entry without its top square plus
			// that square's term.
			for by := 1; by < 256; by++ {
				top := 7 - bits.LeadingZeros8(uint8(by))
				i := c + bits.OnesCount8(uint8(by))
				row[by] = row[by&^(1<<top)] + uint32(binom[8*q+top][i])
			}
		}
	}
	return tab
}

// setRank is the colex rank of u among the square sets of its size.
func setRank(u uint32) uint64 {
	c1 := bits.OnesCount32(u & 0xff)
	c2 := bits.OnesCount32(u & 0xffff)
	c3 := bits.OnesCount32(u & 0xffffff)
	r := colex[u&0xff] +
		colex[colexOff1+c1<<8|int(u>>8&0xff)] +
		colex[colexOff2+c2<<8|int(u>>16&0xff)] +
		colex[colexOff3+c3<<8|int(u>>24)]
	return uint64(r)
}

// rank is the rank of the arrangement of occupied squares u with Black on
// b and White on w.
func rank(u uint32, b, w int) uint64 {
	n := bits.OnesCount32(u)
	ib := bits.OnesCount32(u & (1<<b - 1))
	iw := bits.OnesCount32(u & (1<<w - 1))
	if iw > ib {
		iw--
	}
	return setRank(u)*uint64(n*(n-1)) + uint64(ib*(n-1)+iw)
}

// fromKey is the occupied squares of a position with one amazon a side,
// Black's square and White's.
func fromKey(pos uint64) (u uint32, b, w int) {
	lo, hi := pos&0xffffffff, pos>>32
	return uint32(lo | hi), bits.TrailingZeros64(lo &^ hi), bits.TrailingZeros64(hi &^ lo)
}

// DenseTiers reports whether the start has one Black amazon, one White
// amazon and no burnt square: the standard start of every board does.
func (g *Game) DenseTiers() bool {
	lo, hi := g.start&0xffffffff, g.start>>32
	return bits.OnesCount64(lo&^hi) == 1 && bits.OnesCount64(hi&^lo) == 1 && lo&hi == 0
}

// TierSpace is the number of arrangements of t burnt squares and one
// amazon a side: C(N, t+2) (t+2)(t+1) on N squares; 0 for a tier past
// MaxTier.
func (g *Game) TierSpace(t int) uint64 {
	n := t + 2
	if t < 0 || n > g.b.Squares() {
		return 0
	}
	return binom[g.b.Squares()][n] * uint64(n*(n-1))
}

// Rank is the rank of pos in its tier: pos must hold one amazon a side.
func (g *Game) Rank(pos uint64) uint64 { return rank(fromKey(pos)) }

// Arrangements calls f with the arrangements of tier t in the order of
// their ranks: the occupied sets in colex order, each with its placings of
// the amazons.
func (g *Game) Arrangements(t int, f func(pos uint64) bool) {
	n := t + 2
	if t < 0 || n > g.b.Squares() {
		return
	}
	var sq [MaxSquares]uint64
	for u := uint64(1)<<n - 1; u <= g.b.Full; {
		i := 0
		for m := u; m != 0; m &= m - 1 {
			sq[i] = m & -m
			i++
		}
		for ib := 0; ib < n; ib++ {
			bb := sq[ib]
			for iw := 0; iw < n; iw++ {
				if iw == ib {
					continue
				}
				ww := sq[iw]
				burntSq := u &^ (bb | ww)
				if !f(burntSq | bb | (burntSq|ww)<<32) {
					return
				}
			}
		}
		// The next set of n squares in colex order (Gosper's hack).
		c := u & -u
		r := u + c
		u = ((r^u)>>2)/c | r
	}
}

// AnyPredecessor calls reached with the predecessors of pos: a burnt
// square a made empty again, and an amazon that sees a moved back to a
// square it could have come from (a counted empty). They come by a, Black
// before White, then by the amazon's square.
func (g *Game) AnyPredecessor(pos uint64, reached func(pred uint64) bool) bool {
	lo, hi := pos&0xffffffff, pos>>32
	bb, ww := lo&^hi, hi&^lo
	b, w := bits.TrailingZeros64(bb), bits.TrailingZeros64(ww)
	empty := g.b.Full &^ (lo | hi)
	for as := lo & hi; as != 0; as &= as - 1 {
		abit := as & -as
		base := pos &^ (abit | abit<<32)
		if from := g.reach(b, empty|abit); from&abit != 0 {
			left := base &^ bb
			for xs := from; xs != 0; xs &= xs - 1 {
				if reached(left | xs&-xs) {
					return true
				}
			}
		}
		if from := g.reach(w, empty|abit); from&abit != 0 {
			left := base &^ (ww << 32)
			for xs := from; xs != 0; xs &= xs - 1 {
				if reached(left | (xs&-xs)<<32) {
					return true
				}
			}
		}
	}
	return false
}

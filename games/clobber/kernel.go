package clobber

import (
	"math/bits"
	"slices"

	"github.com/census-cgt/census/games"
)

var _ games.KernelMaker = (*Game)(nil)

// maxMoves bounds the captures of a position: two across each pair of
// neighbouring squares, of which a board of 32 squares has at most 52.
// maxPieces bounds its pieces: no two share a side, so at most every
// other square of the board holds one.
const (
	maxMoves  = 128
	maxPieces = 32
)

// NewKernel is Clobber's own kernel for gr, a group of the game's key maps.
// Its Visits equal those of games.NewPlainKernel(g, gr), MoveStats
// included, for every position of the board.
//
// Every map of the group permutes key bits, so the image of a successor
// under a map is the image of the position XOR the image of the move's
// change (the three bits a capture flips). The kernel takes the images of
// the position once, from the group's SymImages, and holds a table of the
// images of every capture's change under every map, built here; the
// canonical key of a successor is then the least of a few XORs. The
// captures in one direction, by either colour, are one shift and mask of
// the key, which also give the live pieces and the moves made in each by
// popcounts.
func (g *Game) NewKernel(gr *games.Group) games.Kernel {
	b := g.b
	n, sq, cols := gr.Size(), b.Squares(), b.Cols
	k := &kernel{gr: gr, n: n, cols: cols, wide: cols > 8, tr: games.NewPlaneTranslator(b)}
	top := uint64(1)<<cols - 1
	k.notFirst, k.notLast = b.InnerColumns()
	both := func(m uint64) uint64 { return m | m<<32 }
	k.land = [4]uint64{both(k.notFirst), both(k.notLast), both(b.Full &^ top), both(b.Full &^ (top << (sq - cols)))}
	maps := gr.Maps()
	// change[64d+c][j] is the image under map j of the change made by the
	// capture in direction d of the stone at key bit c.
	change := new([256][games.MaxMaps]uint64)
	for d := range 4 {
		for c := range 64 {
			t := c & 31
			from, ok := source(&b, d, t)
			if t >= sq || !ok {
				continue
			}
			if c < 32 {
				from += 32 // White moves, onto a Black stone
			}
			x := uint64(1)<<t | uint64(1)<<(t+32) | uint64(1)<<from
			for j, mp := range maps {
				change[64*d+c][j] = mp.Apply(x)
			}
		}
	}
	switch n {
	case 1:
		k.c1 = new([256]uint64)
	case 2:
		k.c2 = new([256][2]uint64)
	case 4:
		k.c4 = new([256][4]uint64)
	case 8:
		k.c8 = new([256][8]uint64)
	default:
		k.c16 = change
	}
	for i := range change {
		x := &change[i]
		switch n {
		case 1:
			k.c1[i] = x[0]
		case 2:
			copy(k.c2[i][:], x[:])
		case 4:
			copy(k.c4[i][:], x[:])
		case 8:
			copy(k.c8[i][:], x[:])
		}
	}
	return k
}

// source is the square a capture in direction dir (0 east, 1 west, 2
// south, 3 north) that lands on square t moves from, and false when no
// such capture fits the board.
func source(b *games.Board, dir, t int) (int, bool) {
	r, c := t/b.Cols, t%b.Cols
	switch dir {
	case 0:
		return t - 1, c > 0
	case 1:
		return t + 1, c < b.Cols-1
	case 2:
		return t - b.Cols, r > 0
	default:
		return t + b.Cols, r < b.Rows-1
	}
}

// kernel is the state of one Clobber kernel: the group, the board's masks,
// the tables of the images of the captures' changes, and scratch.
type kernel struct {
	gr *games.Group
	// n is the number of maps of the group.
	n int
	// cols is the board's width and wide says it is over 8; notFirst and
	// notLast are the board without its first or last column.
	cols              int
	wide              bool
	notFirst, notLast uint64
	// land[d] holds, in both planes, the squares a capture in direction d
	// (east, west, south, north) can land on.
	land [4]uint64
	// The images of the changes, as NewKernel's change, for a group of n
	// maps: the one of c1, c2, c4, c8 or c16 that fits n is set.
	c1  *[256]uint64
	c2  *[256][2]uint64
	c4  *[256][4]uint64
	c8  *[256][8]uint64
	c16 *[256][games.MaxMaps]uint64
	// img holds the images of the position being visited under each map
	// of the group (Group.MapImages). comp[s] is the
	// piece whose lowest square is s, of those pieces found that hold
	// more than one stone, and size[s] its stones.
	img  [games.MaxMaps]uint64
	comp [32]uint64
	size [32]int
	// tr translates the pieces.
	tr games.PlaneTranslator
}

// Visit fills v for pos and adds its moves to m, as the plain kernel does.
//
// Pieces are found as Game.Pieces finds them. A piece is live when a
// capture lands in it; a capture's stones are neighbours, so both are in
// the piece, and the moves made in a piece are the captures landing in it.
// For the same reason no capture joins stones of two pieces (the pieces
// are the maximal connected groups of stones), so Expand never counts a
// join and neither does Visit.
func (k *kernel) Visit(pos uint64, v *games.Visit, m *games.MoveStats, successors bool) {
	v.Reset()
	k.canonOrbit(pos, v)
	// caps[d] are the key bits of the stones captured in direction d: a
	// stone is taken from the west (east, north, south) by a stone of the
	// other colour, which the key with its planes exchanged holds.
	sw, cols := bits.RotateLeft64(pos, 32), k.cols&63
	caps := [4]uint64{sw << 1 & k.land[0] & pos, sw >> 1 & k.land[1] & pos, sw << cols & k.land[2] & pos, sw >> cols & k.land[3] & pos}
	landed := caps[0] | caps[1] | caps[2] | caps[3]
	landed = (landed | landed>>32) & 0xffffffff
	var moves int
	if successors {
		v.Succ = slices.Grow(v.Succ, maxMoves)
		moves = k.successors((*[maxMoves]uint64)(v.Succ[:maxMoves]), &caps)
		v.Succ = v.Succ[:moves]
	} else {
		moves = bits.OnesCount64(caps[0]) + bits.OnesCount64(caps[1]) + bits.OnesCount64(caps[2]) + bits.OnesCount64(caps[3])
	}

	dead, live, last := k.pieces(pos, landed, v)
	v.DeadFree = v.Canon
	if dead != 0 {
		v.DeadFree = k.gr.Canon(pos &^ (dead | dead<<32))
	}
	w := v.Orbit
	m.Moves += uint64(moves) * w
	row := -1
	if m.MovedPiece != nil {
		row = bits.OnesCount64((pos|pos>>32)&0xffffffff) * games.MovedPieceStride
	}
	if live == 1 {
		// The live piece is the dead-free board, and every move is made in
		// it.
		p := &v.Pieces[last]
		v.InPlace = append(v.InPlace, v.DeadFree)
		v.Translated = append(v.Translated, k.tr.Translate(p.Mask, p.Key))
		k.movedPiece(m, row, p.Size, moves, w, len(v.Pieces) >= 2)
	} else if live > 1 {
		for _, p := range v.Pieces {
			if !p.Live {
				continue
			}
			both := p.Mask | p.Mask<<32
			count := bits.OnesCount64(caps[0]&both) + bits.OnesCount64(caps[1]&both) +
				bits.OnesCount64(caps[2]&both) + bits.OnesCount64(caps[3]&both)
			v.InPlace = append(v.InPlace, k.gr.Canon(p.Key))
			v.Translated = append(v.Translated, k.tr.Translate(p.Mask, p.Key))
			k.movedPiece(m, row, p.Size, count, w, true)
		}
	}
}

// pieces appends the pieces of pos to v.Pieces, as Game.Pieces does, given
// the squares captures land on, and returns the squares of the dead
// pieces, the number of live ones, and the index of the last live one.
//
// A stone with no neighbouring stone is a dead piece by itself. The other
// pieces are filled from their lowest stone, each round closing the
// filled set along the rows, both ways at once by doubling steps (runs of
// up to 8 squares in one round), and then along the columns (runs of up to
// 4 squares): with the masks of the runs of stones taken once for all the
// pieces, e1 the stones whose west neighbour is a stone, e2 those with two
// stones west of them in a row, e4 four; w1, w2, w4 the same eastward; s1,
// s2 and n1, n2 the same southward and northward. A set closed along the
// rows that the column step does not grow is the piece (on a board over 8
// columns wide, whose rows one round may leave unclosed, a round that
// grows nothing). Each piece is kept by its lowest square, and the pieces
// are appended in the order of their lowest squares, as Game.Pieces finds
// them.
func (k *kernel) pieces(pos, landed uint64, v *games.Visit) (dead uint64, live, last int) {
	stones, cols := (pos|pos>>32)&0xffffffff, k.cols&63
	lone := stones &^ (stones<<1&k.notFirst | stones>>1&k.notLast | stones<<cols | stones>>cols)
	e1 := stones & k.notFirst
	e2 := e1 & (e1 << 1)
	e4 := e2 & (e2 << 2)
	w1 := stones & k.notLast
	w2 := w1 & (w1 >> 1)
	w4 := w2 & (w2 >> 2)
	s1 := stones & (stones << cols)
	s2 := s1 & (s1 << cols)
	n1 := stones & (stones >> cols)
	n2 := n1 & (n1 >> cols)
	cols2 := 2 * cols & 63
	var wide uint64
	if k.wide {
		wide = ^uint64(0)
	}
	leaders := lone
	for rest := stones &^ lone; rest != 0; {
		y := rest & -rest
		var h uint64
		for {
			h = y | e1&(y<<1) | w1&(y>>1)
			h |= e2&(h<<2) | w2&(h>>2)
			h |= e4&(h<<4) | w4&(h>>4)
			z := h | s1&(h<<cols) | n1&(h>>cols)
			z |= s2&(z<<cols2) | n2&(z>>cols2)
			if z == h&^wide|y&wide {
				break
			}
			y = z
		}
		low := h & -h
		t := bits.TrailingZeros64(low) & 31
		k.comp[t], k.size[t] = h, bits.OnesCount64(h)
		leaders |= low
		rest &^= h
	}
	v.Pieces = slices.Grow(v.Pieces, maxPieces)
	out, n := (*[maxPieces]games.Piece)(v.Pieces[:maxPieces]), 0
	for x := leaders; x != 0; x &= x - 1 {
		low := x & -x
		t := bits.TrailingZeros64(low) & 31
		comp, size := k.comp[t], k.size[t]
		if low&lone != 0 {
			comp, size = low, 1
		}
		isLive := nonzero(comp & landed)
		last ^= (last ^ n) & -isLive
		live += isLive
		dead |= comp &^ -uint64(isLive)
		out[n&(maxPieces-1)] = games.Piece{Mask: comp, Key: pos & (comp | comp<<32), Size: size, Live: isLive != 0}
		n++
	}
	v.Pieces = v.Pieces[:n]
	return dead, live, last
}

// movedPiece adds count moves, each weight w, made in a piece of size
// stones to the moved-piece histograms of m at row (-1 when m keeps none),
// and to the split histogram when the position has two or more pieces.
func (k *kernel) movedPiece(m *games.MoveStats, row, size, count int, w uint64, split bool) {
	if row < 0 {
		return
	}
	m.MovedPiece[row+size] += uint64(count) * w
	if split {
		m.MovedPieceSplit[row+size] += uint64(count) * w
	}
}

// canonOrbit sets k.img to the images of pos under the group's maps and
// v.Canon and v.Orbit to the least of them and the size of the orbit.
func (k *kernel) canonOrbit(pos uint64, v *games.Visit) {
	if k.n == 1 {
		k.img[0] = pos
		v.Canon, v.Orbit = pos, 1
		return
	}
	v.Canon, v.Orbit = k.gr.MapImages(pos, &k.img)
}

// successors fills out with the canonical key of the successor of every
// capture of caps (see Visit), from k.img and the change tables, and
// returns the number of captures.
func (k *kernel) successors(out *[maxMoves]uint64, caps *[4]uint64) int {
	i := 0
	switch k.n {
	case 1:
		p := k.img[0]
		for d, x := range caps {
			c := (*[64]uint64)(k.c1[64*d&255:])
			for ; x != 0; x &= x - 1 {
				out[i&(maxMoves-1)] = p ^ c[bits.TrailingZeros64(x)&63]
				i++
			}
		}
	case 2:
		p0, p1 := k.img[0], k.img[1]
		for d, x := range caps {
			c := (*[64][2]uint64)(k.c2[64*d&255:])
			for ; x != 0; x &= x - 1 {
				e := &c[bits.TrailingZeros64(x)&63]
				out[i&(maxMoves-1)] = min(p0^e[0], p1^e[1])
				i++
			}
		}
	case 4:
		p0, p1, p2, p3 := k.img[0], k.img[1], k.img[2], k.img[3]
		for d, x := range caps {
			c := (*[64][4]uint64)(k.c4[64*d&255:])
			for ; x != 0; x &= x - 1 {
				e := &c[bits.TrailingZeros64(x)&63]
				out[i&(maxMoves-1)] = min(min(p0^e[0], p1^e[1]), min(p2^e[2], p3^e[3]))
				i++
			}
		}
	case 8:
		p := &k.img
		for d, x := range caps {
			c := (*[64][8]uint64)(k.c8[64*d&255:])
			for ; x != 0; x &= x - 1 {
				e := &c[bits.TrailingZeros64(x)&63]
				out[i&(maxMoves-1)] = min(min(min(p[0]^e[0], p[1]^e[1]), min(p[2]^e[2], p[3]^e[3])),
					min(min(p[4]^e[4], p[5]^e[5]), min(p[6]^e[6], p[7]^e[7])))
				i++
			}
		}
	default:
		n := k.n
		for d, x := range caps {
			c := (*[64][games.MaxMaps]uint64)(k.c16[64*d&255:])
			for ; x != 0; x &= x - 1 {
				e := &c[bits.TrailingZeros64(x)&63]
				s := k.img[0] ^ e[0]
				for j := 1; j < n; j++ {
					s = min(s, k.img[j]^e[j])
				}
				out[i&(maxMoves-1)] = s
				i++
			}
		}
	}
	return i
}

// nonzero is 1 when x is not 0, 0 otherwise.
func nonzero(x uint64) int {
	if x != 0 {
		return 1
	}
	return 0
}

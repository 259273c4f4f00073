package games

import "sync/atomic"

// pieceMaps maps translated pieces through a group's maps by tables. A
// map of the group moves the squares of a piece's box (rows x cols, the
// piece at its corner) as its symmetry moves them: a permutation of the
// box's squares that the box alone decides, so the image of a plane is
// the OR of the images of its nibbles, each one load from a table of 16.
// A piece of up to 32 squares a plane takes 8 loads a plane a map, where
// spreading it over an 8 x 8 board, mapping it and packing it back
// (embedded) takes some 40 operations a plane a map.
//
// The tables of a box are built the first time a piece of that box is
// mapped, and shared by every copy of the group; a box of more than 32
// squares, or over 8 rows or columns, has none.
type pieceMaps struct {
	maps  []*KeyMap                      // the group's maps, the identity first
	boxes [9 * 9]atomic.Pointer[boxMaps] // by rows*9 + cols
}

// boxMaps are the tables of one box: t[j-1][i][v] is the image under map
// j of the squares v << 4i of a plane, and nibbles the nibbles a plane of
// the box spans.
type boxMaps struct {
	nibbles int
	hi      [MaxMaps]uint64 // the box of the image under map j, as PieceKey.Hi
	t       [][8][16]uint32
}

// newPieceMaps is the tables of maps, the identity first, of keys of
// planes planes; nil for a one-plane key with a colour swap among the
// maps, which has no second plane to exchange.
func newPieceMaps(maps []*KeyMap, planes int) *pieceMaps {
	for _, m := range maps {
		if m.Swap && planes != 2 {
			return nil
		}
	}
	return &pieceMaps{maps: maps}
}

// box returns the tables of a box of rows x cols, or nil when it has none.
func (p *pieceMaps) box(rows, cols int) *boxMaps {
	if rows < 1 || cols < 1 || rows > 8 || cols > 8 || rows*cols > 32 {
		return nil
	}
	slot := &p.boxes[rows*9+cols]
	if b := slot.Load(); b != nil {
		return b
	}
	b := newBoxMaps(p.maps, rows, cols)
	if !slot.CompareAndSwap(nil, b) {
		return slot.Load()
	}
	return b
}

func newBoxMaps(maps []*KeyMap, rows, cols int) *boxMaps {
	sq := rows * cols
	b := &boxMaps{nibbles: (sq + 3) / 4, t: make([][8][16]uint32, len(maps)-1)}
	for j, m := range maps {
		nr, nc := m.Sym.Dims(rows, cols)
		b.hi[j] = uint64(nr)<<8 | uint64(nc)
		if j == 0 {
			continue
		}
		t := &b.t[j-1]
		for s := range sq {
			r, c := m.Sym.Map(s/cols, s%cols, rows, cols)
			bit := uint32(1) << (r*nc + c)
			for v := range 16 {
				if v>>(s%4)&1 != 0 {
					t[s/4][v] |= bit
				}
			}
		}
	}
	return b
}

// image is the image under map j (at least 1) of the translated piece of
// the box whose planes are lo and hi; swap, the map's colour swap,
// exchanges the planes.
func (b *boxMaps) image(j int, lo, hi uint32, swap bool) PieceKey {
	t := &b.t[j-1]
	var x, y uint32
	for i := range b.nibbles {
		x |= t[i&7][lo>>(4*i)&15]
		y |= t[i&7][hi>>(4*i)&15]
	}
	if swap {
		x, y = y, x
	}
	return PieceKey{Hi: b.hi[j], Lo: uint64(y)<<32 | uint64(x)}
}

// canon is the least translated piece of the orbit of k under the maps,
// given the tables of its box.
func (p *pieceMaps) canon(k PieceKey, b *boxMaps) PieceKey {
	lo, hi := uint32(k.Lo), uint32(k.Lo>>32)
	best := k
	for j := 1; j < len(p.maps); j++ {
		if t := b.image(j, lo, hi, p.maps[j].Swap); t.Less(best) {
			best = t
		}
	}
	return best
}

// symmetryMaps are the tables of the 8 symmetries, without colour swaps,
// for ClassesBySwap.
var symmetryMaps = func() *pieceMaps {
	maps := make([]*KeyMap, len(Symmetries))
	for i, s := range Symmetries {
		maps[i] = &KeyMap{Sym: s}
	}
	return newPieceMaps(maps, 2)
}()

// ClassesBySwap is Classes(k, Symmetries[:], 2, SwapPlanes): the classes
// of a piece of a two-plane game (Clobber, Amazons) under the 8
// symmetries and the colour swap. The swap commutes with the symmetries,
// so the images of the negative are the images of k with their planes
// exchanged: one image a symmetry gives both classes.
func ClassesBySwap(k PieceKey) (sym, neg PieceKey, selfNegative bool) {
	b := symmetryMaps.box(k.Dims())
	if b == nil {
		return Classes(k, Symmetries[:], 2, SwapPlanes)
	}
	lo, hi := uint32(k.Lo), uint32(k.Lo>>32)
	sym, symNeg := k, SwapPlanes(k)
	for j := 1; j < len(Symmetries); j++ {
		t := b.image(j, lo, hi, false)
		if t.Less(sym) {
			sym = t
		}
		if s := SwapPlanes(t); s.Less(symNeg) {
			symNeg = s
		}
	}
	neg = sym
	if symNeg.Less(neg) {
		neg = symNeg
	}
	return sym, neg, sym == symNeg
}

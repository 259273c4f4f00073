package games

// Transform maps the translated piece k through s. planes is 2 for games
// whose cells are two 32-bit planes (Clobber, Amazons) and 1 for a single
// 64-bit plane (Domineering).
func Transform(k PieceKey, s Symmetry, planes int) PieceKey {
	rows, cols := k.Dims()
	nr, nc := s.Dims(rows, cols)
	if planes == 1 {
		return MakePieceKey(nr, nc, s.Apply(k.Lo, rows, cols))
	}
	lo := s.Apply(k.Lo&0xffffffff, rows, cols)
	hi := s.Apply(k.Lo>>32, rows, cols)
	return MakePieceKey(nr, nc, lo|hi<<32)
}

// SwapPlanes exchanges the two 32-bit planes of k: the colour swap.
func SwapPlanes(k PieceKey) PieceKey {
	return PieceKey{Hi: k.Hi, Lo: k.Lo>>32 | k.Lo<<32}
}

// Classes computes the symmetric class of k under group, the class under
// group and negate together, and whether the symmetric class is its own
// negative. Each class is named by its least key. negate must normalise
// group (negate∘g∘negate is in group for every g in group), as the colour
// swap and the transpose do for the groups of the three games.
func Classes(k PieceKey, group []Symmetry, planes int, negate func(PieceKey) PieceKey) (sym, neg PieceKey, selfNegative bool) {
	sym = minOver(k, group, planes)
	symNeg := minOver(negate(k), group, planes)
	neg = sym
	if symNeg.Less(neg) {
		neg = symNeg
	}
	return sym, neg, sym == symNeg
}

// minOver is the least image of k under the symmetries of group.
func minOver(k PieceKey, group []Symmetry, planes int) PieceKey {
	rows, cols := k.Dims()
	if rows > 8 || cols > 8 {
		best := Transform(k, group[0], planes)
		for _, s := range group[1:] {
			if t := Transform(k, s, planes); t.Less(best) {
				best = t
			}
		}
		return best
	}
	e := embedPiece(k, planes)
	best := e.image(group[0], rows, cols, false)
	for _, s := range group[1:] {
		if t := e.image(s, rows, cols, false); t.less(best) {
			best = t
		}
	}
	return best.key(planes)
}

// embedded is a translated piece of at most 8 x 8 spread over 8 x 8 boards
// (see embed8), one word per plane. Spreading keeps the order of keys of
// one box, so images of a piece are compared embedded and only the least
// is packed back into a PieceKey.
type embedded struct {
	hi     uint64 // the box, as PieceKey.Hi
	p0, p1 uint64 // the low and the high plane (p1 is 0 for one plane)
}

// embedPiece spreads k, whose box is at most 8 x 8.
func embedPiece(k PieceKey, planes int) embedded {
	rows, cols := k.Dims()
	if planes == 1 {
		return embedded{hi: k.Hi, p0: embed8(k.Lo, rows, cols)}
	}
	return embedded{hi: k.Hi, p0: embed8(k.Lo&0xffffffff, rows, cols), p1: embed8(k.Lo>>32, rows, cols)}
}

// image maps e (a rows x cols box) through s, and exchanges the planes
// when swap is set.
func (e embedded) image(s Symmetry, rows, cols int, swap bool) embedded {
	nr, nc := s.Dims(rows, cols)
	t := embedded{hi: uint64(nr)<<8 | uint64(nc), p0: s.apply8(e.p0, rows, cols), p1: s.apply8(e.p1, rows, cols)}
	if swap {
		t.p0, t.p1 = t.p1, t.p0
	}
	return t
}

// less orders embedded pieces as their PieceKeys order.
func (e embedded) less(o embedded) bool {
	if e.hi != o.hi {
		return e.hi < o.hi
	}
	if e.p1 != o.p1 {
		return e.p1 < o.p1
	}
	return e.p0 < o.p0
}

// key packs e back into a PieceKey.
func (e embedded) key(planes int) PieceKey {
	rows, cols := int(e.hi>>8), int(e.hi&0xff)
	lo := gather8(e.p0, rows, cols)
	if planes == 2 {
		lo |= gather8(e.p1, rows, cols) << 32
	}
	return PieceKey{Hi: e.hi, Lo: lo}
}

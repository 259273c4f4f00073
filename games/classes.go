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

func minOver(k PieceKey, group []Symmetry, planes int) PieceKey {
	best := Transform(k, group[0], planes)
	for _, s := range group[1:] {
		if t := Transform(k, s, planes); t.Less(best) {
			best = t
		}
	}
	return best
}

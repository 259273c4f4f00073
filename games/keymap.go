package games

import "slices"

// A KeyMap is a symmetry of the rules acting on position keys: a symmetry
// of the board, possibly followed by the colour swap (exchanging the two
// 32-bit planes of a two-plane key). It also acts on translated pieces.
type KeyMap struct {
	Sym  Symmetry
	Swap bool
	// Negates is true when the map takes a piece to one of its negative's
	// symmetric class: the colour swap, or for Domineering a transpose.
	Negates bool
	planes  int
	// table[i][b] is the image of byte i of a key having the value b.
	table [8][256]uint64
	bytes []int // the bytes of a key that can be non-zero
}

// NewKeyMap builds the map of key bits that moves square (r, c) as s does
// on board b; planes is 1 for a 64-bit mask key, 2 for two 32-bit planes.
// s must map the board onto itself (a square board for the symmetries
// that exchange rows and columns).
func NewKeyMap(b Board, s Symmetry, swap bool, planes int) *KeyMap {
	m := &KeyMap{Sym: s, Swap: swap, planes: planes}
	dest := func(bit int) int {
		plane, sq := 0, bit
		if planes == 2 {
			plane, sq = bit/32, bit%32
		}
		r, c := s.Map(sq/b.Cols, sq%b.Cols, b.Rows, b.Cols)
		out := r*b.Cols + c
		if planes == 2 {
			if swap {
				plane = 1 - plane
			}
			out += 32 * plane
		}
		return out
	}
	used := map[int]bool{}
	for bit := 0; bit < 64; bit++ {
		sq := bit
		if planes == 2 {
			sq = bit % 32
		}
		if sq >= b.Squares() {
			continue
		}
		used[bit/8] = true
		for v := 0; v < 256; v++ {
			if v>>(bit%8)&1 != 0 {
				m.table[bit/8][v] |= 1 << dest(bit)
			}
		}
	}
	for i := 0; i < 8; i++ {
		if used[i] {
			m.bytes = append(m.bytes, i)
		}
	}
	return m
}

// Apply maps a position key (or an in-place piece key, which has the same
// layout).
func (m *KeyMap) Apply(key uint64) uint64 {
	var out uint64
	for _, i := range m.bytes {
		out |= m.table[i][byte(key>>(8*i))]
	}
	return out
}

// ApplyPiece maps a translated piece.
func (m *KeyMap) ApplyPiece(k PieceKey) PieceKey {
	t := Transform(k, m.Sym, m.planes)
	if m.Swap {
		t = SwapPlanes(t)
	}
	return t
}

// BoardMaps lists the symmetries of board b as key maps, the identity
// first; withSwap adds each composed with the colour swap. transposeNegates
// says that the symmetries exchanging rows and columns negate (Domineering).
func BoardMaps(b Board, planes int, withSwap, transposeNegates bool) []*KeyMap {
	var maps []*KeyMap
	for _, swap := range []bool{false, true} {
		if swap && !withSwap {
			break
		}
		for _, s := range Symmetries {
			if s.Swaps() && b.Rows != b.Cols {
				continue
			}
			m := NewKeyMap(b, s, swap, planes)
			m.Negates = swap || transposeNegates && s.Swaps()
			maps = append(maps, m)
		}
	}
	return maps
}

// Group is the group of key maps that fix a start position: positions in
// one orbit are counted once, weighted by the orbit's size.
type Group struct {
	maps []*KeyMap // the identity first
}

// StartGroup is the subgroup of the game's key maps that fix its start; with
// on false it is the identity alone, and the census counts plainly.
func StartGroup(g Game, on bool) Group {
	all := g.KeyMaps()
	gr := Group{maps: all[:1]}
	if !on {
		return gr
	}
	for _, m := range all[1:] {
		if m.Apply(g.Start()) == g.Start() {
			gr.maps = append(gr.maps, m)
		}
	}
	return gr
}

// Size is the number of maps of the group.
func (gr Group) Size() int { return len(gr.maps) }

// Canon is the least key of the orbit of key.
func (gr Group) Canon(key uint64) uint64 {
	best := key
	for _, m := range gr.maps[1:] {
		best = min(best, m.Apply(key))
	}
	return best
}

// CanonOrbit is Canon and Orbit of key together, in one pass.
func (gr Group) CanonOrbit(key uint64) (canon, orbit uint64) {
	canon, fixed := key, 1
	for _, m := range gr.maps[1:] {
		t := m.Apply(key)
		if t == key {
			fixed++
		}
		canon = min(canon, t)
	}
	return canon, uint64(len(gr.maps) / fixed)
}

// Orbit is the number of distinct keys in the orbit of key.
func (gr Group) Orbit(key uint64) uint64 {
	fixed := 1
	for _, m := range gr.maps[1:] {
		if m.Apply(key) == key {
			fixed++
		}
	}
	return uint64(len(gr.maps) / fixed)
}

// Images appends the distinct keys of the orbit of key to dst, key first:
// the positions that a stored representative stands for.
func (gr Group) Images(key uint64, dst []uint64) []uint64 {
	start := len(dst)
	dst = append(dst, key)
	for _, m := range gr.maps[1:] {
		if t := m.Apply(key); !slices.Contains(dst[start:], t) {
			dst = append(dst, t)
		}
	}
	return dst
}

// CanonPiece is the least translated piece of the orbit of k.
func (gr Group) CanonPiece(k PieceKey) PieceKey {
	best := k
	for _, m := range gr.maps[1:] {
		if t := m.ApplyPiece(k); t.Less(best) {
			best = t
		}
	}
	return best
}

// Image is one piece of an orbit, and whether the map that gave it
// negates (takes the piece to its negative's symmetric class).
type Image struct {
	Key     PieceKey
	Negates bool
}

// PieceOrbit appends the distinct translated pieces of the orbit of k to
// dst, in key order.
func (gr Group) PieceOrbit(k PieceKey, dst []Image) []Image {
	start := len(dst)
	dst = append(dst, Image{Key: k})
	for _, m := range gr.maps[1:] {
		t := m.ApplyPiece(k)
		if !slices.ContainsFunc(dst[start:], func(im Image) bool { return im.Key == t }) {
			dst = append(dst, Image{Key: t, Negates: m.Negates})
		}
	}
	slices.SortFunc(dst[start:], func(a, b Image) int {
		switch {
		case a.Key.Less(b.Key):
			return -1
		case b.Key.Less(a.Key):
			return 1
		}
		return 0
	})
	return dst
}

package games

import (
	"math/bits"
	"slices"
)

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
	geo     *geometry
}

// NewKeyMap builds the map of key bits that moves square (r, c) as s does
// on board b; planes is 1 for a 64-bit mask key, 2 for two 32-bit planes.
// s must map the board onto itself (a square board for the symmetries
// that exchange rows and columns).
func NewKeyMap(b Board, s Symmetry, swap bool, planes int) *KeyMap {
	return &KeyMap{Sym: s, Swap: swap, planes: planes, geo: newGeometry(b, planes)}
}

// Apply maps a position key (or an in-place piece key, which has the same
// layout).
func (m *KeyMap) Apply(key uint64) uint64 {
	g := m.geo
	switch m.Sym {
	case FlipRows:
		key = g.flipRows(key)
	case FlipCols:
		key = g.flipCols(key)
	case HalfTurn:
		key = g.halfTurn(key)
	case Transpose:
		key = g.transpose(key)
	case QuarterTurn:
		key = g.flipCols(g.transpose(key))
	case AntiTranspose:
		key = g.halfTurn(g.transpose(key))
	case ThreeQuarterTurn:
		key = g.flipRows(g.transpose(key))
	}
	if m.Swap {
		key = swapPlanes(key)
	}
	return key
}

// swapPlanes exchanges the two 32-bit planes of a key.
func swapPlanes(key uint64) uint64 { return bits.RotateLeft64(key, 32) }

// A DeltaSwap exchanges every bit i of Mask with bit i+Shift: the word
// operation by which the groups and the games' kernels move the squares
// of a key, a flip or a transpose being one delta swap per distance a
// square moves.
type DeltaSwap struct {
	Mask  uint64
	Shift uint8
}

// Apply is the delta swap d of x. It is small enough to be inlined, so the
// kernels call it in their loops.
func (d *DeltaSwap) Apply(x uint64) uint64 {
	t := (x>>(d.Shift&63) ^ x) & d.Mask
	return x ^ t ^ t<<(d.Shift&63)
}

// swaps applies a list of delta swaps to x.
func swaps(x uint64, ds []DeltaSwap) uint64 {
	for _, d := range ds {
		t := (x>>d.Shift ^ x) & d.Mask
		x ^= t ^ t<<d.Shift
	}
	return x
}

// geometry holds the word operations that move the squares of one board in
// a key: flipping its rows and its columns by delta swaps (one per distance
// a square moves), turning it half round by reversing the word, and for a
// square board transposing it by delta swaps. Each acts on both planes of a
// two-plane key at once.
type geometry struct {
	planes, squares int
	rows, cols, tr  []DeltaSwap
	// height and width are the board's rows and columns.
	height, width int
}

func newGeometry(b Board, planes int) *geometry {
	g := &geometry{planes: planes, squares: b.Squares(), height: b.Rows, width: b.Cols}
	g.rows = involution(b, planes, FlipRows)
	g.cols = involution(b, planes, FlipCols)
	if b.Rows == b.Cols {
		g.tr = involution(b, planes, Transpose)
	}
	return g
}

// involution returns the delta swaps that move the squares of b as s does,
// for an s that is its own inverse: the pairs of squares s exchanges are
// grouped by their distance, one swap per distance.
func involution(b Board, planes int, s Symmetry) []DeltaSwap {
	masks := map[int]uint64{}
	for sq := 0; sq < b.Squares(); sq++ {
		r, c := s.Map(sq/b.Cols, sq%b.Cols, b.Rows, b.Cols)
		if to := r*b.Cols + c; to > sq {
			masks[to-sq] |= 1 << sq
		}
	}
	var out []DeltaSwap
	for d, m := range masks {
		if planes == 2 {
			m |= m << 32
		}
		out = append(out, DeltaSwap{Mask: m, Shift: uint8(d)})
	}
	slices.SortFunc(out, func(a, b DeltaSwap) int { return int(a.Shift) - int(b.Shift) })
	return out
}

func (g *geometry) flipRows(x uint64) uint64  { return swaps(x, g.rows) }
func (g *geometry) flipCols(x uint64) uint64  { return swaps(x, g.cols) }
func (g *geometry) transpose(x uint64) uint64 { return swaps(x, g.tr) }

// halfTurn takes square i to squares-1-i. Reversing the word does that to
// a one-plane key, up to a shift; to a two-plane key it does it with the
// planes exchanged, which a rotation undoes.
func (g *geometry) halfTurn(x uint64) uint64 {
	if g.planes == 1 {
		return bits.Reverse64(x) >> ((64 - g.squares) & 63)
	}
	return swapPlanes(bits.Reverse64(x) >> ((32 - g.squares) & 63))
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
// one orbit are counted once, weighted by the orbit's size. Its methods
// take a pointer, for the reason Board's do: Canon runs once a successor.
type Group struct {
	maps []*KeyMap // the identity first
	geo  *geometry
	// keep[s] says which images under symmetry s the group holds: bit 0
	// the image itself, bit 1 the image with the colours swapped.
	keep [8]uint8
	// canon computes Canon and orbit CanonOrbit, as plan chose (see
	// canon.go and orbit.go); one, rect and bytes hold what the functions
	// chosen need.
	canon func(*Group, uint64) uint64
	orbit func(*Group, uint64) (canon, orbit uint64)
	least func(*Group, uint64) bool
	one   oneMap
	rect  rectPlan
	bytes bytePlan
	// mapSym[j] is the board symmetry of map j, mapRot[j] the rotation
	// that follows it (32 for the colour swap), for MapImages.
	mapSym, mapRot [MaxMaps]uint8
	// pieces maps translated pieces by tables (piecemaps.go); nil for a
	// one-plane key with a colour swap among the maps (newPieceMaps).
	pieces *pieceMaps
}

// StartGroup is the subgroup of the game's key maps that fix its start; with
// on false it is the identity alone, and the census counts plainly.
func StartGroup(g Game, on bool) Group {
	all := g.KeyMaps()
	maps := all[:1:1] // appending must not write over the game's maps
	if on {
		for _, m := range all[1:] {
			if m.Apply(g.Start()) == g.Start() {
				maps = append(maps, m)
			}
		}
	}
	return newGroup(maps)
}

// newGroup is the group of maps, the identity first.
func newGroup(maps []*KeyMap) Group {
	gr := Group{maps: maps, geo: maps[0].geo}
	gr.pieces = newPieceMaps(maps, gr.geo.planes)
	for j, m := range gr.maps {
		gr.mapSym[j] = uint8(m.Sym)
		if m.Swap {
			gr.mapRot[j] = 32
		}
	}
	for _, m := range gr.maps[1:] {
		if m.Swap {
			gr.keep[m.Sym] |= 2
		} else {
			gr.keep[m.Sym] |= 1
		}
	}
	gr.plan()
	return gr
}

// Size is the number of maps of the group.
func (gr *Group) Size() int { return len(gr.maps) }

// Canon is the least key of the orbit of key, computed by the function
// plan chose for the group (see canon.go).
func (gr *Group) Canon(key uint64) uint64 { return gr.canon(gr, key) }

// Least reports whether key is the least key of its orbit: Canon(key) ==
// key, for a caller that throws away all but the least of each orbit (a
// listed tier, where seven keys in eight are not), and so needs no image
// once one is smaller.
func (gr *Group) Least(key uint64) bool { return gr.least(gr, key) }

// leastCanon is Least by Canon, for the groups with no Least of their own.
func (gr *Group) leastCanon(key uint64) bool { return gr.canon(gr, key) == key }

// canonShared is Canon for any group. It computes each image once and
// shares the work between them: the column flip is the half turn of the
// row flip, and the symmetries that exchange rows and columns are the
// others after a transpose.
func (gr *Group) canonShared(key uint64) uint64 {
	g, keep := gr.geo, &gr.keep
	best := key
	if keep[Identity] != 0 {
		best = minImage(best, key, keep[Identity])
	}
	if keep[HalfTurn] != 0 {
		best = minImage(best, g.halfTurn(key), keep[HalfTurn])
	}
	if keep[FlipRows] == 0 && keep[FlipCols] != 0 {
		best = minImage(best, g.flipCols(key), keep[FlipCols])
	} else if keep[FlipRows] != 0 {
		r := g.flipRows(key)
		best = minImage(best, r, keep[FlipRows])
		if keep[FlipCols] != 0 {
			best = minImage(best, g.halfTurn(r), keep[FlipCols])
		}
	}
	if keep[Transpose]|keep[QuarterTurn]|keep[AntiTranspose]|keep[ThreeQuarterTurn] != 0 {
		t := g.transpose(key)
		best = minImage(best, t, keep[Transpose])
		if keep[AntiTranspose] != 0 {
			best = minImage(best, g.halfTurn(t), keep[AntiTranspose])
		}
		if keep[QuarterTurn]|keep[ThreeQuarterTurn] != 0 {
			rt := g.flipRows(t)
			best = minImage(best, rt, keep[ThreeQuarterTurn])
			if keep[QuarterTurn] != 0 {
				best = minImage(best, g.halfTurn(rt), keep[QuarterTurn])
			}
		}
	}
	return best
}

// minImage is the least of best and the images of y that keep asks for
// (see Group.keep).
func minImage(best, y uint64, keep uint8) uint64 {
	if keep&1 != 0 {
		best = min(best, y)
	}
	if keep&2 != 0 {
		best = min(best, swapPlanes(y))
	}
	return best
}

// CanonOrbit is Canon and Orbit of key together, in one pass, computed by
// the function plan chose for the group (see orbit.go).
func (gr *Group) CanonOrbit(key uint64) (canon, orbit uint64) { return gr.orbit(gr, key) }

// Orbit is the number of distinct keys in the orbit of key.
func (gr *Group) Orbit(key uint64) uint64 {
	_, orbit := gr.orbit(gr, key)
	return orbit
}

// Images appends the distinct keys of the orbit of key to dst, key first:
// the positions that a stored representative stands for.
func (gr *Group) Images(key uint64, dst []uint64) []uint64 {
	b := gr.bases(key)
	start := len(dst)
	dst = append(dst, key)
	for _, m := range gr.maps[1:] {
		if t := image(&b, m); !slices.Contains(dst[start:], t) {
			dst = append(dst, t)
		}
	}
	return dst
}

// bases are the images of key under the board symmetries of the group's
// maps, by symmetry, without the colour swap; the others are left 0. They
// share work as Canon's do.
func (gr *Group) bases(key uint64) (b [8]uint64) {
	g, keep := gr.geo, &gr.keep
	b[Identity] = key
	if keep[HalfTurn] != 0 {
		b[HalfTurn] = g.halfTurn(key)
	}
	if keep[FlipRows]|keep[FlipCols] != 0 {
		b[FlipRows] = g.flipRows(key)
		b[FlipCols] = g.halfTurn(b[FlipRows])
	}
	if keep[Transpose]|keep[QuarterTurn]|keep[AntiTranspose]|keep[ThreeQuarterTurn] != 0 {
		b[Transpose] = g.transpose(key)
		b[AntiTranspose] = g.halfTurn(b[Transpose])
		b[ThreeQuarterTurn] = g.flipRows(b[Transpose])
		b[QuarterTurn] = g.halfTurn(b[ThreeQuarterTurn])
	}
	return b
}

// image is the image of a key under m, given the key's bases.
func image(b *[8]uint64, m *KeyMap) uint64 {
	if m.Swap {
		return swapPlanes(b[m.Sym])
	}
	return b[m.Sym]
}

// CanonPiece is the least translated piece of the orbit of k.
func (gr *Group) CanonPiece(k PieceKey) PieceKey {
	if gr.pieces != nil {
		if b := gr.pieces.box(k.Dims()); b != nil {
			return gr.pieces.canon(k, b)
		}
	}
	return gr.canonPieceSpread(k)
}

// canonPieceSpread is CanonPiece without tables: each image spread over
// 8 x 8 boards (embedded), or square by square for a larger box.
func (gr *Group) canonPieceSpread(k PieceKey) PieceKey {
	rows, cols := k.Dims()
	if rows > 8 || cols > 8 {
		best := k
		for _, m := range gr.maps[1:] {
			if t := m.ApplyPiece(k); t.Less(best) {
				best = t
			}
		}
		return best
	}
	planes := gr.maps[0].planes
	e := embedPiece(k, planes)
	best := e
	for _, m := range gr.maps[1:] {
		if t := e.image(m.Sym, rows, cols, m.Swap); t.less(best) {
			best = t
		}
	}
	return best.key(planes)
}

// Image is one piece of an orbit, and whether the map that gave it
// negates (takes the piece to its negative's symmetric class).
type Image struct {
	Key     PieceKey
	Negates bool
}

// PieceOrbit appends the distinct translated pieces of the orbit of k to
// dst, in key order.
func (gr *Group) PieceOrbit(k PieceKey, dst []Image) []Image {
	start := len(dst)
	dst = append(dst, Image{Key: k})
	var b *boxMaps
	if gr.pieces != nil {
		b = gr.pieces.box(k.Dims())
	}
	for j, m := range gr.maps[1:] {
		var t PieceKey
		if b != nil {
			t = b.image(j+1, uint32(k.Lo), uint32(k.Lo>>32), m.Swap)
		} else {
			t = m.ApplyPiece(k)
		}
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

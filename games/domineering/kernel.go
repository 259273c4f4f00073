package domineering

import (
	"math/bits"
	"slices"

	"github.com/census-cgt/census/games"
)

var _ games.KernelMaker = (*Game)(nil)

// maxMoves bounds the placements of a position: a domino either way from
// each of at most 64 squares. maxPieces bounds its regions: no two share a
// side, so at most every other square of the board holds one.
const (
	maxMoves  = 128
	maxPieces = 32
)

// NewKernel is Domineering's own kernel for gr, a group of the game's key
// maps. Its Visits equal those of games.NewPlainKernel(g, gr), MoveStats
// included, for every position of the board.
//
// A key is the one plane of covered squares, and every map of the group
// permutes its bits without exchanging planes, so the image of a successor
// under a map is the image of the position OR the image of the domino
// placed. The kernel takes the images of the position once (by a row flip
// and a word reversal when the group holds only flips, otherwise from the
// group's SymImages), and holds a table of the images of every domino
// under every map, built here; the canonical key of a successor is then
// the least of a few ORs. The same images give the position's orbit, and
// those of the empty squares are their complements within the board: the
// images of the live regions follow from those of the dead-free board.
func (g *Game) NewKernel(gr *games.Group) games.Kernel {
	b := g.b
	n, sq, rows, cols := gr.Size(), b.Squares(), b.Rows, b.Cols
	k := &kernel{gr: gr, n: n, full: b.Full, cols: uint(cols), small: rows <= 8 && cols <= 8, rowMask: ^uint64(0) >> (64 - cols)}
	for s := range sq {
		k.rowOf[s] = uint8(s / cols)
	}
	k.notFirst, k.notLast = b.InnerColumns()
	for i, h := 0, 1; h < rows; i, h = i+1, h*2 {
		k.fold[i] = uint8(h * cols)
	}
	for d := 1; d < cols; d++ {
		copy(k.closeUp[d][:], games.CloseUpSteps(rows, cols, d, 1))
	}
	maps := gr.Maps()
	k.rect = rows <= 8
	for j, mp := range maps {
		k.sym[j] = uint8(mp.Sym)
		k.rect = k.rect && mp.Sym <= games.HalfTurn
	}
	if n == 4 && k.rect && (k.sym[1] != uint8(games.FlipRows) || k.sym[2] != uint8(games.FlipCols)) {
		k.rect = false
	}
	for f := 1; f <= n; f++ {
		k.orbitOf[f] = uint64(n / f)
	}
	k.hs = uint8(64 - sq)
	for r := 0; k.rect && r < rows-1-r; r++ {
		k.rowSwaps[r] = games.DeltaSwap{Mask: k.rowMask << (r * cols), Shift: uint8((rows - 1 - 2*r) * cols)}
	}
	k.rows4 = rows/2 > 2
	k.dominoes(b, maps)
	return k
}

// dominoes sets the kernel's tables of the images of every domino under
// every map of the group, in the shape that fits the group's size.
func (k *kernel) dominoes(b games.Board, maps []*games.KeyMap) {
	n, sq, rows, cols := k.n, b.Squares(), b.Rows, b.Cols
	// domino[i][j] is the image under map j of the vertical domino whose
	// top square is i, domino[k.horiz+i][j] that of the horizontal one whose
	// left square is i.
	k.horiz = 64
	if sq <= 32 {
		k.horiz = 32
	}
	domino := new([128][games.MaxMaps]uint64)
	for i := range sq {
		r, c := i/cols, i%cols
		for j, mp := range maps {
			if r+1 < rows {
				domino[i][j] = mp.Apply(1<<i | 1<<(i+cols))
			}
			if c+1 < cols {
				domino[int(k.horiz)+i][j] = mp.Apply(1<<i | 1<<(i+1))
			}
		}
	}
	switch n {
	case 1:
		k.d1 = new([128]uint64)
	case 2:
		k.d2 = new([128][2]uint64)
	case 4:
		k.d4 = new([128][4]uint64)
	case 8:
		k.d8 = new([128][8]uint64)
	default:
		k.dn = domino
	}
	for i := range domino {
		x := &domino[i]
		switch n {
		case 1:
			k.d1[i] = x[0]
		case 2:
			copy(k.d2[i][:], x[:])
		case 4:
			copy(k.d4[i][:], x[:])
		case 8:
			copy(k.d8[i][:], x[:])
		}
	}
}

// kernel is the state of one Domineering kernel: the group, the board's
// masks, the tables of the images of the dominoes, and scratch.
type kernel struct {
	gr *games.Group
	// n is the number of maps of the group; map j is the board symmetry
	// sym[j].
	n   int
	sym [games.MaxMaps]uint8
	// orbitOf[f] is the size of the orbit of a key that f maps of the
	// group fix.
	orbitOf [32]uint64
	// rect says the group holds only the identity and flips, and the board
	// has at most 8 rows: the images are those of flips, by the delta
	// swaps rowSwaps of the row flip (the last two needed only when rows4)
	// and a word reversal followed by a shift of hs.
	rect     bool
	rows4    bool
	hs       uint8
	rowSwaps [4]games.DeltaSwap
	// full has a bit for every square of the board, cols is its width and
	// rowMask has a bit for each column; rowOf[s] is the row of square s;
	// notFirst and notLast are the board without its first or last
	// column. small says the board has at most 8 rows and 8 columns. The
	// first steps of fold are the shifts that fold the board's rows onto
	// its first, and those of closeUp[d] the steps that close up the rows
	// of a region d squares narrower than the board (see translate); the
	// others do nothing.
	full              uint64
	cols              uint
	small             bool
	rowMask           uint64
	rowOf             [64]uint8
	notFirst, notLast uint64
	fold              [maxSteps]uint8
	closeUp           [64][maxSteps]games.RowStep
	// The images of the dominoes, as NewKernel's domino, for a group of n
	// maps: the one of d1, d2, d4, d8 or dn that fits n is set. Those of
	// the horizontal dominoes start at row horiz: 32 on a board of at most
	// 32 squares, where one word holds the placements both ways, and 64
	// on the others.
	horiz uint
	d1    *[128]uint64
	d2    *[128][2]uint64
	d4    *[128][4]uint64
	d8    *[128][8]uint64
	dn    *[128][games.MaxMaps]uint64
	// bases and img hold the images of the position being visited: by
	// board symmetry, and under each map of the group; free those of the
	// dead-free board.
	bases [8]uint64
	img   [games.MaxMaps]uint64
	free  [games.MaxMaps]uint64
	// rest and region hold images of live regions (see Visit).
	rest, region [games.MaxMaps]uint64
}

// maxSteps is the most steps of folding or closing up rows: those of a
// board of 64 rows.
const maxSteps = 6

// Visit fills v for pos and adds its moves to m, as the plain kernel does.
//
// The placements of the position are the pairs of empty squares side by
// side; both squares of one lie in one region, so the placements of the
// live regions are those of the whole board, two shifts and masks of the
// empty squares. The regions are the maximal edge-connected sets of empty
// squares, so none touches an empty square outside itself, and
// Game.CountMoves counts no join: neither does Visit.
func (k *kernel) Visit(pos uint64, v *games.Visit, m *games.MoveStats, successors bool) {
	v.Reset()
	k.canonOrbit(pos, v)
	empty := k.full &^ pos
	vert, horiz := empty&(empty>>k.cols), empty&(empty>>1)&k.notLast
	moves := bits.OnesCount64(vert) + bits.OnesCount64(horiz)
	m.Moves += uint64(moves) * v.Orbit
	if successors {
		v.Succ = slices.Grow(v.Succ, maxMoves)
		k.successors((*[maxMoves]uint64)(v.Succ[:maxMoves]), vert, horiz)
		v.Succ = v.Succ[:moves]
	}

	lone, live, last := k.pieces(empty, v)
	if live == 0 {
		// Every empty square is lone: the dead-free board is full.
		v.DeadFree = k.full
		return
	}
	if !k.rect && k.n > 1 {
		k.pieceCanons(pos, lone, live, last, v)
		return
	}
	// The images of the dead-free board, and their complements: those of
	// its empty squares, the live regions.
	free := &k.img
	v.DeadFree = v.Canon
	if lone != 0 {
		free = &k.free
		k.images(pos|lone, free)
		v.DeadFree = k.least(free)
	}
	rest := &k.rest
	for j := range k.n & (games.MaxMaps - 1) {
		rest[j] = k.full ^ free[j]
	}
	// Each live region but the last takes its images, and takes them away
	// from rest; what is left of rest are the images of the last.
	if live > 1 {
		for _, p := range v.Pieces[:last] {
			if p.Live {
				k.images(p.Key, &k.region)
				v.InPlace = append(v.InPlace, k.least(&k.region))
				v.Translated = append(v.Translated, k.translate(p.Mask))
				for j := range k.n & (games.MaxMaps - 1) {
					rest[j] ^= k.region[j]
				}
			}
		}
	}
	v.InPlace = append(v.InPlace, k.least(rest))
	v.Translated = append(v.Translated, k.translate(v.Pieces[last].Mask))
}

// pieceCanons sets v.DeadFree and appends the canonical and translated key
// of each live region, for a group whose images are dearer than its Canon:
// by Canon, but for a single live region and no lone square, whose images
// are the complements of those of the position.
func (k *kernel) pieceCanons(pos, lone uint64, live, last int, v *games.Visit) {
	if lone == 0 {
		v.DeadFree = v.Canon
		if live == 1 {
			rest := &k.rest
			for j := range k.n & (games.MaxMaps - 1) {
				rest[j] = k.full ^ k.img[j]
			}
			v.InPlace = append(v.InPlace, k.least(rest))
			v.Translated = append(v.Translated, k.translate(v.Pieces[last].Mask))
			return
		}
	} else {
		v.DeadFree = k.gr.Canon(pos | lone)
	}
	for _, p := range v.Pieces {
		if p.Live {
			v.InPlace = append(v.InPlace, k.gr.Canon(p.Key))
			v.Translated = append(v.Translated, k.translate(p.Mask))
		}
	}
}

// canonOrbit sets k.img to the images of pos under the group's maps and
// v.Canon and v.Orbit to the least of them and the size of the orbit.
func (k *kernel) canonOrbit(pos uint64, v *games.Visit) {
	img := &k.img
	k.images(pos, img)
	var fixed int
	switch k.n {
	case 1:
		fixed = 1
	case 2:
		fixed = 1 + eq(img[1], pos)
	case 4:
		fixed = 1 + eq(img[1], pos) + eq(img[2], pos) + eq(img[3], pos)
	case 8:
		fixed = 1 + eq(img[1], pos) + eq(img[2], pos) + eq(img[3], pos) +
			eq(img[4], pos) + eq(img[5], pos) + eq(img[6], pos) + eq(img[7], pos)
	default:
		for j := range k.n {
			fixed += eq(img[j], pos)
		}
	}
	v.Canon, v.Orbit = k.least(img), k.orbitOf[fixed&31]
}

// images sets the first n keys of dst to the images of key under the
// group's maps: by flips when k.rect, otherwise from the group's
// SymImages.
func (k *kernel) images(key uint64, dst *[games.MaxMaps]uint64) {
	b, sym := &k.bases, &k.sym
	switch {
	case k.n == 1:
		dst[0] = key
		return
	case k.rect && k.n == 4:
		// The maps are the identity and the flips, in Symmetries order.
		r, c, h := k.flips(key)
		dst[0], dst[1], dst[2], dst[3] = key, r, c, h
		return
	case k.rect:
		r, c, h := k.flips(key)
		b[games.Identity], b[games.FlipRows], b[games.FlipCols], b[games.HalfTurn] = key, r, c, h
	default:
		k.gr.SymImages(key, b)
	}
	switch k.n {
	case 2:
		dst[0], dst[1] = key, b[sym[1]&7]
	case 4:
		dst[0], dst[1], dst[2], dst[3] = key, b[sym[1]&7], b[sym[2]&7], b[sym[3]&7]
	case 8:
		dst[0], dst[1], dst[2], dst[3] = key, b[sym[1]&7], b[sym[2]&7], b[sym[3]&7]
		dst[4], dst[5], dst[6], dst[7] = b[sym[4]&7], b[sym[5]&7], b[sym[6]&7], b[sym[7]&7]
	default:
		for j := range k.n {
			dst[j] = b[sym[j]&7]
		}
	}
}

// flips are the images of key under the row flip, the column flip and the
// half turn: the half turn reverses the word, and the column flip is the
// row flip of the half turn.
func (k *kernel) flips(key uint64) (r, c, h uint64) {
	h = bits.Reverse64(key) >> (k.hs & 63)
	d := &k.rowSwaps
	r = d[1].Apply(d[0].Apply(key))
	c = d[1].Apply(d[0].Apply(h))
	if k.rows4 {
		r = d[3].Apply(d[2].Apply(r))
		c = d[3].Apply(d[2].Apply(c))
	}
	return r, c, h
}

// least is the least of the first n keys of x.
func (k *kernel) least(x *[games.MaxMaps]uint64) uint64 {
	switch k.n {
	case 1:
		return x[0]
	case 2:
		return min(x[0], x[1])
	case 4:
		return min(min(x[0], x[1]), min(x[2], x[3]))
	case 8:
		return min(min(min(x[0], x[1]), min(x[2], x[3])), min(min(x[4], x[5]), min(x[6], x[7])))
	}
	best := x[0]
	for j := 1; j < k.n; j++ {
		best = min(best, x[j])
	}
	return best
}

// eq is 1 when a equals b, 0 otherwise.
func eq(a, b uint64) int {
	if a == b {
		return 1
	}
	return 0
}

// successors fills out with the canonical key of the successor of every
// placement, from k.img and the domino tables: vert are the top squares of
// the vertical dominoes that fit, horiz the left squares of the horizontal
// ones. On a board of at most 32 squares they are read from one word.
func (k *kernel) successors(out *[maxMoves]uint64, vert, horiz uint64) {
	x, y := vert|horiz<<32, uint64(0)
	if k.horiz == 64 {
		x, y = vert, horiz
	}
	p := &k.img
	switch k.n {
	case 1:
		i := succ1(out, 0, x, (*[64]uint64)(k.d1[:64]), p[0])
		succ1(out, i, y, (*[64]uint64)(k.d1[64:]), p[0])
	case 2:
		i := succ2(out, 0, x, (*[64][2]uint64)(k.d2[:64]), p)
		succ2(out, i, y, (*[64][2]uint64)(k.d2[64:]), p)
	case 4:
		i := succ4(out, 0, x, (*[64][4]uint64)(k.d4[:64]), p)
		succ4(out, i, y, (*[64][4]uint64)(k.d4[64:]), p)
	case 8:
		i := succ8(out, 0, x, (*[64][8]uint64)(k.d8[:64]), p)
		succ8(out, i, y, (*[64][8]uint64)(k.d8[64:]), p)
	default:
		i := succN(out, 0, x, (*[64][games.MaxMaps]uint64)(k.dn[:64]), p, k.n)
		succN(out, i, y, (*[64][games.MaxMaps]uint64)(k.dn[64:]), p, k.n)
	}
}

// succ1 sets out[i], out[i+1], ... to the successors of the placements of
// the bits of x, whose dominoes c holds, for the identity alone, and
// returns the index after the last. Like succ2, succ4, succ8 and succN,
// it takes two placements a round.
func succ1(out *[maxMoves]uint64, i int, x uint64, c *[64]uint64, p uint64) int {
	for ; x&(x-1) != 0; x &= x - 1 {
		e := c[bits.TrailingZeros64(x)&63]
		x &= x - 1
		f := c[bits.TrailingZeros64(x)&63]
		out[i&(maxMoves-1)], out[(i+1)&(maxMoves-1)] = p|e, p|f
		i += 2
	}
	if x != 0 {
		out[i&(maxMoves-1)] = p | c[bits.TrailingZeros64(x)&63]
		i++
	}
	return i
}

// succ2 is succ1 for a group of 2 maps, whose images of the position p
// holds.
func succ2(out *[maxMoves]uint64, i int, x uint64, c *[64][2]uint64, p *[games.MaxMaps]uint64) int {
	p0, p1 := p[0], p[1]
	for ; x&(x-1) != 0; x &= x - 1 {
		e := &c[bits.TrailingZeros64(x)&63]
		x &= x - 1
		f := &c[bits.TrailingZeros64(x)&63]
		out[i&(maxMoves-1)] = min(p0|e[0], p1|e[1])
		out[(i+1)&(maxMoves-1)] = min(p0|f[0], p1|f[1])
		i += 2
	}
	if x != 0 {
		e := &c[bits.TrailingZeros64(x)&63]
		out[i&(maxMoves-1)] = min(p0|e[0], p1|e[1])
		i++
	}
	return i
}

// succ4 is succ2 for a group of 4 maps.
func succ4(out *[maxMoves]uint64, i int, x uint64, c *[64][4]uint64, p *[games.MaxMaps]uint64) int {
	p0, p1, p2, p3 := p[0], p[1], p[2], p[3]
	for ; x&(x-1) != 0; x &= x - 1 {
		e := &c[bits.TrailingZeros64(x)&63]
		x &= x - 1
		f := &c[bits.TrailingZeros64(x)&63]
		out[i&(maxMoves-1)] = min(min(p0|e[0], p1|e[1]), min(p2|e[2], p3|e[3]))
		out[(i+1)&(maxMoves-1)] = min(min(p0|f[0], p1|f[1]), min(p2|f[2], p3|f[3]))
		i += 2
	}
	if x != 0 {
		e := &c[bits.TrailingZeros64(x)&63]
		out[i&(maxMoves-1)] = min(min(p0|e[0], p1|e[1]), min(p2|e[2], p3|e[3]))
		i++
	}
	return i
}

// succ8 is succ2 for a group of 8 maps.
func succ8(out *[maxMoves]uint64, i int, x uint64, c *[64][8]uint64, p *[games.MaxMaps]uint64) int {
	for ; x&(x-1) != 0; x &= x - 1 {
		e := &c[bits.TrailingZeros64(x)&63]
		x &= x - 1
		f := &c[bits.TrailingZeros64(x)&63]
		out[i&(maxMoves-1)] = min(min(min(p[0]|e[0], p[1]|e[1]), min(p[2]|e[2], p[3]|e[3])),
			min(min(p[4]|e[4], p[5]|e[5]), min(p[6]|e[6], p[7]|e[7])))
		out[(i+1)&(maxMoves-1)] = min(min(min(p[0]|f[0], p[1]|f[1]), min(p[2]|f[2], p[3]|f[3])),
			min(min(p[4]|f[4], p[5]|f[5]), min(p[6]|f[6], p[7]|f[7])))
		i += 2
	}
	if x != 0 {
		e := &c[bits.TrailingZeros64(x)&63]
		out[i&(maxMoves-1)] = min(min(min(p[0]|e[0], p[1]|e[1]), min(p[2]|e[2], p[3]|e[3])),
			min(min(p[4]|e[4], p[5]|e[5]), min(p[6]|e[6], p[7]|e[7])))
		i++
	}
	return i
}

// succN is succ2 for a group of n maps, one placement a round.
func succN(out *[maxMoves]uint64, i int, x uint64, c *[64][games.MaxMaps]uint64, p *[games.MaxMaps]uint64, n int) int {
	for ; x != 0; x &= x - 1 {
		e := &c[bits.TrailingZeros64(x)&63]
		s := p[0] | e[0]
		for j := 1; j < n; j++ {
			s = min(s, p[j]|e[j])
		}
		out[i&(maxMoves-1)] = s
		i++
	}
	return i
}

// pieces appends the regions of the empty squares to v.Pieces, as
// Game.Pieces does, and returns the lone empty squares (the dead regions),
// the number of live regions, and the index of the last live one.
//
// A lone square, with no empty neighbour, is a region by itself; the
// others are filled from their lowest square, a step to every side a
// round, with the masks of the empty squares that have an empty neighbour
// west (e1), east (w1), north (s1) and south (n1) taken once for all the
// regions. The regions are appended in the order of their lowest squares,
// as Game.Pieces appends them: before each live one, the lone squares
// below its lowest square.
func (k *kernel) pieces(empty uint64, v *games.Visit) (lone uint64, live, last int) {
	cols := k.cols
	e1 := empty & (empty << 1) & k.notFirst
	w1 := empty & (empty >> 1) & k.notLast
	s1 := empty & (empty << cols)
	n1 := empty & (empty >> cols)
	lone = empty &^ (e1 | w1 | s1 | n1)
	v.Pieces = slices.Grow(v.Pieces, maxPieces)
	out, n := (*[maxPieces]games.Piece)(v.Pieces[:maxPieces]), 0
	lones := lone
	for rest := empty &^ lone; rest != 0; {
		y := rest & -rest
		for l := lones & (y - 1); l != 0; l &= l - 1 {
			b := l & -l
			out[n&(maxPieces-1)] = games.Piece{Mask: b, Key: b, Size: 1}
			n++
		}
		lones &^= y - 1
		for {
			z := y | e1&(y<<1) | w1&(y>>1) | s1&(y<<cols) | n1&(y>>cols)
			if z == y {
				break
			}
			y = z
		}
		rest &^= y
		last = n
		live++
		out[n&(maxPieces-1)] = games.Piece{Mask: y, Key: y, Size: bits.OnesCount64(y), Live: true}
		n++
	}
	for ; lones != 0; lones &= lones - 1 {
		b := lones & -lones
		out[n&(maxPieces-1)] = games.Piece{Mask: b, Key: b, Size: 1}
		n++
	}
	v.Pieces = v.Pieces[:n]
	return lone, live, last
}

// translate is Game.Translate of the region mask: its bounding box, and
// its squares shifted to the box's corner with row stride the box's width.
//
// The columns the region uses are its rows folded onto the first, by the
// shifts of k.fold. Shifting the region by the box's first square leaves
// row r of the box at r*cols. On a board of at most 8 x 8 squares each of
// the (at most 8) rows is then moved to r*width at once; on the others, a
// box narrower than the board closes its rows up to stride width by the
// steps of k.closeUp[cols-width], which move the rows whose number has bit
// b set by 2^b*(cols-width) squares, fewer bits first.
func (k *kernel) translate(mask uint64) games.PieceKey {
	cols := k.cols & 63
	r0 := k.rowOf[bits.TrailingZeros64(mask)&63]
	rows := int(k.rowOf[(bits.Len64(mask)-1)&63]-r0) + 1
	used := mask
	f := &k.fold
	if k.small {
		used |= used >> (f[0] & 63)
		used |= used >> (f[1] & 63)
		used |= used >> (f[2] & 63)
	} else {
		for i := range maxSteps {
			used |= used >> (f[i] & 63)
		}
	}
	used &= k.rowMask
	c0 := bits.TrailingZeros64(used) & 63
	width := bits.Len64(used) - c0
	x := mask >> ((uint(r0)*cols + uint(c0)) & 63)
	if k.small {
		// Rows i*cols and widths i*width stay under 64 for i < 8.
		w := uint(width) & 15
		wm := uint64(1)<<w - 1
		c2, c3, w2, w3 := 2*cols&63, 3*cols&63, 2*w&63, 3*w&63
		a := x&wm | (x>>cols&wm)<<w | (x>>c2&wm)<<w2 | (x>>c3&wm)<<w3
		y := x >> (4 * cols & 63)
		b := y&wm | (y>>cols&wm)<<w | (y>>c2&wm)<<w2 | (y>>c3&wm)<<w3
		return games.MakePieceKey(rows, width, a|b<<(4*w&63))
	}
	st := &k.closeUp[(int(cols)-width)&63]
	for i := range maxSteps {
		x = x&^st[i].Mask | (x&st[i].Mask)>>(st[i].Shift&63)
	}
	return games.MakePieceKey(rows, width, x)
}

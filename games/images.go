package games

import "math/bits"

// MaxMaps is the most key maps a group holds: the 8 symmetries of a square
// board, each with and without the colour swap.
const MaxMaps = 16

// Maps are the group's key maps, the identity first. The slice is the
// group's own: the caller must not change it.
func (gr *Group) Maps() []*KeyMap { return gr.maps[:len(gr.maps):len(gr.maps)] }

// SymImages sets dst[s] to the image of key under the board symmetry s
// alone, without the colour swap, for the identity and for every s of
// which the group holds a map (the entries of the other symmetries are
// unspecified). The image of key under a map m of the group is then
// dst[m.Sym], with its planes exchanged (rotated by 32) when m.Swap.
//
// Every map is a permutation of key bits, so the image of a XOR b is the
// XOR of the images: a kernel that takes the images of a position once can
// give those of its successors from the images of the moves' changes.
//
// Each image is a few delta swaps from the key or from another image: the
// half turn is the column flip of the row flip, and the symmetries that
// exchange rows and columns are the others after the transpose. On boards
// of at most 5 rows and 5 columns, whose flips take at most 2 delta swaps
// and transpose at most 4, the swaps are unrolled.
func (gr *Group) SymImages(key uint64, dst *[8]uint64) {
	g, keep := gr.geo, &gr.keep
	flips := keep[FlipRows]|keep[FlipCols]|keep[HalfTurn] != 0
	turns := keep[Transpose]|keep[QuarterTurn]|keep[AntiTranspose]|keep[ThreeQuarterTurn] != 0
	if turns && g.planes == 2 && g.height == 5 && g.width == 5 {
		r, c, h, t, tr, tc, th := images5x5(key)
		*dst = [8]uint64{Identity: key, FlipRows: r, FlipCols: c, HalfTurn: h,
			Transpose: t, QuarterTurn: tc, AntiTranspose: th, ThreeQuarterTurn: tr}
		return
	}
	dst[Identity] = key
	if len(g.rows) <= 2 && len(g.cols) <= 2 && len(g.tr) <= 4 {
		// The swaps a board lacks are noSwap, which does nothing.
		r0, r1 := swapAt(g.rows, 0), swapAt(g.rows, 1)
		c0, c1 := swapAt(g.cols, 0), swapAt(g.cols, 1)
		if flips {
			r := r1.Apply(r0.Apply(key))
			dst[FlipRows], dst[FlipCols], dst[HalfTurn] = r, c1.Apply(c0.Apply(key)), c1.Apply(c0.Apply(r))
		}
		if turns {
			t := swapAt(g.tr, 3).Apply(swapAt(g.tr, 2).Apply(swapAt(g.tr, 1).Apply(swapAt(g.tr, 0).Apply(key))))
			tr := r1.Apply(r0.Apply(t))
			dst[Transpose], dst[ThreeQuarterTurn] = t, tr
			dst[QuarterTurn], dst[AntiTranspose] = c1.Apply(c0.Apply(t)), c1.Apply(c0.Apply(tr))
		}
		return
	}
	if flips {
		r := unrolledSwaps(key, g.rows)
		dst[FlipRows], dst[FlipCols], dst[HalfTurn] = r, unrolledSwaps(key, g.cols), unrolledSwaps(r, g.cols)
	}
	if turns {
		t := unrolledSwaps(key, g.tr)
		tr := unrolledSwaps(t, g.rows)
		dst[Transpose], dst[ThreeQuarterTurn] = t, tr
		dst[QuarterTurn], dst[AntiTranspose] = unrolledSwaps(t, g.cols), unrolledSwaps(tr, g.cols)
	}
}

// noSwap is the delta swap that does nothing.
var noSwap DeltaSwap

// swapAt is ds[i], or noSwap when ds has no swap i.
func swapAt(ds []DeltaSwap, i int) *DeltaSwap {
	if i < len(ds) {
		return &ds[i]
	}
	return &noSwap
}

// unrolledSwaps is swaps(x, ds) for the delta swaps of an involution,
// unrolled for up to 4 of them (the boards of up to 9 rows and columns).
// The swaps of an involution move disjoint pairs of squares, so their
// order does not matter.
func unrolledSwaps(x uint64, ds []DeltaSwap) uint64 {
	switch len(ds) {
	case 0:
		return x
	case 1:
		return ds[0].Apply(x)
	case 2:
		return ds[1].Apply(ds[0].Apply(x))
	case 3:
		return ds[2].Apply(ds[1].Apply(ds[0].Apply(x)))
	case 4:
		return ds[3].Apply(ds[2].Apply(ds[1].Apply(ds[0].Apply(x))))
	}
	return swaps(x, ds)
}

// A RowStep moves rows of squares of a key: the bits of Mask move down by
// Shift (Close) or up (Spread). The fused kernels translate a piece to the
// corner of its box by closing up its rows (CloseUpSteps).
type RowStep struct {
	Mask  uint64
	Shift uint8
}

// Close moves the bits of s.Mask of x down by s.Shift.
func (s *RowStep) Close(x uint64) uint64 { return x&^s.Mask | (x&s.Mask)>>(s.Shift&63) }

// CloseUpSteps are the steps that close up the rows of a box of rows at
// stride cols to stride cols-d, the rows whose number has bit b set moving
// by 2^b*d squares, fewer bits first; with planes 2 they move in both
// 32-bit planes of a key.
func CloseUpSteps(rows, cols, d, planes int) []RowStep {
	width := cols - d
	var steps []RowStep
	for b := 0; 1<<b < rows; b++ {
		var m uint64
		for r := range rows {
			if r>>b&1 != 0 {
				at := r*cols - r%(1<<b)*d
				m |= (uint64(1)<<width - 1) << at
			}
		}
		if planes == 2 {
			m |= m << 32
		}
		steps = append(steps, RowStep{Mask: m, Shift: uint8(d << b)})
	}
	return steps
}

// PlaneTranslator translates the pieces of a two-plane game (Clobber,
// Amazons) on one board by shifts, both planes at once, for the games' own
// kernels; NewPlaneTranslator makes its tables.
type PlaneTranslator struct {
	// cols is the board's width and rowMask has a bit for each column;
	// rowOf[s] is the row of square s and rowStarts[r] has the first
	// square of each of the first r rows. fold are the shifts that fold
	// the board's rows onto its first, and closeUp[d] the steps that close
	// up the rows of a piece d squares narrower than the board.
	cols      int
	rowMask   uint64
	rowOf     [32]uint8
	rowStarts [64]uint64
	fold      []int
	closeUp   [32][]RowStep
}

// NewPlaneTranslator returns the translator of the board b, of at most 32
// squares.
func NewPlaneTranslator(b Board) PlaneTranslator {
	cols := b.Cols
	t := PlaneTranslator{cols: cols, rowMask: uint64(1)<<cols - 1}
	for s := range b.Squares() {
		t.rowOf[s] = uint8(s / cols)
	}
	for r := 1; r <= b.Rows; r++ {
		t.rowStarts[r] = t.rowStarts[r-1] | 1<<((r-1)*cols)
	}
	for h := 1; h < b.Rows; h *= 2 {
		t.fold = append(t.fold, h*cols)
	}
	for d := 1; d < cols; d++ {
		t.closeUp[d] = CloseUpSteps(b.Rows, cols, d, 2)
	}
	return t
}

// Translate is the game's Translate of the piece with squares mask and
// in-place key key: the piece's bounding box, and its cells shifted to the
// box's corner with row stride the box's width, both planes at once. The
// cells of the box outside the piece are as key has them.
//
// The columns the piece uses are its rows folded onto the first, in the
// steps of fold. Shifting the key by the box's first square moves both
// planes and leaves row r of the box at r*cols; the cells of the box are
// then taken by a mask (squares of the high plane below the box land in
// the low plane above it, outside the mask). A box narrower than the board
// then closes its rows up to stride width by the steps of
// closeUp[cols-width], which move the rows whose number has bit b set by
// 2^b*(cols-width) squares, fewer bits first.
func (t *PlaneTranslator) Translate(mask, key uint64) PieceKey {
	cols := t.cols & 63
	r0 := int(t.rowOf[bits.TrailingZeros64(mask)&31])
	rows := int(t.rowOf[(63-bits.LeadingZeros64(mask))&31]) - r0 + 1
	used := mask
	for _, sh := range t.fold {
		used |= used >> (sh & 63)
	}
	used &= t.rowMask
	c0 := bits.TrailingZeros64(used)
	width := 64 - bits.LeadingZeros64(used) - c0
	box := (uint64(1)<<width - 1) * t.rowStarts[rows&63]
	cells := key >> ((r0*cols + c0) & 63) & (box | box<<32)
	for _, st := range t.closeUp[(cols-width)&31] {
		cells = cells&^st.Mask | (cells&st.Mask)>>(st.Shift&63)
	}
	return MakePieceKey(rows, width, cells)
}

// MapImages sets img[j] to the image of key under the group's map j (the
// board symmetry's image from SymImages, its planes exchanged for a map
// with the colour swap) and returns the least of them and the size of
// key's orbit, as CanonOrbit does. A kernel that goes on to the images of
// key's successors keeps img.
func (gr *Group) MapImages(key uint64, img *[MaxMaps]uint64) (canon, orbit uint64) {
	var b [8]uint64
	gr.SymImages(key, &b)
	n := len(gr.maps)
	sym, rot := &gr.mapSym, &gr.mapRot
	var fixed int
	switch n {
	case 4:
		img[0], img[1] = key, bits.RotateLeft64(b[sym[1]&7], int(rot[1]))
		img[2], img[3] = bits.RotateLeft64(b[sym[2]&7], int(rot[2])), bits.RotateLeft64(b[sym[3]&7], int(rot[3]))
		canon = min(min(img[0], img[1]), min(img[2], img[3]))
		fixed = 1 + eq(img[1], key) + eq(img[2], key) + eq(img[3], key)
	case 8:
		img[0], img[1] = key, bits.RotateLeft64(b[sym[1]&7], int(rot[1]))
		img[2], img[3] = bits.RotateLeft64(b[sym[2]&7], int(rot[2])), bits.RotateLeft64(b[sym[3]&7], int(rot[3]))
		img[4], img[5] = bits.RotateLeft64(b[sym[4]&7], int(rot[4])), bits.RotateLeft64(b[sym[5]&7], int(rot[5]))
		img[6], img[7] = bits.RotateLeft64(b[sym[6]&7], int(rot[6])), bits.RotateLeft64(b[sym[7]&7], int(rot[7]))
		canon = min(min(min(img[0], img[1]), min(img[2], img[3])), min(min(img[4], img[5]), min(img[6], img[7])))
		fixed = 1 + eq(img[1], key) + eq(img[2], key) + eq(img[3], key) +
			eq(img[4], key) + eq(img[5], key) + eq(img[6], key) + eq(img[7], key)
	default:
		canon = key
		for j := range n {
			img[j] = bits.RotateLeft64(b[sym[j]&7], int(rot[j]))
			canon = min(canon, img[j])
			fixed += eq(img[j], key)
		}
	}
	return canon, orbitSize(n, fixed)
}

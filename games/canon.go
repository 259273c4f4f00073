package games

import "math/bits"

// Canon runs once per successor of a census, so a group chooses when it is
// built (plan) the function that computes Canon for it, fitted to the
// board and to the images the group holds, so that the hot path neither
// loops over delta swaps nor branches on the group's maps:
//
//   - canonIdentity for the identity alone (symmetry off);
//   - canonOne for the identity and one other map (Amazons), by at most 4
//     delta swaps or a word reversal;
//   - canonRect for the flips and the half turn, each with or without the
//     colour swap (Domineering and Clobber on most boards), by unrolled
//     delta swaps and a word reversal, each from the key;
//   - canonD4x1 and canonD4x2 for all 8 symmetries on a square board of at
//     most 8 x 8 (one plane) or 4 x 4 (two planes), on the key spread to
//     rows of one byte (see bytePlan);
//   - canon5x5 (canon5x5Swap with some colour swaps) for all 8 symmetries
//     on a 5 x 5 board with two planes (Clobber), whose planes spread to
//     byte rows would not fit one word, by delta swaps on the key's own
//     layout;
//   - canonShared for any other group.
//
// It chooses CanonOrbit's function with it (see orbit.go), and Least's:
// leastD4x1 for the groups of canonD4x1, Canon against the key for the
// others.

// plan chooses the functions that compute Canon and CanonOrbit for the
// group.
func (gr *Group) plan() {
	gr.canon, gr.orbit = (*Group).canonShared, (*Group).orbitShared
	gr.least = (*Group).leastCanon
	if gr.geo.planes == 1 {
		for _, k := range gr.keep {
			if k&2 != 0 {
				return // no map swaps the planes of a one-plane key
			}
		}
	}
	switch {
	case len(gr.maps) == 1:
		gr.canon, gr.orbit = (*Group).canonIdentity, (*Group).orbitIdentity
	case len(gr.maps) == 2 && gr.planOne(gr.maps[1]):
	case gr.planRect():
	case gr.planD4():
	case gr.plan5x5():
	}
}

// plan5x5 sets the group to canon5x5 or canon5x5Swap when it holds all 8
// symmetries, each with or without the colour swap but not both, on a
// 5 x 5 board with two planes.
func (gr *Group) plan5x5() bool {
	g, keep := gr.geo, &gr.keep
	if keep[Identity] != 0 || g.planes != 2 || g.height != 5 || g.width != 5 {
		return false
	}
	swap := false
	for s := FlipRows; s <= ThreeQuarterTurn; s++ {
		k := keep[s]
		if k != 1 && k != 2 {
			return false
		}
		swap = swap || k == 2
		gr.bytes.rot[s] = rotation(k == 2, false)
	}
	gr.canon, gr.orbit = (*Group).canon5x5, (*Group).orbit5x5
	if swap {
		gr.canon, gr.orbit = (*Group).canon5x5Swap, (*Group).orbit5x5Swap
	}
	return true
}

func (gr *Group) canonIdentity(key uint64) uint64 { return key }

// rotation is the rotation that gives the image under a map with the colour
// swap (or without, for swap false) from the image as computed, which has
// its planes exchanged when computedSwapped.
func rotation(swap, computedSwapped bool) uint8 {
	if swap != computedSwapped {
		return 32
	}
	return 0
}

// oneMap is what canonOne needs: the map's delta swaps (the unused ones do
// nothing), or for the half turn the shift that follows the word reversal,
// and the rotation from the image as computed to the one the group holds.
type oneMap struct {
	ds       [4]DeltaSwap
	halfTurn bool
	hs, rot  uint8
}

// planOne sets the group, of the identity and m, to canonOne when m is a
// flip or a transpose of at most 4 delta swaps, or the half turn.
func (gr *Group) planOne(m *KeyMap) bool {
	g := gr.geo
	o := &gr.one
	*o = oneMap{}
	var ds []DeltaSwap
	switch m.Sym {
	case FlipRows:
		ds = g.rows
	case FlipCols:
		ds = g.cols
	case Transpose:
		ds = g.tr
	case HalfTurn:
		o.halfTurn = true
	default:
		return false
	}
	if len(ds) > len(o.ds) {
		return false
	}
	copy(o.ds[:], ds)
	o.rot = rotation(m.Swap, false)
	if o.halfTurn {
		o.hs = uint8(64 - g.squares)
		if g.planes == 2 {
			// The word reversal of a two-plane key exchanges its planes.
			o.hs, o.rot = uint8(32-g.squares), rotation(m.Swap, true)
		}
	}
	gr.canon, gr.orbit = (*Group).canonOne, (*Group).orbitOne
	return true
}

// canonOne is Canon for a group of the identity and one other map (see
// oneMap).
func (gr *Group) canonOne(key uint64) uint64 {
	o := &gr.one
	var x uint64
	if o.halfTurn {
		x = bits.Reverse64(key) >> (o.hs & 63)
	} else {
		x = o.ds[3].Apply(o.ds[2].Apply(o.ds[1].Apply(o.ds[0].Apply(key))))
	}
	return min(key, bits.RotateLeft64(x, int(o.rot)))
}

// rectPlan is what canonRect needs: the delta swaps of the row flip and of
// the column flip (up to 4 each, the unused ones doing nothing) and whether
// each needs more than 2, the shift that follows the word reversal of the
// half turn, and the rotations from the images as computed to those the
// group holds, for the row flip, the column flip and the half turn.
type rectPlan struct {
	r, c       [4]DeltaSwap
	r4, c4     bool
	hs         uint8
	rR, rC, rH uint8
}

// planRect sets the group to canonRect when it holds the flips and the
// half turn, each with or without the colour swap but not both, and nothing
// else, on a board whose flips take at most 4 delta swaps each.
func (gr *Group) planRect() bool {
	g, keep := gr.geo, &gr.keep
	if keep[Identity] != 0 || len(g.rows) > 4 || len(g.cols) > 4 {
		return false
	}
	for s := FlipRows; s <= ThreeQuarterTurn; s++ {
		if k := keep[s]; s <= HalfTurn && k != 1 && k != 2 || s > HalfTurn && k != 0 {
			return false
		}
	}
	p := &gr.rect
	*p = rectPlan{r4: len(g.rows) > 2, c4: len(g.cols) > 2}
	copy(p.r[:], g.rows)
	copy(p.c[:], g.cols)
	p.rR = rotation(keep[FlipRows] == 2, false)
	p.rC = rotation(keep[FlipCols] == 2, false)
	p.rH = rotation(keep[HalfTurn] == 2, false)
	p.hs = uint8(64 - g.squares)
	if g.planes == 2 {
		// The word reversal of a two-plane key exchanges its planes.
		p.hs, p.rH = uint8(32-g.squares), rotation(keep[HalfTurn] == 2, true)
	}
	gr.canon, gr.orbit = (*Group).canonRect, (*Group).orbitRect
	return true
}

// canonRect is Canon for a group of the flips and the half turn, on the
// board's own layout (see rectPlan). The three images are computed from
// the key independently, not one from another, so that they overlap.
func (gr *Group) canonRect(key uint64) uint64 {
	p := &gr.rect
	r := p.r[1].Apply(p.r[0].Apply(key))
	if p.r4 {
		r = p.r[3].Apply(p.r[2].Apply(r))
	}
	c := p.c[1].Apply(p.c[0].Apply(key))
	if p.c4 {
		c = p.c[3].Apply(p.c[2].Apply(c))
	}
	h := bits.Reverse64(key) >> (p.hs & 63)
	return min(min(key, bits.RotateLeft64(r, int(p.rR))),
		min(bits.RotateLeft64(c, int(p.rC)), bits.RotateLeft64(h, int(p.rH))))
}

// A spread moves the bits of mask by shift: left to spread a key's rows
// apart, right to close them up again.
type spread struct {
	mask  uint64
	shift uint8
}

// left moves the bits of s.mask left by s.shift: a step of a spread.
func (s *spread) left(x uint64) uint64 { return x&^s.mask | (x&s.mask)<<(s.shift&63) }

// right moves the bits of s.mask right by s.shift: a step of a close-up.
func (s *spread) right(x uint64) uint64 { return x&^s.mask | (x&s.mask)>>(s.shift&63) }

// bytePlan is what the D4 functions need to work on a key spread to rows
// of one byte each: the key's square (r, c) goes to bit 8(r+a)+c+a of its
// plane, with the offset a that puts the board as near the middle of the
// 8 x 8 board (4 x 8 for each plane of a two-plane key) as it can. The
// spreading keeps the order of squares, so the least spread image is the
// spread least image, which is closed up once at the end.
//
// On a byte board, reversing the bytes flips the rows (and exchanges the
// planes of a two-plane key), mirror8 flips the columns, and transpose8
// (transpose4x2 for two planes) exchanges rows and columns; each image
// lands at the offsets the board had, or one row or column further (when
// the board's side is odd), which a right shift by sR or sC undoes.
type bytePlan struct {
	// out spreads the rows from stride cols to stride 8, in order, before
	// the shift by off; in closes them up, in order, after the shift back.
	// A two-plane key has at most 4 rows and uses out[1:] and in[:2].
	out, in [3]spread
	off     uint8 // 8a+a
	sR, sC  uint8
	// rot[s] is the rotation from the image under symmetry s as computed to
	// the image the group holds.
	rot [8]uint8
}

// reversed says which images the D4 functions compute with the planes of
// a two-plane key exchanged: those whose bytes they reversed once.
var reversed = [8]bool{FlipRows: true, HalfTurn: true, ThreeQuarterTurn: true, AntiTranspose: true}

// planD4 sets the group to canonD4x1 or canonD4x2 when it holds all 8
// symmetries, each with or without the colour swap but not both, on a
// square board whose rows fit one byte each.
func (gr *Group) planD4() bool {
	g, keep := gr.geo, &gr.keep
	n, rowSpace := g.height, 8/g.planes // byte rows a plane has
	if keep[Identity] != 0 || g.width != n || n > rowSpace {
		return false
	}
	for s := FlipRows; s <= ThreeQuarterTurn; s++ {
		if k := keep[s]; k != 1 && k != 2 {
			return false
		}
	}
	p := &gr.bytes
	*p = bytePlan{}
	a := (rowSpace - n) / 2
	p.off = uint8(8*a + a)
	p.sR = uint8(8 * (rowSpace - n - 2*a))
	p.sC = uint8(8 - n - 2*a)
	// Spread row r from bit r*n to bit 8r by the bits of r, the high one
	// first, so that no row moves onto one still to move; close them up in
	// the reverse order.
	rowMask := uint64(1)<<n - 1
	pos := make([]int, n)
	for r := range pos {
		pos[r] = r * n
	}
	for i, k := range []int{2, 1, 0} {
		p.out[i] = spreadStep(pos, k, rowMask, 8-n, g.planes)
	}
	for i, k := range []int{0, 1, 2} {
		p.in[i] = spreadStep(pos, k, rowMask, n-8, g.planes)
	}
	for s, k := range keep {
		p.rot[s] = rotation(k == 2, g.planes == 2 && reversed[s])
	}
	gr.canon, gr.orbit, gr.least = (*Group).canonD4x1, (*Group).orbitD4x1, (*Group).leastD4x1
	if g.planes == 2 {
		gr.least = (*Group).leastCanon
		gr.canon, gr.orbit = (*Group).canonD4x2, (*Group).orbitD4x2
	}
	return true
}

// spreadStep is the step of a spread that moves the rows whose number has
// bit k set by 2^k times d columns, and moves their positions in pos.
func spreadStep(pos []int, k int, rowMask uint64, d, planes int) spread {
	d <<= k
	var m uint64
	for r := range pos {
		if r>>k&1 != 0 {
			m |= rowMask << pos[r]
			pos[r] += d
		}
	}
	if d == 0 {
		return spread{}
	}
	if planes == 2 {
		m |= m << 32
	}
	return spread{mask: m, shift: uint8(max(d, -d))}
}

// canonD4x1 is Canon for a one-plane key on a square board of at most 8 x 8
// whose group holds all 8 symmetries (see bytePlan).
func (gr *Group) canonD4x1(key uint64) uint64 {
	p := &gr.bytes
	sR, sC, sH := p.sR&63, p.sC&63, (p.sR+p.sC)&63
	e := p.out[2].left(p.out[1].left(p.out[0].left(key))) << (p.off & 63)
	m := mirror8(e)
	r := bits.ReverseBytes64(e) >> sR
	h := bits.ReverseBytes64(m) >> sH
	t := transpose8(e)
	tm := mirror8(t)
	tr := bits.ReverseBytes64(t) >> sR
	th := bits.ReverseBytes64(tm) >> sH
	best := min(min(min(e, r), min(m>>sC, h)), min(min(t, tr), min(tm>>sC, th)))
	return p.in[2].right(p.in[1].right(p.in[0].right(best >> (p.off & 63))))
}

// leastD4x1 is Least for the groups of canonD4x1. The spread keeps the
// order of keys, so key is least when no image of its spread is below the
// spread; the images are tried the cheapest first (a byte reversal, then
// the mirror, then the transposes), and the first below it ends the test.
func (gr *Group) leastD4x1(key uint64) bool {
	p := &gr.bytes
	sR, sC, sH := p.sR&63, p.sC&63, (p.sR+p.sC)&63
	e := p.out[2].left(p.out[1].left(p.out[0].left(key))) << (p.off & 63)
	if bits.ReverseBytes64(e)>>sR < e {
		return false
	}
	m := mirror8(e)
	if min(m>>sC, bits.ReverseBytes64(m)>>sH) < e {
		return false
	}
	t := transpose8(e)
	tm := mirror8(t)
	return min(min(t, bits.ReverseBytes64(t)>>sR), min(tm>>sC, bits.ReverseBytes64(tm)>>sH)) >= e
}

// canonD4x2 is Canon for a two-plane key on a square board of at most
// 4 x 4 whose group holds all 8 symmetries (see bytePlan).
func (gr *Group) canonD4x2(key uint64) uint64 {
	p := &gr.bytes
	sR, sC, sH := p.sR&63, p.sC&63, (p.sR+p.sC)&63
	e := p.out[2].left(p.out[1].left(key)) << (p.off & 63)
	m := mirror8(e)
	r := bits.ReverseBytes64(e) >> sR
	h := bits.ReverseBytes64(m) >> sH
	t := transpose4x2(e)
	tm := mirror8(t)
	tr := bits.ReverseBytes64(t) >> sR
	th := bits.ReverseBytes64(tm) >> sH
	rot := &p.rot
	best := min(
		min(min(e, bits.RotateLeft64(r, int(rot[FlipRows]))),
			min(bits.RotateLeft64(m>>sC, int(rot[FlipCols])), bits.RotateLeft64(h, int(rot[HalfTurn])))),
		min(min(bits.RotateLeft64(t, int(rot[Transpose])), bits.RotateLeft64(tr, int(rot[ThreeQuarterTurn]))),
			min(bits.RotateLeft64(tm>>sC, int(rot[QuarterTurn])), bits.RotateLeft64(th, int(rot[AntiTranspose])))))
	return p.in[1].right(p.in[0].right(best >> (p.off & 63)))
}

// transpose4x2 exchanges rows and columns of the 4 x 4 corner of each
// plane of a two-plane key spread to byte rows, square (r, c) going to
// (c, r): the off-diagonal 2 x 2 blocks change places, then each block is
// transposed.
func transpose4x2(x uint64) uint64 {
	t := (x ^ x>>14) & 0x00000c0c00000c0c
	x ^= t ^ t<<14
	t = (x ^ x>>7) & 0x000a000a000a000a
	return x ^ t ^ t<<7
}

// canon5x5 is Canon for a two-plane key on a 5 x 5 board whose group holds
// all 8 symmetries, each without the colour swap (Clobber 5 x 5). It works
// on the key's own layout, so the images compare as they are. Each of the
// flips and the transpose exchanges disjoint pairs of squares, by delta
// swaps of constant shifts and masks computed side by side from one word
// (see flipRows5, flipCols5 and transpose5); the half turn is the two
// flips, cheaper here than the word reversal.
func (gr *Group) canon5x5(key uint64) uint64 {
	// The body of images5x5, which is too large to inline.
	r := flipRows5(key)
	c := flipCols5(key)
	h := flipCols5(r)
	t := transpose5(key)
	tr := flipRows5(t)  // three-quarter turn
	tc := flipCols5(t)  // quarter turn
	th := flipCols5(tr) // antitranspose
	return min(min(min(key, r), min(c, h)), min(min(t, tr), min(tc, th)))
}

// canon5x5Swap is canon5x5 for a group that holds some of the symmetries
// with the colour swap instead (see bytePlan.rot).
func (gr *Group) canon5x5Swap(key uint64) uint64 {
	r, c, h, t, tr, tc, th := images5x5(key)
	rot := &gr.bytes.rot
	return min(
		min(min(key, bits.RotateLeft64(r, int(rot[FlipRows]))),
			min(bits.RotateLeft64(c, int(rot[FlipCols])), bits.RotateLeft64(h, int(rot[HalfTurn])))),
		min(min(bits.RotateLeft64(t, int(rot[Transpose])), bits.RotateLeft64(tr, int(rot[ThreeQuarterTurn]))),
			min(bits.RotateLeft64(tc, int(rot[QuarterTurn])), bits.RotateLeft64(th, int(rot[AntiTranspose])))))
}

// images5x5 are the images of a two-plane 5 x 5 key under the row flip,
// the column flip, the half turn, the transpose, the three-quarter turn,
// the quarter turn and the antitranspose, without the colour swap.
func images5x5(key uint64) (r, c, h, t, tr, tc, th uint64) {
	r = flipRows5(key)
	c = flipCols5(key)
	h = flipCols5(r)
	t = transpose5(key)
	tr = flipRows5(t)
	tc = flipCols5(t)
	th = flipCols5(tr)
	return
}

// flipRows5 flips the rows of both planes of a two-plane 5 x 5 key: rows
// 0 and 4 change places, 20 bits apart, and rows 1 and 3, 10 apart.
func flipRows5(x uint64) uint64 {
	t0 := (x>>20 ^ x) & 0x0000001f0000001f
	t1 := (x>>10 ^ x) & 0x000003e0000003e0
	return (x ^ (t0 ^ t0<<20)) ^ (t1 ^ t1<<10)
}

// flipCols5 flips the columns of both planes of a two-plane 5 x 5 key:
// columns 0 and 4 change places, 4 bits apart, and columns 1 and 3, 2
// apart.
func flipCols5(x uint64) uint64 {
	t0 := (x>>4 ^ x) & 0x0010842100108421
	t1 := (x>>2 ^ x) & 0x0021084200210842
	return (x ^ (t0 ^ t0<<4)) ^ (t1 ^ t1<<2)
}

// transpose5 exchanges rows and columns of both planes of a two-plane
// 5 x 5 key: square (r, c) above the diagonal changes places with (c, r),
// 4(c-r) bits further.
func transpose5(x uint64) uint64 {
	t1 := (x>>4 ^ x) & 0x0008208200082082
	t2 := (x>>8 ^ x) & 0x0000410400004104
	t3 := (x>>12 ^ x) & 0x0000020800000208
	t4 := (x>>16 ^ x) & 0x0000001000000010
	return (x ^ (t1 ^ t1<<4)) ^ ((t2 ^ t2<<8) ^ (t3 ^ t3<<12)) ^ (t4 ^ t4<<16)
}

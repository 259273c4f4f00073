package games

import "math/bits"

// CanonOrbit runs once per stored position and Orbit once per position a
// reduction reads, so a group chooses for them too, in plan, a function
// fitted to its maps and board (orbitIdentity, orbitOne, orbitRect,
// orbitD4x1, orbitD4x2, orbit5x5, orbit5x5Swap or orbitShared). Each computes the images
// as the Canon function of the same name does (on the spread key for the
// D4 functions, where equal images are equal keys), counts those equal to
// the key, and takes the least.

// orbitSize is the size of the orbit of a key under a group of n maps of
// which fixed map the key to itself (n/fixed, as a 32-bit division, which
// is quicker than a 64-bit one).
func orbitSize(n, fixed int) uint64 { return uint64(uint32(n) / uint32(fixed)) }

// eq is 1 when a equals b, 0 otherwise.
func eq(a, b uint64) int {
	if a == b {
		return 1
	}
	return 0
}

func (gr *Group) orbitIdentity(key uint64) (canon, orbit uint64) { return key, 1 }

func (gr *Group) orbitOne(key uint64) (canon, orbit uint64) {
	x := gr.one.image(key)
	return min(key, x), orbitSize(2, 1+eq(x, key))
}

func (gr *Group) orbitRect(key uint64) (canon, orbit uint64) {
	r, c, h := gr.rect.images(key)
	fixed := 1 + eq(r, key) + eq(c, key) + eq(h, key)
	return min(min(key, r), min(c, h)), orbitSize(4, fixed)
}

func (gr *Group) orbitD4x1(key uint64) (canon, orbit uint64) {
	p := &gr.bytes
	e, r, m, h, t, tr, tm, th := p.images1(key)
	fixed := 1 + eq(r, e) + eq(m, e) + eq(h, e) + eq(t, e) + eq(tr, e) + eq(tm, e) + eq(th, e)
	best := min(min(min(e, r), min(m, h)), min(min(t, tr), min(tm, th)))
	return p.in[2].right(p.in[1].right(p.in[0].right(best >> (p.off & 63)))), orbitSize(8, fixed)
}

func (gr *Group) orbitD4x2(key uint64) (canon, orbit uint64) {
	p := &gr.bytes
	e, r, m, h, t, tr, tm, th := p.images2(key)
	fixed := 1 + eq(r, e) + eq(m, e) + eq(h, e) + eq(t, e) + eq(tr, e) + eq(tm, e) + eq(th, e)
	best := min(min(min(e, r), min(m, h)), min(min(t, tr), min(tm, th)))
	return p.in[1].right(p.in[0].right(best >> (p.off & 63))), orbitSize(8, fixed)
}

func (gr *Group) orbit5x5(key uint64) (canon, orbit uint64) {
	// The body of images5x5, which is too large to inline.
	r := flipRows5(key)
	c := flipCols5(key)
	h := flipCols5(r)
	t := transpose5(key)
	tr := flipRows5(t)
	tc := flipCols5(t)
	th := flipCols5(tr)
	fixed := 1 + eq(r, key) + eq(c, key) + eq(h, key) + eq(t, key) + eq(tr, key) + eq(tc, key) + eq(th, key)
	return min(min(min(key, r), min(c, h)), min(min(t, tr), min(tc, th))), orbitSize(8, fixed)
}

func (gr *Group) orbit5x5Swap(key uint64) (canon, orbit uint64) {
	r, c, h, t, tr, tc, th := images5x5(key)
	rot := &gr.bytes.rot
	r = bits.RotateLeft64(r, int(rot[FlipRows]))
	c = bits.RotateLeft64(c, int(rot[FlipCols]))
	h = bits.RotateLeft64(h, int(rot[HalfTurn]))
	t = bits.RotateLeft64(t, int(rot[Transpose]))
	tr = bits.RotateLeft64(tr, int(rot[ThreeQuarterTurn]))
	tc = bits.RotateLeft64(tc, int(rot[QuarterTurn]))
	th = bits.RotateLeft64(th, int(rot[AntiTranspose]))
	fixed := 1 + eq(r, key) + eq(c, key) + eq(h, key) + eq(t, key) + eq(tr, key) + eq(tc, key) + eq(th, key)
	return min(min(min(key, r), min(c, h)), min(min(t, tr), min(tc, th))), orbitSize(8, fixed)
}

// orbitShared is CanonOrbit for any group, from the images of bases.
func (gr *Group) orbitShared(key uint64) (canon, orbit uint64) {
	b := gr.bases(key)
	canon, fixed := key, 1
	for _, m := range gr.maps[1:] {
		t := image(&b, m)
		if t == key {
			fixed++
		}
		canon = min(canon, t)
	}
	return canon, orbitSize(len(gr.maps), fixed)
}

// image is the image of key under the map other than the identity, as
// canonOne computes it.
func (o *oneMap) image(key uint64) uint64 {
	var x uint64
	if o.halfTurn {
		x = bits.Reverse64(key) >> (o.hs & 63)
	} else {
		x = o.ds[3].Apply(o.ds[2].Apply(o.ds[1].Apply(o.ds[0].Apply(key))))
	}
	return bits.RotateLeft64(x, int(o.rot))
}

// images are the images of key under the row flip, the column flip and
// the half turn, as canonRect computes them.
func (p *rectPlan) images(key uint64) (r, c, h uint64) {
	r = p.r[1].Apply(p.r[0].Apply(key))
	if p.r4 {
		r = p.r[3].Apply(p.r[2].Apply(r))
	}
	c = p.c[1].Apply(p.c[0].Apply(key))
	if p.c4 {
		c = p.c[3].Apply(p.c[2].Apply(c))
	}
	h = bits.Reverse64(key) >> (p.hs & 63)
	return bits.RotateLeft64(r, int(p.rR)), bits.RotateLeft64(c, int(p.rC)), bits.RotateLeft64(h, int(p.rH))
}

// images1 is the spread key e of a one-plane key and its images, as
// canonD4x1 computes them: under the row flip, the column flip, the half
// turn, the transpose, the three-quarter turn, the quarter turn and the
// antitranspose.
func (p *bytePlan) images1(key uint64) (e, r, m, h, t, tr, tm, th uint64) {
	sR, sC, sH := p.sR&63, p.sC&63, (p.sR+p.sC)&63
	e = p.out[2].left(p.out[1].left(p.out[0].left(key))) << (p.off & 63)
	m = mirror8(e)
	r = bits.ReverseBytes64(e) >> sR
	h = bits.ReverseBytes64(m) >> sH
	t = transpose8(e)
	tm = mirror8(t)
	tr = bits.ReverseBytes64(t) >> sR
	th = bits.ReverseBytes64(tm) >> sH
	return e, r, m >> sC, h, t, tr, tm >> sC, th
}

// images2 is images1 for a two-plane key, as canonD4x2 computes them, with
// the colour swap where the group holds it.
func (p *bytePlan) images2(key uint64) (e, r, m, h, t, tr, tm, th uint64) {
	sR, sC, sH := p.sR&63, p.sC&63, (p.sR+p.sC)&63
	e = p.out[2].left(p.out[1].left(key)) << (p.off & 63)
	m = mirror8(e)
	r = bits.ReverseBytes64(e) >> sR
	h = bits.ReverseBytes64(m) >> sH
	t = transpose4x2(e)
	tm = mirror8(t)
	tr = bits.ReverseBytes64(t) >> sR
	th = bits.ReverseBytes64(tm) >> sH
	rot := &p.rot
	return e, bits.RotateLeft64(r, int(rot[FlipRows])), bits.RotateLeft64(m>>sC, int(rot[FlipCols])),
		bits.RotateLeft64(h, int(rot[HalfTurn])), bits.RotateLeft64(t, int(rot[Transpose])),
		bits.RotateLeft64(tr, int(rot[ThreeQuarterTurn])), bits.RotateLeft64(tm>>sC, int(rot[QuarterTurn])),
		bits.RotateLeft64(th, int(rot[AntiTranspose]))
}

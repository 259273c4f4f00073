package cgt

import "slices"

// New returns the canonical form of { left | right }, whose options are
// games of t (in any order, repeats allowed). It deletes dominated options
// and bypasses reversible ones until neither is left, which yields the
// unique canonical form (Siegel, Combinatorial Game Theory, II.2).
func (t *Table) New(left, right []ID) ID {
	l := sorted(slices.Clone(left)...)
	r := sorted(slices.Clone(right)...)
	if lo, hi, ok := t.numberBounds(l, r); ok && (lo == nil || hi == nil || lo.Cmp(*hi) < 0) {
		return t.Number(simplest(lo, hi))
	}
	if slices.Equal(l, r) && t.allNimbers(l) {
		// {*a, *b, ... | *a, *b, ...} = *mex (the mex rule).
		m := 0
		for slices.ContainsFunc(l, func(o ID) bool { return t.nodes[o].nim == int32(m) }) {
			m++
		}
		return t.Nimber(m)
	}
	for {
		changed := false
		l, changed = t.undominated(l, true, changed)
		r, changed = t.undominated(r, false, changed)
		l, changed = t.bypass(l, r, true, changed)
		r, changed = t.bypass(l, r, false, changed)
		if !changed {
			break
		}
	}
	return t.intern(l, r)
}

func (t *Table) allNimbers(opts []ID) bool {
	for _, o := range opts {
		n := &t.nodes[o]
		if !n.isNus || n.num.Num != 0 || n.ups != 0 {
			return false
		}
	}
	return true
}

// undominated deletes from opts every option another one dominates: for
// Left one that is <= another, for Right one that is >= another. The
// options are distinct games, so domination is strict.
func (t *Table) undominated(opts []ID, left, changed bool) ([]ID, bool) {
	out := opts[:0:0]
	for i, a := range opts {
		dominated := false
		for j, b := range opts {
			if i != j && (left && t.Le(a, b) || !left && t.Le(b, a)) {
				dominated = true
				break
			}
		}
		if dominated {
			changed = true
		} else {
			out = append(out, a)
		}
	}
	return out, changed
}

// bypass replaces each reversible option of one side of G = {l | r} by the
// options of its reversing option: a Left option GL is reversible through
// GLR <= G and is replaced by the Left options of GLR; symmetrically for
// Right.
func (t *Table) bypass(l, r []ID, left, changed bool) ([]ID, bool) {
	opts := l
	if !left {
		opts = r
	}
	var out []ID
	for _, o := range opts {
		replaced := false
		if left {
			for _, rev := range t.nodes[o].right {
				if t.leIDForm(rev, l, r) {
					out = append(out, t.nodes[rev].left...)
					replaced = true
					break
				}
			}
		} else {
			for _, rev := range t.nodes[o].left {
				if t.leFormID(l, r, rev) {
					out = append(out, t.nodes[rev].right...)
					replaced = true
					break
				}
			}
		}
		if replaced {
			changed = true
		} else {
			out = append(out, o)
		}
	}
	return sorted(out...), changed
}

// leIDForm reports h <= G for G = {l | r}: no h^L >= G and no G^R <= h.
func (t *Table) leIDForm(h ID, l, r []ID) bool {
	for _, gr := range r {
		if t.Le(gr, h) {
			return false
		}
	}
	for _, hl := range t.nodes[h].left {
		if t.leFormID(l, r, hl) {
			return false
		}
	}
	return true
}

// leFormID reports G <= h for G = {l | r}: no G^L >= h and no h^R <= G.
func (t *Table) leFormID(l, r []ID, h ID) bool {
	for _, gl := range l {
		if t.Le(h, gl) {
			return false
		}
	}
	for _, hr := range t.nodes[h].right {
		if t.leIDForm(hr, l, r) {
			return false
		}
	}
	return true
}

// Le reports g <= h.
func (t *Table) Le(g, h ID) bool {
	if g == h {
		return true
	}
	gn, hn := &t.nodes[g], &t.nodes[h]
	if gn.isNum && hn.isNum {
		return gn.num.Cmp(hn.num) <= 0
	}
	if gn.isNus && hn.isNus {
		return nusLe(gn, hn)
	}
	k := uint64(g)<<32 | uint64(h)
	if v, ok := t.leq.get(k); ok {
		return v != 0
	}
	v := t.le(g, h)
	var bit uint32
	if v {
		bit = 1
	}
	t.leq.put(k, bit)
	return v
}

// nusLe reports x + n.↑ + *m <= y + k.↑ + *j from the difference
// (x-y) + u.↑ + *s, u = n-k, s = m xor j: a nonzero number decides by its
// sign; otherwise u.↑ + *s <= 0 exactly when it is 0, or u <= -2, or
// u = -1 and s != 1 (↓* is confused with 0, ↓ + *s for s != 1 is
// negative; Siegel, Combinatorial Game Theory, II.4).
func nusLe(g, h *node) bool {
	if c := g.num.Cmp(h.num); c != 0 {
		return c < 0
	}
	u, s := g.ups-h.ups, g.nim^h.nim
	return u == 0 && s == 0 || u <= -2 || u == -1 && s != 1
}

func (t *Table) le(g, h ID) bool {
	gn, hn := &t.nodes[g], &t.nodes[h]
	// By number avoidance, against a number x only the other game's
	// options matter: x <= H iff no H^R <= x, and G <= x iff no G^L >= x,
	// when H and G are not numbers.
	if !gn.isNum {
		for _, gl := range gn.left {
			if t.Le(h, gl) {
				return false
			}
		}
	}
	if !hn.isNum {
		for _, hr := range hn.right {
			if t.Le(hr, g) {
				return false
			}
		}
	}
	return true
}

// Ge reports g >= h.
func (t *Table) Ge(g, h ID) bool { return t.Le(h, g) }

// Eq reports g = h; games of one table are equal exactly when their IDs are.
func (t *Table) Eq(g, h ID) bool { return g == h }

// Lt reports g < h.
func (t *Table) Lt(g, h ID) bool { return t.Le(g, h) && !t.Le(h, g) }

// Confused reports g || h: neither g <= h nor h <= g.
func (t *Table) Confused(g, h ID) bool { return !t.Le(g, h) && !t.Le(h, g) }

// Neg returns -g.
func (t *Table) Neg(g ID) ID {
	if n := t.nodes[g].neg; n != none {
		return n
	}
	var id ID
	if n := &t.nodes[g]; n.isNum {
		id = t.Number(n.num.Neg())
	} else {
		// The negative of a canonical form is canonical.
		l := make([]ID, 0, len(n.right))
		for _, o := range t.nodes[g].right {
			l = append(l, t.Neg(o))
		}
		r := make([]ID, 0, len(t.nodes[g].left))
		for _, o := range t.nodes[g].left {
			r = append(r, t.Neg(o))
		}
		id = t.intern(sorted(l...), sorted(r...))
	}
	t.nodes[g].neg = id
	t.nodes[id].neg = g
	return id
}

// Add returns g + h.
func (t *Table) Add(g, h ID) ID {
	if g == Zero {
		return h
	}
	if h == Zero {
		return g
	}
	if g > h {
		g, h = h, g
	}
	k := uint64(g)<<32 | uint64(h)
	if s, ok := t.sums.get(k); ok {
		return ID(s)
	}
	s := t.add(g, h)
	t.sums.put(k, uint32(s))
	return s
}

func (t *Table) add(g, h ID) ID {
	gn, hn := &t.nodes[g], &t.nodes[h]
	if gn.isNus && hn.isNus {
		return t.NUS(gn.num.Add(hn.num), int(gn.ups+hn.ups), int(gn.nim^hn.nim))
	}
	var l, r []ID
	// By number translation, a number added to a non-number moves only in
	// the non-number: G + x = {G^L + x | G^R + x}.
	if !gn.isNum {
		for _, gl := range gn.left {
			l = append(l, t.Add(gl, h))
		}
		for _, gr := range gn.right {
			r = append(r, t.Add(gr, h))
		}
	}
	if !hn.isNum {
		for _, hl := range t.nodes[h].left {
			l = append(l, t.Add(g, hl))
		}
		for _, hr := range t.nodes[h].right {
			r = append(r, t.Add(g, hr))
		}
	}
	return t.New(l, r)
}

// Sub returns g - h.
func (t *Table) Sub(g, h ID) ID { return t.Add(g, t.Neg(h)) }

// Sum returns the sum of games, 0 for none.
func (t *Table) Sum(games ...ID) ID {
	s := Zero
	for _, g := range games {
		s = t.Add(s, g)
	}
	return s
}

// Outcome is an outcome class.
type Outcome uint8

// The four outcome classes of normal play.
const (
	L Outcome = iota + 1 // Left wins whoever starts: G > 0
	R                    // Right wins whoever starts: G < 0
	N                    // the first player wins: G || 0
	P                    // the second player wins: G = 0
)

// String is the class's letter.
func (o Outcome) String() string {
	switch o {
	case L:
		return "L"
	case R:
		return "R"
	case N:
		return "N"
	case P:
		return "P"
	}
	return "?"
}

// OutcomeOf returns the outcome class from whether Left wins moving first
// and whether Left wins moving second.
func OutcomeOf(leftFirstWins, leftSecondWins bool) Outcome {
	switch {
	case leftFirstWins && leftSecondWins:
		return L
	case leftFirstWins:
		return N
	case leftSecondWins:
		return P
	}
	return R
}

// Outcome returns the outcome class of g. Left wins moving first iff
// g is not <= 0 and moving second iff g >= 0.
func (t *Table) Outcome(g ID) Outcome {
	if o := t.nodes[g].outcome; o != 0 {
		return o
	}
	o := OutcomeOf(!t.Le(g, Zero), t.Le(Zero, g))
	t.nodes[g].outcome = o
	return o
}

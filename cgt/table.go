package cgt

import (
	"encoding/binary"
	"slices"
)

// ID names a canonical game in its Table. Two IDs of one table are equal
// exactly when the games are equal. Zero is the game 0 in every table.
type ID uint32

// Zero is the ID of the game 0 = { | }.
const Zero ID = 0

const none = ^ID(0)

// node is one canonical form: its options, sorted by ID and free of
// dominated and reversible options, and facts computed once when it is
// stored.
type node struct {
	left, right []ID
	birthday    int32
	// isNum marks a number, num its value.
	isNum bool
	num   Dyadic
	// isNus marks a number-up-star num + ups.↑ + *nim.
	isNus bool
	ups   int32
	nim   int32
	neg   ID
	// outcome caches the outcome class (0 while unknown).
	outcome Outcome
	stopsOK bool
	lstop   Dyadic
	rstop   Dyadic
}

// Table holds canonical short games, each stored once, and caches of the
// operations on them. A Table is not safe for concurrent use.
type Table struct {
	nodes []node
	index map[string]ID
	// made memoises New by its sorted option lists, canonical or not.
	made    map[string]ID
	sums    pairCache
	leq     pairCache
	numbers map[Dyadic]ID
	key     []byte
	mark    []uint32
	epoch   uint32
}

// NewTable returns a table holding 0.
func NewTable() *Table {
	t := &Table{
		index:   map[string]ID{},
		numbers: map[Dyadic]ID{},
	}
	if id := t.intern(nil, nil); id != Zero {
		panic("cgt: zero is not the first game")
	}
	return t
}

// Len is the number of games stored.
func (t *Table) Len() int { return len(t.nodes) }

// Left returns the Left options of g in canonical form; the slice belongs
// to the table.
func (t *Table) Left(g ID) []ID { return t.nodes[g].left }

// Right returns the Right options of g in canonical form; the slice belongs
// to the table.
func (t *Table) Right(g ID) []ID { return t.nodes[g].right }

// IsNumber reports whether g is a number, and its value.
func (t *Table) IsNumber(g ID) (Dyadic, bool) { return t.nodes[g].num, t.nodes[g].isNum }

// NumberUpStar reports whether g is x + n.↑ + *m, and x, n and m.
func (t *Table) NumberUpStar(g ID) (x Dyadic, ups, nim int, ok bool) {
	n := &t.nodes[g]
	return n.num, int(n.ups), int(n.nim), n.isNus
}

// IsNimber reports whether g is a nimber *m, and m.
func (t *Table) IsNimber(g ID) (int, bool) {
	n := &t.nodes[g]
	return int(n.nim), n.isNus && n.num.Num == 0 && n.ups == 0
}

// Birthday is the birthday of g: 0 for 0, else one more than the greatest
// birthday of its canonical options.
func (t *Table) Birthday(g ID) int { return int(t.nodes[g].birthday) }

// Size is the number of distinct games in the canonical form of g: g and
// all its followers through canonical options, 0 included.
func (t *Table) Size(g ID) int {
	t.epoch++
	if len(t.mark) < len(t.nodes) {
		t.mark = append(t.mark, make([]uint32, len(t.nodes)-len(t.mark))...)
	}
	n := 0
	stack := []ID{g}
	t.mark[g] = t.epoch
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		for _, side := range [2][]ID{t.nodes[h].left, t.nodes[h].right} {
			for _, o := range side {
				if t.mark[o] != t.epoch {
					t.mark[o] = t.epoch
					stack = append(stack, o)
				}
			}
		}
	}
	return n
}

// formKey encodes the option lists of {left | right} into t.key and
// returns it.
func (t *Table) formKey(left, right []ID) []byte {
	k := t.key[:0]
	k = binary.AppendUvarint(k, uint64(len(left)))
	for _, o := range left {
		k = binary.AppendUvarint(k, uint64(o))
	}
	for _, o := range right {
		k = binary.AppendUvarint(k, uint64(o))
	}
	t.key = k
	return k
}

// intern stores the canonical form {left | right}, whose lists must be
// sorted, duplicate-free and canonical, and returns its ID.
func (t *Table) intern(left, right []ID) ID {
	k := t.formKey(left, right)
	if id, ok := t.index[string(k)]; ok {
		return id
	}
	id := ID(len(t.nodes))
	n := node{left: slices.Clone(left), right: slices.Clone(right), neg: none}
	for _, side := range [2][]ID{left, right} {
		for _, o := range side {
			n.birthday = max(n.birthday, t.nodes[o].birthday+1)
		}
	}
	t.classify(&n)
	t.nodes = append(t.nodes, n)
	t.index[string(k)] = id
	if n.isNum {
		t.numbers[n.num] = id
	}
	return id
}

// numberBounds returns the greatest Left and least Right option of a game
// whose options are all numbers, and false if some option is not one.
func (t *Table) numberBounds(left, right []ID) (lo, hi *Dyadic, ok bool) {
	for _, o := range left {
		if !t.nodes[o].isNum {
			return nil, nil, false
		}
		if v := t.nodes[o].num; lo == nil || v.Cmp(*lo) > 0 {
			lo = &v
		}
	}
	for _, o := range right {
		if !t.nodes[o].isNum {
			return nil, nil, false
		}
		if v := t.nodes[o].num; hi == nil || v.Cmp(*hi) < 0 {
			hi = &v
		}
	}
	return lo, hi, true
}

// classify sets the number and number-up-star facts of a canonical form
// from its options. Canonical forms are unique, so a canonical form equals
// x + n.↑ + *m exactly when it has the shape of that value's canonical
// form (Siegel, Combinatorial Game Theory, II.4 and CGSuite's
// CanonicalShortGameOps.constructNus):
//
//	x + *m, m > 0:    { x, x+*, ..., x+*(m-1) | the same }
//	x + ↑*:           { x, x+* | x }
//	x + n.↑ + *m:     { x | x + (n-1).↑ + *(m xor 1) } for n > 0 otherwise
//
// and the negatives for n < 0.
func (t *Table) classify(n *node) {
	if lo, hi, ok := t.numberBounds(n.left, n.right); ok && (lo == nil || hi == nil || lo.Cmp(*hi) < 0) {
		n.isNum, n.isNus, n.num = true, true, simplest(lo, hi)
		return
	}
	if slices.Equal(n.left, n.right) {
		// x + *m: options x + *j for every j < m.
		// The options are distinct games, so m of them with the same x and
		// nimbers below m are x + *j for every j < m.
		x, m := Dyadic{}, len(n.left)
		for i, o := range n.left {
			on := &t.nodes[o]
			if !on.isNus || on.ups != 0 || int(on.nim) >= m || i > 0 && on.num != x {
				return
			}
			x = on.num
		}
		n.isNus, n.num, n.nim = true, x, int32(m)
		return
	}
	if len(n.left) == 2 && len(n.right) == 1 || len(n.left) == 1 && len(n.right) == 2 {
		// x + ↑* = { x, x* | x } and x + v* = { x | x, x* }.
		one, two, sign := n.right[0], n.left, int32(1)
		if len(n.right) == 2 {
			one, two, sign = n.left[0], n.right, -1
		}
		o := &t.nodes[one]
		if !o.isNum {
			return
		}
		for _, h := range two {
			if h == one {
				continue
			}
			hn := &t.nodes[h]
			if !(hn.isNus && hn.num == o.num && hn.ups == 0 && hn.nim == 1) || !slices.Contains(two, one) {
				return
			}
			n.isNus, n.num, n.ups, n.nim = true, o.num, sign, 1
		}
		return
	}
	if len(n.left) == 1 && len(n.right) == 1 {
		l, r := &t.nodes[n.left[0]], &t.nodes[n.right[0]]
		if l.isNum && r.isNus && r.num == l.num && r.ups >= 0 && !(r.ups == 0 && r.nim == 0) {
			// {x | x + (n-1).↑ + *(m^1)}; {x | x} is x+*, classified above.
			n.isNus, n.num, n.ups, n.nim = true, l.num, r.ups+1, r.nim^1
		} else if r.isNum && l.isNus && l.num == r.num && l.ups <= 0 && !(l.ups == 0 && l.nim == 0) {
			n.isNus, n.num, n.ups, n.nim = true, r.num, l.ups-1, l.nim^1
		}
	}
}

// Number returns the number x.
func (t *Table) Number(x Dyadic) ID {
	if id, ok := t.numbers[x]; ok {
		return id
	}
	var id ID
	switch {
	case x.Num == 0:
		id = Zero
	case x.Exp == 0 && x.Num > 0:
		id = t.intern([]ID{t.Number(Int(x.Num - 1))}, nil)
	case x.Exp == 0:
		id = t.intern(nil, []ID{t.Number(Int(x.Num + 1))})
	default:
		l := t.Number(MakeDyadic(x.Num-1, uint(x.Exp)))
		r := t.Number(MakeDyadic(x.Num+1, uint(x.Exp)))
		id = t.intern([]ID{l}, []ID{r})
	}
	return id
}

// Nimber returns *m.
func (t *Table) Nimber(m int) ID { return t.NUS(Dyadic{}, 0, m) }

// Up returns n.↑ (n.↓ for negative n).
func (t *Table) Up(n int) ID { return t.NUS(Dyadic{}, n, 0) }

// Star is *.
func (t *Table) Star() ID { return t.Nimber(1) }

// NUS returns x + n.↑ + *m, built from its known canonical form.
func (t *Table) NUS(x Dyadic, n, m int) ID {
	if n == 0 && m == 0 {
		return t.Number(x)
	}
	if n == 0 {
		// x + *j for j < m, each built from the ones before it.
		opts := []ID{t.Number(x)}
		for len(opts) <= m {
			s := sorted(slices.Clone(opts)...)
			opts = append(opts, t.intern(s, s))
		}
		return opts[m]
	}
	xi := t.Number(x)
	if n < 0 {
		return t.Neg(t.NUS(x.Neg(), -n, m))
	}
	if n == 1 && m == 1 {
		return t.intern(sorted(xi, t.NUS(x, 0, 1)), []ID{xi})
	}
	return t.intern([]ID{xi}, []ID{t.NUS(x, n-1, m^1)})
}

func sorted(ids ...ID) []ID {
	slices.Sort(ids)
	return slices.Compact(ids)
}

package values

import (
	"math/bits"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
)

// memo maps translated piece keys to their values. A value job loads the
// values of every smaller piece (millions of them on Clobber 4x5) and then
// looks a piece up for every piece of every option it values, so the memo
// is the hottest structure of the values stage: an open-addressing table
// with linear probing and the value packed beside its key, 32 bytes a
// slot, costs one cache miss a lookup where a Go map of the same entries
// costs two or three, and it is grown once per loaded table rather than
// step by step.
type memo struct {
	slots []memoSlot
	n     int
	shift uint
}

// memoSlot is one key and its value. A slot with Hi 0 is empty: the high
// word of a piece key holds its bounding box, at least 1x1.
type memoSlot struct {
	hi, lo uint64
	id     cgt.ID
	nodes  uint32
	cost   uint32
	// flags holds capped in bit 0 and the outcome above it.
	flags uint8
}

func (s *memoSlot) value() Value {
	return Value{ID: s.id, Capped: s.flags&1 != 0, Outcome: cgt.Outcome(s.flags >> 1), Nodes: int(s.nodes), Cost: int(s.cost)}
}

func (m *memo) hash(k games.PieceKey) int {
	x := k.Lo*0x9e3779b97f4a7c15 ^ bits.RotateLeft64(k.Hi*0xc2b2ae3d27d4eb4f, 31)
	x ^= x >> 29
	x *= 0xbf58476d1ce4e5b9
	return int(x >> m.shift)
}

// get returns the value of k, if it is in the memo.
func (m *memo) get(k games.PieceKey) (Value, bool) {
	if m.n == 0 {
		return Value{}, false
	}
	mask := len(m.slots) - 1
	for i := m.hash(k); ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.hi == k.Hi && s.lo == k.Lo {
			return s.value(), true
		}
		if s.hi == 0 {
			return Value{}, false
		}
	}
}

// set records the value of k.
func (m *memo) set(k games.PieceKey, v Value) {
	m.reserve(1)
	mask := len(m.slots) - 1
	i := m.hash(k)
	for m.slots[i].hi != 0 && (m.slots[i].hi != k.Hi || m.slots[i].lo != k.Lo) {
		i = (i + 1) & mask
	}
	if m.slots[i].hi == 0 {
		m.n++
	}
	flags := uint8(v.Outcome) << 1
	if v.Capped {
		flags |= 1
	}
	m.slots[i] = memoSlot{hi: k.Hi, lo: k.Lo, id: v.ID, nodes: uint32(v.Nodes), cost: uint32(v.Cost), flags: flags}
}

// reserve makes room for more keys without growing, keeping the table at
// most three quarters full.
func (m *memo) reserve(more int) {
	need := m.n + more
	if 4*need <= 3*len(m.slots) {
		return
	}
	size := max(len(m.slots), 1024)
	for 4*need > 3*size {
		size *= 2
	}
	old := m.slots
	m.slots = make([]memoSlot, size)
	m.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := size - 1
	for _, s := range old {
		if s.hi == 0 {
			continue
		}
		i := m.hash(games.PieceKey{Hi: s.hi, Lo: s.lo})
		for m.slots[i].hi != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = s
	}
}

// each calls fn with every key and value.
func (m *memo) each(fn func(games.PieceKey, Value)) {
	for i := range m.slots {
		if s := &m.slots[i]; s.hi != 0 {
			fn(games.PieceKey{Hi: s.hi, Lo: s.lo}, s.value())
		}
	}
}

package cgt

import (
	"cmp"
	"math/bits"
)

// pairCache maps a pair of IDs, packed as g<<32 | h, to a 32-bit result:
// the memo of Add and of Le. Valuing a large piece asks it hundreds of
// times per option, mostly for pairs it holds, so it is an open-addressing
// table with linear probing and the result beside its key (one cache miss
// a lookup; a Go map costs more). The pair 0<<32 | 0 is never stored (Add
// and Le answer it without the cache), so key 0 marks an empty slot.
type pairCache struct {
	slots []pairSlot
	n     int
	shift uint
	// limit is the most slots the cache grows to (maxCacheSlots when 0).
	limit int
}

type pairSlot struct {
	key uint64
	val uint32
}

func (c *pairCache) hash(key uint64) int {
	x := key * 0x9e3779b97f4a7c15
	x ^= x >> 31
	return int(x >> c.shift)
}

// get returns the result stored for key.
func (c *pairCache) get(key uint64) (uint32, bool) {
	if c.n == 0 {
		return 0, false
	}
	mask := len(c.slots) - 1
	for i := c.hash(key); ; i = (i + 1) & mask {
		s := &c.slots[i]
		if s.key == key {
			return s.val, true
		}
		if s.key == 0 {
			return 0, false
		}
	}
}

// maxCacheSlots bounds a pairCache: 2^24 slots of 16 bytes, 256 MiB. A
// job valuing the largest pieces of a board asks billions of distinct
// pairs, and a cache that grew without bound held gigabytes; one this
// full is emptied and fills again with the pairs asked now, which are
// those worth keeping (the pieces of a job share few sums and
// comparisons with those valued long before).
const maxCacheSlots = 1 << 24

// put stores val for key, which is not stored yet.
func (c *pairCache) put(key uint64, val uint32) {
	if 4*(c.n+1) > 3*len(c.slots) {
		if limit := cmp.Or(c.limit, maxCacheSlots); len(c.slots) >= limit {
			clear(c.slots)
			c.n = 0
		} else {
			c.grow()
		}
	}
	mask := len(c.slots) - 1
	i := c.hash(key)
	for c.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	c.slots[i] = pairSlot{key: key, val: val}
	c.n++
}

func (c *pairCache) grow() {
	old := c.slots
	size := max(2*len(old), 1024)
	c.slots = make([]pairSlot, size)
	c.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := size - 1
	for _, s := range old {
		if s.key == 0 {
			continue
		}
		i := c.hash(s.key)
		for c.slots[i].key != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = s
	}
}

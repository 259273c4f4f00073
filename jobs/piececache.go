package jobs

import (
	"math/bits"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/host/hugepages"
)

// pieceCache remembers the representatives of the orbits of pieces, and
// how many positions the job has found each piece in since it last sent
// the count on, in a direct-mapped table: a piece has one slot, chosen by
// a hash of its key, and a piece that lands on a taken slot evicts its
// holder, whose count then goes to the spiller. Few distinct pieces occur
// in many positions, so most pieces are counted in their slot, and the
// job sends and sorts a record per eviction rather than one per position
// and piece. The table starts small and doubles (keeping what it holds),
// up to limit slots, whenever the misses since it last grew outnumber
// its slots.
//
// A table of more slots than the caches hold costs a miss a piece, so add
// takes pieces a batch at a time: it first reads the slot of every piece
// of the batch, loads that do not wait on each other and so overlap, then
// counts them in order, from slots now in the cache. The order in which
// counts reach the table, and so what it sends, is the same.
type pieceCache struct {
	group  games.Group
	slots  []pieceSlot
	shift  uint // 64 - log2(len(slots))
	misses int
	limit  int
	// send takes the count of a piece's representative out of the table.
	send func(rep games.PieceKey, positions uint64) error
	// batch holds the pieces add has not counted yet; touched keeps the
	// reads of their slots from being dropped as unused.
	batch   []pendingPiece
	touched uint64
}

// pendingPiece is a translated piece and the positions to count for it.
type pendingPiece struct {
	key games.PieceKey
	w   uint64
}

// pieceBatch is the number of pieces add counts at once: enough for the
// reads of their slots to overlap, few enough that the slots stay in the
// first-level cache until they are counted.
const pieceBatch = 64

// pieceSlot is a piece, the representative of its orbit and the positions
// counted for it in the slot; a slot whose piece is the zero key is empty
// (no piece has the zero key, and add never keeps it).
type pieceSlot struct {
	key, rep  games.PieceKey
	positions uint64
}

// pieceCacheMin is the first size of a pieceCache, in slots, and
// pieceCacheCap the largest: 160 KiB, which the second-level cache holds.
// Most pieces of a job occur in it once (a middle tier of Clobber 4x5 in
// one job: 944 K pieces, 586 K distinct), so a larger table counts few
// more of them in place (2^14 slots sent 648 K records, 2^20 slots 612 K)
// and misses the caches on every piece: side by side, Clobber 4x5 took
// 0.89x the wall and 0.91x the CPU with the table at 2^13 slots against
// a table grown to the job's budget, and 0.95x again at 2^12.
const (
	pieceCacheMin = 1 << 12
	pieceCacheCap = 1 << 12
)

// pieceTables keeps the tables of finished jobs' piece caches for the
// next tier jobs of the process: grown from pieceCacheMin slots in every
// job, a table was copied at each doubling, and its pages, new to the
// process, cost a fault each (some 10 us on a virtual machine: a table of
// a million slots, 40 MB, some 100 ms).
var pieceTables = &bufPool[pieceSlot]{max: 4}

func newPieceCache(group games.Group, limit int, send func(rep games.PieceKey, positions uint64) error) *pieceCache {
	c := &pieceCache{group: group, limit: min(max(limit, pieceCacheMin), pieceCacheCap), send: send, batch: make([]pendingPiece, 0, pieceBatch)}
	t := pieceTables.get()
	if cap(t) < pieceCacheMin {
		t = make([]pieceSlot, pieceCacheMin)
	}
	c.slots = t[:pieceCacheMin]
	clear(c.slots)
	c.shift = uint(64 - bits.TrailingZeros(uint(pieceCacheMin)))
	return c
}

// release hands the table back for a later job's cache; the cache must
// not be used after it.
func (c *pieceCache) release() {
	pieceTables.put(c.slots)
	c.slots = nil
}

// grow doubles the table, keeping the pieces it holds. A slot is chosen
// by the top bits of a hash, so doubling takes slot i to 2i or 2i+1: no
// two pieces meet, and the table can double in place when its array has
// room (one kept from an earlier job), from the top slot down. Either
// way the table holds the same pieces in the same slots, so what the
// cache sends, and the job's fragments, do not depend on the tables
// kept.
func (c *pieceCache) grow() {
	n := 2 * len(c.slots)
	old := c.slots
	if cap(old) >= n {
		c.slots = old[:n]
	} else {
		c.slots = make([]pieceSlot, n)
		hugepages.Advise(c.slots)
	}
	c.shift--
	c.misses = 0
	for i := len(old) - 1; i >= 0; i-- {
		s := old[i]
		c.slots[2*i], c.slots[2*i+1] = pieceSlot{}, pieceSlot{}
		if s.key != (games.PieceKey{}) {
			*c.slot(s.key) = s
		}
	}
}

// slot is the slot of piece k.
func (c *pieceCache) slot(k games.PieceKey) *pieceSlot {
	return &c.slots[((k.Hi*0x9e3779b97f4a7c15)^k.Lo)*0xbf58476d1ce4e5b9>>c.shift]
}

// add counts w positions for the translated piece k, when its batch is
// full or at flush.
func (c *pieceCache) add(k games.PieceKey, w uint64) error {
	c.batch = append(c.batch, pendingPiece{key: k, w: w})
	if len(c.batch) < pieceBatch {
		return nil
	}
	return c.countBatch()
}

// countBatch counts the pieces of the batch.
func (c *pieceCache) countBatch() error {
	var t uint64
	for _, p := range c.batch {
		t += c.slot(p.key).positions
	}
	c.touched += t
	for _, p := range c.batch {
		if err := c.count(p.key, p.w); err != nil {
			return err
		}
	}
	c.batch = c.batch[:0]
	return nil
}

// count counts w positions for the translated piece k in its slot.
func (c *pieceCache) count(k games.PieceKey, w uint64) error {
	if k == (games.PieceKey{}) {
		return c.send(c.group.CanonPiece(k), w)
	}
	s := c.slot(k)
	if s.key == k {
		s.positions += w
		return nil
	}
	if s.positions > 0 {
		if err := c.send(s.rep, s.positions); err != nil {
			return err
		}
	}
	r := k
	if c.group.Size() > 1 {
		r = c.group.CanonPiece(k)
	}
	*s = pieceSlot{key: k, rep: r, positions: w}
	if c.misses++; c.misses > len(c.slots) && 2*len(c.slots) <= c.limit {
		c.grow()
	}
	return nil
}

// flush sends every count the table holds.
func (c *pieceCache) flush() error {
	if err := c.countBatch(); err != nil {
		return err
	}
	for i := range c.slots {
		s := &c.slots[i]
		if s.positions > 0 {
			if err := c.send(s.rep, s.positions); err != nil {
				return err
			}
			s.positions = 0
		}
	}
	return nil
}

package jobs

import "github.com/census-cgt/census/games"

// pieceCache remembers the representatives of the orbits of pieces, and
// how many positions the job has found each piece in since it last sent
// the count on, in a direct-mapped table: a piece has one slot, chosen by
// a hash of its key, and a piece that lands on a taken slot evicts its
// holder, whose count then goes to the spiller. Few distinct pieces occur
// in many positions, so most of a job's pieces are counted in their slot,
// and the job sends and sorts a record per eviction rather than one per
// position and piece.
//
// The table has pieceCacheSlots slots, which the second-level cache
// holds. Most pieces of a job occur in it once (a middle tier of Clobber
// 4x5 in one job: 944 K pieces, 586 K distinct), so a larger table counts
// few more of them in place (2^14 slots sent 648 K records, 2^20 slots
// 612 K) and misses the caches on every piece: side by side, Clobber 4x5
// took 0.89x the wall and 0.91x the CPU with a table of 2^13 slots
// against one grown to the job's budget, and 0.95x again at 2^12; 2^11
// was no faster.
type pieceCache struct {
	group games.Group
	slots [pieceCacheSlots]pieceSlot
	// send takes the count of a piece's representative out of the table.
	send func(rep games.PieceKey, positions uint64) error
}

// pieceCacheSlots is the size of a pieceCache's table (160 KiB), 2 to
// the pieceCacheBits.
const (
	pieceCacheBits  = 12
	pieceCacheSlots = 1 << pieceCacheBits
)

// pieceSlot is a piece, the representative of its orbit and the positions
// counted for it in the slot; a slot whose piece is the zero key is empty
// (no piece has the zero key, and add never keeps it).
type pieceSlot struct {
	key, rep  games.PieceKey
	positions uint64
}

func newPieceCache(group games.Group, send func(rep games.PieceKey, positions uint64) error) *pieceCache {
	return &pieceCache{group: group, send: send}
}

// slot is the slot of piece k.
func (c *pieceCache) slot(k games.PieceKey) *pieceSlot {
	return &c.slots[((k.Hi*0x9e3779b97f4a7c15)^k.Lo)*0xbf58476d1ce4e5b9>>(64-pieceCacheBits)]
}

// add counts w positions for the translated piece k in its slot.
func (c *pieceCache) add(k games.PieceKey, w uint64) error {
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
	return nil
}

// flush sends every count the table holds.
func (c *pieceCache) flush() error {
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

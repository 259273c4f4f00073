package jobs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// TestPieceCacheTables checks that a piece cache sends the same counts, in
// the same order, whether its table is new or an array kept from an
// earlier job (larger, and full of that job's pieces), through every
// doubling up to its limit: a job's fragments must not depend on what
// the process ran before it.
func TestPieceCacheTables(t *testing.T) {
	g := mustGame(t, "clobber", "4x4", "")
	// Without symmetry a piece is its own representative: any non-zero
	// key will do.
	group := games.StartGroup(g, false)
	rng := rand.New(rand.NewPCG(3, 4))
	distinct := make([]games.PieceKey, 50_000)
	for i := range distinct {
		distinct[i] = games.PieceKey{Hi: rng.Uint64() | 1, Lo: rng.Uint64()}
	}
	// A few pieces often, most rarely, as in a tier.
	pieces := make([]games.PieceKey, 400_000)
	for i := range pieces {
		pieces[i] = distinct[int(float64(len(distinct))*rng.Float64()*rng.Float64())]
	}
	type sent struct {
		rep       games.PieceKey
		positions uint64
	}
	const limit = 1 << 15
	run := func() ([]sent, *pieceCache) {
		var out []sent
		c := newPieceCache(group, limit, func(rep games.PieceKey, positions uint64) error {
			out = append(out, sent{rep, positions})
			return nil
		})
		for i, p := range pieces {
			if err := c.add(p, uint64(i%7+1)); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.flush(); err != nil {
			t.Fatal(err)
		}
		if len(c.slots) != limit {
			t.Fatalf("the table grew to %d slots, want its limit %d", len(c.slots), limit)
		}
		return out, c
	}

	pieceTables.drain()
	defer pieceTables.drain()
	fresh, c := run()
	c.release()
	// A kept table larger than the limit, full of other pieces.
	junk := make([]pieceSlot, 4*limit)
	for i := range junk {
		junk[i] = pieceSlot{key: distinct[rng.IntN(len(distinct))], rep: games.PieceKey{Hi: 7}, positions: rng.Uint64N(100)}
	}
	pieceTables.drain()
	pieceTables.put(junk)
	kept, c := run()
	if &c.slots[0] != &junk[0] {
		t.Errorf("the cache did not take the kept table")
	}
	if !slices.Equal(fresh, kept) {
		t.Errorf("a kept table sent %d counts, a new one %d; they differ", len(kept), len(fresh))
	}
	var total uint64
	for _, s := range fresh {
		total += s.positions
	}
	var want uint64
	for i := range pieces {
		want += uint64(i%7 + 1)
	}
	if total != want {
		t.Errorf("sent %d positions, added %d", total, want)
	}
}

package jobs

import (
	"math/rand/v2"
	"testing"

	"github.com/census-cgt/census/games"
)

// TestPieceCacheCounts checks that a piece cache sends every position it
// was given, for the representative of each piece, with pieces that
// evict each other from their slots and pieces counted in place.
func TestPieceCacheCounts(t *testing.T) {
	g := mustGame(t, "clobber", "4x5", "")
	group := games.StartGroup(g, true)
	rng := rand.New(rand.NewPCG(3, 4))
	// Translated pieces of random positions: a few often, most rarely,
	// as in a tier.
	var distinct []games.PieceKey
	seen := map[games.PieceKey]bool{}
	for len(distinct) < 5*pieceCacheSlots {
		pos := rng.Uint64() & 0x000fffff000fffff
		pos &^= (pos & 0xffffffff) << 32
		for _, p := range g.Pieces(pos, nil) {
			if k := g.Translate(p.Key); p.Live && !seen[k] {
				seen[k] = true
				distinct = append(distinct, k)
			}
		}
	}
	want := map[games.PieceKey]uint64{}
	got := map[games.PieceKey]uint64{}
	sends := 0
	c := newPieceCache(group, func(rep games.PieceKey, positions uint64) error {
		got[rep] += positions
		sends++
		return nil
	})
	const adds = 200_000
	for i := range adds {
		k := distinct[int(float64(len(distinct))*rng.Float64()*rng.Float64())]
		want[group.CanonPiece(k)] += uint64(i%7 + 1)
		if err := c.add(k, uint64(i%7+1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.flush(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("sent counts of %d representatives, want %d", len(got), len(want))
	}
	for rep, n := range want {
		if got[rep] != n {
			t.Errorf("representative %v: sent %d positions, want %d", rep, got[rep], n)
		}
	}
	if sends >= adds || sends <= len(want) {
		t.Errorf("%d counts sent for %d pieces added, of %d representatives: the cache counted none in place, or never evicted", sends, adds, len(want))
	}
}

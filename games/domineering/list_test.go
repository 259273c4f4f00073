package domineering

import (
	"encoding/json"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/census-cgt/census/games"
)

// bfsTiers is the reachable positions of tiers 0..last, by plain
// breadth-first search with Expand from the start.
func bfsTiers(g *Game, last int) []map[uint64]bool {
	tiers := []map[uint64]bool{{g.Start(): true}}
	m := games.NewMoveStats(false)
	var succ []uint64
	for t := 0; t < last; t++ {
		next := map[uint64]bool{}
		for pos := range tiers[t] {
			succ = g.Expand(pos, g.Pieces(pos, nil), succ[:0], m, 1)
			for _, s := range succ {
				next[s] = true
			}
		}
		tiers = append(tiers, next)
	}
	return tiers
}

// lister is ListTier of a Game or list of a listing.
type lister func(t, part, parts int, f func(pos uint64) bool)

// listPart is what list(t, part, parts) lists, failing on a repeat.
func listPart(t *testing.T, g *Game, list lister, tier, part, parts int) map[uint64]bool {
	t.Helper()
	got := map[uint64]bool{}
	list(tier, part, parts, func(pos uint64) bool {
		if got[pos] {
			t.Errorf("tier %d part %d/%d: %s listed twice", tier, part, parts, g.Format(pos))
		}
		got[pos] = true
		return true
	})
	return got
}

// TestListTierMatchesBFS checks every tier of boards of each shape (lines
// along the rows and along the columns, one line, starts with squares
// covered) against breadth-first search, whole and in parts.
func TestListTierMatchesBFS(t *testing.T) {
	tests := []struct {
		rows, cols int
		start      string
	}{
		{1, 1, ""},
		{2, 2, ""},
		{3, 3, ""},
		{4, 4, ""},
		{3, 5, ""},
		{5, 3, ""},
		{4, 5, ""},
		// Rows are the lines of 5x3, 4x4 and 9x2, columns of 3x5, 4x5
		// and 2x9.
		{2, 9, ""},
		{9, 2, ""},
		{1, 10, ""},
		{4, 4, "#.../..../..#./...."},
		{5, 4, "..#./#.../..../.##./...#"},
		{2, 10, "...#....../.#......#."},
	}
	for _, tc := range tests {
		g := mustNew(t, tc.rows, tc.cols, tc.start)
		t.Run(g.b.String()+" "+tc.start, func(t *testing.T) {
			if !g.ListedTiers() {
				t.Fatal("ListedTiers false")
			}
			// The same listing without the table of the last two lines.
			lines, err := buildListing(g.b, g.start, maxListStates, 0)
			if err != nil || lines.pairs != nil {
				t.Fatalf("listing with no table of pairs: %v", err)
			}
			if lt, _ := g.listing(); (lt.pairs == nil) != (lt.l < 2) {
				t.Errorf("%d lines, table of pairs %v", lt.l, lt.pairs != nil)
			}
			want := bfsTiers(g, g.MaxTier())
			checkListing(t, g, g.ListTier, want)
			checkListing(t, g, lines.list, want)
		})
	}
}

// checkListing checks list, and TierSize, against the tiers found by BFS,
// and past them, when they go to MaxTier, against the empty set.
func checkListing(t *testing.T, g *Game, list lister, want []map[uint64]bool) {
	t.Helper()
	last := len(want) - 1
	if last == g.MaxTier() {
		last++
	}
	for tier := -1; tier <= last; tier++ {
		var w map[uint64]bool
		if tier >= 0 && tier < len(want) {
			w = want[tier]
		}
		if got := g.TierSize(tier); got != uint64(len(w)) {
			t.Errorf("TierSize(%d) = %d, want %d", tier, got, len(w))
		}
		got := listPart(t, g, list, tier, 0, 1)
		for pos := range got {
			if !w[pos] {
				t.Errorf("tier %d: %s listed, not reachable", tier, g.Format(pos))
			}
		}
		if len(got) != len(w) {
			t.Errorf("tier %d: %d listed, want %d", tier, len(got), len(w))
		}
		for _, parts := range []int{2, 3, 7} {
			union := map[uint64]bool{}
			for part := range parts {
				for pos := range listPart(t, g, list, tier, part, parts) {
					if union[pos] {
						t.Errorf("tier %d: %s in two of %d parts", tier, g.Format(pos), parts)
					}
					union[pos] = true
				}
			}
			if !mapsEqual(union, w) {
				t.Errorf("tier %d: the %d parts list %d positions, want the tier's %d", tier, parts, len(union), len(w))
			}
		}
	}
}

func mapsEqual(a, b map[uint64]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestListTierSplitDepth checks that the tests above deal the parts at
// every kind of depth: above the table of the last two lines, between those
// lines, and at the positions themselves.
func TestListTierSplitDepth(t *testing.T) {
	g := mustNew(t, 4, 5, "")
	lt, err := g.listing()
	if err != nil {
		t.Fatal(err)
	}
	// 4x5 is read by columns, 5 lines. Tier 5 has 164 nodes at depth 2
	// and 1,664 at depth 3, tier 2 177 at depth 3 and 331 at depth 4, tier
	// 1 31 positions.
	for _, tc := range []struct{ tier, parts, depth int }{
		{5, 7, lt.l - 2}, {2, 3, lt.l - 1}, {1, 7, lt.l}, {5, 1, -1},
	} {
		if d := lt.splitDepth(tc.tier, tc.parts); d != tc.depth {
			t.Errorf("tier %d in %d parts splits at depth %d, want %d", tc.tier, tc.parts, d, tc.depth)
		}
	}
	// The parts of a big tier are about the same size.
	for _, parts := range []int{2, 3, 7} {
		var sizes []int
		for part := range parts {
			sizes = append(sizes, len(listPart(t, g, g.ListTier, 5, part, parts)))
		}
		if slices.Max(sizes) > 2*slices.Min(sizes) {
			t.Errorf("tier 5 in %d parts: sizes %v", parts, sizes)
		}
	}
}

// TestTierSize4x4 checks TierSize against census-spec.md's Domineering
// 4x4 counts by tier.
func TestTierSize4x4(t *testing.T) {
	g := mustNew(t, 4, 4, "")
	want := []uint64{1, 24, 215, 912, 1911, 1868, 704, 64, 1}
	var got []uint64
	for tier := 0; tier <= g.MaxTier(); tier++ {
		got = append(got, g.TierSize(tier))
	}
	if !slices.Equal(got, want) {
		t.Errorf("4x4 tier sizes %v, want %v", got, want)
	}
}

// TestTierSizeCensus checks TierSize against the census runs' counts.
func TestTierSizeCensus(t *testing.T) {
	for _, run := range []struct {
		name       string
		rows, cols int
	}{{"domineering-6x6", 6, 6}, {"domineering-5x6", 5, 6}} {
		data, err := os.ReadFile("../../results/" + run.name + "/summary.json")
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Start           string   `json:"start"`
			PositionsByTier []uint64 `json:"positions_by_tier"`
		}
		if err := json.Unmarshal(data, &sum); err != nil {
			t.Fatalf("%s: %v", run.name, err)
		}
		g := mustNew(t, run.rows, run.cols, sum.Start)
		var got []uint64
		for tier := 0; tier <= g.MaxTier(); tier++ {
			got = append(got, g.TierSize(tier))
		}
		if len(sum.PositionsByTier) == 0 || !slices.Equal(got, sum.PositionsByTier) {
			t.Errorf("%s: tier sizes %v, summary %v", run.name, got, sum.PositionsByTier)
		}
	}
}

// TestListTierStops checks that a listing ends when f returns false.
func TestListTierStops(t *testing.T) {
	g := mustNew(t, 4, 4, "")
	for _, parts := range []int{1, 3} {
		calls := 0
		g.ListTier(4, 0, parts, func(uint64) bool {
			calls++
			return calls < 10
		})
		if calls != 10 {
			t.Errorf("parts %d: %d calls after f returned false at the 10th", parts, calls)
		}
	}
}

// TestListTierAllocs checks that a listing allocates nothing once the
// tables are built.
func TestListTierAllocs(t *testing.T) {
	g := mustNew(t, 4, 4, "")
	g.ListedTiers()
	n := 0
	count := func(uint64) bool { n++; return true }
	allocs := testing.AllocsPerRun(10, func() {
		g.ListTier(4, 0, 1, count)
		g.ListTier(4, 1, 3, count)
	})
	if allocs != 0 {
		t.Errorf("ListTier allocates %v times a call", allocs)
	}
}

// TestListTierConcurrent lists from several goroutines on a Game whose
// tables are not built yet; run it with -race.
func TestListTierConcurrent(t *testing.T) {
	g := mustNew(t, 3, 7, "#....../......./......#")
	var wg sync.WaitGroup
	sizes := make([]uint64, 4)
	for part := range sizes {
		wg.Go(func() {
			g.ListTier(5, part, len(sizes), func(uint64) bool {
				sizes[part]++
				return true
			})
		})
	}
	wg.Wait()
	var total uint64
	for _, n := range sizes {
		total += n
	}
	if total == 0 || total != g.TierSize(5) {
		t.Errorf("parts %v sum to %d, TierSize %d", sizes, total, g.TierSize(5))
	}
}

// TestListingStateLimit checks that a board over the cap of states is
// refused rather than built.
func TestListingStateLimit(t *testing.T) {
	g := mustNew(t, 4, 4, "")
	if _, err := buildListing(g.b, g.start, 3, maxListPairs); err == nil {
		t.Error("4x4 within 3 states a line, want an error")
	}
	lt, err := buildListing(g.b, g.start, maxListStates, maxListPairs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("4x4 states by line: %v", lt.states)
}

// TestListing8x8 checks the largest board, which walks its last two
// lines one by one: its first tiers against breadth-first search and its
// last two against Gomory's theorem.
func TestListing8x8(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 8x8 tables")
	}
	g := mustNew(t, 8, 8, "")
	if !g.ListedTiers() {
		t.Fatal("8x8 not listed")
	}
	lt, _ := g.listing()
	t.Logf("8x8 states by line: %v", lt.states)
	if lt.pairs != nil {
		t.Errorf("8x8 has a table of pairs of %d entries, over %d", len(lt.pairs), maxListPairs)
	}
	checkListing(t, g, g.ListTier, bfsTiers(g, 2))
	// Two squares left empty, one of each colour: by Gomory's theorem
	// dominoes tile the rest, whichever they are.
	if g.TierSize(31) != 32*32 || g.TierSize(32) != 1 {
		t.Errorf("8x8 tiers 31, 32: %d %d, want 1024 1", g.TierSize(31), g.TierSize(32))
	}
	for tier := 31; tier <= 32; tier++ {
		got := listPart(t, g, g.ListTier, tier, 0, 1)
		if uint64(len(got)) != g.TierSize(tier) {
			t.Errorf("8x8 tier %d: %d listed, TierSize %d", tier, len(got), g.TierSize(tier))
		}
		if tier == 32 && !got[g.b.Full] {
			t.Error("8x8: the full board not listed")
		}
	}
}

// BenchmarkListTier lists tier 9 of 6x6 (150,110,956 positions).
func BenchmarkListTier(b *testing.B) {
	g, err := New(6, 6, "")
	if err != nil {
		b.Fatal(err)
	}
	g.ListedTiers()
	const tier = 9
	var n uint64
	count := func(uint64) bool { n++; return true }
	for b.Loop() {
		g.ListTier(tier, 0, 1, count)
	}
	if n != uint64(b.N)*g.TierSize(tier) {
		b.Fatalf("listed %d, want %d a run", n, g.TierSize(tier))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/position")
}

// BenchmarkListTierParts lists tier 9 of 6x6 in 64 parts, one after the
// other: what dealing the tier costs on top of listing it.
func BenchmarkListTierParts(b *testing.B) {
	g, err := New(6, 6, "")
	if err != nil {
		b.Fatal(err)
	}
	g.ListedTiers()
	const tier, parts = 9, 64
	var n uint64
	count := func(uint64) bool { n++; return true }
	for b.Loop() {
		for part := range parts {
			g.ListTier(tier, part, parts, count)
		}
	}
	if n != uint64(b.N)*g.TierSize(tier) {
		b.Fatalf("listed %d, want %d a run", n, g.TierSize(tier))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/position")
}

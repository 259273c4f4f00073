package all

import (
	"math"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// tally is a census of one game, made in memory tier by tier with the
// Game interface alone.
type tally struct {
	byTier, splitByTier                     []uint64
	moves, joins                            uint64
	split, liveWhenSplit, withDead          uint64
	deadFree, inPlace, translated           int
	bySize                                  map[int]int
	movedPiece, movedPieceSplit             float64
	positions                               uint64
	successorsOutsideNextTier, tiersOverMax int
}

func census(t testing.TB, g games.Game) tally {
	t.Helper()
	var c tally
	deadFree := map[uint64]struct{}{}
	inPlace := map[uint64]struct{}{}
	translated := map[games.PieceKey]int{}
	ms := games.NewMoveStats(g.Name() == "clobber")
	cur := map[uint64]struct{}{g.Start(): {}}
	var pieces []games.Piece
	var succ []uint64
	for tier := 0; len(cur) > 0; tier++ {
		c.byTier = append(c.byTier, uint64(len(cur)))
		c.splitByTier = append(c.splitByTier, 0)
		if tier > g.MaxTier() {
			c.tiersOverMax++
		}
		next := map[uint64]struct{}{}
		for pos := range cur {
			pieces = g.Pieces(pos, pieces[:0])
			live, dead := 0, false
			for _, p := range pieces {
				if !p.Live {
					dead = true
					continue
				}
				live++
				inPlace[p.Key] = struct{}{}
				k := g.Translate(p.Key)
				translated[k] = g.Size(k)
			}
			if live >= 2 {
				c.split++
				c.splitByTier[tier]++
				c.liveWhenSplit += uint64(live)
			}
			if dead {
				c.withDead++
			}
			deadFree[g.DeadFree(pos, pieces)] = struct{}{}
			succ = g.Expand(pos, pieces, succ[:0], ms, 1)
			for _, s := range succ {
				if g.Tier(s) != tier+1 {
					c.successorsOutsideNextTier++
				}
				next[s] = struct{}{}
			}
		}
		c.positions += uint64(len(cur))
		cur = next
	}
	c.moves, c.joins = ms.Moves, ms.Joins
	c.deadFree, c.inPlace, c.translated = len(deadFree), len(inPlace), len(translated)
	c.bySize = map[int]int{}
	for _, size := range translated {
		c.bySize[size]++
	}
	if ms.MovedPiece != nil {
		c.movedPiece, _ = games.MeanFraction(ms.MovedPiece)
		c.movedPieceSplit, _ = games.MeanFraction(ms.MovedPieceSplit)
	}
	return c
}

func mustNew(t testing.TB, name, board, start string) games.Game {
	t.Helper()
	g, err := New(name, board, start)
	if err != nil {
		t.Fatalf("New(%q, %q, %q): %v", name, board, start, err)
	}
	return g
}

// near compares a share or mean with the spec's figure to the places given.
func near(got, want float64, places int) bool {
	return math.Abs(got-want) <= 0.5*math.Pow(10, -float64(places))
}

func ratio(a, b uint64) float64 { return float64(a) / float64(b) }

// TestClobberReference checks the Clobber figures of census-spec.md.
func TestClobberReference(t *testing.T) {
	tests := []struct {
		board                                     string
		long                                      bool
		positions, moves                          uint64
		deadFree, inPlace, translated             int
		split, meanLive, dead, moved              float64
		byTier, splitByTier                       []uint64
		bySize                                    []int // from 2 stones
		movedAfterSplit                           float64
		checkByTier, checkBySize, checkMovedSplit bool
	}{
		{board: "2x6", positions: 29463, moves: 139136, deadFree: 13404, inPlace: 5836, translated: 4999,
			split: 0.2954, meanLive: 2.0260, dead: 0.6976, moved: 0.6894},
		{board: "3x4", positions: 35772, moves: 175190, deadFree: 18327, inPlace: 12766, translated: 11191,
			split: 0.1780, meanLive: 2.0170, dead: 0.6837, moved: 0.7811},
		{board: "3x5", long: true, positions: 618575, moves: 3800492, deadFree: 274653, inPlace: 137708, translated: 126811,
			split: 0.3168, meanLive: 2.0510, dead: 0.7480, moved: 0.7053},
		{board: "4x4", long: true, positions: 1809927, moves: 12192184, deadFree: 791655, inPlace: 424085, translated: 395947,
			split: 0.3290, meanLive: 2.0852, dead: 0.7475, moved: 0.7158,
			byTier:          []uint64{1, 48, 878, 7972, 40216, 125696, 274116, 419284, 430528, 313516, 141088, 45856, 8916, 1676, 120, 16},
			splitByTier:     []uint64{0, 0, 0, 112, 4366, 33124, 105674, 172568, 169215, 84508, 22584, 3244, 126, 0, 0, 0},
			bySize:          []int{4, 36, 266, 1830, 11100, 41422, 76122, 93688, 82170, 54692, 26682, 7032, 854, 48, 1},
			movedAfterSplit: 0.6368},
	}
	for _, tc := range tests {
		t.Run(tc.board, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("long census skipped in -short mode")
			}
			t.Parallel()
			c := census(t, mustNew(t, "clobber", tc.board, ""))
			counts := []struct {
				name      string
				got, want uint64
			}{
				{"positions", c.positions, tc.positions},
				{"moves", c.moves, tc.moves},
				{"dead-free boards", uint64(c.deadFree), uint64(tc.deadFree)},
				{"live pieces in place", uint64(c.inPlace), uint64(tc.inPlace)},
				{"translated", uint64(c.translated), uint64(tc.translated)},
				{"joins", c.joins, 0},
				{"successors outside the next tier", uint64(c.successorsOutsideNextTier), 0},
				{"tiers over MaxTier", uint64(c.tiersOverMax), 0},
			}
			for _, x := range counts {
				if x.got != x.want {
					t.Errorf("%s = %d, want %d", x.name, x.got, x.want)
				}
			}
			shares := []struct {
				name      string
				got, want float64
			}{
				{"split share", ratio(c.split, c.positions), tc.split},
				{"mean live pieces when split", ratio(c.liveWhenSplit, c.split), tc.meanLive},
				{"share with a dead stone", ratio(c.withDead, c.positions), tc.dead},
				{"moved-piece fraction", c.movedPiece, tc.moved},
			}
			if tc.movedAfterSplit != 0 {
				shares = append(shares, struct {
					name      string
					got, want float64
				}{"moved-piece fraction after split", c.movedPieceSplit, tc.movedAfterSplit})
			}
			for _, x := range shares {
				if !near(x.got, x.want, 4) {
					t.Errorf("%s = %.6f, want %.4f", x.name, x.got, x.want)
				}
			}
			if tc.byTier != nil && !slices.Equal(c.byTier, tc.byTier) {
				t.Errorf("positions by tier = %v, want %v", c.byTier, tc.byTier)
			}
			if tc.splitByTier != nil && !slices.Equal(c.splitByTier, tc.splitByTier) {
				t.Errorf("split positions by tier = %v, want %v", c.splitByTier, tc.splitByTier)
			}
			if tc.bySize != nil {
				var got []int
				for size := 2; size <= 16; size++ {
					got = append(got, c.bySize[size])
				}
				if !slices.Equal(got, tc.bySize) || len(c.bySize) != 15 {
					t.Errorf("translated pieces by size = %v (%d sizes), want %v", got, len(c.bySize), tc.bySize)
				}
			}
		})
	}
}

func TestDomineeringReference(t *testing.T) {
	c := census(t, mustNew(t, "domineering", "4x4", ""))
	if c.positions != 5700 || c.moves != 32464 || c.joins != 0 {
		t.Errorf("domineering 4x4: %d positions, %d moves, %d joins; want 5700, 32464, 0", c.positions, c.moves, c.joins)
	}
	if want := []uint64{1, 24, 215, 912, 1911, 1868, 704, 64, 1}; !slices.Equal(c.byTier, want) {
		t.Errorf("positions by tier = %v, want %v", c.byTier, want)
	}
	// The spec gives 47.0%: a share of 0.470 to three places.
	if share := ratio(c.split, c.positions); !near(share, 0.470, 3) {
		t.Errorf("split share = %.5f, want 0.470", share)
	}
}

func TestAmazonsReference(t *testing.T) {
	g := mustNew(t, "amazons", "3x4", "")
	if got, want := g.Format(g.Start()), "o..x/..../...."; got != want {
		t.Fatalf("start = %s, want %s", got, want)
	}
	c := census(t, g)
	if c.positions != 127583 || c.moves != 2300392 || c.joins != 0 {
		t.Errorf("amazons 3x4: %d positions, %d moves, %d joins; want 127583, 2300392, 0", c.positions, c.moves, c.joins)
	}
	if c.successorsOutsideNextTier != 0 || c.tiersOverMax != 0 {
		t.Errorf("%d successors outside the next tier, %d tiers beyond MaxTier", c.successorsOutsideNextTier, c.tiersOverMax)
	}
}

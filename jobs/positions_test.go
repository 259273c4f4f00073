package jobs

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// memoryTiers enumerates every position reachable in g in memory, plainly,
// and returns them by tier, sorted.
func memoryTiers(g games.Game) [][]uint64 {
	var tiers [][]uint64
	for tier := []uint64{g.Start()}; len(tier) > 0; {
		tiers = append(tiers, tier)
		var next []uint64
		for _, pos := range tier {
			next = g.Expand(pos, g.Pieces(pos, nil), next, games.NewMoveStats(false), 1)
		}
		slices.Sort(next)
		tier = slices.Compact(next)
	}
	return tiers
}

// readPositionsPart reads a positions table part from the store.
func readPositionsPart(t *testing.T, st store.Store, b Blob) []schema.Position {
	t.Helper()
	rows, err := schema.ReadPositions(bytes.NewReader(readStore(t, st, b.Name)))
	if err != nil {
		t.Fatalf("part %s: %v", b.Name, err)
	}
	if uint64(len(rows)) != b.Count {
		t.Errorf("part %s holds %d rows, its blob says %d", b.Name, len(rows), b.Count)
	}
	return rows
}

// TestPositionsTable runs censuses through the job kernels with the
// positions table asked for, with and without the symmetry reduction, on
// one and several shards, and with a budget small enough that the images
// of the representatives are spilled and merged. Every tier's parts must
// hold exactly the positions of a plain enumeration in memory, each part
// sorted, with the pieces and picture of each position.
func TestPositionsTable(t *testing.T) {
	tests := []struct {
		game, board string
		noSymmetry  bool
		shards      func(tier int) int
		budget      int64
		spills      bool // the tiny budget must make the images spill
	}{
		{"clobber", "3x4", false, func(int) int { return 1 }, 1 << 20, true},
		{"clobber", "3x4", false, func(tier int) int { return 1 + tier%3 }, 64 << 20, false},
		{"clobber", "3x4", true, func(tier int) int { return 2 }, 1 << 20, false},
		{"domineering", "4x4", false, func(tier int) int { return 3 }, 64 << 20, false},
		{"domineering", "4x4", true, func(int) int { return 1 }, 64 << 20, false},
		{"amazons", "3x3", false, func(tier int) int { return 2 - tier%2 }, 64 << 20, false},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s-%s-plain=%v-budget=%d", tt.game, tt.board, tt.noSymmetry, tt.budget>>20)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g := mustGame(t, tt.game, tt.board, "")
			st := newStore(t)
			spec := Spec{Run: "pos", Game: tt.game, Board: tt.board, NoSymmetry: tt.noSymmetry, Positions: true, MemBudget: tt.budget}
			c := runJobs(t, st, spec, tt.shards, 2, 2)
			want := memoryTiers(g)
			if len(c.tables) != len(want) {
				t.Fatalf("parts for %d tiers, want %d", len(c.tables), len(want))
			}
			for tier, keys := range want {
				var got []uint64
				var split uint64
				for _, b := range c.tables[tier] {
					rows := readPositionsPart(t, st, b)
					if !slices.IsSortedFunc(rows, func(a, b schema.Position) int { return cmpKeys(a.Key, b.Key) }) {
						t.Errorf("tier %d part %s is not sorted by key", tier, b.Name)
					}
					for _, r := range rows {
						got = append(got, r.Key)
						pcs := g.Pieces(r.Key, nil)
						var live int32
						for _, p := range pcs {
							if p.Live {
								live++
							}
						}
						if r.LivePieces != live || r.DeadPieces != int32(len(pcs))-live || r.Picture != g.Format(r.Key) {
							t.Fatalf("row %+v: position has %d live of %d pieces, picture %s", r, live, len(pcs), g.Format(r.Key))
						}
						if r.LivePieces >= 2 {
							split++
						}
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, keys) {
					t.Errorf("tier %d: parts hold %d keys (%d distinct), the enumeration %d", tier, len(got), len(slices.Compact(got)), len(keys))
				}
				if uint64(len(got)) != c.byTier[tier] || split != c.splitByTier[tier] {
					t.Errorf("tier %d: %d rows, %d split; the jobs counted %d, %d split", tier, len(got), split, c.byTier[tier], c.splitByTier[tier])
				}
			}
			names, err := st.List(context.Background(), "")
			if err != nil {
				t.Fatal(err)
			}
			spilled := slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "/positions/s") })
			if tt.spills && !spilled {
				t.Errorf("no images were spilled: the merge of spilled runs went untested")
			}
		})
	}
}

// TestPositionsOff checks that a census without the positions table
// writes none, that asking for it leaves every other output alone, and
// that jobs run again write the same parts over the first ones.
func TestPositionsOff(t *testing.T) {
	off, on := newStore(t), newStore(t)
	spec := Spec{Run: "pos", Game: "clobber", Board: "2x4", MemBudget: 1 << 20}
	cOff := runJobs(t, off, spec, func(int) int { return 2 }, 2, 2)
	spec.Positions = true
	cOn := runJobs(t, on, spec, func(int) int { return 2 }, 2, 2)
	first := snapshot(t, on)
	if again := runJobs(t, on, spec, func(int) int { return 2 }, 2, 2); !reflect.DeepEqual(again.tables, cOn.tables) {
		t.Errorf("jobs run again named other parts: %v, first %v", again.tables, cOn.tables)
	}
	if !reflect.DeepEqual(snapshot(t, on), first) {
		t.Errorf("jobs run again changed the store")
	}
	for _, parts := range cOff.tables {
		if len(parts) != 0 {
			t.Fatalf("positions parts %v written without being asked for", parts)
		}
	}
	a, b := snapshot(t, off), snapshot(t, on)
	for name := range b {
		if strings.Contains(name, "/positions/") {
			delete(b, name)
		}
	}
	if len(a) != len(b) {
		t.Errorf("%d blobs without positions, %d other blobs with them", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("blob %s differs when positions are written", name)
		}
	}
	cOn.tables = nil
	cOff.tables = nil
	if fmt.Sprint(cOn) != fmt.Sprint(cOff) {
		t.Errorf("census with positions %+v, without %+v", cOn, cOff)
	}
}

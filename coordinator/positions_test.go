package coordinator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
)

// positionsTable is the positions table of a run's outputs as read back
// with the schema reader: the rows of each tier, from the tier=NN
// directories.
type positionsTable struct {
	rows  [][]schema.Position // by tier, every part's rows in part order
	files []string            // relative to the output directory
}

var tierDir = regexp.MustCompile(`^tier=(\d{2,})$`)

// readPositions reads the positions table under out, checking its layout:
// tier=NN directories of zero-padded tiers, holding part-SSSSS.parquet
// files each sorted by key.
func readPositions(t *testing.T, out string) positionsTable {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join(out, schema.PositionsDir))
	if err != nil {
		t.Fatal(err)
	}
	var tab positionsTable
	for _, d := range dirs {
		m := tierDir.FindStringSubmatch(d.Name())
		if m == nil || !d.IsDir() {
			t.Fatalf("positions/%s is not a tier=NN directory", d.Name())
		}
		tier, _ := strconv.Atoi(m[1])
		if tier != len(tab.rows) {
			t.Fatalf("positions/%s follows %d tiers", d.Name(), len(tab.rows))
		}
		parts, err := os.ReadDir(filepath.Join(out, schema.PositionsDir, d.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var rows []schema.Position
		for _, p := range parts {
			if ok, _ := filepath.Match("part-[0-9][0-9][0-9][0-9][0-9].parquet", p.Name()); !ok {
				t.Fatalf("positions/%s/%s is not a part", d.Name(), p.Name())
			}
			rel := filepath.Join(schema.PositionsDir, d.Name(), p.Name())
			part, err := schema.ReadPositionsFile(filepath.Join(out, rel))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.IsSortedFunc(part, func(a, b schema.Position) int { return cmpU(a.Key, b.Key) }) {
				t.Errorf("%s is not sorted by key", rel)
			}
			rows = append(rows, part...)
			tab.files = append(tab.files, filepath.ToSlash(rel))
		}
		tab.rows = append(tab.rows, rows)
	}
	return tab
}

// checkPositions requires the positions table to agree with the summary:
// as many rows per tier as positions_by_tier, keys distinct, and as many
// positions of two or more live pieces as split_by_tier.
func checkPositions(t *testing.T, tab positionsTable, s schema.Summary) {
	t.Helper()
	if len(tab.rows) != len(s.PositionsByTier) {
		t.Fatalf("positions of %d tiers, summary has %d", len(tab.rows), len(s.PositionsByTier))
	}
	seen := make(map[uint64]bool, s.Positions)
	for tier, rows := range tab.rows {
		var split uint64
		for _, r := range rows {
			if seen[r.Key] {
				t.Fatalf("tier %d: key %#x appears twice", tier, r.Key)
			}
			seen[r.Key] = true
			if r.LivePieces >= 2 {
				split++
			}
			if r.LivePieces < 0 || r.DeadPieces < 0 || r.Picture == "" {
				t.Fatalf("tier %d: row %+v", tier, r)
			}
		}
		if uint64(len(rows)) != s.PositionsByTier[tier] {
			t.Errorf("tier %d: %d rows, positions_by_tier says %d", tier, len(rows), s.PositionsByTier[tier])
		}
		if split != s.SplitByTier[tier] {
			t.Errorf("tier %d: %d rows with two or more live pieces, split_by_tier says %d", tier, split, s.SplitByTier[tier])
		}
	}
	if uint64(len(seen)) != s.Positions {
		t.Errorf("%d distinct keys, %d positions", len(seen), s.Positions)
	}
}

// TestPositionsTable runs the spec's small boards with the positions table,
// with and without the symmetry reduction, on one and several shards.
func TestPositionsTable(t *testing.T) {
	tests := []struct {
		game, board string
		plain       bool
		shards      int
		positions   uint64 // census-spec.md
	}{
		{"clobber", "3x4", false, 1, 35772},
		{"clobber", "3x4", true, 3, 35772},
		{"clobber", "4x4", false, 0, 1809927},
		{"domineering", "4x4", false, 3, 5700},
		{"domineering", "4x4", true, 1, 5700},
		{"amazons", "3x4", false, 2, 127583},
		{"amazons", "3x4", true, 1, 127583},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%s-plain=%v-shards=%d", tt.game, tt.board, tt.plain, tt.shards), func(t *testing.T) {
			tmp := t.TempDir()
			out := coordinator.OutputDir(filepath.Join(tmp, "out"), tt.game, tt.board)
			res, err := embedded.Run(context.Background(), embedded.Options{
				Game: tt.game, Board: tt.board, Out: out, Data: filepath.Join(tmp, "data"),
				Workers: 2, Shards: tt.shards, MemBudget: 64 << 20, NoSymmetry: tt.plain, Positions: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			s := res.Summary
			if s.Positions != tt.positions {
				t.Fatalf("%d positions, want %d", s.Positions, tt.positions)
			}
			tab := readPositions(t, out)
			checkPositions(t, tab, s)
			if tt.shards > 1 && len(tab.files) <= len(tab.rows) {
				t.Errorf("%d parts for %d tiers on %d shards", len(tab.files), len(tab.rows), tt.shards)
			}
			var m schema.Manifest
			data, err := os.ReadFile(filepath.Join(out, schema.ManifestFile))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			var listed []string
			for _, f := range m.Files {
				if ok, _ := filepath.Match("positions/*/*", f.Path); ok {
					listed = append(listed, f.Path)
				}
			}
			if !slices.Equal(listed, tab.files) {
				t.Errorf("run.json lists positions parts %v, the directory holds %v", listed, tab.files)
			}
			if tt.game == "clobber" && tt.board == "4x4" {
				// The spec's split positions by tier.
				want := []uint64{0, 0, 0, 112, 4366, 33124, 105674, 172568, 169215, 84508, 22584, 3244, 126, 0, 0, 0}
				if !reflect.DeepEqual(s.SplitByTier, want) {
					t.Errorf("split_by_tier = %v, want %v", s.SplitByTier, want)
				}
			}
		})
	}
}

// TestPositionsLeaveOtherOutputs runs a census with and without the
// positions table into one output directory: the other outputs are the
// same, and the run without it leaves no positions behind.
func TestPositionsLeaveOtherOutputs(t *testing.T) {
	tmp := t.TempDir()
	out := coordinator.OutputDir(filepath.Join(tmp, "out"), "clobber", "3x4")
	var sums [2]schema.Summary
	var pieces [2][]schema.Piece
	for i, positions := range []bool{true, false} {
		res, err := embedded.Run(context.Background(), embedded.Options{
			Game: "clobber", Board: "3x4", Out: out, Data: filepath.Join(tmp, fmt.Sprint("data", i)),
			Workers: 2, MemBudget: 64 << 20, Positions: positions,
		})
		if err != nil {
			t.Fatal(err)
		}
		sums[i], pieces[i] = res.Summary, readPieces(t, out)
		_, err = os.Stat(filepath.Join(out, schema.PositionsDir))
		if positions != (err == nil) {
			t.Fatalf("positions asked for: %v; positions directory: %v", positions, err)
		}
	}
	if !reflect.DeepEqual(counts(sums[0]), counts(sums[1])) {
		t.Errorf("summary with positions differs from the one without:\n%+v\n%+v", sums[0], sums[1])
	}
	if !reflect.DeepEqual(pieces[0], pieces[1]) {
		t.Errorf("pieces with positions differ from those without: %d rows vs %d", len(pieces[0]), len(pieces[1]))
	}
	plain, err := coordinator.RunID("clobber", "3x4", "", 0, false, false)
	if err != nil {
		t.Fatal(err)
	}
	with, _ := coordinator.RunID("clobber", "3x4", "", 0, false, true)
	if plain == with {
		t.Errorf("runs with and without positions share the run ID %s", plain)
	}
}

// crashing runs the first batches through its executor, every job
// delivered three times, then fails as a coordinator that dies would.
type crashing struct {
	inner   *duplicating
	batches int
}

var errCrash = errors.New("coordinator crashed")

func (c *crashing) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	if c.batches == 0 {
		return nil, errCrash
	}
	c.batches--
	return c.inner.Execute(ctx, batch, done)
}

// TestPositionsResume stops a run with the positions table after a few
// tiers, whose jobs were each delivered three times, and runs it again: the
// second coordinator takes the finished tiers' parts from their
// done-records and the outputs hold every position.
func TestPositionsResume(t *testing.T) {
	const run = "positions-resume"
	ctx, conn, st, kv := natsRun(t, run)
	out := filepath.Join(t.TempDir(), "out")
	cfg := coordinator.Config{
		Census:  coordinator.Census{Game: "clobber", Board: "3x4", Shards: 2, Positions: true},
		Env:     coordinator.Env{Run: run, Store: st, StoreURL: st.Root(), KV: kv},
		Tuning:  coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
		Outputs: coordinator.Outputs{Out: out, Version: "test"},
	}
	first := cfg
	first.Exec = &crashing{batches: 5, inner: &duplicating{
		inner: &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "first"}, js: conn.JS, run: run}}
	if _, err := coordinator.Run(ctx, first); !errors.Is(err, errCrash) {
		t.Fatalf("first coordinator: %v, want the crash", err)
	}
	if _, err := os.Stat(filepath.Join(out, schema.PositionsDir)); err == nil {
		t.Fatal("a crashed run wrote positions")
	}
	second := cfg
	second.Exec = &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "second"}
	res, err := coordinator.Run(ctx, second)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := census(t, "clobber", "3x4", "", 2, 2)
	if !reflect.DeepEqual(counts(res.Summary), counts(want)) {
		t.Errorf("resumed summary differs:\n%+v\n%+v", res.Summary, want)
	}
	checkPositions(t, readPositions(t, out), res.Summary)
}

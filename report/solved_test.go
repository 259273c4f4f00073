package report

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/internal/refsolve"
	"github.com/census-cgt/census/schema"
)

// solvedRun runs the census of game on board keeping its positions, then
// the solve stage, in this process, with the outputs under dir, and
// returns the run's directory.
func solvedRun(t *testing.T, dir, game, board string) string {
	t.Helper()
	out := coordinator.OutputDir(dir, game, board)
	data := filepath.Join(t.TempDir(), "data")
	ctx := context.Background()
	if _, err := embedded.Run(ctx, embedded.Options{
		Game: game, Board: board, Out: out, Data: data, Workers: 2, Shards: 2, MemBudget: 64 << 20, Version: "test", Keep: true,
	}); err != nil {
		t.Fatalf("census %s %s: %v", game, board, err)
	}
	if _, err := embedded.RunSolve(ctx, embedded.SolveOptions{Dir: out, Data: data + "-solve", Workers: 2, MemBudget: 64 << 20}); err != nil {
		t.Fatalf("solve of %s %s: %v", game, board, err)
	}
	return out
}

// wholeBoardByTier counts each tier's positions by class with the
// whole-board reference solver, as checkOutcomeChart takes them.
func wholeBoardByTier(t *testing.T, game, board string) (tiers []int, by map[int]*recount) {
	t.Helper()
	g, err := all.New(game, board, "")
	if err != nil {
		t.Fatal(err)
	}
	ref := refsolve.New(g.(games.Mover))
	by = map[int]*recount{}
	for tier, ps := range refsolve.Reachable(g) {
		rc := &recount{classes: map[string]float64{}}
		for _, p := range ps {
			rc.classes[ref.Outcome(p).String()]++
			rc.pieces++
		}
		tiers, by[tier] = append(tiers, tier), rc
	}
	return tiers, by
}

// TestSolvedChart reports solved runs of small boards and checks that the
// chart of outcomes by tier stacks, for every tier, the shares of the
// whole-board solver's classes; one run's tiers.parquet is written back
// without its outcome columns, as a file from before them, and its chart
// is drawn from summary.json's outcomes_by_tier. An unsolved run has no
// such chart.
func TestSolvedChart(t *testing.T) {
	dir := t.TempDir()
	boards := [][2]string{{"clobber", "3x3"}, {"domineering", "3x3"}}
	for _, gb := range boards {
		solvedRun(t, dir, gb[0], gb[1])
	}
	old := filepath.Join(coordinator.OutputDir(dir, "domineering", "3x3"), schema.TiersFile)
	rows, err := schema.ReadTiersFile(old)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if rows[i].Outcomes == nil {
			t.Fatalf("%s tier %d has no outcomes after the solve", old, rows[i].Tier)
		}
		rows[i].Outcomes = nil
	}
	if err := schema.WriteFileAtomic(old, func(w io.Writer) error { return schema.WriteTiers(w, rows) }); err != nil {
		t.Fatal(err)
	}
	plain := coordinator.OutputDir(dir, "clobber", "2x3")
	if _, err := embedded.Run(context.Background(), embedded.Options{
		Game: "clobber", Board: "2x3", Out: plain, Data: filepath.Join(t.TempDir(), "data"), Workers: 2, Shards: 2, MemBudget: 64 << 20, Version: "test",
	}); err != nil {
		t.Fatalf("census clobber 2x3: %v", err)
	}
	out, err := Write(dir, Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	doc := parsePage(t, filepath.Join(dir, HTMLName))
	for _, r := range out.Runs {
		t.Run(r.ID, func(t *testing.T) {
			got := sectionCharts(t, doc, r.ID)
			want := wantCharts(r.Game())
			if r.Dir != plain {
				want = append(want, chartSolved)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("charts %v, want %v", got, want)
			}
			if r.Dir == plain {
				return
			}
			tiers, by := wholeBoardByTier(t, r.Game(), r.Board())
			checkOutcomeChart(t, doc, r.ID+"-"+chartSolved, tiers, by)
		})
	}
}

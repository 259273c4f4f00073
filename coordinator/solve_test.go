package coordinator_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/internal/embedded"
	"github.com/census-cgt/census/internal/refsolve"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/solve"
)

// TestSolveStage runs a census that keeps its positions, on each game,
// then the solve stage, both on an embedded NATS server: the census's
// summary is that of a census that keeps nothing, and the outcomes are
// those of the whole-board solver.
func TestSolveStage(t *testing.T) {
	for _, c := range []struct{ game, board string }{{"clobber", "3x4"}, {"domineering", "4x4"}, {"amazons", "2x4"}} {
		t.Run(c.game+"-"+c.board, func(t *testing.T) {
			plain, _ := census(t, c.game, c.board, "", 3, 2)
			tmp := t.TempDir()
			out := coordinator.OutputDir(filepath.Join(tmp, "out"), c.game, c.board)
			res, err := embedded.Run(context.Background(), embedded.Options{
				Game: c.game, Board: c.board, Out: out, Data: filepath.Join(tmp, "data"),
				Workers: 2, Shards: 3, MemBudget: 64 << 20, Version: "test", Keep: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(counts(res.Summary), counts(plain)) {
				t.Errorf("keeping the positions changed the summary:\n%+v\n%+v", res.Summary, plain)
			}
			solved, err := embedded.RunSolve(context.Background(), embedded.SolveOptions{
				Dir: out, Data: filepath.Join(tmp, "solve"), Workers: 2, MemBudget: 64 << 20,
			})
			if err != nil {
				t.Fatal(err)
			}
			g, err := all.New(c.game, c.board, "")
			if err != nil {
				t.Fatal(err)
			}
			ref := refsolve.New(g.(games.Mover))
			tiers, err := schema.ReadTiersFile(filepath.Join(out, schema.TiersFile))
			if err != nil {
				t.Fatal(err)
			}
			var want solve.Counts
			for tier, ps := range refsolve.Reachable(g) {
				var byTier solve.Counts
				for _, p := range ps {
					byTier[ref.Outcome(p)]++
				}
				if tier >= len(solved.OutcomesByTier) || !reflect.DeepEqual(solved.OutcomesByTier[tier], byTier.Map()) {
					t.Errorf("tier %d: whole board %v, solve %v", tier, byTier.Map(), solved.OutcomesByTier)
				}
				wantRow := schema.TierOutcomes{L: byTier[solve.L], R: byTier[solve.R], N: byTier[solve.N], P: byTier[solve.P]}
				if tier >= len(tiers) || tiers[tier].Outcomes == nil || *tiers[tier].Outcomes != wantRow {
					t.Errorf("tiers.parquet tier %d: whole board %+v, file %+v", tier, wantRow, tiers)
				}
				want.Add(byTier)
			}
			if !reflect.DeepEqual(solved.Outcomes, want.Map()) || solved.StartOutcome != ref.Outcome(g.Start()).String() {
				t.Errorf("solve: start %s, %v; whole board: start %s, %v", solved.StartOutcome, solved.Outcomes, ref.Outcome(g.Start()), want.Map())
			}
		})
	}
}

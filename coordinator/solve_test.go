package coordinator_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/internal/refsolve"
	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/solve"
)

// TestSolveStage runs a census that keeps its positions and writes the
// positions table, on each game, with and without the symmetry reduction,
// then the solve stage, both on an embedded NATS server: the census's
// summary is that of a census that keeps nothing, the outcomes are those
// of the whole-board solver, and so is every row's class in the positions
// table, which had no outcome column before the solve.
func TestSolveStage(t *testing.T) {
	for _, c := range []struct {
		game, board string
		plain       bool
	}{{"clobber", "3x4", false}, {"clobber", "2x5", true}, {"domineering", "4x4", false}, {"domineering", "3x3", true}, {"amazons", "2x4", false}} {
		t.Run(fmt.Sprintf("%s-%s-plain=%v", c.game, c.board, c.plain), func(t *testing.T) {
			plain, _ := census(t, c.game, c.board, "", 3, 2)
			tmp := t.TempDir()
			out := coordinator.OutputDir(filepath.Join(tmp, "out"), c.game, c.board)
			res, err := embedded.Run(context.Background(), embedded.Options{
				Game: c.game, Board: c.board, Out: out, Data: filepath.Join(tmp, "data"),
				Workers: 2, Shards: 3, MemBudget: 64 << 20, Version: "test", Keep: true, Positions: true, NoSymmetry: c.plain,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(counts(res.Summary), counts(plain)) {
				t.Errorf("keeping the positions changed the summary:\n%+v\n%+v", res.Summary, plain)
			}
			for tier, rows := range readPositions(t, out).rows {
				for _, r := range rows {
					if r.Outcome != "" {
						t.Fatalf("tier %d: position %s has outcome %q before the solve", tier, r.Picture, r.Outcome)
					}
				}
			}
			solved, err := embedded.RunSolve(context.Background(), embedded.SolveOptions{
				Dir: out, Data: filepath.Join(tmp, "solve"), Workers: 2, MemBudget: 64 << 20,
			})
			if err != nil {
				t.Fatal(err)
			}
			checkSolved(t, out, c.game, c.board, solved)
		})
	}
}

// TestClusterSolve runs a census that keeps its positions and writes the
// positions table on a NATS server in this process, with a worker whose
// store is not the output directory, then the solve stage on the same
// worker (StartSolve with CopyKept, as census coordinator --solve runs
// it): the outcomes are those of the whole-board solver, and the store
// holds nothing of the census or the stage once they are done.
func TestClusterSolve(t *testing.T) {
	ctx, conn, st := serverWithWorker(t, "cluster-solve")
	out := coordinator.OutputDir(filepath.Join(t.TempDir(), "out"), "domineering", "4x4")
	_, err := coordinator.Start(ctx, coordinator.Config{
		Census:  coordinator.Census{Game: "domineering", Board: "4x4", Shards: 3, Keep: true, Positions: true},
		Env:     coordinator.Env{Store: st, StoreURL: st.Root()},
		Tuning:  coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
		Outputs: coordinator.Outputs{Out: out, Version: "test"},
	}, conn)
	if err != nil {
		t.Fatal(err)
	}
	d, err := coordinator.CheckStageDir(out, coordinator.SolveStage)
	if err != nil {
		t.Fatal(err)
	}
	solved, err := coordinator.StartSolve(ctx, coordinator.SolveConfig{
		Env: coordinator.Env{Store: st, StoreURL: st.Root(), Log: testLog(t)},
		Dir: d, CopyKept: true, MemBudget: 64 << 20,
	}, conn)
	if err != nil {
		t.Fatal(err)
	}
	checkSolved(t, out, "domineering", "4x4", solved)
	if left, err := st.List(ctx, ""); err != nil || len(left) > 0 {
		t.Errorf("the store holds %d blobs after the solve (%v), want none: %v", len(left), err, left)
	}
}

// checkSolved checks the solve of game on board in out against the
// whole-board solver: its outcomes by tier, tiers.parquet's, the start's,
// and every row of the positions table.
func checkSolved(t *testing.T, out, game, board string, solved *schema.Solved) {
	t.Helper()
	g, err := all.New(game, board, "")
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
	rec := refsolve.NewRecorder(g.(games.Mover))
	checkPositionOutcomes(t, out, g, ref, rec)
	checkTablebase(t, out, g, rec)
	if r := rec.Record(g.Start()); solved.StartRemoteness == nil ||
		*solved.StartRemoteness != (schema.Remoteness{LeftFirst: int(r.Left), RightFirst: int(r.Right)}) {
		t.Errorf("start remoteness %+v, whole board %+v", solved.StartRemoteness, r)
	}
	sum, err := schema.ReadSummaryJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	// A solve job a shard of every tier: at least one a tier.
	if sum.Stages == nil || sum.Stages.Solve == nil || sum.Stages.Solve.Jobs < len(tiers) || sum.Stages.Solve.WallSeconds <= 0 {
		t.Errorf("summary.json's stages.solve: %+v, want the wall time and at least %d jobs", sum.Stages, len(tiers))
	}
}

// checkPositionOutcomes checks every row of the positions table under out
// against the whole-board solver: its tier, its class, and that the table
// holds every reachable position once.
func checkPositionOutcomes(t *testing.T, out string, g games.Game, ref *refsolve.Solver, rec *refsolve.Recorder) {
	t.Helper()
	tab := readPositions(t, out)
	reachable := refsolve.Reachable(g)
	if len(tab.rows) != len(reachable) {
		t.Fatalf("positions of %d tiers, whole board %d", len(tab.rows), len(reachable))
	}
	for tier, rows := range tab.rows {
		if len(rows) != len(reachable[tier]) {
			t.Errorf("tier %d: %d rows, whole board %d positions", tier, len(rows), len(reachable[tier]))
		}
		inTier := make(map[uint64]bool, len(reachable[tier]))
		for _, p := range reachable[tier] {
			inTier[p] = true
		}
		for _, r := range rows {
			if !inTier[r.Key] {
				t.Fatalf("tier %d: position %s is not in the tier, or twice in the table", tier, r.Picture)
			}
			delete(inTier, r.Key)
			if want := ref.Outcome(r.Key).String(); r.Outcome != want {
				t.Fatalf("tier %d: position %s has outcome %q, whole board %s", tier, r.Picture, r.Outcome, want)
			}
			if want := rec.Record(r.Key); r.RemotenessLeftFirst != int32(want.Left) || r.RemotenessRightFirst != int32(want.Right) {
				t.Fatalf("tier %d: position %s has remoteness %d, %d; whole board %d, %d",
					tier, r.Picture, r.RemotenessLeftFirst, r.RemotenessRightFirst, want.Left, want.Right)
			}
		}
	}
}

// checkTablebase opens the tablebase the solve left in out and checks the
// record of every reachable position against the whole-board solver's,
// and its count of positions against theirs.
func checkTablebase(t *testing.T, out string, g games.Game, rec *refsolve.Recorder) {
	t.Helper()
	tb, err := probe.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	n := 0
	for _, ps := range refsolve.Reachable(g) {
		for _, p := range ps {
			got, err := tb.Record(p)
			if err != nil {
				t.Fatalf("tablebase: %s: %v", g.Format(p), err)
			}
			if want := rec.Record(p); got != want {
				t.Fatalf("tablebase: %s has %+v, whole board %+v", g.Format(p), got, want)
			}
			n++
		}
	}
	if tb.Info().Positions != uint64(n) {
		t.Errorf("tablebase: %d positions, whole board %d", tb.Info().Positions, n)
	}
}

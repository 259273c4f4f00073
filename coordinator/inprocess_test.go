package coordinator_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
)

// TestSmallTiersInCoordinator runs the small tiers in the coordinator and
// stops the run after tier 3, then resumes it: the counts must be those of
// a run whose every job ran on the workers, the tiers done before the stop
// must be replayed from their done-records rather than run again, and the
// summary must say which tier jobs the coordinator ran.
func TestSmallTiersInCoordinator(t *testing.T) {
	const run = "in-process"
	ctx, conn, st, kv := natsRun(t, run)
	cfg := coordinator.Config{
		Census:  coordinator.Census{Game: "clobber", Board: "3x4"},
		Env:     coordinator.Env{Run: run, Store: st, StoreURL: st.Root(), KV: kv},
		Tuning:  coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20, InProcessBelow: coordinator.DefaultInProcessBelow},
		Outputs: coordinator.Outputs{Out: filepath.Join(t.TempDir(), "out"), Version: "test"},
	}
	first := cfg
	firstCtx, stop := context.WithCancel(ctx)
	defer stop()
	first.Progress = func(p coordinator.Progress) {
		if p.Stage == runstate.StageTier && p.Tier > 3 {
			stop()
		}
	}
	first.Exec = &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "first"}
	if _, err := coordinator.Run(firstCtx, first); !errors.Is(err, context.Canceled) {
		t.Fatalf("first start: %v, want it stopped", err)
	}
	bucket := runstate.New(conn.JS, kv)
	tier0 := jobs.Job{Tier: &jobs.TierJob{Tier: 0, Shard: 0}}.Key()
	before, done, err := bucket.Done(ctx, tier0)
	if err != nil || !done || before.Cost == nil {
		t.Fatalf("tier 0's done-record after the stop: %+v, %v, %v", before, done, err)
	}

	second := cfg
	second.Exec = &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "second"}
	res, err := coordinator.Run(ctx, second)
	if err != nil {
		t.Fatal(err)
	}
	after, _, err := bucket.Done(ctx, tier0)
	if err != nil || !reflect.DeepEqual(after, before) {
		t.Errorf("tier 0 ran again: its done-record was %+v, is %+v (%v)", before, after, err)
	}
	want, _ := census(t, "clobber", "3x4", "", 3, 2)
	if !reflect.DeepEqual(counts(res.Summary), counts(want)) {
		t.Errorf("summary differs from a run on the workers:\n%+v\n%+v", res.Summary, want)
	}
	s := res.Summary.Stages
	checkStages(t, s, res.Summary.Tiers)
	// The first four tiers were replayed; some of the later ones ran in
	// the coordinator again.
	if s.Tiers.InCoordinator < 1 || s.Tiers.InCoordinator > s.Tiers.Jobs-4 {
		t.Errorf("%d of %d tier jobs run in the coordinator by the second start, want some of the jobs after tier 3", s.Tiers.InCoordinator, s.Tiers.Jobs)
	}
	if want.Stages.Tiers.InCoordinator != 0 {
		t.Errorf("a run with three shards a tier ran %d tier jobs in the coordinator", want.Stages.Tiers.InCoordinator)
	}
	// Clobber 3x4's reduction is as small: its piece and class jobs ran
	// in the coordinator, but for a run whose shards were set.
	if s.Pieces.InCoordinator != s.Pieces.Jobs || s.Classes.InCoordinator != s.Classes.Jobs || s.Pieces.Jobs == 0 {
		t.Errorf("%d of %d piece jobs and %d of %d class jobs ran in the coordinator, want all", s.Pieces.InCoordinator, s.Pieces.Jobs, s.Classes.InCoordinator, s.Classes.Jobs)
	}
	if w := want.Stages; w.Pieces.InCoordinator != 0 || w.Classes.InCoordinator != 0 {
		t.Errorf("a run with three shards a tier ran %d piece and %d class jobs in the coordinator", w.Pieces.InCoordinator, w.Classes.InCoordinator)
	}
}

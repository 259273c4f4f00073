package coordinator_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/runstate"
)

// TestStatusFollowsRun runs a census over a NATS server of its own and
// reads `census status`'s view of it (coordinator.ListRuns) whenever the
// coordinator sees a job of a reduction finish: status must show the
// stage and at least as many of its jobs done. After the run it must show
// the run done with every job of the run counted.
func TestStatusFollowsRun(t *testing.T) {
	url := startServer(t, "status")
	st := newDir(t)
	startWorker(t, connect(t, url), st, 2)
	conn := connect(t, url)
	reader := connect(t, url)
	const shards = 3
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	var mu sync.Mutex
	// seen is the most jobs status showed done, by reduction stage.
	seen := map[string]int{}
	progress := func(p coordinator.Progress) {
		if (p.Stage != runstate.StagePieces && p.Stage != runstate.StageClasses) || p.JobsDone == 0 {
			return
		}
		runs, err := coordinator.ListRuns(ctx, reader)
		if err != nil {
			t.Errorf("list runs: %v", err)
			return
		}
		if len(runs) != 1 {
			t.Errorf("status shows %d runs, want 1", len(runs))
			return
		}
		r := runs[0]
		if r.Status.Stage != p.Stage {
			t.Errorf("status shows stage %q while the coordinator is in %q", r.Status.Stage, p.Stage)
			return
		}
		if r.JobsDone < p.JobsDone || r.JobsDone+r.JobsPending != shards {
			t.Errorf("%s: status shows %d done and %d pending; the coordinator has seen %d of %d done",
				p.Stage, r.JobsDone, r.JobsPending, p.JobsDone, shards)
		}
		mu.Lock()
		seen[p.Stage] = max(seen[p.Stage], r.JobsDone)
		mu.Unlock()
	}
	res, err := coordinator.Start(ctx, coordinator.Config{
		Game: "clobber", Board: "2x6", Shards: shards, Parallelism: 2, MemBudget: 64 << 20,
		Store: st, StoreURL: st.Root(), Out: filepath.Join(t.TempDir(), "out"), Version: "test", Progress: progress,
	}, conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, stage := range []string{runstate.StagePieces, runstate.StageClasses} {
		if seen[stage] != shards {
			t.Errorf("during the %s reduction status showed at most %d of its %d jobs done", stage, seen[stage], shards)
		}
	}

	runs, err := coordinator.ListRuns(ctx, reader)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 {
		t.Fatalf("status shows %d runs after the run, want 1", len(runs))
	}
	r := runs[0]
	// Every tier has `shards` jobs, the empty tier that ends the run too,
	// and so have the two reductions.
	want := (res.Summary.Tiers+1)*shards + 2*shards
	if r.Status.State != runstate.StateDone || r.Status.Stage != runstate.StageDone || r.JobsDone != want || r.JobsPending != 0 || r.JobsFailed != 0 {
		t.Errorf("status after the run: %s at %s, %d jobs done, %d pending, %d failed; want done at done, %d done, 0 pending, 0 failed",
			r.Status.State, r.Status.Stage, r.JobsDone, r.JobsPending, r.JobsFailed, want)
	}
	if r.Holder != "" {
		t.Errorf("status shows the finished run held by %s", r.Holder)
	}
	// Clobber 2x6 of census-spec.md.
	if r.Status.Positions != 29463 {
		t.Errorf("status shows %d positions, want 29463", r.Status.Positions)
	}
	// After the last tier the store holds every tier's piece records.
	if r.Status.StoreBytes == 0 {
		t.Errorf("status shows no bytes in the store")
	}
}

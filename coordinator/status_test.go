package coordinator_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
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
		Census:   coordinator.Census{Game: "clobber", Board: "2x6", Shards: shards},
		Env:      coordinator.Env{Store: st, StoreURL: st.Root()},
		Tuning:   coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
		Outputs:  coordinator.Outputs{Out: filepath.Join(t.TempDir(), "out"), Version: "test"},
		Progress: progress,
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

// TestStatusFollowsSolve solves a census run on the NATS server it ran on
// and reads `census status`'s view of the server (coordinator.ListRuns)
// whenever the solve stage begins or finishes a tier: status must show
// one run, the census run, with its solve's progress, and never the
// stage's bucket as a run of its own. Once the stage is done and its
// bucket gone, the run is shown as it was before the solve; with the
// bucket kept, as solved. A stage whose census ran on another server is
// shown alone, under the census run's ID and board.
func TestStatusFollowsSolve(t *testing.T) {
	ctx, conn, st := serverWithWorker(t, "status-solve")
	reader := connect(t, conn.NC.ConnectedUrl())
	out := coordinator.OutputDir(filepath.Join(t.TempDir(), "out"), "clobber", "3x4")
	res, err := coordinator.Start(ctx, coordinator.Config{
		Census:  coordinator.Census{Game: "clobber", Board: "3x4", Shards: 3, Keep: true},
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
	m := d.Manifest
	// one lists the runs and checks that there is one, m.Run, with a
	// solve.
	one := func(when string) (coordinator.RunInfo, bool) {
		t.Helper()
		runs, err := coordinator.ListRuns(ctx, reader)
		if err != nil {
			t.Errorf("%s: list runs: %v", when, err)
			return coordinator.RunInfo{}, false
		}
		if len(runs) != 1 || runs[0].Run != m.Run {
			var names []string
			for _, r := range runs {
				names = append(names, r.Run)
			}
			t.Errorf("%s: status shows runs %q, want only %s", when, names, m.Run)
			return coordinator.RunInfo{}, false
		}
		return runs[0], true
	}
	seen := 0
	progress := func(sp coordinator.SolveProgress) {
		when := fmt.Sprintf("tier %d, %d of %d solved", sp.Tier, sp.TiersDone, sp.Tiers)
		r, ok := one(when)
		if !ok {
			return
		}
		s := r.Solve
		if s == nil {
			t.Errorf("%s: status shows no solve", when)
			return
		}
		seen++
		want := runstate.SolveStatus{Run: m.Run, Game: "clobber", Board: "3x4", State: runstate.StateRunning,
			Tier: sp.Tier, Tiers: sp.Tiers, TiersDone: sp.TiersDone, Positions: sp.Positions, Stored: sp.Stored}
		got := s.Status
		got.JobsDone, got.JobsTotal, got.Updated = 0, 0, time.Time{}
		if got != want || s.Stage != coordinator.SolveStage.RunID(m) || r.Status.State != runstate.StateDone || r.Plan.Game != "clobber" {
			t.Errorf("%s: status shows %+v (stage %s), census %s; want %+v of stage %s, census done", when, got, s.Stage, r.Status.State, want, coordinator.SolveStage.RunID(m))
		}
	}
	cfg := coordinator.SolveConfig{Env: coordinator.Env{Store: st, StoreURL: st.Root(), Log: testLog(t)}, Dir: d, CopyKept: true,
		MemBudget: 64 << 20, Progress: progress}
	if _, err := coordinator.StartSolve(ctx, cfg, conn); err != nil {
		t.Fatal(err)
	}
	// Each of the tiers begun and finished.
	if want := 2 * res.Summary.Tiers; seen != want {
		t.Errorf("status showed the solve %d times, want %d", seen, want)
	}
	if r, ok := one("after the solve"); ok && (r.Solve != nil || r.Status.State != runstate.StateDone) {
		t.Errorf("after the solve: census %s, solve %+v; want done and no solve", r.Status.State, r.Solve)
	}

	cfg.Progress, cfg.KeepBlobs = nil, true
	if _, err := coordinator.StartSolve(ctx, cfg, conn); err != nil {
		t.Fatal(err)
	}
	if r, ok := one("after a solve that kept its bucket"); ok {
		if s := r.Solve; s == nil || s.Status.State != runstate.StateDone || s.Status.TiersDone != res.Summary.Tiers || s.Status.Tiers != res.Summary.Tiers || s.JobsFailed != 0 {
			t.Errorf("after a solve that kept its bucket: solve %+v, want done, %d of %d tiers", s, res.Summary.Tiers, res.Summary.Tiers)
		}
	}

	// A census run elsewhere, solved here.
	alone := coordinator.OutputDir(filepath.Join(t.TempDir(), "out"), "clobber", "2x3")
	if _, err := embedded.Run(ctx, embedded.Options{Game: "clobber", Board: "2x3", Out: alone, Data: filepath.Join(t.TempDir(), "data"),
		Workers: 2, Shards: 2, MemBudget: 64 << 20, Version: "test", Keep: true}); err != nil {
		t.Fatal(err)
	}
	da, err := coordinator.CheckStageDir(alone, coordinator.SolveStage)
	if err != nil {
		t.Fatal(err)
	}
	ma := da.Manifest
	if _, err := coordinator.StartSolve(ctx, coordinator.SolveConfig{Env: coordinator.Env{Store: st, StoreURL: st.Root(), KeepBlobs: true},
		Dir: da, CopyKept: true, MemBudget: 64 << 20}, conn); err != nil {
		t.Fatal(err)
	}
	runs, err := coordinator.ListRuns(ctx, reader)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(runs, func(r coordinator.RunInfo) bool { return r.Run == ma.Run })
	if len(runs) != 2 || i < 0 {
		t.Fatalf("status shows %d runs, want %s and %s", len(runs), m.Run, ma.Run)
	}
	if r := runs[i]; r.Plan.Game != "clobber" || r.Plan.Board != "2x3" || r.Solve == nil || r.Solve.Status.State != runstate.StateDone {
		t.Errorf("the solve of a census run elsewhere: %+v, want clobber 2x3 with its solve done", r)
	}
}

package coordinator_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/jobs"
)

// slow runs each batch through its executor no sooner than after wait.
type slow struct {
	inner coordinator.Executor
	wait  time.Duration
}

func (s *slow) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	time.Sleep(s.wait)
	return s.inner.Execute(ctx, batch, done)
}

// TestResumedTierTimes stops a run after its first tiers, each of which
// took over a second, and runs it again: the resumed run replays those
// tiers' done-records in moments, yet its summary's tier wall time and its
// progress line's rate count them as long as they took in the first start.
func TestResumedTierTimes(t *testing.T) {
	const run, tiers, wait = "resumed-times", 3, 1100 * time.Millisecond
	ctx, conn, st, kv := natsRun(t, run)
	cfg := coordinator.Config{
		Census:  coordinator.Census{Game: "clobber", Board: "3x4", Shards: 2},
		Env:     coordinator.Env{Run: run, Store: st, StoreURL: st.Root(), KV: kv},
		Tuning:  coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
		Outputs: coordinator.Outputs{Out: filepath.Join(t.TempDir(), "out"), Version: "test"},
	}
	first := cfg
	first.Exec = &stopping{batches: tiers, inner: &slow{wait: wait, inner: &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "first"}}}
	if _, err := coordinator.Run(ctx, first); !errors.Is(err, errCrash) {
		t.Fatalf("first coordinator: %v, want the crash", err)
	}
	second := cfg
	second.Exec = &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "second"}
	var replayed coordinator.Progress // the progress once the first start's tiers are replayed
	second.Progress = func(p coordinator.Progress) {
		if p.Stage == "tier" && p.Tier == tiers && p.JobsTotal == 0 {
			replayed = p
		}
	}
	began := time.Now()
	res, err := coordinator.Run(ctx, second)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(began)
	if took >= tiers*wait {
		t.Fatalf("the resumed run took %v: too long to tell replayed tiers from run ones", took)
	}
	if got := res.Summary.Stages.Tiers.WallSeconds; got < (tiers * wait).Seconds() {
		t.Errorf("tiers' wall time %.3fs in the resumed run's summary, want at least the first start's %d tiers' %v", got, tiers, tiers*wait)
	}
	if replayed.Positions == 0 {
		t.Fatalf("no progress after the replayed tier %d", tiers)
	}
	if limit := float64(replayed.Positions) / (tiers * wait).Seconds(); replayed.Rate > limit {
		t.Errorf("rate %.0f positions/s after the replayed tiers, want at most %.0f (their %d positions over the %v they took)",
			replayed.Rate, limit, replayed.Positions, tiers*wait)
	}
	if replayed.ETA < wait {
		t.Errorf("ETA %v after the replayed tiers, want at least %v (a tier's time so far)", replayed.ETA, wait)
	}
}

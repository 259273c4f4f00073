package coordinator

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/schema"
)

// SolveProgress is how far a solve stage is.
type SolveProgress struct {
	// Tier is the tier being solved; Tiers the run's tiers; TiersDone
	// how many are solved (from the last back).
	Tier, Tiers, TiersDone int
	// Positions counts the stored positions solved so far, of Stored.
	Positions, Stored uint64
}

// solveTracker follows a solve stage and tells the stage's status record
// (which `census status` reads), the metrics and the caller's callback.
type solveTracker struct {
	ctx context.Context
	// bucket is the stage's bucket; nil for a stage run without one,
	// whose status no one reads.
	bucket   *runstate.Bucket
	log      *slog.Logger
	metrics  *solveMetrics
	callback func(SolveProgress)
	p        SolveProgress
	status   runstate.SolveStatus
	lastPut  time.Time
}

// newSolveTracker follows the solve stage of the census run m, whose kept
// positions idx holds, configured by cfg.
func newSolveTracker(ctx context.Context, cfg SolveConfig, m schema.Manifest, idx KeptIndex) *solveTracker {
	t := &solveTracker{ctx: ctx, log: cfg.Log, metrics: cfg.Metrics.forSolve(m.Run, m.Game, m.Board), callback: cfg.Progress,
		p:      SolveProgress{Tier: len(idx.Tiers) - 1, Tiers: len(idx.Tiers)},
		status: runstate.SolveStatus{Run: m.Run, Game: m.Game, Board: m.Board, State: StateRunning}}
	if cfg.KV != nil {
		b := runstate.New(nil, cfg.KV)
		t.bucket = &b
	}
	for _, kt := range idx.Tiers {
		for _, b := range kt.Blobs {
			t.p.Stored += b.Count
		}
	}
	return t
}

// begin records that the stage has begun, before its first tier.
func (t *solveTracker) begin() {
	t.metrics.progress(t.p)
	t.put()
}

// tell records a tier begun or finished.
func (t *solveTracker) tell() {
	t.metrics.progress(t.p)
	t.status.JobsDone, t.status.JobsTotal = 0, 0
	t.put()
	if t.callback != nil {
		t.callback(t.p)
	}
}

// jobs is the executor's Waiting callback: how many jobs of the tier's
// batch are done and about how many are running.
func (t *solveTracker) jobs(done, running, total int) {
	t.metrics.jobs(done, running, total)
	t.status.JobsDone, t.status.JobsTotal = done, total
	// The status record is for people: once a second is enough.
	if time.Since(t.lastPut) >= time.Second {
		t.put()
	}
}

// finish records how the stage ended: done, failed, or (cancelled) as it
// was.
func (t *solveTracker) finish(err error) {
	switch {
	case err == nil:
		t.status.State = StateDone
	case errors.Is(err, context.Canceled):
		return
	default:
		if errors.Is(err, ErrJobFailed) {
			t.metrics.failed(1)
		}
		t.status.State, t.status.Error = StateFailed, err.Error()
	}
	t.put()
}

// put writes the status record.
func (t *solveTracker) put() {
	if t.bucket == nil {
		return
	}
	t.lastPut = time.Now()
	t.status.Tier, t.status.Tiers, t.status.TiersDone = t.p.Tier, t.p.Tiers, t.p.TiersDone
	t.status.Positions, t.status.Stored, t.status.Updated = t.p.Positions, t.p.Stored, t.lastPut
	err := try(context.WithoutCancel(t.ctx), func(ctx context.Context) error { return t.bucket.PutSolveStatus(ctx, t.status) })
	if err != nil {
		t.log.Warn("record the solve stage's status", "err", err)
	}
}

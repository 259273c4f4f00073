package coordinator

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/schema"
)

// Progress is how far a run has come.
type Progress struct {
	// Stage is one of the runstate stages: tier, pieces, classes,
	// outputs, done.
	Stage string
	// Tier is the tier being computed; once the tiers are done, their
	// number.
	Tier    int
	MaxTier int
	// Positions counts the positions of the finished tiers.
	Positions uint64
	// JobsDone and JobsTotal count the jobs of the current batch.
	JobsDone, JobsTotal int
	Elapsed             time.Duration
	// ETA estimates the time left: the time per tier so far times the
	// tiers left, an upper estimate since late tiers are small. Zero when
	// nothing is known yet.
	ETA time.Duration
	// StoreBytes is the bytes the run's working data takes in the store
	// after the last finished tier.
	StoreBytes uint64
	// Rate is the positions of the finished tiers per second of the
	// tiers' wall time (a tier that an earlier start of the run finished
	// counts the time it took then); zero before the first tier is done.
	Rate float64
	// NATSWait is how long the coordinator has been waiting for NATS to
	// answer (a leader election, a stalled or lost server), zero when it
	// is not waiting.
	NATSWait time.Duration
}

// tracker follows a run and tells the status record, the metrics and the
// caller's callback.
type tracker struct {
	ctx      context.Context
	st       state
	log      *slog.Logger
	metrics  *runMetrics
	callback func(Progress)
	began    time.Time
	// credit is the time the tiers that earlier starts of the run
	// finished took then, less the time this start took to replay them:
	// the ETA counts it as time spent.
	credit  time.Duration
	status  Status
	p       Progress
	lastPut time.Time
	// stop ends the run with its cause.
	stop context.CancelCauseFunc
	// mu guards what the methods change.
	mu sync.Mutex
	// natsSince is when the coordinator began to wait for NATS, in Unix
	// nanoseconds; zero when it is not waiting. A wait is told from the
	// goroutine that waits, which may be one that holds mu (a status
	// record being put): it takes only tellMu, which guards the callback
	// and the last progress told.
	natsSince atomic.Int64
	tellMu    sync.Mutex
	last      Progress
}

// newTracker is a tracker of the run; the waits for NATS of the stage
// whose context is ctx show in its progress.
func newTracker(ctx context.Context, cfg Config, st state, maxTier int, rm *runMetrics) *tracker {
	t := &tracker{ctx: ctx, st: st, log: cfg.Log, metrics: rm, callback: cfg.Progress, began: time.Now(),
		status: Status{State: StateRunning, MaxTier: maxTier}, p: Progress{MaxTier: maxTier}}
	if w, ok := ctx.Value(natsWaitKey{}).(*natsWait); ok {
		w.setNotify(t.natsWaiting)
	}
	return t
}

// natsWaiting records that the coordinator began to wait for NATS at
// since, or stopped waiting (since zero).
func (t *tracker) natsWaiting(since time.Time) {
	var ns int64
	if !since.IsZero() {
		ns = since.UnixNano()
	}
	t.natsSince.Store(ns)
	t.tellMu.Lock()
	defer t.tellMu.Unlock()
	t.last.NATSWait = t.natsWait()
	if t.callback != nil && t.last.Stage != "" {
		t.callback(t.last)
	}
}

// natsWait is how long the coordinator has been waiting for NATS, or 0.
func (t *tracker) natsWait() time.Duration {
	ns := t.natsSince.Load()
	if ns == 0 {
		return 0
	}
	return max(time.Since(time.Unix(0, ns)), time.Nanosecond)
}

// stage records a new stage, or a finished tier.
func (t *tracker) stage(stage string, tier int, positions uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.setStage(stage, tier, positions)
}

func (t *tracker) setStage(stage string, tier int, positions uint64) {
	t.p.Stage, t.p.Tier, t.p.Positions = stage, tier, positions
	t.p.JobsDone, t.p.JobsTotal = 0, 0
	t.tell(true)
}

// tierDone records a finished tier: the tiers done, their positions, the
// bytes of the run's working data in the store, the stage times so far
// and the credit of the tiers that earlier starts finished.
func (t *tracker) tierDone(tiers int, positions, storeBytes uint64, stages *schema.Stages, credit time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.p.StoreBytes, t.status.StoreBytes, t.status.Stages = storeBytes, storeBytes, stages
	t.p.Rate = float64(positions) / max(stages.Tiers.WallSeconds, 1e-3)
	t.credit = credit
	t.setStage(runstate.StageTier, tiers, positions)
}

// jobs records how many jobs of the current batch are done.
func (t *tracker) jobs(done, running, total int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.p.JobsDone, t.p.JobsTotal = done, total
	t.metrics.jobs(done, running, total)
	// The status record is for people: once a second is enough.
	t.tell(time.Since(t.lastPut) >= time.Second)
}

func (t *tracker) tell(put bool) {
	t.p.Elapsed = time.Since(t.began)
	t.p.ETA = t.eta()
	t.p.NATSWait = t.natsWait()
	t.metrics.progress(t.p)
	// A wait for NATS while the status record is put shows this
	// progress.
	t.tellMu.Lock()
	t.last = t.p
	t.tellMu.Unlock()
	if put {
		t.status.Stage, t.status.Tier, t.status.Positions, t.status.Updated = t.p.Stage, t.p.Tier, t.p.Positions, time.Now()
		t.put()
	}
	t.tellMu.Lock()
	defer t.tellMu.Unlock()
	t.p.NATSWait = t.natsWait()
	t.last = t.p
	if t.callback != nil {
		t.callback(t.p)
	}
}

func (t *tracker) put() {
	t.lastPut = time.Now()
	if err := t.st.putStatus(context.WithoutCancel(t.ctx), t.status); err != nil {
		t.log.Warn("record status", "err", err)
		if errors.Is(err, broker.ErrStoreFull) && t.stop != nil {
			// The workers' records cannot land either: the run would
			// wait for ever.
			t.stop(err)
		}
	}
}

// eta is the time per unit of progress so far times the units left, a
// unit being one tier (the reductions count as one more); the time so far
// counts the tiers that earlier starts finished as long as they took then.
func (t *tracker) eta() time.Duration {
	units := float64(t.p.MaxTier + 2)
	var done float64
	switch t.p.Stage {
	case runstate.StageTier:
		done = float64(t.p.Tier)
	case runstate.StagePieces, runstate.StageClasses:
		done = units - 1
	default:
		return 0
	}
	if t.p.JobsTotal > 0 {
		done += float64(t.p.JobsDone) / float64(t.p.JobsTotal)
	}
	if done <= 0 {
		return 0
	}
	return time.Duration(float64(t.p.Elapsed+t.credit) / done * max(units-done, 0))
}

// finish records how the run ended.
func (t *tracker) finish(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case err == nil:
		t.status.State = StateDone
		t.setStage(runstate.StageDone, t.p.Tier, t.p.Positions)
	case errors.Is(err, context.Canceled):
	default:
		if errors.Is(err, ErrJobFailed) {
			t.metrics.failed(1)
		}
		t.status.State, t.status.Error, t.status.Updated = StateFailed, err.Error(), time.Now()
		t.put()
	}
}

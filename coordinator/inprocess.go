package coordinator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/store"
)

// inProcess runs jobs in the coordinator's own process, parallel of them
// at once: the small tiers at the start and end of a run, whose jobs of a
// few thousand positions take less time than a barrier on the workers
// (publishing, a worker's fetch, its records and acknowledgement, the
// watch that reports them). Each job's done-record is stored before its
// result is used, as a worker's is, so a restarted coordinator replays it
// rather than running the job again, whose inputs may be gone.
//
// A job that fails here is not failed: it and the jobs not yet begun go
// to the workers, whose retries and failed-records decide about them.
//
// With later set, a job's done-record, and the sync of what it wrote,
// wait for later's flush (see unrecorded).
type inProcess struct {
	st  store.Store
	run string
	// state holds the done-records; resumed says whether any may exist
	// (a fresh run has none, and is spared the reads).
	state   state
	resumed bool
	log     *slog.Logger
	workers Executor
	// parallel is how many jobs run at once.
	parallel int
	// ran counts the jobs run here, not replayed nor handed on.
	ran int
	// later, when set, takes the jobs run here until their done-records
	// are stored.
	later *unrecorded
}

var _ Executor = (*inProcess)(nil)

// Execute runs the batch in this process, handing what fails to the
// workers. done sees the jobs done here in the batch's order, once all
// have ended.
func (x *inProcess) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	results := make([]jobs.Result, len(batch))
	ok := make([]bool, len(batch))
	var (
		mu      sync.Mutex
		next    int
		stopped bool
		first   error
		wg      sync.WaitGroup
	)
	for range min(max(x.parallel, 1), len(batch)) {
		wg.Go(func() {
			for {
				mu.Lock()
				if stopped || next == len(batch) {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				res, good, ran, err := x.one(ctx, batch[i])
				mu.Lock()
				switch {
				case err != nil:
					stopped = true
					if first == nil {
						first = err
					}
				case !good:
					stopped = true
				default:
					results[i], ok[i] = res, true
					if ran {
						x.ran++
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	var rest []int
	for i := range batch {
		if !ok[i] {
			rest = append(rest, i)
			continue
		}
		if done != nil {
			if err := done(i, results[i]); err != nil {
				return nil, err
			}
		}
	}
	if len(rest) > 0 {
		return x.handOver(ctx, batch, results, rest, done)
	}
	if x.later.due() {
		if err := x.later.flush(ctx); err != nil {
			return nil, err
		}
	}
	return results, nil
}

// one runs j unless it is done already; good is false when it failed
// here, ran whether it ran rather than was replayed.
func (x *inProcess) one(ctx context.Context, j jobs.Job) (res jobs.Result, good, ran bool, err error) {
	log := x.log.With("run", x.run, "job", j.ID())
	if x.resumed {
		res, found, err := x.state.done(ctx, j.Key())
		if err != nil || found {
			return res, err == nil, false, err
		}
	}
	res, err = jobs.RunMeasured(ctx, x.st, j, jobs.Options{Unsynced: x.later != nil})
	if err != nil {
		if ctx.Err() != nil {
			return res, false, false, ctx.Err()
		}
		log.Info("job failed in the coordinator, handing it to the workers", "err", err)
		return res, false, false, nil
	}
	if x.later != nil {
		x.later.add(j, res)
	} else if err := x.state.putDone(ctx, j.Key(), res); err != nil {
		if errors.Is(err, context.Canceled) {
			return res, false, false, err
		}
		log.Info("record a job done in the coordinator, handing it to the workers", "err", err)
		return res, false, false, nil
	}
	log.Debug("job done", "took", res.Cost.Wall(), "in", "coordinator")
	return res, true, true, nil
}

// handOver runs the jobs of batch at the indices rest on the workers and
// completes results with theirs.
func (x *inProcess) handOver(ctx context.Context, batch []jobs.Job, results []jobs.Result, rest []int, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	sub := make([]jobs.Job, len(rest))
	for k, i := range rest {
		sub[k] = batch[i]
	}
	var theirs func(int, jobs.Result) error
	if done != nil {
		theirs = func(k int, r jobs.Result) error { return done(rest[k], r) }
	}
	got, err := x.workers.Execute(ctx, sub, theirs)
	if err != nil {
		return nil, err
	}
	for k, i := range rest {
		results[i] = got[k]
	}
	return results, nil
}

// unrecorded holds the jobs the coordinator ran itself whose done-records
// are not stored yet. A job's done-record follows the sync of what it
// wrote: a small tier's job takes a few milliseconds, and waiting for the
// disk after each (Clobber 4x4: 41 tier jobs, 8 of the reductions) made
// up a tenth of a run that writes fragments which the next tier reads and
// deletes. So the coordinator syncs what its jobs wrote and stores their
// done-records in a flush, a batch or more later. What they wrote is
// visible at once, and the jobs after read it. A blob that a job still
// unrecorded consumed needs no sync: once the flush stores that job's
// done-record no job reads the blob again. The deletes of the blobs that
// they consumed are held until the flush (deleter.hold), so that a crash
// before it leaves every job unrecorded with its inputs: a resumed run
// runs it again. A flush comes before a batch on the workers, a pieces
// table part's move to the outputs, and the outputs; before a space check
// finds too little room; when a stop is asked for; and once the jobs
// unrecorded took flushAfter of job time, so that a crash loses no more
// than that.
type unrecorded struct {
	st      store.Store
	state   state
	deletes *deleter

	mu   sync.Mutex
	jobs []unrecordedJob
	work time.Duration
}

type unrecordedJob struct {
	key      string
	res      jobs.Result
	consumes []jobs.Blob
}

// flushAfter is the job time, added up, of the jobs unrecorded that makes
// a flush due at the end of a batch.
const flushAfter = time.Second

// add takes in job j done with res, and holds the deletes asked for from
// now on until the next flush.
func (u *unrecorded) add(j jobs.Job, res jobs.Result) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.deletes.hold()
	u.jobs = append(u.jobs, unrecordedJob{key: j.Key(), res: res, consumes: j.Consumes()})
	u.work += res.Cost.Wall()
}

// due reports whether the jobs unrecorded took flushAfter or more.
func (u *unrecorded) due() bool {
	if u == nil {
		return false
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.work >= flushAfter
}

// flush syncs what the jobs unrecorded wrote and no job unrecorded
// consumed, stores their done-records, and lets the deletes held run.
func (u *unrecorded) flush(ctx context.Context) error {
	if u == nil {
		return nil
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.jobs) == 0 {
		return nil
	}
	consumed := map[string]bool{}
	for _, j := range u.jobs {
		for _, b := range j.consumes {
			consumed[b.Name] = true
		}
	}
	var names []string
	for _, j := range u.jobs {
		for _, n := range j.res.Produces() {
			if !consumed[n] {
				names = append(names, n)
			}
		}
	}
	if err := store.Sync(ctx, u.st, names...); err != nil {
		return fmt.Errorf("sync what the coordinator's jobs wrote: %w", err)
	}
	for k, j := range u.jobs {
		if err := u.state.putDone(ctx, j.key, j.res); err != nil {
			u.jobs = u.jobs[k:]
			return fmt.Errorf("record a job done in the coordinator: %w", err)
		}
	}
	u.jobs, u.work = nil, 0
	u.deletes.release()
	return nil
}

// drop forgets the jobs unrecorded and the deletes held: a resumed run
// runs the jobs again, from inputs still in the store.
func (u *unrecorded) drop() {
	if u == nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.jobs, u.work = nil, 0
	u.deletes.drop()
}

package coordinator

import (
	"context"
	"errors"
	"log/slog"
	"sync"

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
	res, err = jobs.RunMeasured(ctx, x.st, j, jobs.Options{})
	if err != nil {
		if ctx.Err() != nil {
			return res, false, false, ctx.Err()
		}
		log.Info("job failed in the coordinator, handing it to the workers", "err", err)
		return res, false, false, nil
	}
	if err := x.state.putDone(ctx, j.Key(), res); err != nil {
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

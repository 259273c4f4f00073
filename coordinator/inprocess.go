package coordinator

import (
	"context"
	"errors"
	"log/slog"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/store"
)

// inProcess runs jobs in the coordinator's own process, one after another:
// the small tiers at the start and end of a run, each one job of a few
// thousand positions, which take less time than a barrier on the workers
// (publishing, a worker's fetch, its records and acknowledgement, the
// watch that reports them). Each job's done-record is stored before its
// result is used, as a worker's is, so a restarted coordinator replays it
// rather than running the job again, whose inputs may be gone.
//
// A job that fails here is not failed: it and the jobs after it go to
// workers, whose retries and failed-records decide about it.
type inProcess struct {
	st  store.Store
	run string
	// state holds the done-records; resumed says whether any may exist
	// (a fresh run has none, and is spared the reads).
	state   state
	resumed bool
	log     *slog.Logger
	workers Executor
	// ran counts the jobs run here, not replayed nor handed on.
	ran int
}

var _ Executor = (*inProcess)(nil)

// Execute runs the batch in this process, handing what fails to the
// workers.
func (x *inProcess) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	results := make([]jobs.Result, len(batch))
	for i, j := range batch {
		res, ok, err := x.one(ctx, j)
		if err != nil {
			return nil, err
		}
		if !ok {
			return x.handOver(ctx, batch, results, i, done)
		}
		results[i] = res
		if done != nil {
			if err := done(i, res); err != nil {
				return nil, err
			}
		}
	}
	return results, nil
}

// one runs j unless it is done already; false when it failed here.
func (x *inProcess) one(ctx context.Context, j jobs.Job) (jobs.Result, bool, error) {
	log := x.log.With("run", x.run, "job", j.ID())
	if x.resumed {
		res, found, err := x.state.done(ctx, j.Key())
		if err != nil || found {
			return res, err == nil, err
		}
	}
	res, err := jobs.RunMeasured(ctx, x.st, j, jobs.Options{})
	if err != nil {
		if ctx.Err() != nil {
			return res, false, ctx.Err()
		}
		log.Info("job failed in the coordinator, handing it to the workers", "err", err)
		return res, false, nil
	}
	if err := x.state.putDone(ctx, j.Key(), res); err != nil {
		if errors.Is(err, context.Canceled) {
			return res, false, err
		}
		log.Info("record a job done in the coordinator, handing it to the workers", "err", err)
		return res, false, nil
	}
	log.Debug("job done", "took", res.Cost.Wall(), "in", "coordinator")
	x.ran++
	return res, true, nil
}

// handOver runs batch[from:] on the workers and completes results with
// theirs.
func (x *inProcess) handOver(ctx context.Context, batch []jobs.Job, results []jobs.Result, from int, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	var rest func(int, jobs.Result) error
	if done != nil {
		rest = func(i int, r jobs.Result) error { return done(from+i, r) }
	}
	theirs, err := x.workers.Execute(ctx, batch[from:], rest)
	if err != nil {
		return nil, err
	}
	copy(results[from:], theirs)
	return results, nil
}

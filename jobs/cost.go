package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/census-cgt/census/host/cpuclock"
	"github.com/census-cgt/census/store"
)

// RunMeasured runs j as Run does, makes what it wrote durable in a store
// that defers that (store.Syncer) unless opts.Unsynced, and sets the
// result's Cost: what the job took, measured on the thread that ran it.
func RunMeasured(ctx context.Context, st store.Store, j Job, opts Options) (Result, error) {
	var res Result
	var err error
	wall, cpu := cpuclock.Measure(func() {
		if res, err = Run(ctx, st, j, opts); err == nil && !opts.Unsynced {
			if err = store.Sync(ctx, st, res.Produces()...); err != nil {
				err = fmt.Errorf("job %s: %w", j.ID(), err)
			}
		}
	})
	if err != nil {
		return res, err
	}
	res.Cost = &Cost{WallNS: wall.Nanoseconds(), CPUNS: cpu.Nanoseconds()}
	return res, nil
}

// Wall is the job's wall time; zero for a nil Cost.
func (c *Cost) Wall() time.Duration {
	if c == nil {
		return 0
	}
	return time.Duration(c.WallNS)
}

// CPU is the job's CPU time; zero for a nil Cost.
func (c *Cost) CPU() time.Duration {
	if c == nil {
		return 0
	}
	return time.Duration(c.CPUNS)
}

// Produces lists the names of the blobs the job wrote, each once: the
// blobs a store that defers their sync (store.Syncer) must make durable
// before the job's done-record is written.
func (r Result) Produces() []string {
	var blobs []Blob
	if o := r.output(); o != nil {
		blobs = o.produced()
	}
	var names []string
	seen := map[string]bool{}
	for _, b := range blobs {
		if !seen[b.Name] {
			seen[b.Name] = true
			names = append(names, b.Name)
		}
	}
	return names
}

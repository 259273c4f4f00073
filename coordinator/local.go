package coordinator

import (
	"context"
	"sync"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/store"
)

// Local runs jobs on a pool of goroutines in this process.
type Local struct {
	Store   store.Store
	Workers int
}

var _ Executor = (*Local)(nil)

// Execute runs the batch, Workers jobs at a time, and stops at the first
// failure.
func (l *Local) Execute(ctx context.Context, batch []jobs.Job) ([]jobs.Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]jobs.Result, len(batch))
	next := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for w := 0; w < max(l.Workers, 1); w++ {
		wg.Go(func() {
			for i := range next {
				r, err := jobs.Run(ctx, l.Store, batch[i], jobs.Options{})
				if err != nil {
					once.Do(func() { first = err; cancel() })
					continue
				}
				results[i] = r
			}
		})
	}
feed:
	for i := range batch {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

package jobs

import (
	"context"
	"fmt"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/store"
)

// Options are the hooks a runner of jobs passes in.
type Options struct {
	// Progress, when set, is called every few thousand records with the
	// records done so far; a worker uses it to heartbeat.
	Progress func(done uint64)
	// Tables, when set, shares the next tier's outcome table among the
	// solve jobs that use the same cache (a worker's, see TableCache).
	Tables *TableCache
	// Unsynced, for RunMeasured, leaves what the job wrote to the caller
	// to make durable (store.Sync of the result's Produces) before the
	// job's done-record is stored: the coordinator syncs what its own
	// jobs wrote a batch or more later, when the blobs its later jobs
	// consumed are gone and need no sync (see coordinator's unrecorded).
	Unsynced bool
}

// Run runs one job against the store and returns its result. Errors that
// retrying cannot fix wrap ErrInvalid or ErrCorrupt.
func Run(ctx context.Context, st store.Store, j Job, opts Options) (Result, error) {
	var res Result
	var err error
	if j.Solve == nil {
		// The shared table is only for the solve jobs of one tier.
		opts.Tables.drop()
	}
	t := j.task()
	if t == nil {
		err = fmt.Errorf("%w: no job kind set", ErrInvalid)
	} else {
		err = t.run(ctx, st, opts, &res)
	}
	if err != nil {
		return Result{}, fmt.Errorf("job %s: %w", j.ID(), err)
	}
	return res, nil
}

// game builds the spec's game, failing with ErrInvalid.
func (s *Spec) game() (games.Game, error) {
	g, err := all.New(s.Game, s.Board, s.Start)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return g, nil
}

func (s *Spec) header(g games.Game, k Kind, tier int) Header {
	b := g.Board()
	return Header{Kind: k, Game: g.Name(), Rows: b.Rows, Cols: b.Cols, Tier: tier}
}

const progressEvery = 1 << 14

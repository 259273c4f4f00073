package coordinator

import (
	"context"
	"errors"
	"fmt"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/schema"
)

// ErrRunClash is returned when a run ID is already taken by a run of
// another game, board, start or sharding.
var ErrRunClash = errors.New("run id already names another run")

// Plan, TierPlan and Status are the run's records, as runstate keeps them.
type (
	Plan     = runstate.Plan
	TierPlan = runstate.TierPlan
	Status   = runstate.Status
)

// Status states.
const (
	StateRunning = runstate.StateRunning
	StateDone    = runstate.StateDone
	StateFailed  = runstate.StateFailed
)

// state reads and writes a run's bucket, each call retried through a
// server election.
type state struct {
	b runstate.Bucket
}

// try retries fn, giving up at once on a record that cannot be decoded.
func try(ctx context.Context, fn func(ctx context.Context) error) error {
	return retry(ctx, func(ctx context.Context) error {
		err := fn(ctx)
		if errors.Is(err, runstate.ErrBadRecord) {
			return permanent(err)
		}
		return err
	})
}

func (s state) status(ctx context.Context) (st Status, found bool, err error) {
	err = try(ctx, func(ctx context.Context) error {
		st, found, err = s.b.Status(ctx)
		return err
	})
	return st, found, err
}

func (s state) putStatus(ctx context.Context, st Status) error {
	return try(ctx, func(ctx context.Context) error { return s.b.PutStatus(ctx, st) })
}

func (s state) loadPlan(ctx context.Context) (p Plan, found bool, err error) {
	err = try(ctx, func(ctx context.Context) error {
		p, found, err = s.b.Plan(ctx)
		return err
	})
	return p, found, err
}

func (s state) tierPlan(ctx context.Context, t int) (p TierPlan, found bool, err error) {
	err = try(ctx, func(ctx context.Context) error {
		p, found, err = s.b.TierPlan(ctx, t)
		return err
	})
	return p, found, err
}

func (s state) putTierPlan(ctx context.Context, t int, p TierPlan) error {
	return try(ctx, func(ctx context.Context) error { return s.b.PutTierPlan(ctx, t, p) })
}

// plan stores p as the run's plan, or returns the stored plan when the run
// exists; it fails with ErrRunClash when the stored plan is for other work.
func (s state) plan(ctx context.Context, run string, p Plan) (Plan, bool, error) {
	old, found, err := s.loadPlan(ctx)
	if err != nil {
		return p, false, err
	}
	if !found {
		return p, false, try(ctx, func(ctx context.Context) error { return s.b.PutPlan(ctx, p) })
	}
	if err := clash(run, old, p); err != nil {
		return p, false, err
	}
	return old, true, nil
}

// piecesCodecName is the name a plan stores for codec: empty for zstd,
// the default, so that a plan of a run that did not choose one is the
// plan of a version before the choice.
func piecesCodecName(codec schema.Codec) string {
	if codec == "" || codec == schema.CodecZstd {
		return ""
	}
	return string(codec)
}

// clash fails with ErrRunClash when the plans are for different work.
func clash(run string, old, p Plan) error {
	if old.Game != p.Game || old.Board != p.Board || old.Start != p.Start || old.Shards != p.Shards || old.NoSymmetry != p.NoSymmetry || old.Positions != p.Positions ||
		piecesCodecName(schema.Codec(old.PiecesCodec)) != piecesCodecName(schema.Codec(p.PiecesCodec)) {
		return fmt.Errorf("%w: %s is %s %s (start %q, shards %d, symmetry %v, positions %v, pieces codec %s), not %s %s (start %q, shards %d, symmetry %v, positions %v, pieces codec %s)",
			ErrRunClash, run, old.Game, old.Board, old.Start, old.Shards, !old.NoSymmetry, old.Positions, schema.Codec(old.PiecesCodec), p.Game, p.Board, p.Start, p.Shards, !p.NoSymmetry, p.Positions, schema.Codec(p.PiecesCodec))
	}
	return nil
}

// valuesPlan stores p as the values stage's plan, or checks it against the
// stored one: it fails with ErrValuesClash when the stage's done-records
// were made with another cap or shard size.
func (s state) valuesPlan(ctx context.Context, p runstate.ValuesPlan) error {
	var old runstate.ValuesPlan
	var found bool
	err := try(ctx, func(ctx context.Context) (err error) {
		old, found, err = s.b.ValuesPlan(ctx)
		return err
	})
	switch {
	case err != nil:
		return err
	case !found:
		return try(ctx, func(ctx context.Context) error { return s.b.PutValuesPlan(ctx, p) })
	case old != p:
		return fmt.Errorf("%w: a node cap of %d and %d pieces a job, not %d and %d",
			ErrValuesClash, old.Cap, old.ShardPieces, p.Cap, p.ShardPieces)
	}
	return nil
}

// valueLevel reads the record of the values stage's finished level of
// size; false when the level has not finished.
func (s state) valueLevel(ctx context.Context, size int) (l runstate.ValueLevel, found bool, err error) {
	err = try(ctx, func(ctx context.Context) error {
		l, found, err = s.b.ValueLevel(ctx, size)
		return err
	})
	return l, found, err
}

// putValueLevel records that the values stage's level of size finished.
func (s state) putValueLevel(ctx context.Context, size int, l runstate.ValueLevel) error {
	return try(ctx, func(ctx context.Context) error { return s.b.PutValueLevel(ctx, size, l) })
}

// clearFailures removes the failed-records of an earlier attempt, so that
// a restarted run gives those jobs another chance.
func (s state) clearFailures(ctx context.Context) error {
	return try(ctx, s.b.ClearFailures)
}

// done reads the done-record of the job with key; false when it has none.
func (s state) done(ctx context.Context, key string) (r jobs.Result, found bool, err error) {
	err = try(ctx, func(ctx context.Context) error {
		r, found, err = s.b.Done(ctx, key)
		return err
	})
	return r, found, err
}

// putDone records the job with key done with r.
func (s state) putDone(ctx context.Context, key string, r jobs.Result) error {
	return try(ctx, func(ctx context.Context) error { return s.b.PutDone(ctx, key, r) })
}

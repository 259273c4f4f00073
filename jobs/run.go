package jobs

import (
	"context"
	"fmt"
	"io"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/store"
)

// Options are the hooks a runner of jobs passes in.
type Options struct {
	// Progress, when set, is called every few thousand records with the
	// records done so far; a worker uses it to heartbeat.
	Progress func(done uint64)
}

// Run runs one job against the store and returns its result. Errors that
// retrying cannot fix wrap ErrInvalid or ErrCorrupt.
func Run(ctx context.Context, st store.Store, j Job, opts Options) (Result, error) {
	var res Result
	var err error
	switch {
	case j.Tier != nil:
		res.Tier, err = runTier(ctx, st, j.Tier, opts)
	case j.Piece != nil:
		res.Piece, err = runPieces(ctx, st, j.Piece, opts)
	case j.Class != nil:
		res.Class, err = runClasses(ctx, st, j.Class, opts)
	case j.Value != nil:
		res.Value, err = runValues(ctx, st, j.Value, opts)
	default:
		err = fmt.Errorf("%w: no job kind set", ErrInvalid)
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

// sources opens the blobs of kind k as sorted sources for mergeSorted. The
// returned closer closes them all.
// Their read buffers share an eighth of budget.
func sources[T any](ctx context.Context, st store.Store, blobs []Blob, k Kind, g games.Game, budget int64, next func(*fragReader) (T, bool, error)) ([]func() (T, bool, error), func(), error) {
	n := 0
	for _, b := range blobs {
		if b.Kind == k {
			n++
		}
	}
	bufSize := int(min(budget/8/int64(max(n, 1)), 1<<16))
	var closers []io.Closer
	closeAll := func() {
		for _, c := range closers {
			c.Close()
		}
	}
	var srcs []func() (T, bool, error)
	for _, b := range blobs {
		if b.Kind != k {
			continue
		}
		fr, c, err := openFragmentSize(ctx, st, b, k, g, bufSize)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		closers = append(closers, c)
		srcs = append(srcs, func() (T, bool, error) { return next(fr) })
	}
	return srcs, closeAll, nil
}

func cmpKeys(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// mergeUnique merges key fragments of kind k and calls emit once per
// distinct key, in order.
func mergeUnique(ctx context.Context, st store.Store, blobs []Blob, k Kind, g games.Game, budget int64, emit func(uint64) error) error {
	srcs, closeAll, err := sources(ctx, st, blobs, k, g, budget, (*fragReader).nextKey)
	if err != nil {
		return err
	}
	defer closeAll()
	first, prev := true, uint64(0)
	return mergeSorted(srcs, cmpKeys, func(key uint64) error {
		if !first && key == prev {
			return nil
		}
		first, prev = false, key
		return emit(key)
	})
}

// verify reads the fragments of kind k through, checking each in full, and
// returns the first failure, which names its fragment.
func verify(ctx context.Context, st store.Store, blobs []Blob, k Kind, g games.Game) error {
	for _, b := range blobs {
		fr, c, err := openFragment(ctx, st, b, k, g)
		if err != nil {
			return err
		}
		for {
			_, ok, err := fr.nextKey()
			if err != nil {
				c.Close()
				return err
			}
			if !ok {
				break
			}
		}
		c.Close()
	}
	return nil
}

const progressEvery = 1 << 14

package jobs

import (
	"context"
	"fmt"
	"io"

	"github.com/census-cgt/census/store"
)

// spiller holds records bucketed by destination and writes them out as
// sorted runs whenever it holds more than limit records, so that the memory
// of a job stays bounded however many records it produces. Each spill is one
// blob (a part) holding one fragment per non-empty bucket.
type spiller[T any] struct {
	ctx   context.Context
	st    store.Store
	bufs  [][]T
	items int
	limit int
	parts int
	// name is the blob name of a part.
	name func(part int) string
	// write sorts one bucket's records (in place) and writes them as one
	// fragment.
	write func(w io.Writer, recs []T) (Blob, error)
	blobs []Blob
}

func newSpiller[T any](ctx context.Context, st store.Store, buckets, limit int, name func(part int) string, write func(io.Writer, []T) (Blob, error)) *spiller[T] {
	return &spiller[T]{ctx: ctx, st: st, bufs: make([][]T, buckets), limit: max(limit, 1024), name: name, write: write}
}

func (s *spiller[T]) add(bucket int, v T) error {
	s.bufs[bucket] = append(s.bufs[bucket], v)
	s.items++
	if s.items >= s.limit {
		return s.spill()
	}
	return nil
}

// spill writes every non-empty bucket into one more part.
func (s *spiller[T]) spill() error {
	if s.items == 0 {
		return nil
	}
	name := s.name(s.parts)
	w, err := s.st.Create(s.ctx, name)
	if err != nil {
		return err
	}
	var offset int64
	var blobs []Blob
	for b, buf := range s.bufs {
		if len(buf) == 0 {
			continue
		}
		blob, err := s.write(w, buf)
		if err != nil {
			w.Abort()
			return fmt.Errorf("blob %s: %w", name, err)
		}
		blob.Name, blob.Bucket, blob.Offset = name, b, offset
		offset += blob.Size
		blobs = append(blobs, blob)
		s.bufs[b] = buf[:0]
	}
	if err := w.Commit(); err != nil {
		return err
	}
	s.blobs = append(s.blobs, blobs...)
	s.parts++
	s.items = 0
	return nil
}

// close spills what is left and returns every fragment written.
func (s *spiller[T]) close() ([]Blob, error) {
	if err := s.spill(); err != nil {
		return nil, err
	}
	return s.blobs, nil
}

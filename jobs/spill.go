package jobs

// spiller holds records bucketed by destination and writes every bucket out
// as a sorted run whenever it holds more than limit records, so that the
// memory of a job stays bounded however many records it produces.
type spiller[T any] struct {
	bufs  [][]T
	items int
	limit int
	parts int
	// flush writes one bucket's records as part number part; it may sort
	// the slice in place. It returns ok false when there was nothing to
	// write.
	flush func(bucket, part int, recs []T) (b Blob, ok bool, err error)
	blobs []Blob
}

func newSpiller[T any](buckets, limit int, flush func(bucket, part int, recs []T) (Blob, bool, error)) *spiller[T] {
	return &spiller[T]{bufs: make([][]T, buckets), limit: max(limit, 1024), flush: flush}
}

func (s *spiller[T]) add(bucket int, v T) error {
	s.bufs[bucket] = append(s.bufs[bucket], v)
	s.items++
	if s.items >= s.limit {
		return s.spill()
	}
	return nil
}

// spill writes every non-empty bucket as one more part.
func (s *spiller[T]) spill() error {
	if s.items == 0 {
		return nil
	}
	for b, buf := range s.bufs {
		if len(buf) == 0 {
			continue
		}
		blob, ok, err := s.flush(b, s.parts, buf)
		if err != nil {
			return err
		}
		if ok {
			blob.Bucket = b
			s.blobs = append(s.blobs, blob)
		}
		s.bufs[b] = buf[:0]
	}
	s.parts++
	s.items = 0
	return nil
}

// close spills what is left and returns every blob written.
func (s *spiller[T]) close() ([]Blob, error) {
	if err := s.spill(); err != nil {
		return nil, err
	}
	return s.blobs, nil
}

package jobs

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/census-cgt/census/host/hugepages"
	"github.com/census-cgt/census/schema"
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
	// pool, when set, gives the buckets their first buffer and takes
	// them back on release.
	pool *bufPool[T]
}

func newSpiller[T any](ctx context.Context, st store.Store, buckets, limit int, name func(part int) string, write func(io.Writer, []T) (Blob, error)) *spiller[T] {
	return &spiller[T]{ctx: ctx, st: st, bufs: make([][]T, buckets), limit: max(limit, 1024), name: name, write: write}
}

func (s *spiller[T]) add(bucket int, v T) error {
	b := s.bufs[bucket]
	if cap(b) == 0 && s.pool != nil {
		b = s.pool.get()
	}
	s.bufs[bucket] = append(withRoom(b), v)
	s.items++
	if s.items >= s.limit {
		return s.spill()
	}
	return nil
}

// addKeys adds keys, each to the bucket Bucket gives it of as many as the
// spiller has, as add would one by one; the spill limit is looked at once
// they are all in, so a spill may hold a batch more than the limit. It
// repeats add's append rather than calling a method of the generic
// spiller, which the compiler does not inline here: a call a successor is
// what it saves.
func addKeys(s *spiller[uint64], keys []uint64) error {
	n := len(s.bufs)
	for _, key := range keys {
		b := bucketOfMix(mix(key), n)
		buf := s.bufs[b]
		if len(buf) == cap(buf) {
			if cap(buf) == 0 && s.pool != nil {
				buf = s.pool.get()
			}
			buf = withRoom(buf)
		}
		s.bufs[b] = append(buf, key)
	}
	s.items += len(keys)
	if s.items >= s.limit {
		return s.spill()
	}
	return nil
}

// reserve makes room, in one allocation a bucket, for scale times the
// records each bucket holds now and a sixteenth more, where a bucket's
// buffer is shorter, and for no more than the spill limit in all. A job
// that can tell early how many records it will make so saves growing its
// buffers by doubling: a copy of the records, and fresh pages to fault
// in, at every step.
func (s *spiller[T]) reserve(scale float64) {
	if s.items == 0 {
		return
	}
	total := min(float64(s.items)*scale*17/16, float64(s.limit))
	for i, b := range s.bufs {
		if n := int(total*float64(len(b))/float64(s.items)) + 64; cap(b) < n {
			s.bufs[i] = grown(b, n)
		}
	}
}

// grown is b, copied into a fresh array of room for n records, whose huge
// pages are advised (hugepages.Advise) before the copy first touches
// them. A record buffer grown so, rather than by append, faults its pages
// in 2 MiB at a time where the kernel gives huge pages on advice: a fault
// costs some microseconds on a virtual machine whose host backs the
// guest's memory lazily, and the first jobs of a tier larger than the ones
// before fault in their buffers.
func grown[T any](b []T, n int) []T {
	nb := make([]T, len(b), n)
	hugepages.Advise(nb)
	copy(nb, b)
	return nb
}

// withRoom is b with room for one more record: b itself while it has
// some, else b grown as append would grow it.
func withRoom[T any](b []T) []T {
	if len(b) < cap(b) {
		return b
	}
	return grown(b, nextCap(cap(b)))
}

// nextCap is the capacity a full buffer of capacity c grows to, as append
// would grow it: twice a small one, a quarter more a large one.
func nextCap(c int) int {
	if c < 256 {
		return max(2*c, 256)
	}
	return c + (c+3*256)/4
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
	if _, err := s.spillInto(w, name, 0); err != nil {
		w.Abort()
		return err
	}
	if err := w.Commit(); err != nil {
		return err
	}
	s.parts++
	return nil
}

// spillInto writes every non-empty bucket into w, which writes the blob
// name from offset on, and returns the offset after them; the blob is the
// caller's to commit. The fragments join those close returns.
func (s *spiller[T]) spillInto(w io.Writer, name string, offset int64) (int64, error) {
	for b, buf := range s.bufs {
		if len(buf) == 0 {
			continue
		}
		blob, err := s.write(w, buf)
		if err != nil {
			return offset, fmt.Errorf("blob %s: %w", name, err)
		}
		blob.Name, blob.Bucket, blob.Offset = name, b, offset
		offset += blob.Size
		s.blobs = append(s.blobs, blob)
		s.bufs[b] = buf[:0]
	}
	s.items = 0
	return offset, nil
}

// close spills what is left and returns every fragment written.
func (s *spiller[T]) close() ([]Blob, error) {
	if err := s.spill(); err != nil {
		return nil, err
	}
	return s.blobs, nil
}

// release hands the buffers of the buckets back to the pool, if any; the
// spiller must not be used after it.
func (s *spiller[T]) release() {
	if s.pool == nil {
		return
	}
	for i, b := range s.bufs {
		s.pool.put(b)
		s.bufs[i] = nil
	}
}

// bufPool keeps the record buffers of finished jobs for the next jobs of
// the process. The jobs of one tier fill their buffers to about the same
// sizes, and growing a buffer from nothing in every job (copying it at
// each doubling, and faulting in fresh pages) costs more than filling it.
// It holds at most max buffers; drain empties it, for when jobs of
// another kind take over the memory. Each kind of buffer of a job has a
// pool of its own, so that a buffer goes back to the role whose size it
// grew to.
type bufPool[T any] struct {
	mu   sync.Mutex
	free [][]T
	max  int
}

// get is an empty buffer, the largest the pool holds, or nil.
func (p *bufPool[T]) get() []T {
	p.mu.Lock()
	defer p.mu.Unlock()
	best := -1
	for i, b := range p.free {
		if best < 0 || cap(b) > cap(p.free[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	b := p.free[best]
	last := len(p.free) - 1
	p.free[best] = p.free[last]
	p.free[last] = nil
	p.free = p.free[:last]
	return b[:0]
}

// put keeps b for a later get, in place of the smallest buffer held when
// the pool is full and b is larger.
func (p *bufPool[T]) put(b []T) {
	if cap(b) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < p.max {
		p.free = append(p.free, b[:0])
		return
	}
	small := 0
	for i, f := range p.free {
		if cap(f) < cap(p.free[small]) {
			small = i
		}
	}
	if cap(p.free[small]) < cap(b) {
		p.free[small] = b[:0]
	}
}

// drain drops every buffer held.
func (p *bufPool[T]) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.free)
	p.free = p.free[:0]
}

// The pools of the buffers of tier jobs and piece jobs. A job of either
// kind drains the pools of the other: a process runs the jobs of a tier
// before the piece jobs, and the piece jobs of a run before the tier jobs
// of the next.
var (
	successorBufs = &bufPool[uint64]{max: 1024}
	deadFreeBufs  = &bufPool[uint64]{max: 1024}
	inPlaceBufs   = &bufPool[uint64]{max: 1024}
	keyScratch    = &bufPool[uint64]{max: 4}
	pieceRecBufs  = &bufPool[PieceRecord]{max: 1024}
	imageBufs     = &bufPool[image]{max: 4}
	orbitBufs     = &bufPool[orbitRow]{max: 4}
	classBufs     = &bufPool[ClassRecord]{max: 1024}
)

// drainTierBufs and drainPieceBufs drop the buffers kept from tier jobs and
// from piece jobs.
func drainTierBufs() {
	successorBufs.drain()
	deadFreeBufs.drain()
	inPlaceBufs.drain()
	keyScratch.drain()
	pieceRecBufs.drain()
}

func drainPieceBufs() {
	schema.DrainPieceWriterBuffers()
	imageBufs.drain()
	orbitBufs.drain()
	classBufs.drain()
}

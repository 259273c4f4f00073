package jobs

import (
	"context"
	"io"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

// mergeSorted merges sorted sources into one sorted stream, calling emit for
// every item of every source in order (repeats included). A source returns
// ok false when it is exhausted.
func mergeSorted[T any](sources []func() (T, bool, error), cmp func(a, b T) int, emit func(T) error) error {
	type head struct {
		v   T
		src int
	}
	h := make([]head, 0, len(sources))
	less := func(i, j int) bool { return cmp(h[i].v, h[j].v) < 0 }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= len(h) {
				return
			}
			m := l
			if r := l + 1; r < len(h) && less(r, l) {
				m = r
			}
			if !less(m, i) {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for i, next := range sources {
		v, ok, err := next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, head{v, i})
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(h) > 0 {
		if err := emit(h[0].v); err != nil {
			return err
		}
		v, ok, err := sources[h[0].src]()
		if err != nil {
			return err
		}
		if ok {
			h[0].v = v
		} else {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
	return nil
}

// sources opens the blobs of kind k as sorted sources for mergeSorted. The
// returned closer closes them all. Their read buffers share reads bytes
// (at most 64 KiB each, at least 4 KiB).
func sources[T any](ctx context.Context, st store.Store, blobs []Blob, k Kind, g games.Game, reads int64, next func(*fragment.Reader) (T, bool, error)) ([]func() (T, bool, error), func(), error) {
	n := 0
	for _, b := range blobs {
		if b.Kind == k {
			n++
		}
	}
	bufSize := int(min(reads/int64(max(n, 1)), 1<<16))
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

// mergeUnique merges key fragments of kind k, with read buffers of reads
// bytes in all, and calls emit once per distinct key, in order.
func mergeUnique(ctx context.Context, st store.Store, blobs []Blob, k Kind, g games.Game, reads int64, emit func(uint64) error) error {
	var m keyMerge
	return m.run(ctx, st, blobs, k, g, reads, emit)
}

// keyMerge merges sorted key fragments into one stream of distinct keys.
// Keys are the records of most of a run, so it is mergeSorted made for
// them: each fragment is decoded a batch of keys at a time, and the heap
// of the fragments compares their keys directly. Read and Total say how
// far it is: the records taken from the fragments so far, of Total.
type keyMerge struct {
	Read, Total uint64
}

// keySource is one fragment of a keyMerge and the keys decoded from it
// and not yet taken.
type keySource struct {
	fr   *fragment.Reader
	c    io.Closer
	keys []uint64
	i, n int
}

// fill decodes the next batch of keys; ok is false at the fragment's end.
func (s *keySource) fill() (ok bool, err error) {
	s.n, err = s.fr.NextKeys(s.keys)
	s.i = 0
	return s.n > 0, err
}

// run merges the fragments of kind k among blobs, with read buffers of
// reads bytes in all, and calls emit once per distinct key, in order.
func (m *keyMerge) run(ctx context.Context, st store.Store, blobs []Blob, k Kind, g games.Game, reads int64, emit func(uint64) error) error {
	h, err := m.open(ctx, st, blobs, k, g, reads)
	defer h.close()
	if err != nil {
		return err
	}
	h.init()
	// The loop works on local copies of the heap's slices, written back
	// when a fragment leaves it.
	src, heads := h.src, h.heads
	first, prev := true, uint64(0)
	for len(src) > 0 {
		s := src[0]
		// Take the keys of the least fragment up to the next fragment's
		// least key (children of the root hold the candidates) without
		// touching the heap.
		limit := ^uint64(0)
		if len(src) > 1 {
			limit = heads[1]
			if len(src) > 2 {
				limit = min(limit, heads[2])
			}
		}
		// Only the first key taken may repeat one emitted: the keys of a
		// fragment strictly increase.
		if key := s.keys[s.i]; key <= limit && !first && key == prev {
			m.Read++
			s.i++
		}
		for {
			if s.i == s.n {
				ok, err := s.fill()
				if err != nil {
					return err
				}
				if !ok {
					h.pop()
					src, heads = h.src, h.heads
					break
				}
			}
			keys := s.keys[s.i:s.n]
			taken := 0
			for _, key := range keys {
				if key > limit {
					break
				}
				m.Read++
				taken++
				if err := emit(key); err != nil {
					return err
				}
			}
			s.i += taken
			if taken > 0 {
				first, prev = false, keys[taken-1]
			}
			if taken < len(keys) {
				heads[0] = keys[taken]
				break
			}
		}
		if len(src) > 0 {
			siftDown(src, heads, 0)
		}
	}
	return nil
}

// open opens the fragments of kind k among blobs, each with its share of
// reads bytes of buffers, and decodes the first batch of each; the heap
// holds those that have keys, not yet in heap order.
func (m *keyMerge) open(ctx context.Context, st store.Store, blobs []Blob, k Kind, g games.Game, reads int64) (*keyHeap, error) {
	n := 0
	for _, b := range blobs {
		if b.Kind == k {
			n++
			m.Total += b.Count
		}
	}
	// A fifth of each fragment's share of the buffers holds decoded keys,
	// the rest its bytes.
	per := min(reads/int64(max(n, 1)), 1<<16)
	bufSize, batch := int(per*4/5), int(max(per/5/8, 64))
	h := &keyHeap{src: make([]*keySource, 0, n)}
	for _, b := range blobs {
		if b.Kind != k {
			continue
		}
		fr, c, err := openFragmentSize(ctx, st, b, k, g, bufSize)
		if err != nil {
			return h, err
		}
		s := &keySource{fr: fr, c: c, keys: make([]uint64, batch)}
		ok, err := s.fill()
		if err != nil || !ok {
			c.Close()
			if err != nil {
				return h, err
			}
			continue
		}
		h.src = append(h.src, s)
	}
	return h, nil
}

// keyHeap is a heap of the fragments of a merge not yet exhausted, by
// their next key; heads[i] is src[i]'s next key, kept beside it so that
// the heap's comparisons read one array rather than each source's batch.
type keyHeap struct {
	src   []*keySource
	heads []uint64
}

// init puts the sources in heap order.
func (h *keyHeap) init() {
	h.heads = make([]uint64, len(h.src))
	for i, s := range h.src {
		h.heads[i] = s.keys[s.i]
	}
	for i := len(h.src)/2 - 1; i >= 0; i-- {
		siftDown(h.src, h.heads, i)
	}
}

// siftDown moves source i of a heap down to its place.
func siftDown(src []*keySource, heads []uint64, i int) {
	n := len(src)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && heads[r] < heads[l] {
			c = r
		}
		if heads[i] <= heads[c] {
			return
		}
		src[i], src[c] = src[c], src[i]
		heads[i], heads[c] = heads[c], heads[i]
		i = c
	}
}

// pop closes the root's fragment and takes it off the heap, the last
// source in its place (the caller restores the order).
func (h *keyHeap) pop() {
	h.src[0].c.Close()
	last := len(h.src) - 1
	h.src[0], h.heads[0] = h.src[last], h.heads[last]
	h.src, h.heads = h.src[:last], h.heads[:last]
}

// close closes the fragments still on the heap.
func (h *keyHeap) close() {
	for _, s := range h.src {
		s.c.Close()
	}
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
			_, ok, err := fr.NextKey()
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

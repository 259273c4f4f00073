package jobs

import (
	"context"
	"io"

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
func sources[T any](ctx context.Context, st store.Store, blobs []Blob, k Kind, g games.Game, reads int64, next func(*fragReader) (T, bool, error)) ([]func() (T, bool, error), func(), error) {
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
	srcs, closeAll, err := sources(ctx, st, blobs, k, g, reads, (*fragReader).nextKey)
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

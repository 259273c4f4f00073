package store

import (
	"context"
	"io"
	"io/fs"
	"sync"
)

// Faulty wraps a store and fails its writes on demand, as a disk that fills
// up or turns read-only does: tests use it to see how census meets a
// failing store. Reads are passed through untouched. The zero value of its
// fault is "no fault"; it is safe for concurrent use.
type Faulty struct {
	Store

	mu sync.Mutex
	// after is how many more blobs may be created before writes fail,
	// or -1 for no limit.
	after int
	err   func(name string) error
	fails int
}

var _ Store = (*Faulty)(nil)

// NewFaulty wraps st with no fault switched on.
func NewFaulty(st Store) *Faulty {
	return &Faulty{Store: st, after: -1}
}

// FailAfter lets n more Creates succeed; from then on, until Heal, every
// Create, Write, Commit and DeletePrefix fails with err(name) for the blob
// or prefix at hand (blobs begun before fail as they go on writing); an
// err that returns nil lets that operation through, so a fault can hit
// some blobs only.
func (f *Faulty) FailAfter(n int, err func(name string) error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after, f.err = n, err
}

// Heal switches the fault off.
func (f *Faulty) Heal() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after, f.err = -1, nil
}

// Failures is how many operations the fault has failed so far.
func (f *Faulty) Failures() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fails
}

// fault is the error the operation on name meets now, or nil; create says
// whether the operation starts a blob, which counts against FailAfter.
func (f *Faulty) fault(name string, create bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.err == nil || f.after < 0:
		return nil
	case f.after > 0:
		if create {
			f.after--
		}
		return nil
	}
	err := f.err(name)
	if err != nil {
		f.fails++
	}
	return err
}

// Create fails while the fault is on.
func (f *Faulty) Create(ctx context.Context, name string) (Writer, error) {
	if err := f.fault(name, true); err != nil {
		return nil, err
	}
	w, err := f.Store.Create(ctx, name)
	if err != nil {
		return nil, err
	}
	return &faultyWriter{Writer: w, f: f, name: name}, nil
}

// DeletePrefix fails while the fault is on, as it would on a read-only disk.
func (f *Faulty) DeletePrefix(ctx context.Context, prefix string) error {
	if err := f.fault(prefix, false); err != nil {
		return err
	}
	return f.Store.DeletePrefix(ctx, prefix)
}

// Delete fails while the fault is on for any of the names.
func (f *Faulty) Delete(ctx context.Context, names ...string) error {
	for _, n := range names {
		if err := f.fault(n, false); err != nil {
			return err
		}
	}
	return f.Store.Delete(ctx, names...)
}

type faultyWriter struct {
	Writer
	f    *Faulty
	name string
}

func (w *faultyWriter) Write(p []byte) (int, error) {
	if err := w.f.fault(w.name, false); err != nil {
		return 0, err
	}
	return w.Writer.Write(p)
}

// Commit of a blob whose writes met the fault fails too; a failed Commit
// leaves nothing behind, as the Store contract asks.
func (w *faultyWriter) Commit() error {
	if err := w.f.fault(w.name, false); err != nil {
		w.Writer.Abort()
		return err
	}
	return w.Writer.Commit()
}

var _ io.Writer = (*faultyWriter)(nil)

// Sync passes Sync on to the wrapped store.
func (f *Faulty) Sync(ctx context.Context, names ...string) error {
	return Sync(ctx, f.Store, names...)
}

// Prepare passes Prepare on to the wrapped store.
func (f *Faulty) Prepare(ctx context.Context, prefixes ...string) error {
	return Prepare(ctx, f.Store, prefixes...)
}

// MoveOut passes MoveOut on to the wrapped store.
func (f *Faulty) MoveOut(ctx context.Context, name, path string, perm fs.FileMode) (bool, error) {
	return MoveOut(ctx, f.Store, name, path, perm)
}

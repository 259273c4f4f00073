package store

import (
	"context"
	"io"
	"io/fs"
)

// Counting wraps a store so that every byte read or written is reported to
// read and written (either may be nil).
func Counting(st Store, read, written func(n int)) Store {
	return &counting{Store: st, read: read, written: written}
}

type counting struct {
	Store
	read, written func(n int)
}

func (c *counting) Create(ctx context.Context, name string) (Writer, error) {
	w, err := c.Store.Create(ctx, name)
	if err != nil || c.written == nil {
		return w, err
	}
	return &countingWriter{Writer: w, n: c.written}, nil
}

func (c *counting) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	return c.wrap(c.Store.Open(ctx, name))
}

func (c *counting) OpenRange(ctx context.Context, name string, off, n int64) (io.ReadCloser, error) {
	return c.wrap(c.Store.OpenRange(ctx, name, off, n))
}

func (c *counting) wrap(rc io.ReadCloser, err error) (io.ReadCloser, error) {
	if err != nil || c.read == nil {
		return rc, err
	}
	return &countingReader{ReadCloser: rc, n: c.read}, nil
}

// Sync passes Sync on to the wrapped store.
func (c *counting) Sync(ctx context.Context, names ...string) error {
	return Sync(ctx, c.Store, names...)
}

type countingWriter struct {
	Writer
	n func(int)
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.Writer.Write(p)
	w.n(n)
	return n, err
}

type countingReader struct {
	io.ReadCloser
	n func(int)
}

func (r *countingReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.n(n)
	return n, err
}

// Prepare passes Prepare on to the wrapped store.
func (c *counting) Prepare(ctx context.Context, prefixes ...string) error {
	return Prepare(ctx, c.Store, prefixes...)
}

// MoveOut passes MoveOut on to the wrapped store.
func (c *counting) MoveOut(ctx context.Context, name, path string, perm fs.FileMode) (bool, error) {
	return MoveOut(ctx, c.Store, name, path, perm)
}

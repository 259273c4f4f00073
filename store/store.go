// Package store keeps the blobs of a census run — fragments, shards, piece
// tables — behind one small interface, with a directory backend.
package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
)

// ErrNotFound is returned by Open for a name that holds no blob.
var ErrNotFound = errors.New("blob not found")

// Store holds named blobs. Names are slash-separated paths. A blob appears
// whole or not at all: Create returns a Writer whose Commit makes the blob
// visible atomically, replacing any blob of the same name.
type Store interface {
	// Create starts a new blob. Nothing is visible until Commit.
	Create(ctx context.Context, name string) (Writer, error)
	// Open reads a blob; it fails with ErrNotFound when there is none.
	Open(ctx context.Context, name string) (io.ReadCloser, error)
	// OpenRange reads length bytes of a blob from offset on. Reading past
	// the end of the blob yields fewer bytes, not an error.
	OpenRange(ctx context.Context, name string, offset, length int64) (io.ReadCloser, error)
	// List returns the names of the blobs under prefix, sorted.
	List(ctx context.Context, prefix string) ([]string, error)
	// DeletePrefix removes every blob under prefix.
	DeletePrefix(ctx context.Context, prefix string) error
	// Delete removes the named blobs; a name that holds no blob is not an
	// error, a bad name is, and then no blob is removed.
	Delete(ctx context.Context, names ...string) error
}

// Syncer is a Store whose committed blobs may be visible before they are
// durable (a directory store under DeferSync): a blob survives the
// machine's crash once Sync of its name has returned.
type Syncer interface {
	Sync(ctx context.Context, names ...string) error
}

// Sync makes the named blobs of st durable when st defers that (a
// Syncer, or a store wrapping one); other stores made them durable at
// Commit.
func Sync(ctx context.Context, st Store, names ...string) error {
	if s, ok := st.(Syncer); ok {
		return s.Sync(ctx, names...)
	}
	return nil
}

// Preparer is a Store that can make ready, ahead of the first Create
// under them, the places of the blobs under some prefixes: a directory
// store creates their directories, which on some file systems takes as
// long as creating a file (ext4 here: a third of a millisecond).
type Preparer interface {
	Prepare(ctx context.Context, prefixes ...string) error
}

// Prepare makes the places of the blobs under prefixes ready when st can
// (a Preparer, or a store wrapping one); blobs are created under them
// whether or not it did.
func Prepare(ctx context.Context, st Store, prefixes ...string) error {
	if p, ok := st.(Preparer); ok {
		return p.Prepare(ctx, prefixes...)
	}
	return nil
}

// Mover is a Store that can move a committed blob out of the store to a
// path of the machine's filesystem without copying its bytes: a directory
// store, to a path on its own filesystem.
type Mover interface {
	// MoveOut gives the blob the file mode perm and moves it to path,
	// replacing any file there; the blob leaves the store. It says false,
	// with the blob left where it was, when it cannot move it there
	// without a copy.
	MoveOut(ctx context.Context, name, path string, perm fs.FileMode) (bool, error)
}

// MoveOut moves the named blob of st to path when st can without a copy
// (a Mover, or a store wrapping one), and says whether it did; a file
// moved so is as durable as the blob was, but its new name is not synced.
func MoveOut(ctx context.Context, st Store, name, path string, perm fs.FileMode) (bool, error) {
	if m, ok := st.(Mover); ok {
		return m.MoveOut(ctx, name, path, perm)
	}
	return false, nil
}

// Writer writes one blob.
type Writer interface {
	io.Writer
	// Commit makes the blob durable and visible under its name (a
	// Syncer's, visible: see Syncer).
	Commit() error
	// Abort discards the blob; it is a no-op after Commit.
	Abort()
}

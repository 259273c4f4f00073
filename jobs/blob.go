package jobs

import (
	"context"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

// Blob names a fragment or table in the store, with what a reader checks it
// against. Job messages carry blobs, never their contents.
type Blob struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Offset and Size place the fragment within the blob: one blob holds
	// the fragments of every bucket of one part of a job's output.
	Offset int64 `json:"offset,omitempty"`
	// Bucket is the shard of the next tier, or the reduce bucket, that the
	// blob is for.
	Bucket int    `json:"bucket"`
	Size   int64  `json:"size"`
	Sum    uint32 `json:"crc32c"`
	Count  uint64 `json:"count"`
}

// putFragment writes a blob of one fragment to the store under name.
func putFragment[T any](ctx context.Context, st store.Store, name string, h Header, recs []T, write func(io.Writer, Header, []T) (Blob, error)) (Blob, error) {
	w, err := st.Create(ctx, name)
	if err != nil {
		return Blob{}, err
	}
	b, err := write(w, h, recs)
	if err != nil {
		w.Abort()
		return Blob{}, fmt.Errorf("blob %s: %w", name, err)
	}
	if err := w.Commit(); err != nil {
		return Blob{}, err
	}
	b.Name = name
	return b, nil
}

func putKeys(ctx context.Context, st store.Store, name string, h Header, keys []uint64) (Blob, error) {
	return putFragment(ctx, st, name, h, keys, writeKeys)
}

func putPieces(ctx context.Context, st store.Store, name string, h Header, recs []PieceRecord) (Blob, error) {
	return putFragment(ctx, st, name, h, recs, writePieces)
}

func putClasses(ctx context.Context, st store.Store, name string, h Header, recs []ClassRecord) (Blob, error) {
	return putFragment(ctx, st, name, h, recs, writeClasses)
}

// openFragment opens a blob as a fragment of kind want for game g and
// checks its header against the blob and the game.
func openFragment(ctx context.Context, st store.Store, b Blob, want Kind, g games.Game) (*fragment.Reader, io.Closer, error) {
	return openFragmentSize(ctx, st, b, want, g, 1<<16)
}

// openFragmentSize is openFragment with a read buffer of bufSize bytes.
func openFragmentSize(ctx context.Context, st store.Store, b Blob, want Kind, g games.Game, bufSize int) (*fragment.Reader, io.Closer, error) {
	var rc io.ReadCloser
	var err error
	if b.Size > 0 {
		rc, err = st.OpenRange(ctx, b.Name, b.Offset, b.Size)
	} else {
		rc, err = st.Open(ctx, b.Name)
	}
	if err != nil {
		return nil, nil, err
	}
	fr, err := fragment.NewReader(rc, want, fragment.Options{Name: b.Name, Size: b.Size, Sum: b.Sum, BufSize: bufSize})
	if err != nil {
		rc.Close()
		return nil, nil, err
	}
	bd := g.Board()
	if fr.Game != g.Name() || fr.Rows != bd.Rows || fr.Cols != bd.Cols {
		rc.Close()
		return nil, nil, fmt.Errorf("fragment %s: %w: holds %s %dx%d, the job is %s %s", b.Name, ErrCorrupt, fr.Game, fr.Rows, fr.Cols, g.Name(), bd)
	}
	if fr.Count != b.Count {
		rc.Close()
		return nil, nil, fmt.Errorf("fragment %s: %w: holds %d records, the job expects %d", b.Name, ErrCorrupt, fr.Count, b.Count)
	}
	return fr, rc, nil
}

// blobWriter writes one blob into the store, keeping its size and checksum
// for the Blob that names it.
type blobWriter struct {
	name string
	w    store.Writer
	sum  uint32
	size int64
}

func newBlobWriter(ctx context.Context, st store.Store, name string) (*blobWriter, error) {
	w, err := st.Create(ctx, name)
	if err != nil {
		return nil, err
	}
	return &blobWriter{name: name, w: w}, nil
}

func (b *blobWriter) Write(p []byte) (int, error) {
	b.sum = crc32.Update(b.sum, castagnoli, p)
	b.size += int64(len(p))
	return b.w.Write(p)
}

// commit makes the blob visible and returns its Blob.
func (b *blobWriter) commit() (Blob, error) {
	if err := b.w.Commit(); err != nil {
		return Blob{}, err
	}
	return Blob{Name: b.name, Size: b.size, Sum: b.sum}, nil
}

// abort discards the blob; it is a no-op after commit.
func (b *blobWriter) abort() { b.w.Abort() }

var _ io.Writer = (*blobWriter)(nil)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

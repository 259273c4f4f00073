package jobs

import (
	"bytes"
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/store"
)

func newStore(t testing.TB) *store.Dir {
	t.Helper()
	st, err := store.NewDir(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func mustGame(t testing.TB, name, board, start string) games.Game {
	t.Helper()
	g, err := all.New(name, board, start)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func headerFor(g games.Game, k Kind, tier int) Header {
	b := g.Board()
	return Header{Kind: k, Game: g.Name(), Rows: b.Rows, Cols: b.Cols, Tier: tier}
}

// readBlob opens b through openFragment, as the kernels do, and reads it
// to the end.
func readBlob[T any](st store.Store, b Blob, k Kind, g games.Game, next func(*fragment.Reader) (T, bool, error)) ([]T, error) {
	fr, c, err := openFragment(context.Background(), st, b, k, g)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return fragment.ReadAll(fr, next)
}

func blobBytes(t testing.TB, st *store.Dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(st.Root(), filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func putBytes(t testing.TB, st store.Store, name string, data []byte) {
	t.Helper()
	w, err := st.Create(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
}

func readStore(t testing.TB, st store.Store, name string) []byte {
	t.Helper()
	rc, err := st.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// memStore is a Store in memory, for tests that write thousands of small
// blobs and need no fsync, and for benchmarks; with discard it keeps
// nothing and only counts the bytes written.
type memStore struct {
	mu      sync.Mutex
	blobs   map[string][]byte
	discard bool
	written int64
}

var _ store.Store = (*memStore)(nil)

func newMemStore() *memStore { return &memStore{blobs: map[string][]byte{}} }

type memWriter struct {
	s    *memStore
	name string
	buf  bytes.Buffer
	n    int64
}

func (w *memWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	if w.s.discard {
		return len(p), nil
	}
	return w.buf.Write(p)
}

func (w *memWriter) Commit() error {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.s.written += w.n
	if !w.s.discard {
		w.s.blobs[w.name] = bytes.Clone(w.buf.Bytes())
	}
	return nil
}

func (w *memWriter) Abort() {}

func (s *memStore) Create(ctx context.Context, name string) (store.Writer, error) {
	return &memWriter{s: s, name: name}, nil
}

func (s *memStore) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	return s.OpenRange(ctx, name, 0, math.MaxInt64)
}

func (s *memStore) OpenRange(ctx context.Context, name string, offset, length int64) (io.ReadCloser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	data, ok := s.blobs[name]
	if !ok {
		return nil, store.ErrNotFound
	}
	lo := min(offset, int64(len(data)))
	hi := lo + min(length, int64(len(data))-lo)
	return io.NopCloser(bytes.NewReader(data[lo:hi])), nil
}

func (s *memStore) List(ctx context.Context, prefix string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for n := range s.blobs {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (s *memStore) Delete(ctx context.Context, names ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		delete(s.blobs, n)
	}
	return nil
}

func (s *memStore) DeletePrefix(ctx context.Context, prefix string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := range s.blobs {
		if strings.HasPrefix(n, prefix) {
			delete(s.blobs, n)
		}
	}
	return nil
}

// keepKeys writes keys, sorted, as the kept positions name of tier of g
// on st, marked as shard's.
func keepKeys(tb testing.TB, st store.Store, name string, g games.Game, tier, shard int, keys []uint64) Blob {
	tb.Helper()
	kp, err := newKeeper(context.Background(), st, name, g, tier)
	if err != nil {
		tb.Fatal(err)
	}
	for _, k := range keys {
		if err := kp.add(k); err != nil {
			tb.Fatal(err)
		}
	}
	b, err := kp.commit()
	if err != nil {
		tb.Fatal(err)
	}
	b.Bucket = shard
	return b
}

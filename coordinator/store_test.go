package coordinator_test

import (
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/store/s3store"
)

// TestS3Store runs a census with its blobs in an in-process S3 server and
// compares it with the directory store.
func TestS3Store(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("census"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	t.Setenv("AWS_ENDPOINT_URL", srv.URL)
	t.Setenv("AWS_ACCESS_KEY_ID", "census")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "census-secret")
	t.Setenv("AWS_REGION", "us-east-1")

	tmp := t.TempDir()
	out := coordinator.OutputDir(filepath.Join(tmp, "out"), "clobber", "3x4")
	res, err := embedded.Run(context.Background(), embedded.Options{
		Game: "clobber", Board: "3x4", Out: out, Data: filepath.Join(tmp, "data"),
		Workers: 2, MemBudget: 64 << 20, Version: "test",
		StoreURL: "s3://census/runs",
		OpenStore: func(ctx context.Context, url string) (store.Store, error) {
			cfg, err := s3store.ConfigFromURL(url)
			if err != nil {
				return nil, err
			}
			return s3store.New(ctx, cfg)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want, wantDir := census(t, "clobber", "3x4", "", 0, 2)
	if !reflect.DeepEqual(counts(res.Summary), counts(want)) {
		t.Errorf("S3 store summary differs from directory store:\n%+v\n%+v", res.Summary, want)
	}
	if got, want := readPieces(t, out), readPieces(t, wantDir); !reflect.DeepEqual(got, want) {
		t.Errorf("S3 store pieces differ: %d rows vs %d", len(got), len(want))
	}
}

// corrupting is a store whose reads of the blobs whose names contain part
// come back damaged, as from a failing disk: every read of such a blob is
// damaged the same way.
type corrupting struct {
	store.Store
	part   string
	damage func(name string, data []byte) []byte
}

func (c corrupting) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	return c.wrap(name)(c.Store.Open(ctx, name))
}

func (c corrupting) OpenRange(ctx context.Context, name string, off, n int64) (io.ReadCloser, error) {
	return c.wrap(name)(c.Store.OpenRange(ctx, name, off, n))
}

func (c corrupting) wrap(name string) func(io.ReadCloser, error) (io.ReadCloser, error) {
	return func(rc io.ReadCloser, err error) (io.ReadCloser, error) {
		if err != nil || !strings.Contains(name, c.part) {
			return rc, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(c.damage(name, data))), nil
	}
}

// TestCorruptFragment checks that a damaged fragment or table, wherever
// the damage lies, fails the run with a message naming it, and that no
// outputs appear: a bit flipped or the end cut off at a random place in
// the fragments of a tier, of the piece and class reductions, and in the
// pieces tables.
func TestCorruptFragment(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("CENSUS_TEST_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("CENSUS_TEST_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d (replay with CENSUS_TEST_SEED=%d)", seed, seed)
	// offset is a random place in data, the same for every read of name
	// under one seed.
	offset := func(name string, data []byte) int {
		h := fnv.New64a()
		h.Write([]byte(name))
		return int(rand.New(rand.NewPCG(seed, h.Sum64())).Uint64N(uint64(len(data))))
	}
	flip := func(name string, data []byte) []byte {
		if len(data) == 0 {
			return data
		}
		i := offset(name, data)
		data[i] ^= 1 << (i % 8)
		return data
	}
	cut := func(name string, data []byte) []byte {
		if len(data) == 0 {
			return data
		}
		return data[:offset(name, data)]
	}
	tests := []struct {
		name   string
		part   string
		damage func(string, []byte) []byte
		// failed says the damage fails a job, not the final copy.
		failed bool
	}{
		{"bit flip in a tier", "/t0004/", flip, true},
		{"cut short in a tier", "/t0004/", cut, true},
		{"bit flip in the pieces", "/pieces/", flip, true},
		{"cut short in the pieces", "/pieces/", cut, true},
		{"bit flip in the classes", "/classes/", flip, true},
		{"cut short in the classes", "/classes/", cut, true},
		{"bit flip in a pieces table", "/tables/", flip, false},
		{"cut short in a pieces table", "/tables/", cut, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			out := coordinator.OutputDir(filepath.Join(tmp, "out"), "clobber", "3x4")
			_, err := embedded.Run(context.Background(), embedded.Options{
				Game: "clobber", Board: "3x4", Out: out, Data: filepath.Join(tmp, "data"),
				Workers: 2, Shards: 2, MemBudget: 64 << 20, Version: "test",
				StoreURL: filepath.Join(tmp, "blobs"),
				OpenStore: func(ctx context.Context, url string) (store.Store, error) {
					d, err := store.NewDir(url)
					return corrupting{Store: d, part: tc.part, damage: tc.damage}, err
				},
			})
			if err == nil {
				t.Fatal("a run with damaged blobs succeeded")
			}
			if tc.failed && !errors.Is(err, coordinator.ErrJobFailed) {
				t.Errorf("err %v, want ErrJobFailed", err)
			}
			if !tc.failed && !errors.Is(err, jobs.ErrCorrupt) {
				t.Errorf("err %v, want ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), tc.part) || !strings.Contains(err.Error(), jobs.ErrCorrupt.Error()) {
				t.Errorf("error %q does not name the damaged blob under %s as corrupt", err, tc.part)
			}
			if _, err := os.Stat(filepath.Join(out, schema.ManifestFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed run left run.json")
			}
		})
	}
}

package coordinator_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/internal/embedded"
	"github.com/census-cgt/census/jobs"
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
	if !reflect.DeepEqual(res.Summary, want) {
		t.Errorf("S3 store summary differs from directory store:\n%+v\n%+v", res.Summary, want)
	}
	if got, want := readPieces(t, out), readPieces(t, wantDir); !reflect.DeepEqual(got, want) {
		t.Errorf("S3 store pieces differ: %d rows vs %d", len(got), len(want))
	}
}

// corrupting is a store whose reads of one tier's fragments have a bit
// flipped, as a failing disk would.
type corrupting struct {
	store.Store
	tier string
}

func (c corrupting) OpenRange(ctx context.Context, name string, off, n int64) (io.ReadCloser, error) {
	rc, err := c.Store.OpenRange(ctx, name, off, n)
	if err != nil || !strings.Contains(name, c.tier) {
		return rc, err
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		return nil, err
	}
	data[len(data)/2] ^= 0x10
	return io.NopCloser(bytes.NewReader(data)), nil
}

// TestCorruptFragment checks that a corrupted fragment fails the run with
// a message naming it, and that no outputs appear.
func TestCorruptFragment(t *testing.T) {
	tmp := t.TempDir()
	out := coordinator.OutputDir(filepath.Join(tmp, "out"), "clobber", "3x4")
	_, err := embedded.Run(context.Background(), embedded.Options{
		Game: "clobber", Board: "3x4", Out: out, Data: filepath.Join(tmp, "data"),
		Workers: 2, Shards: 2, MemBudget: 64 << 20, Version: "test",
		StoreURL: filepath.Join(tmp, "blobs"),
		OpenStore: func(ctx context.Context, url string) (store.Store, error) {
			d, err := store.NewDir(url)
			return corrupting{Store: d, tier: "/t0004/"}, err
		},
	})
	if !errors.Is(err, coordinator.ErrJobFailed) {
		t.Fatalf("run with a corrupt fragment: err %v, want ErrJobFailed", err)
	}
	if !strings.Contains(err.Error(), "/t0004/") || !strings.Contains(err.Error(), jobs.ErrCorrupt.Error()) {
		t.Errorf("error %q does not name the corrupt fragment", err)
	}
	if _, err := os.Stat(filepath.Join(out, "run.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed run left run.json")
	}
}

package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// TestStoreFailsMidRun makes the store fail its writes part-way through a
// run, as a disk that fills up or turns read-only does. The run must stop
// within its retries with an error naming the blob and the cause, leave no
// manifest, and, once the fault is gone, the same run must resume and give
// the outputs of a run that never failed.
func TestStoreFailsMidRun(t *testing.T) {
	// Short waits between a failing job's attempts keep each case to a
	// second or two; the attempts are as many as in production.
	const shards, workers = 2, 2
	want, wantDir := census(t, "clobber", "3x4", "", shards, workers)
	wantPieces := readPieces(t, wantDir)

	diskFull := func(name string) error { return fmt.Errorf("write %s: %w", name, syscall.ENOSPC) }
	readOnly := func(name string) error { return fmt.Errorf("write %s: %w", name, syscall.EROFS) }
	only := func(part string, fault func(string) error) func(string) error {
		return func(name string) error {
			if strings.Contains(name, part) {
				return fault(name)
			}
			return nil
		}
	}
	tests := []struct {
		name  string
		after int
		fault func(name string) error
		// stage is where the failure must show in the error.
		stage string
		cause string
	}{
		{"disk full early", 3, diskFull, "tier ", "no space left on device"},
		{"disk full mid tiers", 12, diskFull, "tier ", "no space left on device"},
		{"read-only mid tiers", 12, readOnly, "tier ", "read-only file system"},
		{"disk full in the pieces reduction", 0, only("/tables/", diskFull), "pieces: ", "no space left on device"},
		{"read-only in the classes reduction", 0, only("/classes/", readOnly), "pieces: ", "read-only file system"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			out := coordinator.OutputDir(filepath.Join(tmp, "out"), "clobber", "3x4")
			dir, err := store.NewDir(filepath.Join(tmp, "blobs"))
			if err != nil {
				t.Fatal(err)
			}
			faulty := store.NewFaulty(dir)
			faulty.FailAfter(tc.after, tc.fault)
			opts := embedded.Options{
				Game: "clobber", Board: "3x4", Out: out, Data: filepath.Join(tmp, "data"),
				Workers: workers, Shards: shards, MemBudget: 64 << 20, Version: "test",
				RetryDelay: 20 * time.Millisecond,
				StoreURL:   dir.Root(),
				OpenStore:  func(context.Context, string) (store.Store, error) { return faulty, nil },
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			began := time.Now()
			_, err = embedded.Run(ctx, opts)
			took := time.Since(began)
			t.Logf("failed run took %v, %d store operations failed", took, faulty.Failures())
			if !errors.Is(err, coordinator.ErrJobFailed) {
				t.Fatalf("run with a failing store: err %v, want ErrJobFailed", err)
			}
			// The error names the blob (under the run's prefix), the cause
			// and the attempts made.
			msg := err.Error()
			for _, part := range []string{"clobber-3x4-", "write ", tc.cause, tc.stage, "gave up after 5 attempts"} {
				if !strings.Contains(msg, part) {
					t.Errorf("error %q does not name %q", msg, part)
				}
			}
			if took > 30*time.Second {
				t.Errorf("the failing run took %v to stop", took)
			}
			if _, err := os.Stat(filepath.Join(out, schema.ManifestFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed run left run.json: %v", err)
			}

			// The disk has room again: the same run resumes and finishes.
			faulty.Heal()
			res, err := embedded.Run(ctx, opts)
			if err != nil {
				t.Fatalf("run again once the store works: %v", err)
			}
			if !reflect.DeepEqual(counts(res.Summary), counts(want)) {
				t.Errorf("summary after a store fault differs:\n%+v\n%+v", res.Summary, want)
			}
			if got := readPieces(t, out); !reflect.DeepEqual(got, wantPieces) {
				t.Errorf("pieces after a store fault differ: %d rows vs %d", len(got), len(wantPieces))
			}
			if _, err := os.Stat(filepath.Join(out, schema.ManifestFile)); err != nil {
				t.Errorf("the resumed run wrote no run.json: %v", err)
			}
		})
	}
}

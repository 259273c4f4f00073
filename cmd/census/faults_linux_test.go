package main

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/schema"
)

// The store fault tests give `census run` a store on a real file system
// that fails under it: a small tmpfs that fills up, or a read-only one.
// Mounting needs root (or CAP_SYS_ADMIN); elsewhere they skip, except in CI.

// mountTmpfs mounts a tmpfs with the given flags and options at dir, which
// it creates, and unmounts it when the test ends.
func mountTmpfs(t *testing.T, dir string, flags uintptr, options string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, options); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("mount a tmpfs at %s: %v", dir, err)
		}
		t.Skipf("cannot mount a tmpfs here (%v): the store fault tests need root", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
}

// remount changes the flags and options of the tmpfs at dir.
func remount(t *testing.T, dir string, flags uintptr, options string) {
	t.Helper()
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|flags, options); err != nil {
		t.Fatalf("remount %s: %v", dir, err)
	}
}

// faultBoard is the census the store fault tests run: small, so that each
// scenario takes a second or two, with fixed shards so that the run ID
// and the jobs are those of the reference run.
var faultBoard = []string{"clobber", "3x4", "--shards", "2"}

// TestStoreFaults runs `census run` with its store on a file system that
// fails part-way through: full, or read-only under the fragments of a
// tier. The run must stop within its retries with one line naming the path
// and the cause, write no run.json, and, once the fault is gone, the same
// command must resume and give the outputs of a run that never failed.
func TestStoreFaults(t *testing.T) {
	// Short waits between a failing job's attempts keep each case short;
	// the census processes inherit them.
	t.Setenv("CENSUS_RETRY_DELAY", "20ms")
	t.Setenv("CENSUS_LOG", "info")
	want, _ := embeddedRun(t, faultBoard[0], faultBoard[1], faultBoard[2:]...)
	run, err := coordinator.RunID("clobber", "3x4", "", 2, false, false)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		// fault mounts a failing file system within the test's directory
		// tmp and returns the flags that put census on it, the path
		// that the error must name, and a function that ends the fault.
		fault func(t *testing.T, tmp string) (args []string, path string, heal func())
		// names are what the last line must say besides the path.
		names []string
	}{
		{
			// 128 KiB hold the first tiers of clobber 3x4, not the
			// fifth.
			name: "store full",
			fault: func(t *testing.T, tmp string) ([]string, string, func()) {
				store := filepath.Join(tmp, "store")
				mountTmpfs(t, store, 0, "size=128k")
				return []string{"--store", store}, store, func() { remount(t, store, 0, "size=16m") }
			},
			names: []string{"tier ", "no space left on device", "gave up after 5 attempts"},
		},
		{
			name: "store full in the reductions",
			fault: func(t *testing.T, tmp string) ([]string, string, func()) {
				store := filepath.Join(tmp, "store")
				mountTmpfs(t, store, 0, "size=192k")
				return []string{"--store", store}, store, func() { remount(t, store, 0, "size=16m") }
			},
			names: []string{"pieces: ", "no space left on device", "gave up after 5 attempts"},
		},
		{
			// Tier 4's jobs write the fragments of tier 5.
			name: "store read-only",
			fault: func(t *testing.T, tmp string) ([]string, string, func()) {
				store := filepath.Join(tmp, "store")
				dir := filepath.Join(store, run, "t0005")
				mountTmpfs(t, dir, syscall.MS_RDONLY, "size=16m")
				return []string{"--store", store}, dir, func() { remount(t, dir, 0, "size=16m") }
			},
			names: []string{"tier 4: ", "read-only file system", "gave up after 5 attempts"},
		},
		{
			// The embedded NATS server's store, without the blobs: 64
			// KiB hold the first tiers' jobs and records.
			name: "NATS store full",
			fault: func(t *testing.T, tmp string) ([]string, string, func()) {
				dir := filepath.Join(tmp, "data", "nats")
				mountTmpfs(t, dir, 0, "size=64k")
				return nil, dir, func() { remount(t, dir, 0, "size=16m") }
			},
			names: []string{"the NATS server cannot write its store", "no space left on device"},
		},
		{
			// --data holds both the NATS store and the blobs; either
			// may be the first to meet the full disk.
			name: "data full",
			fault: func(t *testing.T, tmp string) ([]string, string, func()) {
				dir := filepath.Join(tmp, "data")
				mountTmpfs(t, dir, 0, "size=256k")
				return nil, dir, func() { remount(t, dir, 0, "size=16m") }
			},
			names: []string{"no space left on device"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			out := filepath.Join(tmp, "out")
			extra, path, heal := tc.fault(t, tmp)
			// --no-space-check: these are the disks that fill despite the
			// estimate (another process fills them); TestSpaceCheck has
			// the estimate.
			args := append([]string{"run", "--out", out, "--data", filepath.Join(tmp, "data"),
				"--jobs", "2", noMetrics, "--no-space-check"}, faultBoard...)
			args = append(args, extra...)

			began := time.Now()
			_, stderr, code := censusWithin(t, 90*time.Second, nil, args...)
			took := time.Since(began)
			if code != 1 {
				t.Fatalf("census run on a failing store: exit %d after %v, want 1: %s", code, took, tail(stderr, 2000))
			}
			t.Logf("the failing run stopped after %v", took)
			// Bounded by the attempts of a failing job, or by the 30 s
			// of a NATS request that a full store leaves unanswered.
			if took > 45*time.Second {
				t.Errorf("the failing run took %v to stop", took)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			for _, part := range append([]string{"census: census clobber 3x4: ", path + "/"}, tc.names...) {
				if !strings.Contains(last, part) {
					t.Errorf("last line %q does not name %q", last, part)
				}
			}
			if _, err := os.Stat(filepath.Join(out, "clobber-3x4", schema.ManifestFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed run left run.json: %v", err)
			}

			heal()
			_, stderr, code = censusWithin(t, 90*time.Second, nil, args...)
			if code != 0 {
				t.Fatalf("census run again once the store works: exit %d: %s", code, tail(stderr, 2000))
			}
			if !strings.Contains(stderr, "resuming run") {
				t.Errorf("census run again did not resume: %s", tail(stderr, 2000))
			}
			sameOutputs(t, filepath.Join(out, "clobber-3x4"), want)
		})
	}
}

// TestSpaceCheck runs a census whose store, a real tmpfs, cannot hold its
// later tiers: the estimate before a tier stops the run with exit code 1
// and a line naming the store, the bytes the tier needs and the bytes free,
// before any write fails; once the tmpfs is larger the same command
// resumes and gives the outputs of a run that never stopped.
func TestSpaceCheck(t *testing.T) {
	t.Setenv("CENSUS_LOG", "info")
	want, _ := embeddedRun(t, faultBoard[0], faultBoard[1], faultBoard[2:]...)
	// 128 KiB hold the first tiers of clobber 3x4, not the fifth, and 192
	// KiB every tier but not the reductions (see TestStoreFaults, where the
	// same stores fail a write; at 256 KiB a piece job that failed there
	// can succeed when retried, once the deletes of blobs no job reads
	// again have run).
	for _, tc := range []struct{ size, stage string }{{"128k", `tier \d+`}, {"192k", "the piece reduction"}} {
		t.Run(tc.size, func(t *testing.T) {
			tmp := t.TempDir()
			store := filepath.Join(tmp, "store")
			mountTmpfs(t, store, 0, "size="+tc.size)
			out := filepath.Join(tmp, "out")
			args := append([]string{"run", "--out", out, "--data", filepath.Join(tmp, "data"), "--jobs", "2", noMetrics,
				"--store", store}, faultBoard...)
			_, stderr, code := censusWithin(t, 90*time.Second, nil, args...)
			if code != 1 {
				t.Fatalf("census run on a store too small: exit %d, want 1: %s", code, tail(stderr, 2000))
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			t.Log(last)
			if m := regexp.MustCompile(`: (` + tc.stage + `) needs about [0-9.]+ [KM]iB of working data in (\S+), which has [0-9.]+ KiB free: free some space there and run the same command again to resume$`).FindStringSubmatch(last); m == nil || m[2] != store {
				t.Errorf("last line %q: want %s, the bytes needed and free, and the store %s", last, tc.stage, store)
			}
			if strings.Contains(stderr, "no space left on device") {
				t.Errorf("a write failed before the estimate stopped the run: %s", tail(stderr, 2000))
			}
			if _, err := os.Stat(filepath.Join(out, "clobber-3x4", schema.ManifestFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a stopped run left run.json: %v", err)
			}
			remount(t, store, 0, "size=16m")
			_, stderr, code = censusWithin(t, 90*time.Second, nil, args...)
			if code != 0 {
				t.Fatalf("census run again on a larger store: exit %d: %s", code, tail(stderr, 2000))
			}
			if !strings.Contains(stderr, "resuming run") {
				t.Errorf("census run again did not resume: %s", tail(stderr, 2000))
			}
			sameOutputs(t, filepath.Join(out, "clobber-3x4"), want)
		})
	}
}

// TestProjectionRefusal runs Clobber 5x5 on a store of 4 MiB: the
// projection from its published run refuses it before tier 0, with exit
// code 1 and a line naming the store and the bytes needed and free, and
// nothing written to the store or the outputs.
func TestProjectionRefusal(t *testing.T) {
	tmp := t.TempDir()
	store := filepath.Join(tmp, "store")
	mountTmpfs(t, store, 0, "size=4m")
	out := filepath.Join(tmp, "out")
	_, stderr, code := censusWithin(t, 60*time.Second, nil, "run", "clobber", "5x5", "--out", out, "--data", filepath.Join(tmp, "data"), noMetrics, "--store", store)
	if code != 1 {
		t.Fatalf("census run clobber 5x5 on a 4 MiB store: exit %d, want 1: %s", code, tail(stderr, 2000))
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	t.Log(last)
	if m := regexp.MustCompile(`^census: census clobber 5x5: the run \(at least half the [0-9.]+ GiB peak of the published run in results/clobber-5x5\) needs about [0-9.]+ GiB of working data in (\S+), which has [0-9.]+ MiB free: free some space there and run the same command again to resume$`).FindStringSubmatch(last); m == nil || m[1] != store {
		t.Errorf("last line %q: want the projection, the bytes needed and free, and the store %s", last, store)
	}
	if entries, err := os.ReadDir(store); err != nil || len(entries) != 0 {
		t.Errorf("the refused run wrote to the store: %v %v", entries, err)
	}
	if _, err := os.Stat(filepath.Join(out, "clobber-5x5")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused run made its output directory: %v", err)
	}
}

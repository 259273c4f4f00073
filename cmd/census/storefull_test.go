package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServerStoreFull runs a coordinator against a `census server` whose
// JetStream store holds 64KB, far less than the run's records: the
// coordinator must stop within seconds (10 s allowed, on a busy machine)
// with one message naming the server and the cause, not retry for minutes.
func TestServerStoreFull(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "tiny.conf")
	if err := os.WriteFile(conf, []byte("jetstream {\n  max_file_store: 64KB\n  max_memory_store: 1MB\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, "--config", conf)
	startWorker(t, "worker-0", srv.url)
	startWorker(t, "worker-1", srv.url)
	tmp := t.TempDir()
	began := time.Now()
	_, stderr, code := censusWithin(t, 60*time.Second, nil, "coordinator", "--nats", srv.url, "--store", filepath.Join(tmp, "store"),
		"--out", filepath.Join(tmp, "out"), "--quiet", noMetrics, "clobber", "4x4", "--shards", "3")
	took := time.Since(began)
	t.Logf("the coordinator stopped after %v: %s", took, stderr)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{srv.url, "no room left to store", "insufficient resources"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q does not name %q", stderr, want)
		}
	}
	if took > 10*time.Second {
		t.Errorf("the coordinator took %v to stop, want at most 10 s", took)
	}
}

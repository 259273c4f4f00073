package testbin

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var timeZero = time.Unix(1e9, 0)

// TestSeaweedFSBinary: the lookup builds nothing, names the script when
// the binary is missing, finds a cached one, and CENSUS_SEAWEEDFS wins.
func TestSeaweedFSBinary(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(CacheEnv, cache)
	t.Setenv(SeaweedFSEnv, "")
	_, err := SeaweedFSBinary()
	if !errors.Is(err, ErrNoSeaweedFS) || !strings.Contains(err.Error(), "scripts/seaweedfs.sh") {
		t.Fatalf("empty cache: %v, want ErrNoSeaweedFS naming scripts/seaweedfs.sh", err)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the lookup wrote %s into the cache", entries[0].Name())
	}

	// A binary in the cache, as BuildSeaweedFS leaves it; BuildSeaweedFS
	// then builds nothing either.
	dir := seaweedDir(cache)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "weed")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := SeaweedFSBinary(); err != nil || got != bin {
		t.Errorf("cached: %q, %v; want %q", got, err, bin)
	}
	if got, err := BuildSeaweedFS(io.Discard); err != nil || got != bin {
		t.Errorf("BuildSeaweedFS with a cached binary: %q, %v; want %q", got, err, bin)
	}
	// prune keeps it however old.
	old := dir
	os.Chtimes(old, timeZero, timeZero)
	prune(cache, timeZero.Add(10*keep))
	if _, err := os.Stat(bin); err != nil {
		t.Errorf("prune removed the SeaweedFS binary: %v", err)
	}

	other := filepath.Join(t.TempDir(), "weed")
	if err := os.WriteFile(other, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(SeaweedFSEnv, other)
	if got, err := SeaweedFSBinary(); err != nil || got != other {
		t.Errorf("%s=%s: %q, %v", SeaweedFSEnv, other, got, err)
	}
	t.Setenv(SeaweedFSEnv, other+".missing")
	if _, err := SeaweedFSBinary(); err == nil || !strings.Contains(err.Error(), SeaweedFSEnv) {
		t.Errorf("%s naming no file: %v, want an error naming the variable", SeaweedFSEnv, err)
	}
}

package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestCheckWritableLeavesNoTrace checks that the directories checkWritable
// makes are gone again, and the one that was there is empty.
func TestCheckWritableLeavesNoTrace(t *testing.T) {
	root := t.TempDir()
	if err := checkWritable(filepath.Join(root, "a", "b", "out")); err != nil {
		t.Fatal(err)
	}
	if left, err := os.ReadDir(root); err != nil || len(left) != 0 {
		t.Fatalf("checkWritable left %v in %s (%v)", left, root, err)
	}
}

// TestCheckWritableConcurrent runs checks of one new directory at once, as
// two coordinators started together do: each must succeed, though
// another may remove the directories it made.
func TestCheckWritableConcurrent(t *testing.T) {
	for round := range 50 {
		dir := filepath.Join(t.TempDir(), "out", "clobber")
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() { errs[i] = checkWritable(dir) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, check %d: %v", round, i, err)
			}
		}
	}
}

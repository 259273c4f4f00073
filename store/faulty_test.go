package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"syscall"
	"testing"
)

// diskFull is the error a full disk gives for name.
func diskFull(name string) error {
	return fmt.Errorf("write %s: %w", name, syscall.ENOSPC)
}

func TestFaulty(t *testing.T) {
	ctx := context.Background()
	f := NewFaulty(newDir(t))
	put(t, f, "before", "x")
	if f.Failures() != 0 {
		t.Fatalf("%d failures with no fault on", f.Failures())
	}

	// Two more blobs may be started; a blob begun before the fault fails
	// as it goes on writing, and leaves nothing behind.
	early, err := f.Create(ctx, "early")
	if err != nil {
		t.Fatal(err)
	}
	f.FailAfter(2, diskFull)
	put(t, f, "one", "1")
	w, err := f.Create(ctx, "two")
	if err != nil {
		t.Fatalf("the second Create after FailAfter(2): %v", err)
	}
	if _, err := io.WriteString(w, "2"); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Write once the fault is on: %v, want ENOSPC", err)
	}
	if err := w.Commit(); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Commit once the fault is on: %v, want ENOSPC", err)
	}
	if _, err := io.WriteString(early, "e"); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Write of a blob begun before the fault: %v, want ENOSPC", err)
	}
	early.Abort()
	if _, err := f.Create(ctx, "three"); err == nil || err.Error() != diskFull("three").Error() {
		t.Errorf("Create once the fault is on: %v, want %v", err, diskFull("three"))
	}
	if err := f.DeletePrefix(ctx, "one"); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("DeletePrefix once the fault is on: %v, want ENOSPC", err)
	}
	// Reads go on.
	if got, err := get(f, "one"); err != nil || got != "1" {
		t.Errorf("Open while the fault is on: %q, %v", got, err)
	}
	if n := f.Failures(); n != 5 {
		t.Errorf("Failures() = %d, want 5", n)
	}
	if got := list(t, f, ""); !slices.Equal(got, []string{"before", "one"}) {
		t.Errorf("blobs after the fault: %q, want the two committed before it", got)
	}
	if got := files(t, f.Store.(*Dir).Root()); len(got) != 2 {
		t.Errorf("failed writes left files: %q", got)
	}

	f.Heal()
	put(t, f, "after", "y")
	if err := f.DeletePrefix(ctx, "one"); err != nil {
		t.Errorf("DeletePrefix after Heal: %v", err)
	}
	if got := list(t, f, ""); !slices.Equal(got, []string{"after", "before"}) {
		t.Errorf("blobs after Heal: %q", got)
	}
}

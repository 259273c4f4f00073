package store

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func newDir(t *testing.T) *Dir {
	t.Helper()
	d, err := NewDir(filepath.Join(t.TempDir(), "a", "store"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func put(t *testing.T, s Store, name, data string) {
	t.Helper()
	w, err := s.Create(context.Background(), name)
	if err != nil {
		t.Fatalf("Create(%q): %v", name, err)
	}
	if _, err := io.WriteString(w, data); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatalf("Commit(%q): %v", name, err)
	}
}

func get(s Store, name string) (string, error) {
	rc, err := s.Open(context.Background(), name)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return string(b), err
}

func list(t *testing.T, s Store, prefix string) []string {
	t.Helper()
	names, err := s.List(context.Background(), prefix)
	if err != nil {
		t.Fatalf("List(%q): %v", prefix, err)
	}
	return names
}

// files lists every file under root, temporary ones included.
func files(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNewDir(t *testing.T) {
	d := newDir(t)
	if st, err := os.Stat(d.Root()); err != nil || !st.IsDir() {
		t.Fatalf("root %s: %v", d.Root(), err)
	}
	if f := files(t, d.Root()); len(f) != 0 {
		t.Errorf("a new store holds %v", f)
	}
	// A root below a regular file cannot be created.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewDir(filepath.Join(file, "store")); err == nil {
		t.Error("NewDir below a regular file succeeded")
	}
}

func TestRoundTrip(t *testing.T) {
	d := newDir(t)
	blobs := map[string]string{
		"a":                     "one",
		"run/t0001/s00000.frag": "two",
		"run/t0001/s00001.frag": "",
		"run/t0002/s00000.frag": strings.Repeat("x", 1<<20),
		"run/pieces/deep/er/f":  "three",
	}
	for name, data := range blobs {
		put(t, d, name, data)
	}
	for name, want := range blobs {
		if got, err := get(d, name); err != nil || got != want {
			t.Errorf("Open(%q) = %d bytes, %v; want %d bytes", name, len(got), err, len(want))
		}
	}
	// Commit replaces a blob of the same name.
	put(t, d, "a", "replaced")
	if got, _ := get(d, "a"); got != "replaced" {
		t.Errorf("after a second Commit, a holds %q", got)
	}
	if f := files(t, d.Root()); len(f) != len(blobs) {
		t.Errorf("store holds files %v, want just the %d blobs", f, len(blobs))
	}
}

func TestOpenRange(t *testing.T) {
	d := newDir(t)
	put(t, d, "r/blob", "0123456789")
	tests := []struct {
		off, n int64
		want   string
	}{
		{0, 10, "0123456789"},
		{0, 3, "012"},
		{4, 3, "456"},
		{9, 1, "9"},
		{8, 5, "89"}, // past the end: fewer bytes, no error
		{10, 4, ""},
		{12, 4, ""},
		{3, 0, ""},
	}
	for _, tc := range tests {
		rc, err := d.OpenRange(context.Background(), "r/blob", tc.off, tc.n)
		if err != nil {
			t.Errorf("OpenRange(%d, %d): %v", tc.off, tc.n, err)
			continue
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || string(b) != tc.want {
			t.Errorf("OpenRange(%d, %d) = %q, %v; want %q", tc.off, tc.n, b, err, tc.want)
		}
	}
	if _, err := d.OpenRange(context.Background(), "r/none", 0, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("OpenRange of a missing blob: %v, want ErrNotFound", err)
	}
}

func TestList(t *testing.T) {
	d := newDir(t)
	for _, n := range []string{"run/t0002/b", "run/t0001/a", "run/t0001/c", "run/x", "other/y", "runaway"} {
		put(t, d, n, n)
	}
	tests := []struct {
		prefix string
		want   []string
	}{
		{"", []string{"other/y", "run/t0001/a", "run/t0001/c", "run/t0002/b", "run/x", "runaway"}},
		{"run/", []string{"run/t0001/a", "run/t0001/c", "run/t0002/b", "run/x"}},
		{"run/t0001/", []string{"run/t0001/a", "run/t0001/c"}},
		{"run/t", []string{"run/t0001/a", "run/t0001/c", "run/t0002/b"}},
		{"run", []string{"run/t0001/a", "run/t0001/c", "run/t0002/b", "run/x", "runaway"}},
		{"nothing/", nil},
	}
	for _, tc := range tests {
		t.Run(tc.prefix, func(t *testing.T) {
			if got := list(t, d, tc.prefix); !slices.Equal(got, tc.want) {
				t.Errorf("List(%q) = %q, want %q", tc.prefix, got, tc.want)
			}
		})
	}
}

func TestDeletePrefix(t *testing.T) {
	names := []string{"run/t0001/a", "run/t0001/c", "run/t0002/b", "run/x", "runaway", "other/y"}
	tests := []struct {
		prefix string
		left   []string
	}{
		{"run/t0001/", []string{"other/y", "run/t0002/b", "run/x", "runaway"}},
		{"run/t", []string{"other/y", "run/x", "runaway"}},
		{"run/", []string{"other/y", "runaway"}},
		{"run", []string{"other/y"}},
		{"nothing/", []string{"other/y", "run/t0001/a", "run/t0001/c", "run/t0002/b", "run/x", "runaway"}},
		{"", nil},
		// A prefix that names the store's root, not a blob directory,
		// must not delete the store.
		{"./", []string{"other/y", "run/t0001/a", "run/t0001/c", "run/t0002/b", "run/x", "runaway"}},
		{"run/../", []string{"other/y", "run/t0001/a", "run/t0001/c", "run/t0002/b", "run/x", "runaway"}},
	}
	for _, tc := range tests {
		t.Run(tc.prefix, func(t *testing.T) {
			d := newDir(t)
			for _, n := range names {
				put(t, d, n, n)
			}
			if err := d.DeletePrefix(context.Background(), tc.prefix); err != nil {
				t.Fatalf("DeletePrefix(%q): %v", tc.prefix, err)
			}
			if _, err := os.Stat(d.Root()); err != nil {
				t.Fatalf("DeletePrefix(%q) removed the store's root: %v", tc.prefix, err)
			}
			if got := list(t, d, ""); !slices.Equal(got, tc.left) {
				t.Errorf("after DeletePrefix(%q): %q, want %q", tc.prefix, got, tc.left)
			}
			for _, n := range tc.left {
				if got, err := get(d, n); err != nil || got != n {
					t.Errorf("%s: %q, %v", n, got, err)
				}
			}
			// The store still takes blobs.
			put(t, d, "run/t0001/new", "new")
		})
	}
}

func TestUncommittedAndAbort(t *testing.T) {
	ctx := context.Background()
	d := newDir(t)
	w, err := d.Create(ctx, "run/t0001/a")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "partial")
	// Before Commit the blob is neither listed nor opened.
	if _, err := get(d, "run/t0001/a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open of an uncommitted blob: %v, want ErrNotFound", err)
	}
	if got := list(t, d, ""); len(got) != 0 {
		t.Errorf("List shows uncommitted blobs %q", got)
	}
	w.Abort()
	if f := files(t, d.Root()); len(f) != 0 {
		t.Errorf("Abort left files %q", f)
	}
	if err := w.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
	if _, err := get(d, "run/t0001/a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Open after Abort: %v, want ErrNotFound", err)
	}

	// Abort after Commit is a no-op; a second Commit fails.
	w, err = d.Create(ctx, "run/t0001/b")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "whole")
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if err := w.Commit(); err == nil {
		t.Error("a second Commit succeeded")
	}
	if got, err := get(d, "run/t0001/b"); err != nil || got != "whole" {
		t.Errorf("after Abort of a committed blob: %q, %v", got, err)
	}

	// An uncommitted replacement leaves the old blob readable.
	w, err = d.Create(ctx, "run/t0001/b")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "new")
	if got, _ := get(d, "run/t0001/b"); got != "whole" {
		t.Errorf("an uncommitted replacement shows: %q", got)
	}
	if got := list(t, d, ""); !slices.Equal(got, []string{"run/t0001/b"}) {
		t.Errorf("List = %q", got)
	}
	w.Abort()
	if got := files(t, d.Root()); !slices.Equal(got, []string{"run/t0001/b"}) {
		t.Errorf("files after Abort: %q", got)
	}
}

func TestNotFound(t *testing.T) {
	d := newDir(t)
	put(t, d, "run/dir/blob", "x")
	for _, name := range []string{"missing", "run/missing", "run/dir/blob/below", "run/dir/missing"} {
		if _, err := get(d, name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Open(%q): %v, want ErrNotFound", name, err)
		}
	}
	// A directory that holds blobs is not a blob.
	for _, name := range []string{"run", "run/dir"} {
		if got, err := get(d, name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Open(%q) of a directory = %q, %v; want ErrNotFound", name, got, err)
		}
	}
}

func TestBadNames(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	d, err := NewDir(filepath.Join(parent, "store"))
	if err != nil {
		t.Fatal(err)
	}
	put(t, d, "ok", "ok")
	bad := []string{"", "..", "../x", "../store/ok", "a/../../x", "/etc/passwd", "/x", ".", "a/..", "./"}
	for _, name := range bad {
		t.Run(name, func(t *testing.T) {
			if w, err := d.Create(ctx, name); err == nil {
				w.Abort()
				t.Errorf("Create(%q) succeeded", name)
			}
			if rc, err := d.Open(ctx, name); err == nil {
				rc.Close()
				t.Errorf("Open(%q) succeeded", name)
			}
			if rc, err := d.OpenRange(ctx, name, 0, 1); err == nil {
				rc.Close()
				t.Errorf("OpenRange(%q) succeeded", name)
			}
		})
	}
	// Nothing was written outside the store.
	if got := files(t, parent); !slices.Equal(got, []string{"store/ok"}) {
		t.Errorf("files around the store: %q", got)
	}
}

// TestDeferSync checks that a store under DeferSync shows a blob at
// Commit, as the store it came from does, and that Sync takes the names
// of blobs, passes over names that hold none and refuses bad names.
func TestDeferSync(t *testing.T) {
	d := newDir(t).DeferSync()
	ctx := context.Background()
	put(t, d, "run/t0001/s00000.frag", "two")
	if got, err := get(d, "run/t0001/s00000.frag"); err != nil || got != "two" {
		t.Fatalf("a committed blob reads %q, %v", got, err)
	}
	if err := Sync(ctx, Counting(d, nil, nil), "run/t0001/s00000.frag", "run/t0001/s00000.frag", "gone"); err != nil {
		t.Errorf("Sync: %v", err)
	}
	if err := d.Sync(ctx, "../outside"); err == nil {
		t.Error("Sync of a bad name did not fail")
	}
	if f := files(t, d.Root()); len(f) != 1 {
		t.Errorf("store holds files %v, want just the blob", f)
	}
}

// Prepare, through the wrappers, makes the directories of the prefixes
// that end in '/' and holds no blob; a blob is then created there as
// anywhere, and a bad prefix is an error.
func TestPrepare(t *testing.T) {
	d := newDir(t)
	ctx := context.Background()
	for _, st := range []Store{d, Counting(d, nil, nil), NewFaulty(d)} {
		if err := Prepare(ctx, st, "run/t0001/", "run/pieces/t0000/", "run/t0002-"); err != nil {
			t.Fatalf("Prepare through %T: %v", st, err)
		}
	}
	for _, dir := range []string{"run/t0001", "run/pieces/t0000"} {
		if fi, err := os.Stat(filepath.Join(d.Root(), dir)); err != nil || !fi.IsDir() {
			t.Errorf("%s after Prepare: %v", dir, err)
		}
	}
	if names, err := d.List(ctx, "run/"); err != nil || len(names) > 0 {
		t.Errorf("the store lists %q (%v) after Prepare, want no blob", names, err)
	}
	if _, err := os.Stat(filepath.Join(d.Root(), "run", "t0002-")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a prefix not ending in / made a directory: %v", err)
	}
	put(t, d, "run/t0001/s00000.frag", "one")
	if got, err := get(d, "run/t0001/s00000.frag"); err != nil || got != "one" {
		t.Errorf("a blob created in a prepared directory reads %q, %v", got, err)
	}
	if err := d.Prepare(ctx, "../outside/"); err == nil {
		t.Error("Prepare of a bad prefix did not fail")
	}
	if err := Prepare(ctx, memOnly{}, "run/"); err != nil {
		t.Errorf("Prepare of a store that cannot: %v", err)
	}
}

// memOnly is a Store that is no Preparer.
type memOnly struct{ Store }

// TestMoveOut moves a blob of a directory store, through the wrappers, to
// a path on the store's filesystem, where it lands with the mode asked
// for and leaves the store; to a path on another filesystem (a tmpfs, when
// the machine has one) it says false and leaves the blob; a store that
// cannot move says false.
func TestMoveOut(t *testing.T) {
	ctx := context.Background()
	d := newDir(t)
	stores := map[string]Store{
		"dir":      d,
		"counting": Counting(d, nil, nil),
		"faulty":   &Faulty{Store: d},
	}
	for name, st := range stores {
		put(t, st, "a/"+name, "data of "+name)
		dst := filepath.Join(t.TempDir(), name)
		moved, err := MoveOut(ctx, st, "a/"+name, dst, 0o644)
		if err != nil || !moved {
			t.Fatalf("%s: MoveOut = %v, %v; want true", name, moved, err)
		}
		if b, err := os.ReadFile(dst); err != nil || string(b) != "data of "+name {
			t.Errorf("%s: moved file holds %q, %v", name, b, err)
		}
		if fi, err := os.Stat(dst); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: moved file's mode %v, %v; want 0644", name, fi.Mode().Perm(), err)
		}
		if _, err := get(st, "a/"+name); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: the moved blob is still in the store: %v", name, err)
		}
	}
	if _, err := MoveOut(ctx, d, "../out", filepath.Join(t.TempDir(), "x"), 0o644); err == nil {
		t.Error("MoveOut of a bad name did not fail")
	}
	put(t, d, "b", "stays")
	if moved, err := MoveOut(ctx, struct{ Store }{d}, "b", filepath.Join(t.TempDir(), "b"), 0o644); moved || err != nil {
		t.Errorf("a store that cannot move: MoveOut = %v, %v; want false", moved, err)
	}
	if shm, err := os.MkdirTemp("/dev/shm", "census-move-"); err == nil {
		defer os.RemoveAll(shm)
		if moved, err := MoveOut(ctx, d, "b", filepath.Join(shm, "b"), 0o644); moved || err != nil {
			t.Errorf("to another filesystem: MoveOut = %v, %v; want false", moved, err)
		}
	}
	if got, err := get(d, "b"); err != nil || got != "stays" {
		t.Errorf("a blob not moved: %q, %v", got, err)
	}
}

package s3store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/store"
)

// transcript runs one fixed sequence of operations on an empty store and
// returns what a caller can observe of it, one line per operation: contents
// read, names listed, and errors reduced to "ErrNotFound" or "error" (their
// wording differs between backends). Two backends that honour the
// store.Store contract the same way give equal transcripts; the sequence
// avoids what they may rightly differ on (a blob and a directory of the same
// name, say "p" and "p/q", which a filesystem cannot hold).
//
// It is written against store.Store only, so that any backend can be held
// to store.Dir with it.
func transcript(t *testing.T, s store.Store) []string {
	t.Helper()
	ctx := context.Background()
	var lines []string
	say := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	kind := func(err error) string {
		switch {
		case err == nil:
			return "ok"
		case errors.Is(err, store.ErrNotFound):
			return "ErrNotFound"
		default:
			return "error"
		}
	}
	read := func(rc io.ReadCloser, err error) string {
		if err != nil {
			return kind(err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			return "read " + kind(err)
		}
		return fmt.Sprintf("%q", b)
	}
	open := func(name string) { say("open %q = %s", name, read(s.Open(ctx, name))) }
	openRange := func(name string, off, n int64) {
		say("range %q @%d+%d = %s", name, off, n, read(s.OpenRange(ctx, name, off, n)))
	}
	list := func(prefix string) {
		names, err := s.List(ctx, prefix)
		say("list %q = %q %s", prefix, names, kind(err))
	}
	create := func(name string) store.Writer {
		w, err := s.Create(ctx, name)
		say("create %q %s", name, kind(err))
		return w
	}
	write := func(w store.Writer, data string) {
		_, err := io.WriteString(w, data)
		say("write %d %s", len(data), kind(err))
	}
	commit := func(w store.Writer) { say("commit %s", kind(w.Commit())) }
	put := func(name, data string) {
		if w := create(name); w != nil {
			write(w, data)
			commit(w)
		}
	}
	deletePrefix := func(prefix string) {
		say("delete %q %s", prefix, kind(s.DeletePrefix(ctx, prefix)))
		list("")
	}

	// An empty store.
	list("")
	open("a")
	openRange("a", 0, 1)
	openRange("a", 0, 0)
	deletePrefix("")

	// Nothing shows before Commit; Commit once only.
	w := create("a")
	write(w, "hello")
	list("")
	open("a")
	commit(w)
	open("a")
	commit(w)
	w.Abort()
	open("a")

	// Replace.
	put("a", "HELLO, world")
	open("a")

	// Abort.
	w = create("b")
	write(w, "gone")
	w.Abort()
	w.Abort()
	commit(w)
	open("b")
	list("")

	// Empty blobs.
	put("empty", "")
	open("empty")
	openRange("empty", 0, 5)
	openRange("empty", 0, 0)
	openRange("empty", 1, 1)

	// Ranges.
	put("digits", "0123456789")
	for _, r := range [][2]int64{
		{0, 10}, {0, 3}, {3, 4}, {9, 1}, {7, 10}, {0, 100}, {10, 1}, {11, 5}, {100, 1},
		{5, 0}, {5, -1}, {-1, 3}, {0, math.MaxInt64}, {3, math.MaxInt64},
	} {
		openRange("digits", r[0], r[1])
	}

	// Names: nested, cleaned, and refused.
	for _, n := range []string{"dir/y", "dir/x", "dir/sub/z", "dir2/w", "di", "m/./c", "n//d", "q/r/../s", "t/"} {
		put(n, n)
	}
	for _, n := range []string{"m/c", "n/d", "q/s", "t", "m/./c", "t/", "dir/sub/z"} {
		open(n)
	}
	for _, n := range []string{"", "/abs", "..", "../x", "x/../../y", "/../x"} {
		create(n)
		open(n)
		openRange(n, 0, 1)
	}

	// Listing by prefix, which need not end at a '/'.
	for _, p := range []string{"", "d", "di", "dir", "dir/", "dir/sub", "dir/x", "dir2/", "nothing", "q/"} {
		list(p)
	}

	// Deleting by name: missing names are no error, bad ones are.
	del := func(names ...string) {
		say("delete %q %s", names, kind(s.Delete(ctx, names...)))
		list("")
	}
	put("gone/1", "1")
	put("gone/2", "2")
	del()
	del("gone/1", "missing", "gone/nothing/x")
	open("gone/1")
	open("gone/2")
	del("gone/2", "../x")
	del("gone/./2")
	open("gone/2")

	// Listing under directories that hold nothing, or that are blobs.
	for _, p := range []string{"none/", "none/x", "digits/", "digits/x", "../", "a/../dir/"} {
		list(p)
	}

	// Deleting by prefix.
	deletePrefix("nothing")
	deletePrefix("dir/")
	open("dir/x")
	open("di")
	deletePrefix("d")
	put("dir/x", "again")
	open("dir/x")
	list("dir")
	deletePrefix("")
	open("a")
	return lines
}

func TestConformance(t *testing.T) {
	dir, err := store.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := transcript(t, dir)

	// The transcript must exercise what it claims to; spot-check store.Dir's.
	for _, line := range []string{
		`open "a" = ErrNotFound`,
		`open "a" = "HELLO, world"`,
		`range "digits" @7+10 = "789"`,
		`create "../x" error`,
		`list "dir/" = ["dir/sub/z" "dir/x" "dir/y"] ok`,
		`open "gone/1" = ErrNotFound`,
		`open "gone/2" = "2"`,
		`delete ["gone/2" "../x"] error`,
	} {
		if !slices.Contains(want, line) {
			t.Fatalf("store.Dir transcript lacks %s:\n%s", line, strings.Join(want, "\n"))
		}
	}

	f := newS3(t)
	for _, prefix := range []string{"", "runs/r1"} {
		t.Run(fmt.Sprintf("prefix=%q", prefix), func(t *testing.T) {
			s, tmp := f.newStore(t, prefix)
			if d := diffLines(transcript(t, s), want); d != "" {
				t.Errorf("transcript differs from store.Dir's:\n%s", d)
			}
			assertEmptyDir(t, tmp)
		})
	}
}

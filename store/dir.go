package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Dir is a Store in a directory of the local (or a shared) filesystem.
type Dir struct {
	root string
	// syncLater leaves a committed blob to Sync (see DeferSync).
	syncLater bool
}

var (
	_ Store  = (*Dir)(nil)
	_ Syncer = (*Dir)(nil)
)

// NewDir returns the store in directory root, creating it; it fails when
// root cannot be created or written.
func NewDir(root string) (*Dir, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create store directory: %w", err)
	}
	probe, err := os.CreateTemp(root, ".probe-*")
	if err != nil {
		return nil, fmt.Errorf("store directory %s is not writable: %w", root, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	return &Dir{root: root}, nil
}

// DeferSync returns the store in the same directory whose Commit makes a
// blob visible but leaves it to Sync to make it durable, so that the blobs
// of a job are synced at once, when it is done, rather than one after
// another, each waiting for the disk.
func (d *Dir) DeferSync() *Dir { return &Dir{root: d.root, syncLater: true} }

// Sync makes the named blobs durable, and their names: it syncs the files
// and their directories, all at once. Names that hold no blob are passed
// over: they were deleted, or their blob's Commit failed.
func (d *Dir) Sync(ctx context.Context, names ...string) error {
	paths := map[string]bool{}
	for _, name := range names {
		p, err := d.path(name)
		if err != nil {
			return err
		}
		paths[p] = true
		paths[filepath.Dir(p)] = true
	}
	errs := make(chan error, len(paths))
	for p := range paths {
		go func() { errs <- syncPath(p) }()
	}
	var first error
	for range paths {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// syncPath syncs the file or directory at p, unless there is none.
func syncPath(p string) error {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", p, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", p, err)
	}
	return nil
}

// Prepare creates the directories of the prefixes that end in '/'.
func (d *Dir) Prepare(ctx context.Context, prefixes ...string) error {
	for _, prefix := range prefixes {
		if !strings.HasSuffix(prefix, "/") {
			continue
		}
		p, err := d.path(strings.TrimSuffix(prefix, "/"))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			return fmt.Errorf("prepare %s: %w", prefix, err)
		}
	}
	return nil
}

// MoveOut renames the blob to path, with the file mode perm; false, and
// the blob left in the store (with that mode), when the rename fails (path
// on another filesystem, say: the caller copies the blob instead, which
// reports any other trouble with path).
func (d *Dir) MoveOut(ctx context.Context, name, path string, perm fs.FileMode) (bool, error) {
	p, err := d.path(name)
	if err != nil {
		return false, err
	}
	if err := os.Chmod(p, perm); err != nil {
		return false, fmt.Errorf("move blob %s: %w", name, err)
	}
	return os.Rename(p, path) == nil, nil
}

// Root is the store's directory.
func (d *Dir) Root() string { return d.root }

func (d *Dir) path(name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(name))
	if name == "" || clean == "." || filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("bad blob name %q", name)
	}
	return filepath.Join(d.root, clean), nil
}

// Create writes to a temporary file beside the blob; Commit syncs it and
// renames it into place.
func (d *Dir) Create(ctx context.Context, name string) (Writer, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, fmt.Errorf("create blob %s: %w", name, err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-"+filepath.Base(p)+"-*")
	if err != nil {
		return nil, fmt.Errorf("create blob %s: %w", name, err)
	}
	return &dirWriter{f: f, path: p, syncLater: d.syncLater}, nil
}

type dirWriter struct {
	f         *os.File
	path      string
	done      bool
	syncLater bool
}

func (w *dirWriter) Write(p []byte) (int, error) { return w.f.Write(p) }

func (w *dirWriter) Commit() error {
	if w.done {
		return errors.New("blob already committed or aborted")
	}
	w.done = true
	var err error
	if !w.syncLater {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.f.Name(), w.path)
	}
	if err != nil {
		os.Remove(w.f.Name())
		return fmt.Errorf("commit blob %s: %w", w.path, err)
	}
	return nil
}

func (w *dirWriter) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.f.Close()
	os.Remove(w.f.Name())
}

// Open opens the blob's file.
func (d *Dir) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open blob %s: %w", name, ErrNotFound)
	}
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, fmt.Errorf("open blob %s: %w", name, ErrNotFound)
		}
		return nil, fmt.Errorf("open blob %s: %w", name, err)
	}
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("open blob %s: %w", name, ErrNotFound)
	}
	return f, nil
}

// OpenRange opens the blob's file at offset, limited to length bytes.
func (d *Dir) OpenRange(ctx context.Context, name string, offset, length int64) (io.ReadCloser, error) {
	rc, err := d.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	f := rc.(*os.File)
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("open blob %s at %d: %w", name, offset, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(f, length), f}, nil
}

// List walks the directory under prefix, skipping temporary files.
func (d *Dir) List(ctx context.Context, prefix string) ([]string, error) {
	var names []string
	// Only the directory of the prefix's last slash can hold its blobs.
	top := d.root
	if i := strings.LastIndexByte(prefix, '/'); i > 0 {
		p, err := d.path(prefix[:i])
		if err != nil {
			// No blob's name climbs out of the store.
			return nil, nil
		}
		top = p
	}
	err := filepath.WalkDir(top, func(p string, e fs.DirEntry, err error) error {
		if p == top && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		if e.IsDir() || strings.HasPrefix(e.Name(), ".tmp-") {
			return nil
		}
		rel, err := filepath.Rel(d.root, p)
		if err != nil {
			return err
		}
		if name := filepath.ToSlash(rel); strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list blobs under %q: %w", prefix, err)
	}
	sort.Strings(names)
	return names, nil
}

// Delete removes the named blobs' files; a bad name removes none.
func (d *Dir) Delete(ctx context.Context, names ...string) error {
	paths := make([]string, len(names))
	for i, n := range names {
		p, err := d.path(n)
		if err != nil {
			return err
		}
		paths[i] = p
	}
	for i, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("delete blob %s: %w", names[i], err)
		}
	}
	return nil
}

// DeletePrefix removes the blobs under prefix; a prefix ending in '/' removes
// the whole directory.
func (d *Dir) DeletePrefix(ctx context.Context, prefix string) error {
	names, err := d.List(ctx, prefix)
	if err != nil {
		return err
	}
	for _, n := range names {
		p, _ := d.path(n)
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete blob %s: %w", n, err)
		}
	}
	if strings.HasSuffix(prefix, "/") {
		if p, err := d.path(prefix); err == nil {
			os.RemoveAll(p)
		}
	}
	return nil
}

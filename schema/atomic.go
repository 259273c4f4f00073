package schema

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// outputPerm is the mode of the output files: readable by everyone, as the
// files written by os.Create are under the usual umask.
const outputPerm = 0o644

// OutputPerm is the mode of the output files (see outputPerm), for a file
// that lands among them otherwise than through WriteFileAtomic.
const OutputPerm = outputPerm

// SyncDir makes the names in a directory durable (see syncDir), for a file
// renamed into it otherwise than by WriteFileAtomic.
func SyncDir(dir string) error { return syncDir(dir) }

// WriteFileAtomic writes the file at path through write, so that path holds
// either its old contents or all of the new ones, never a part. write gets a
// buffered writer on a temporary file in the same directory; the file is
// then flushed, synced, closed and renamed onto path, and the directory is
// synced so that the rename survives a crash. It returns an error, and
// removes the temporary file, when write fails (or panics), or when creating,
// writing, syncing, closing or renaming the file fails; it returns an error
// after the rename, with path in place, when the directory cannot be synced.
func WriteFileAtomic(path string, write func(w io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temp file for %s: %w", path, err)
	}
	tmp := f.Name()
	renamed, closed := false, false
	defer func() {
		if !closed {
			f.Close()
		}
		if !renamed {
			os.Remove(tmp)
		}
	}()

	bw := bufio.NewWriterSize(f, 1<<20)
	if err := write(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(outputPerm); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp, err)
	}
	closed = true
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	renamed = true
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("sync directory of %s: %w", path, err)
	}
	return nil
}

// syncDir fsyncs a directory. File systems that cannot sync a directory
// (EINVAL, ENOTSUP) are not an error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		err = nil
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteJSONAtomic writes v as indented JSON with a trailing newline to path
// through WriteFileAtomic. It returns an error when v cannot be marshalled
// (path is then untouched) or when WriteFileAtomic fails.
func WriteJSONAtomic(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	data = append(data, '\n')
	return WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// OutputDir is where the outputs of game on board land under out.
func OutputDir(out, game, board string) string {
	return schema.RunDir(out, game, board)
}

// WriteOutputs writes the tables of a finished run into dir: summary.json,
// summary.parquet, tiers.parquet, pieces/part-*.parquet, the positions
// table positions/tier=NN/part-SSSSS.parquet when the run has one, and
// run.json last. An earlier run.json is removed first, so that the
// directory never looks complete while it is being written; earlier pieces
// and positions are removed too, so that no part of another run is left
// beside this one's.
func WriteOutputs(ctx context.Context, st store.Store, res *Result, run, version, dir string) error {
	return writeOutputs(ctx, st, res, run, version, dir, nil, func() {})
}

// writeOutputs is WriteOutputs, calling tables once every table but
// summary.json and run.json is written, so that the time the tables took
// can go into summary.json. The pieces table parts named in placed (when
// not nil) were checked and put in dir by this process (reduce), and are
// not read again: the parts of a run resumed, placed by a process before,
// are (placeTable).
func writeOutputs(ctx context.Context, st store.Store, res *Result, run, version, dir string, placed *sync.Map, tables func()) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	if err := beginOutputs(dir); err != nil {
		return err
	}
	if err := placeTables(ctx, st, res.Tables, dir, placed); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(dir, schema.PositionsDir)); err != nil {
		return fmt.Errorf("remove old positions: %w", err)
	}
	w := &manifestWriter{dir: dir, m: schema.Manifest{SchemaVersion: schema.Version, Census: version, Run: run,
		Game: res.Summary.Game, Board: res.Summary.Board, Start: res.Summary.Start}}
	for _, t := range res.Tables {
		if err := w.add(schema.PiecesPart(t.Bucket)); err != nil {
			return err
		}
	}
	if err := writePositions(ctx, st, res.Positions, w); err != nil {
		return err
	}
	if err := w.write(schema.TiersFile, func(w io.Writer) error { return schema.WriteTiers(w, res.Tiers) }); err != nil {
		return err
	}
	if err := w.write(schema.SummaryFile, func(w io.Writer) error { return schema.WriteSummary(w, res.Summary) }); err != nil {
		return err
	}
	tables()
	if err := w.write(schema.SummaryJSONFile, func(w io.Writer) error { return writeJSON(w, res.Summary) }); err != nil {
		return err
	}
	return w.finish()
}

// placeTables puts the pieces table parts of a run into the pieces
// directory under dir, but for those named in placed (when not nil),
// which are there already, and removes any other part there: it is of
// another run.
func placeTables(ctx context.Context, st store.Store, parts []jobs.Blob, dir string, placed *sync.Map) error {
	keep := map[string]bool{}
	for _, t := range parts {
		keep[schema.PartName(t.Bucket)] = true
		if placed != nil {
			if _, ok := placed.Load(t.Name); ok {
				continue
			}
		}
		if err := placeTable(ctx, st, t, dir, false); err != nil {
			return err
		}
	}
	piecesDir := filepath.Join(dir, schema.PiecesDir)
	entries, err := os.ReadDir(piecesDir)
	if err != nil {
		return fmt.Errorf("read pieces directory: %w", err)
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			if err := os.RemoveAll(filepath.Join(piecesDir, e.Name())); err != nil {
				return fmt.Errorf("remove old pieces: %w", err)
			}
		}
	}
	return nil
}

// writePositions copies the positions table parts, by tier and shard,
// from the store into the outputs of w.
func writePositions(ctx context.Context, st store.Store, positions [][]jobs.Blob, w *manifestWriter) error {
	for tier, parts := range positions {
		// Hive partitioning: readers take the tier from the directory
		// name.
		if err := os.MkdirAll(filepath.Join(w.dir, filepath.FromSlash(schema.PositionsTierDir(tier))), 0o755); err != nil {
			return fmt.Errorf("create positions directory: %w", err)
		}
		for _, b := range parts {
			if err := w.write(schema.PositionsPart(tier, b.Bucket), func(w io.Writer) error { return copyTable(ctx, st, b, w) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// manifestWriter writes the files of a run's outputs under dir and lists
// them in its manifest m, which finish writes last.
type manifestWriter struct {
	dir string
	m   schema.Manifest
}

// write writes the file rel of the outputs with fn, atomically, and lists
// it.
func (w *manifestWriter) write(rel string, fn func(io.Writer) error) error {
	p := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := schema.WriteFileAtomic(p, fn); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return w.add(rel)
}

// add lists the file rel of the outputs, written already.
func (w *manifestWriter) add(rel string) error {
	fi, err := os.Stat(filepath.Join(w.dir, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	w.m.Files = append(w.m.Files, schema.OutputFile{Path: rel, Bytes: fi.Size()})
	return nil
}

// finish writes the manifest, run.json.
func (w *manifestWriter) finish() error {
	manifest := filepath.Join(w.dir, schema.ManifestFile)
	if err := schema.WriteJSONAtomic(manifest, w.m); err != nil {
		return fmt.Errorf("write %s: %w", manifest, err)
	}
	return nil
}

// indexedDir is a directory of the outputs whose files a stage puts there
// one by one, from the store, with an index written last, which says the
// files are complete: the kept positions, the tablebase.
type indexedDir struct {
	// out is the outputs' directory; dir and index are the directory and
	// its index under out, slash-separated.
	out, dir, index string
	// what names the index in errors, files the files.
	what, files string
	// placed holds the paths of the files placed.
	placed map[string]bool
}

// beginIndexed removes the index of the directory dir of the outputs in
// out before any of its files is replaced, so that it never looks
// complete while files of two runs are in it.
func beginIndexed(out, dir, index, what, files string) (*indexedDir, error) {
	if err := os.Remove(filepath.Join(out, filepath.FromSlash(index))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("remove old %s index: %w", what, err)
	}
	return &indexedDir{out: out, dir: dir, index: index, what: what, files: files, placed: map[string]bool{}}, nil
}

// place returns the path of the file rel of the outputs, which the caller
// puts there, and keeps it through finish.
func (d *indexedDir) place(rel string) string {
	p := filepath.Join(d.out, filepath.FromSlash(rel))
	d.placed[p] = true
	return p
}

// finish removes the files in the directory that were not placed, an
// earlier run's, then writes the index idx.
func (d *indexedDir) finish(idx any) error {
	err := filepath.WalkDir(filepath.Join(d.out, filepath.FromSlash(d.dir)), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || d.placed[p] {
			return err
		}
		return os.Remove(p)
	})
	if err != nil {
		return fmt.Errorf("remove old %s: %w", d.files, err)
	}
	if err := schema.WriteJSONAtomic(filepath.Join(d.out, filepath.FromSlash(d.index)), idx); err != nil {
		return fmt.Errorf("write %s index: %w", d.what, err)
	}
	return nil
}

// beginOutputs readies dir for a run's outputs: the old manifest goes
// before any part of the run lands, so that the directory never looks
// complete while parts of two runs are in it.
func beginOutputs(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, schema.PiecesDir), 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	if err := os.Remove(filepath.Join(dir, schema.ManifestFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove old manifest: %w", err)
	}
	return nil
}

// placeTable puts the pieces table part t, of reduce shard t.Bucket, into
// the pieces directory under dir: a file there with the size and checksum
// that t's job recorded is kept (a resumed run placed it before), anything
// else is replaced by a checked copy from the store — or, with move, by
// the part itself, checked, when the store can move it there without a
// copy (a directory store on the outputs' filesystem); it then leaves the
// store.
func placeTable(ctx context.Context, st store.Store, t jobs.Blob, dir string, move bool) error {
	return placeFile(ctx, st, t, filepath.Join(dir, filepath.FromSlash(schema.PiecesPart(t.Bucket))), move)
}

// placeFile puts the blob t at the path p as placeTable puts a part of the
// pieces table into the pieces directory.
func placeFile(ctx context.Context, st store.Store, t jobs.Blob, p string, move bool) error {
	if sameTable(p, t) {
		return nil
	}
	if move {
		if err := copyTable(ctx, st, t, io.Discard); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		moved, err := store.MoveOut(ctx, st, t.Name, p, schema.OutputPerm)
		if err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		if moved {
			// The part was synced in the store before its job was done.
			if err := schema.SyncDir(filepath.Dir(p)); err != nil {
				return fmt.Errorf("sync directory of %s: %w", p, err)
			}
			return nil
		}
	}
	if err := schema.WriteFileAtomic(p, func(w io.Writer) error { return copyTable(ctx, st, t, w) }); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// sameTable tells whether the file at p holds what t's job wrote.
func sameTable(p string, t jobs.Blob) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() != t.Size {
		return false
	}
	h := crc32.New(castagnoli)
	if _, err := io.Copy(h, f); err != nil {
		return false
	}
	return h.Sum32() == t.Sum
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// copyTable copies a table part (pieces or positions) from the store to w
// and checks it against the size and checksum its job recorded, so that a
// part damaged in the store never lands in the outputs.
func copyTable(ctx context.Context, st store.Store, t jobs.Blob, w io.Writer) error {
	rc, err := st.Open(ctx, t.Name)
	if err != nil {
		return err
	}
	defer rc.Close()
	h := crc32.New(castagnoli)
	n, err := io.Copy(io.MultiWriter(w, h), rc)
	if err != nil {
		return fmt.Errorf("read table %s: %w", t.Name, err)
	}
	if n != t.Size || h.Sum32() != t.Sum {
		return fmt.Errorf("table %s: %w: %d bytes with crc32c %08x, its job wrote %d bytes with crc32c %08x",
			t.Name, jobs.ErrCorrupt, n, h.Sum32(), t.Size, t.Sum)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	manifest := filepath.Join(dir, schema.ManifestFile)
	if err := os.Remove(manifest); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove old manifest: %w", err)
	}
	piecesDir := filepath.Join(dir, schema.PiecesDir)
	if err := os.RemoveAll(piecesDir); err != nil {
		return fmt.Errorf("remove old pieces: %w", err)
	}
	if err := os.MkdirAll(piecesDir, 0o755); err != nil {
		return fmt.Errorf("create pieces directory: %w", err)
	}
	if err := os.RemoveAll(filepath.Join(dir, schema.PositionsDir)); err != nil {
		return fmt.Errorf("remove old positions: %w", err)
	}
	m := schema.Manifest{SchemaVersion: schema.Version, Census: version, Run: run,
		Game: res.Summary.Game, Board: res.Summary.Board, Start: res.Summary.Start}
	write := func(rel string, fn func(io.Writer) error) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := schema.WriteFileAtomic(p, fn); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		m.Files = append(m.Files, schema.OutputFile{Path: rel, Bytes: fi.Size()})
		return nil
	}
	for i, t := range res.Tables {
		err := write(schema.PiecesPart(i), func(w io.Writer) error { return copyTable(ctx, st, t, w) })
		if err != nil {
			return err
		}
	}
	for tier, parts := range res.Positions {
		// Hive partitioning: readers take the tier from the directory
		// name.
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(schema.PositionsTierDir(tier))), 0o755); err != nil {
			return fmt.Errorf("create positions directory: %w", err)
		}
		for _, b := range parts {
			if err := write(schema.PositionsPart(tier, b.Bucket), func(w io.Writer) error { return copyTable(ctx, st, b, w) }); err != nil {
				return err
			}
		}
	}
	if err := write(schema.TiersFile, func(w io.Writer) error { return schema.WriteTiers(w, res.Tiers) }); err != nil {
		return err
	}
	if err := write(schema.SummaryFile, func(w io.Writer) error { return schema.WriteSummary(w, res.Summary) }); err != nil {
		return err
	}
	if err := write(schema.SummaryJSONFile, func(w io.Writer) error { return writeJSON(w, res.Summary) }); err != nil {
		return err
	}
	if err := schema.WriteJSONAtomic(manifest, m); err != nil {
		return fmt.Errorf("write %s: %w", manifest, err)
	}
	return nil
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

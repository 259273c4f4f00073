// Command piecesdiff compares the pieces tables of two runs of the same
// board row by row, part by part, and prints what each file's column
// chunks hold: a check that a change to the piece jobs or the pieces
// writer leaves the table a reader sees as it was.
//
//	go run ./scripts/piecesdiff OLD/clobber-4x5 NEW/clobber-4x5
//
// It exits 1 at the first difference in the parts' names, rows or row
// order, and 2 on bad arguments. With -columns it also prints, for the
// first part of each run, every column's encodings and its bytes before
// and after compression.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/census-cgt/census/schema"
)

func main() {
	columns := flag.Bool("columns", false, "print the column chunks of each run's first part")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: piecesdiff [-columns] OLD_RUN_DIR NEW_RUN_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	oldDir, newDir := flag.Arg(0), flag.Arg(1)
	rows, err := compare(oldDir, newDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "piecesdiff:", err)
		os.Exit(1)
	}
	fmt.Printf("%d rows equal, in the same order\n", rows)
	if *columns {
		for _, dir := range []string{oldDir, newDir} {
			if err := printColumns(dir); err != nil {
				fmt.Fprintln(os.Stderr, "piecesdiff:", err)
				os.Exit(1)
			}
		}
	}
}

// compare reads the parts of both runs side by side and returns the number
// of rows, or the first difference.
func compare(oldDir, newDir string) (int, error) {
	oldParts, err := schema.PiecesParts(oldDir)
	if err != nil {
		return 0, err
	}
	newParts, err := schema.PiecesParts(newDir)
	if err != nil {
		return 0, err
	}
	if len(oldParts) == 0 {
		return 0, fmt.Errorf("no pieces parts under %s", oldDir)
	}
	if len(oldParts) != len(newParts) {
		return 0, fmt.Errorf("%d parts in %s, %d in %s", len(oldParts), oldDir, len(newParts), newDir)
	}
	total := 0
	for i := range oldParts {
		if filepath.Base(oldParts[i]) != filepath.Base(newParts[i]) {
			return total, fmt.Errorf("part %d is %s in one run, %s in the other", i, oldParts[i], newParts[i])
		}
		n, err := compareParts(oldParts[i], newParts[i])
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// compareParts compares two parts row by row, holding one part in memory
// and streaming the other.
func compareParts(oldPath, newPath string) (int, error) {
	want, err := schema.ReadPiecesFile(oldPath)
	if err != nil {
		return 0, err
	}
	i := 0
	errDiff := errors.New("rows differ")
	err = schema.ScanPiecesFile(newPath, func(p schema.Piece) error {
		if i >= len(want) {
			return fmt.Errorf("%w: %s has more than the %d rows of %s", errDiff, newPath, len(want), oldPath)
		}
		if !reflect.DeepEqual(p, want[i]) {
			return fmt.Errorf("%w: row %d of %s:\n  old %+v\n  new %+v", errDiff, i, filepath.Base(newPath), want[i], p)
		}
		i++
		return nil
	})
	if err != nil {
		return i, err
	}
	if i != len(want) {
		return i, fmt.Errorf("%s has %d rows, %s %d", newPath, i, oldPath, len(want))
	}
	return i, nil
}

// printColumns prints the column chunks of the first part of a run.
func printColumns(dir string) error {
	parts, err := schema.PiecesParts(dir)
	if err != nil || len(parts) == 0 {
		return fmt.Errorf("no pieces parts under %s: %v", dir, err)
	}
	f, err := os.Open(parts[0])
	if err != nil {
		return err
	}
	defer f.Close()
	pf, err := file.NewParquetReader(f)
	if err != nil {
		return err
	}
	defer pf.Close()
	md := pf.MetaData()
	fmt.Printf("%s: %d rows, %d row groups, created by %s\n", parts[0], md.NumRows, md.NumRowGroups(), md.GetCreatedBy())
	for col := range md.NumColumns() {
		var raw, packed int64
		var encodings string
		for rg := range md.NumRowGroups() {
			cc, err := md.RowGroup(rg).ColumnChunk(col)
			if err != nil {
				return err
			}
			raw += cc.TotalUncompressedSize()
			packed += cc.TotalCompressedSize()
			encodings = fmt.Sprint(cc.Encodings())
		}
		fmt.Printf("  %-14s %-40s %12d -> %11d bytes\n", md.Schema.Column(col).Name(), encodings, raw, packed)
	}
	return nil
}

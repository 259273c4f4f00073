// Command cmpout compares two census output directories (OUT/GAME-BOARD/),
// for test/docker/run.sh: summary.json (but for its timings, the key
// "stages"), summary.parquet and tiers.parquet byte for byte, and the pieces tables by content (the rows of every
// pieces/part-*.parquet, sorted by key, since the number of parts follows
// the sharding and the sharding may differ). Both directories must hold
// run.json, which marks outputs complete. It prints one line per check and
// exits 1 when any differs, 2 on bad usage.
//
//	go run ./test/docker/cmpout WANT_DIR GOT_DIR
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/census-cgt/census/schema"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: cmpout WANT_DIR GOT_DIR")
		os.Exit(2)
	}
	want, got := os.Args[1], os.Args[2]
	ok := true
	check := func(name string, err error) {
		if err != nil {
			ok = false
			fmt.Printf("DIFF %s: %v\n", name, err)
			return
		}
		fmt.Printf("same %s\n", name)
	}
	for _, dir := range []string{want, got} {
		if _, err := os.Stat(filepath.Join(dir, schema.ManifestFile)); err != nil {
			check("run.json in "+dir, err)
		}
	}
	check(schema.SummaryJSONFile, sameSummary(filepath.Join(want, schema.SummaryJSONFile), filepath.Join(got, schema.SummaryJSONFile)))
	for _, f := range []string{schema.SummaryFile, schema.TiersFile} {
		check(f, sameBytes(filepath.Join(want, f), filepath.Join(got, f)))
	}
	n, err := samePieces(want, got)
	check(fmt.Sprintf("pieces (%d rows)", n), err)
	if !ok {
		os.Exit(1)
	}
}

// sameSummary compares two summary.json files but for "stages", the wall
// and CPU time of each stage, which differ from run to run.
func sameSummary(a, b string) error {
	x, err := summaryWithoutStages(a)
	if err != nil {
		return err
	}
	y, err := summaryWithoutStages(b)
	if err != nil {
		return err
	}
	if !bytes.Equal(x, y) {
		return fmt.Errorf("%s and %s differ (stages aside)", a, b)
	}
	return nil
}

func summaryWithoutStages(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var s map[string]json.RawMessage
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	delete(s, "stages")
	return json.Marshal(s)
}

func sameBytes(a, b string) error {
	x, err := os.ReadFile(a)
	if err != nil {
		return err
	}
	y, err := os.ReadFile(b)
	if err != nil {
		return err
	}
	if !bytes.Equal(x, y) {
		return fmt.Errorf("%s (%d bytes) and %s (%d bytes) differ", a, len(x), b, len(y))
	}
	return nil
}

func readPieces(dir string) ([]schema.Piece, int, error) {
	parts, err := schema.PiecesParts(dir)
	if err != nil {
		return nil, 0, err
	}
	if len(parts) == 0 {
		return nil, 0, fmt.Errorf("no pieces/part-*.parquet in %s", dir)
	}
	var all []schema.Piece
	for _, p := range parts {
		rows, err := schema.ReadPiecesFile(p)
		if err != nil {
			return nil, 0, err
		}
		all = append(all, rows...)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].KeyHi != all[j].KeyHi {
			return all[i].KeyHi < all[j].KeyHi
		}
		return all[i].KeyLo < all[j].KeyLo
	})
	return all, len(parts), nil
}

// samePieces compares the pieces rows of two outputs as sets of rows, and
// their count with the summary's pieces_translated.
func samePieces(want, got string) (int, error) {
	a, na, err := readPieces(want)
	if err != nil {
		return 0, err
	}
	b, nb, err := readPieces(got)
	if err != nil {
		return len(a), err
	}
	if len(a) != len(b) {
		return len(a), fmt.Errorf("%d rows in %d parts vs %d rows in %d parts", len(a), na, len(b), nb)
	}
	for i := range a {
		if a[i] != b[i] {
			return len(a), fmt.Errorf("row %d of %d (by key) differs:\n  want %+v\n  got  %+v", i, len(a), a[i], b[i])
		}
		if i > 0 && a[i].KeyHi == a[i-1].KeyHi && a[i].KeyLo == a[i-1].KeyLo {
			return len(a), fmt.Errorf("key %016x%016x appears twice", a[i].KeyHi, a[i].KeyLo)
		}
	}
	s, err := schema.ReadSummaryFile(filepath.Join(want, schema.SummaryFile))
	if err != nil {
		return len(a), err
	}
	if uint64(len(a)) != s.PiecesTranslated {
		return len(a), fmt.Errorf("%d rows, but the summary says pieces_translated %d", len(a), s.PiecesTranslated)
	}
	return len(a), nil
}

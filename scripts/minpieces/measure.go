package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"text/tabwriter"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/klauspost/compress/zstd"
)

// The ways of writing a table, in the order they run and are printed.
const (
	wayZstd      = "pqarrow zstd-1"
	wayNone      = "pqarrow uncompressed"
	wayPages     = "zstd over the pages"
	waySnappy    = "pqarrow snappy"
	wayLZ4       = "pqarrow lz4_raw"
	wayBarePlain = "bare plain bytes"
	wayBareZstd  = "bare zstd"
)

var ways = []string{wayZstd, wayNone, wayPages, waySnappy, wayLZ4, wayBarePlain, wayBareZstd}

// pqarrowCodecs are the codecs of the pqarrow ways.
var pqarrowCodecs = map[string]compress.Compression{
	wayZstd:   compress.Codecs.Zstd,
	wayNone:   compress.Codecs.Uncompressed,
	waySnappy: compress.Codecs.Snappy,
	wayLZ4:    compress.Codecs.Lz4Raw,
}

// result is what writing a run's parts cost, added up over the parts.
type result struct {
	dir          string
	parts, rows  int
	inputBytes   int64
	costs        map[string]cost
	columns      []string
	columnCosts  []cost
	pageCosts    []cost
	sameEncoding []string
}

// measureRun reads the parts of a run one at a time and writes each in
// every way into tmp, removing what it wrote before the next part.
func measureRun(runDir, tmp string, maxParts int) (*result, error) {
	paths, err := parts(runDir)
	if err != nil {
		return nil, err
	}
	if maxParts > 0 && len(paths) > maxParts {
		paths = paths[:maxParts]
	}
	r := &result{dir: runDir, costs: map[string]cost{}}
	enc := newEncoder()
	for i, path := range paths {
		t, err := readTable(path)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if r.columns == nil {
			for _, c := range t.cols {
				r.columns = append(r.columns, c.field.Name)
			}
		}
		r.parts++
		r.rows += t.rows
		r.inputBytes += fi.Size()
		out := filepath.Join(tmp, fmt.Sprintf("part-%05d", i))
		if err := r.writePart(t, path, out, enc); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// writePart writes one part's table in every way to files named out plus
// a suffix, adds up what each cost, and removes the files.
func (r *result) writePart(t *table, input, out string, enc *zstd.Encoder) error {
	files := writtenFiles(out)
	defer func() {
		for _, f := range files {
			os.Remove(f)
		}
	}()
	for _, way := range ways {
		// Each way starts without garbage left by the one before.
		runtime.GC()
		var c cost
		var err error
		switch way {
		case wayPages:
			var cols []cost
			c, cols, err = zstdPages(files[wayNone], files[wayPages], enc, len(t.cols))
			r.pageCosts = addCosts(r.pageCosts, cols)
		case wayBarePlain:
			continue // written with wayBareZstd
		case wayBareZstd:
			var bc bareCost
			bc, err = writeBare(t, files[wayBareZstd], enc)
			r.columnCosts = addCosts(r.columnCosts, bc.columns)
			r.costs[wayBarePlain] = r.costs[wayBarePlain].add(bc.plain)
			c = bc.zstd
		default:
			c, err = writeParquet(t, files[way], pqarrowCodecs[way])
		}
		if err != nil {
			return err
		}
		r.costs[way] = r.costs[way].add(c)
	}
	if r.sameEncoding == nil {
		diffs, err := compareEncodings(input, files[wayZstd])
		if err != nil {
			return err
		}
		r.sameEncoding = append([]string{}, diffs...)
	}
	return nil
}

// writtenFiles names the file each way writes.
func writtenFiles(out string) map[string]string {
	return map[string]string{
		wayZstd:     out + "-zstd.parquet",
		wayNone:     out + "-none.parquet",
		wayPages:    out + "-none.parquet.zst",
		waySnappy:   out + "-snappy.parquet",
		wayLZ4:      out + "-lz4raw.parquet",
		wayBareZstd: out + "-bare.zst",
	}
}

// addCosts adds the costs of b to those of a, column by column.
func addCosts(a, b []cost) []cost {
	if a == nil {
		a = make([]cost, len(b))
	}
	for i, c := range b {
		a[i] = a[i].add(c)
	}
	return a
}

// compareEncodings returns the columns whose encodings in the first row
// group of the written file differ from the input file's, each with both
// lists; none if they are the same.
func compareEncodings(input, written string) ([]string, error) {
	a, err := encodings(input)
	if err != nil {
		return nil, err
	}
	b, err := encodings(written)
	if err != nil {
		return nil, err
	}
	var diffs []string
	for name, ea := range a {
		if eb := b[name]; !slices.Equal(ea, eb) {
			diffs = append(diffs, fmt.Sprintf("%s census %v, here %v", name, ea, eb))
		}
	}
	slices.Sort(diffs)
	return diffs, nil
}

// encodings returns the encodings of each column chunk of a Parquet
// file's first row group, sorted.
func encodings(path string) (map[string][]string, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	out := map[string][]string{}
	if pf.NumRowGroups() == 0 {
		return out, nil
	}
	rg := pf.MetaData().RowGroup(0)
	for i := range rg.NumColumns() {
		cc, err := rg.ColumnChunk(i)
		if err != nil {
			return nil, err
		}
		var e []string
		for _, enc := range cc.Encodings() {
			e = append(e, enc.String())
		}
		slices.Sort(e)
		out[cc.PathInSchema().String()] = e
	}
	return out, nil
}

// print writes the table of costs, a row a way, in nanoseconds a row.
func (r *result) print(w io.Writer, verbose bool) {
	fmt.Fprintf(w, "%s: %d parts, %d rows, census files %d bytes\n", r.dir, r.parts, r.rows, r.inputBytes)
	if len(r.sameEncoding) == 0 {
		fmt.Fprintln(w, "pqarrow zstd-1's encodings are the census file's, column by column")
	}
	for _, d := range r.sameEncoding {
		fmt.Fprintln(w, "encodings differ:", d)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tthread CPU ns/row\tprocess CPU ns/row\twall s\tbytes\tGCs\t")
	line := func(name string, c cost) {
		n := float64(max(r.rows, 1))
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.3f\t%d\t%d\t\n", name,
			float64(c.thread.Nanoseconds())/n, float64(c.process.Nanoseconds())/n, c.wall.Seconds(), c.bytes, c.gcs)
	}
	for _, way := range ways {
		line(way, r.costs[way])
	}
	if verbose {
		for i, name := range r.columns {
			line("  pages' zstd "+name, r.pageCosts[i])
		}
		for i, name := range r.columns {
			line("  bare zstd "+name, r.columnCosts[i])
		}
	}
	tw.Flush()
}

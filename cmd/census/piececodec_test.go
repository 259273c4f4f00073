package main

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/census-cgt/census/schema"
)

// TestPiecesCodec runs the census of Clobber 3x4 with each pieces codec
// and checks that the pieces tables read back hold the same rows, in the
// same order, as zstd's; that every column chunk of every part says the
// codec asked for; that the census's numbers do not change; and that the
// run's ID names a codec other than zstd.
func TestPiecesCodec(t *testing.T) {
	codecs := map[schema.Codec]compress.Compression{
		schema.CodecZstd: compress.Codecs.Zstd, schema.CodecLZ4Raw: compress.Codecs.Lz4Raw, schema.CodecSnappy: compress.Codecs.Snappy,
	}
	var wantRows []schema.Piece
	var wantSummary schema.Summary
	for _, codec := range schema.Codecs {
		out := filepath.Join(t.TempDir(), "out")
		if _, stderr, code := census(t, "run", "clobber", "3x4", "--out", out, "--quiet", "--metrics-addr", "", "--pieces-codec", strings.ToUpper(string(codec))); code != 0 {
			t.Fatalf("%s: exit %d: %s", codec, code, stderr)
		}
		dir := filepath.Join(out, "clobber-3x4")
		m, err := schema.ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		if named := strings.HasSuffix(m.Run, "-"+string(codec)); named != (codec != schema.CodecZstd) {
			t.Errorf("%s: run ID %q", codec, m.Run)
		}
		var rows []schema.Piece
		parts, _ := filepath.Glob(filepath.Join(dir, "pieces", "part-*.parquet"))
		if len(parts) == 0 {
			t.Fatalf("%s: no pieces parts", codec)
		}
		for _, p := range parts {
			r, err := schema.ReadPiecesFile(p)
			if err != nil {
				t.Fatalf("%s: %v", codec, err)
			}
			rows = append(rows, r...)
			checkCompression(t, p, codecs[codec])
		}
		s := summaryJSON(t, dir)
		s.Stages = nil
		if wantRows == nil {
			wantRows, wantSummary = rows, s
			continue
		}
		if !reflect.DeepEqual(rows, wantRows) {
			t.Errorf("%s: %d rows read back differ from zstd's %d", codec, len(rows), len(wantRows))
		}
		if !reflect.DeepEqual(s, wantSummary) {
			t.Errorf("%s: summary %+v, want zstd's %+v", codec, s, wantSummary)
		}
	}
}

// checkCompression fails t unless every column chunk of the Parquet file
// at path is compressed with want.
func checkCompression(t *testing.T, path string, want compress.Compression) {
	t.Helper()
	f, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	md := f.MetaData()
	for rg := range md.NumRowGroups() {
		for c := range md.Schema.NumColumns() {
			cc, err := md.RowGroup(rg).ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			if cc.Compression() != want {
				t.Fatalf("%s: row group %d column %d compressed with %s, want %s", path, rg, c, cc.Compression(), want)
			}
		}
	}
}

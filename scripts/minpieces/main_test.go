package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/klauspost/compress/zstd"
)

// testSchema has the pieces table's columns, names, types and
// nullability, as schema/COLUMNS.md gives them.
var testSchema = func() *arrow.Schema {
	u64, i32, str, b := arrow.PrimitiveTypes.Uint64, arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String, arrow.FixedWidthTypes.Boolean
	var fields []arrow.Field
	for _, f := range []struct {
		name string
		t    arrow.DataType
	}{{"game", str}, {"board", str}, {"key_hi", u64}, {"key_lo", u64}, {"rows", i32}, {"cols", i32},
		{"size", i32}, {"picture", str}, {"symmetric_hi", u64}, {"symmetric_lo", u64}, {"negation_hi", u64},
		{"negation_lo", u64}, {"self_negative", b}, {"positions", u64}, {"first_tier", i32}} {
		fields = append(fields, arrow.Field{Name: f.name, Type: f.t})
	}
	for _, f := range []arrow.Field{{Name: "outcome", Type: str}, {Name: "value", Type: str},
		{Name: "value_capped", Type: b}, {Name: "value_nodes", Type: i32}, {Name: "cost", Type: u64}} {
		f.Nullable = true
		fields = append(fields, f)
	}
	md := arrow.NewMetadata([]string{"census_table", "schema_version"}, []string{"pieces", "4"})
	return arrow.NewSchema(fields, &md)
}()

// testRows returns n synthetic rows of testSchema, sorted by key, a value
// of Go type uint64, int32, bool or string a column, nil for a null.
func testRows(n int) [][]any {
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([][]any, n)
	key := uint64(0)
	for i := range rows {
		key += 1 + r.Uint64N(1<<40)
		pic := make([]byte, 3+r.IntN(18))
		for j := range pic {
			pic[j] = "xo./"[r.IntN(4)]
		}
		row := []any{"clobber", "4x5", uint64(i / 100), key, int32(1 + r.IntN(4)), int32(1 + r.IntN(5)),
			int32(r.IntN(20)), string(pic), r.Uint64N(8), r.Uint64(), r.Uint64N(8), r.Uint64(),
			r.IntN(9) == 0, r.Uint64N(1000), int32(r.IntN(19)), nil, nil, nil, nil, nil}
		if i%3 == 0 {
			row[15], row[16], row[17] = "LRNP"[i%4:i%4+1], fmt.Sprintf("%d/%d", i%7, 1<<(i%3)), i%2 == 0
			row[18], row[19] = int32(i), uint64(i)*1000
		}
		rows[i] = row
	}
	return rows
}

// writeTestPart writes rows to path with pqarrow's builders and default
// properties, in row groups of 128 rows.
func writeTestPart(t *testing.T, path string, rows [][]any) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, testSchema)
	defer b.Release()
	for _, row := range rows {
		for i, v := range row {
			switch fb := b.Field(i).(type) {
			case *array.Uint64Builder:
				appendOrNull(fb, v, fb.Append)
			case *array.Int32Builder:
				appendOrNull(fb, v, fb.Append)
			case *array.BooleanBuilder:
				appendOrNull(fb, v, fb.Append)
			case *array.StringBuilder:
				appendOrNull(fb, v, fb.Append)
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	fw, err := pqarrow.NewFileWriter(testSchema, f, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(128)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
}

// appendOrNull appends v to a builder, or a null if v is nil.
func appendOrNull[T any](b interface{ AppendNull() }, v any, add func(T)) {
	if v == nil {
		b.AppendNull()
		return
	}
	add(v.(T))
}

// tableRows returns a table's rows in the form of testRows.
func tableRows(tb *table) [][]any {
	rows := make([][]any, tb.rows)
	for i := range rows {
		for _, c := range tb.cols {
			var v any
			switch {
			case !c.isValid(i):
			case c.field.Type.ID() == arrow.UINT64:
				v = c.u64[i]
			case c.field.Type.ID() == arrow.INT32:
				v = c.i32[i]
			case c.field.Type.ID() == arrow.BOOL:
				v = c.bools[i]
			default:
				v = c.str(i)
			}
			rows[i] = append(rows[i], v)
		}
	}
	return rows
}

// checkFile reads a written Parquet file back with pqarrow and compares
// its schema and rows with the input's.
func checkFile(t *testing.T, path string, in *table, want [][]any) {
	t.Helper()
	got, err := readTable(path)
	if err != nil {
		t.Fatal(err)
	}
	if !got.schema.Equal(in.schema) || !reflect.DeepEqual(got.schema.Metadata(), in.schema.Metadata()) {
		t.Errorf("%s: schema %v, want %v", path, got.schema, in.schema)
	}
	if g := tableRows(got); !reflect.DeepEqual(g, want) {
		t.Errorf("%s: %d rows differ from the input's %d", path, len(g), len(want))
	}
}

// TestWriteSameRows writes synthetic parts, reads them, writes them again
// in every way and checks the Parquet files hold the same rows and the
// bare file the columns' plain bytes.
func TestWriteSameRows(t *testing.T) {
	run := t.TempDir()
	if err := os.MkdirAll(filepath.Join(run, "pieces"), 0o755); err != nil {
		t.Fatal(err)
	}
	rows := testRows(500)
	want := [][][]any{rows[:300], rows[300:]}
	for i, p := range want {
		writeTestPart(t, filepath.Join(run, "pieces", fmt.Sprintf("part-%05d.parquet", i)), p)
	}
	paths, err := parts(run)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	enc := newEncoder()
	for i, path := range paths {
		in, err := readTable(path)
		if err != nil {
			t.Fatal(err)
		}
		if g := tableRows(in); !reflect.DeepEqual(g, want[i]) {
			t.Fatalf("%s: read rows differ from those written", path)
		}
		files := writtenFiles(filepath.Join(out, fmt.Sprint(i)))
		for way, codec := range pqarrowCodecs {
			if _, err := writeParquet(in, files[way], codec); err != nil {
				t.Fatal(err)
			}
			checkFile(t, files[way], in, want[i])
		}
		checkBare(t, in, files[wayBareZstd], enc)
		checkPages(t, files[wayNone], files[wayPages], enc, len(in.cols))
	}
	r, err := measureRun(run, out, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.parts != 2 || r.rows != 500 || r.costs[wayZstd].bytes == 0 {
		t.Errorf("measureRun: %d parts, %d rows, %d bytes", r.parts, r.rows, r.costs[wayZstd].bytes)
	}
	var sb strings.Builder
	r.print(&sb, true)
	if !strings.Contains(sb.String(), "bare zstd picture") {
		t.Errorf("print:\n%s", sb.String())
	}
}

// checkBare writes the bare file of a table and checks it decompresses
// to the plain bytes of its columns, end to end.
func checkBare(t *testing.T, in *table, path string, enc *zstd.Encoder) {
	t.Helper()
	bc, err := writeBare(in, path, enc)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, c := range in.cols {
		want = plainBytes(want, c)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := dec.DecodeAll(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || bc.plain.bytes != int64(len(want)) || bc.zstd.bytes != int64(len(data)) {
		t.Errorf("bare file: %d bytes decoded, want %d (plain %d, file %d/%d)", len(got), len(want), bc.plain.bytes, bc.zstd.bytes, len(data))
	}
	// game is "clobber" in every row: its dictionary and one run.
	if g := plainBytes(nil, in.cols[0]); len(g) != 4+len("clobber")+8 {
		t.Errorf("game's plain bytes: %q", g)
	}
}

// TestWriterProps checks the properties give each column the census's
// encoding and codec.
func TestWriterProps(t *testing.T) {
	p := writerProps(compress.Codecs.Zstd)
	for _, c := range []struct {
		col  string
		enc  parquet.Encoding
		dict bool
	}{{"key_lo", parquet.Encodings.DeltaBinaryPacked, false}, {"picture", parquet.Encodings.DeltaLengthByteArray, false},
		{"game", parquet.Encodings.Plain, true}, {"positions", parquet.Encodings.Plain, false}} {
		if p.EncodingFor(c.col) != c.enc || p.DictionaryEnabledFor(c.col) != c.dict {
			t.Errorf("%s: %v dict %v, want %v dict %v", c.col, p.EncodingFor(c.col), p.DictionaryEnabledFor(c.col), c.enc, c.dict)
		}
	}
	if p.CompressionFor("picture") != compress.Codecs.Zstd || p.CompressionLevelFor("picture") != zstdLevel {
		t.Errorf("codec %v level %d", p.CompressionFor("picture"), p.CompressionLevelFor("picture"))
	}
}

// checkPages compresses an uncompressed Parquet file column chunk by
// column chunk and checks the frames decompress to the whole file.
func checkPages(t *testing.T, src, dst string, enc *zstd.Encoder, ncols int) {
	t.Helper()
	c, cols, err := zstdPages(src, dst, enc, ncols)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	got, err := dec.DecodeAll(data, nil)
	if err != nil || !bytes.Equal(got, want) || c.bytes != int64(len(data)) {
		t.Fatalf("zstd over the pages: %v, %d bytes decoded, want %d", err, len(got), len(want))
	}
	var n int64
	for _, cc := range cols {
		n += cc.bytes
	}
	if n == 0 || n >= c.bytes {
		t.Errorf("zstd over the pages: columns %d bytes, file %d", n, c.bytes)
	}
}

// dec decompresses the test's zstd files.
var dec, _ = zstd.NewReader(nil)

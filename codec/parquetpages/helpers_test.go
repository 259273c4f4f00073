package parquetpages

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pqschema "github.com/apache/arrow-go/v18/parquet/schema"
)

// testRow is a row of the test table: a value for each of its required
// columns; its optional columns are null in every row.
type testRow struct {
	plain, dict, dlba    string
	i64, u64, i64d, u64d int64 // u64 and u64d: the bits of a uint64
	i32d                 int32
	b                    bool
}

// testSchema is the test table: a column of every kind the package
// writes (testProps gives each its encoding).
var testSchema = arrow.NewSchema([]arrow.Field{
	{Name: "plain", Type: arrow.BinaryTypes.String},
	{Name: "dict", Type: arrow.BinaryTypes.String},
	{Name: "dlba", Type: arrow.BinaryTypes.String},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64},
	{Name: "u64", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "i64d", Type: arrow.PrimitiveTypes.Int64},
	{Name: "u64d", Type: arrow.PrimitiveTypes.Uint64},
	{Name: "i32d", Type: arrow.PrimitiveTypes.Int32},
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "null_i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "null_dict", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "null_str", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// testKinds are the kinds of testSchema's columns under testProps.
var testKinds = []kind{kindPlainBytes, kindDict, kindDeltaLength, kindPlainInt64, kindPlainInt64,
	kindDelta64, kindDelta64, kindDelta32, kindPlainBool, kindNull, kindNullDict, kindNull}

// testProps are the properties of the test table: PLAIN but for the
// dictionaries of dict and null_dict and the DELTA encodings of dlba and
// the *d columns; more are properties to add.
func testProps(comp compress.Compression, level int, rowGroupRows, pageBytes int64, more ...parquet.WriterProperty) *parquet.WriterProperties {
	return parquet.NewWriterProperties(append([]parquet.WriterProperty{
		parquet.WithCompression(comp),
		parquet.WithCompressionLevel(level),
		parquet.WithMaxRowGroupLength(rowGroupRows),
		parquet.WithDataPageSize(pageBytes),
		parquet.WithStats(true),
		parquet.WithDictionaryDefault(false),
		parquet.WithDictionaryFor("dict", true),
		parquet.WithDictionaryFor("null_dict", true),
		parquet.WithDictionaryCostFallbackFor("dict", false),
		parquet.WithDictionaryCostFallbackFor("null_dict", false),
		parquet.WithEncodingFor("dlba", parquet.Encodings.DeltaLengthByteArray),
		parquet.WithEncodingFor("i64d", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("u64d", parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor("i32d", parquet.Encodings.DeltaBinaryPacked),
	}, more...)...)
}

// parquetSchema is the Parquet schema pqarrow derives from sc.
func parquetSchema(t testing.TB, sc *arrow.Schema, props *parquet.WriterProperties) *pqschema.Schema {
	t.Helper()
	ps, err := pqarrow.ToParquet(sc, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// writePages writes rows through a Writer, AddString or AddBytes taking
// the byte arrays of alternate rows.
func writePages(t testing.TB, rows []testRow, props *parquet.WriterProperties) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, parquetSchema(t, testSchema, props), props, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		c := w.Columns()
		if i%2 == 0 {
			c[0].AddString(r.plain)
			c[1].AddString(r.dict)
			c[2].AddString(r.dlba)
		} else {
			c[0].AddBytes([]byte(r.plain))
			c[1].AddBytes([]byte(r.dict))
			c[2].AddBytes([]byte(r.dlba))
		}
		c[3].AddInt64(r.i64)
		c[4].AddInt64(r.u64)
		c[5].AddInt64(r.i64d)
		c[6].AddInt64(r.u64d)
		c[7].AddInt32(r.i32d)
		c[8].AddBool(r.b)
		for n := 9; n < len(c); n++ {
			c[n].AddNull()
		}
		if err := w.EndRow(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// testRecord is rows as an Arrow record of testSchema.
func testRecord(rows []testRow) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, testSchema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.StringBuilder).Append(r.plain)
		b.Field(1).(*array.StringBuilder).Append(r.dict)
		b.Field(2).(*array.StringBuilder).Append(r.dlba)
		b.Field(3).(*array.Int64Builder).Append(r.i64)
		b.Field(4).(*array.Uint64Builder).Append(uint64(r.u64))
		b.Field(5).(*array.Int64Builder).Append(r.i64d)
		b.Field(6).(*array.Uint64Builder).Append(uint64(r.u64d))
		b.Field(7).(*array.Int32Builder).Append(r.i32d)
		b.Field(8).(*array.BooleanBuilder).Append(r.b)
		for f := 9; f < testSchema.NumFields(); f++ {
			b.Field(f).AppendNull()
		}
	}
	return b.NewRecordBatch()
}

// writeArrow writes rec through pqarrow: the file arrow-go's own writer
// makes of the same rows.
func writeArrow(t testing.TB, rec arrow.RecordBatch, props *parquet.WriterProperties) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, err := pqarrow.NewFileWriter(rec.Schema(), &buf, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if rec.NumRows() > 0 {
		if err := fw.WriteBuffered(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkRoundTrip reads the file data back through pqarrow and checks
// that it holds rec's rows, and that its footer says what the footer of
// arrow-go's own file of the same rows says, but for sizes and offsets.
func checkRoundTrip(t testing.TB, data []byte, rec arrow.RecordBatch, props *parquet.WriterProperties) {
	t.Helper()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatalf("read back: %v", err)
	}
	defer tbl.Release()
	if tbl.NumRows() != rec.NumRows() || tbl.NumCols() != rec.NumCols() {
		t.Fatalf("read %d rows of %d columns, want %d of %d", tbl.NumRows(), tbl.NumCols(), rec.NumRows(), rec.NumCols())
	}
	for i := range int(rec.NumCols()) {
		want := arrow.NewChunked(rec.Column(i).DataType(), []arrow.Array{rec.Column(i)})
		if !array.ChunkedEqual(tbl.Column(i).Data(), want) {
			t.Errorf("column %s read back differs from the values written", rec.ColumnName(i))
		}
		want.Release()
	}
	got, want := footer(t, data), footer(t, writeArrow(t, rec, props))
	if !slices.Equal(got, want) {
		t.Errorf("footer:\n%s\nwant (arrow-go's)\n%s", got, want)
	}
}

// footer spells what a reader sees of a file's footer but for sizes and
// offsets: a line for the file, then one for each column chunk.
func footer(t testing.TB, data []byte) []string {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	md := pf.MetaData()
	out := []string{fmt.Sprintf("%s version %v created by %q, %d rows, %d row groups, key-values %v",
		md.Schema, md.Version(), md.GetCreatedBy(), md.NumRows, md.NumRowGroups(), md.KeyValueMetadata())}
	for rg := range md.NumRowGroups() {
		g := md.RowGroup(rg)
		for c := range g.NumColumns() {
			cc, err := g.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			var enc []string
			for _, e := range cc.Encodings() {
				enc = append(enc, e.String())
			}
			slices.Sort(enc)
			line := fmt.Sprintf("row group %d (%d rows) column %s: %s %s, %d values, encodings %v, dictionary %t",
				rg, g.NumRows(), cc.PathInSchema(), cc.Type(), cc.Compression(), cc.NumValues(), slices.Compact(enc), cc.HasDictionaryPage())
			if set, err := cc.StatsSet(); err != nil || !set {
				out = append(out, fmt.Sprintf("%s, statistics %t %v", line, set, err))
				continue
			}
			st, err := cc.Statistics()
			if err != nil {
				t.Fatal(err)
			}
			line += fmt.Sprintf(", %d nulls, %d values", st.NullCount(), st.NumValues())
			if st.HasMinMax() {
				line += fmt.Sprintf(", min %x max %x", st.EncodeMin(), st.EncodeMax())
			}
			out = append(out, line)
		}
	}
	return out
}

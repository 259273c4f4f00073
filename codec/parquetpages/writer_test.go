package parquetpages

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// randomRows are n rows of varied values: strings of 0 to 12 bytes,
// a dictionary column of a few values in runs, integers anywhere in
// their range, keys that grow a little from row to row.
func randomRows(n int, seed uint64) []testRow {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	str := func() string {
		b := make([]byte, rng.IntN(13))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return string(b)
	}
	rows := make([]testRow, n)
	var key int64
	for i := range rows {
		key += rng.Int64N(1000)
		rows[i] = testRow{
			plain: str(), dict: fmt.Sprint("board", (i/500)%7), dlba: str(),
			i64: int64(rng.Uint64()), u64: int64(rng.Uint64()),
			i64d: key, u64d: int64(rng.Uint64() >> rng.IntN(64)),
			i32d: rng.Int32N(100) - 50, b: rng.IntN(3) == 0,
		}
	}
	return rows
}

// TestPagesReadable writes rows with every codec, in row groups of 3,000
// rows and pages of 4 KiB, and reads them back: through pqarrow, the rows
// and a footer like arrow-go's own writer's; and page by page through
// arrow-go's page reader, each page as the package documentation says:
// a dictionary page first in a dictionary column's chunk, then data pages
// V1 of the column's encoding, whose values count the row group's rows,
// with statistics, and whose bytes begin as the encoding's do.
func TestPagesReadable(t *testing.T) {
	rows := randomRows(7000, 1)
	rec := testRecord(rows)
	defer rec.Release()
	for _, comp := range []compress.Compression{compress.Codecs.Zstd, compress.Codecs.Snappy, compress.Codecs.Lz4Raw, compress.Codecs.Gzip, compress.Codecs.Uncompressed} {
		t.Run(comp.String(), func(t *testing.T) {
			props := testProps(comp, 1, 3000, 4<<10)
			data := writePages(t, rows, props)
			checkRoundTrip(t, data, rec, props)
			checkPages(t, data)
		})
	}
}

// checkPages reads every page of the test table's file data, checking each
// as TestPagesReadable says, and that some column chunk has several data
// pages.
func checkPages(t *testing.T, data []byte) {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if pf.NumRowGroups() < 2 {
		t.Errorf("%d row groups, want several", pf.NumRowGroups())
	}
	most := 0
	for rg := range pf.NumRowGroups() {
		rgr := pf.RowGroup(rg)
		for col := range rgr.NumColumns() {
			name := fmt.Sprintf("row group %d column %s", rg, testSchema.Field(col).Name)
			k := testKinds[col]
			pr, err := rgr.GetColumnPageReader(col)
			if err != nil {
				t.Fatal(err)
			}
			var values int64
			pages, dict := 0, -1 // dict: the dictionary's values
			for pr.Next() {
				switch p := pr.Page().(type) {
				case *file.DictionaryPage:
					if pages > 0 || dict >= 0 || parquet.Encoding(p.Encoding()) != parquet.Encodings.Plain {
						t.Fatalf("%s: dictionary page (%s) after %d data pages and %d dictionaries", name, parquet.Encoding(p.Encoding()), pages, dict+1)
					}
					dict = int(p.NumValues())
				case *file.DataPageV1:
					pages++
					values += int64(p.NumValues())
					if err := checkDataPage(k, p, dict); err != nil {
						t.Fatalf("%s page %d: %v", name, pages, err)
					}
				default:
					t.Fatalf("%s: page %T", name, p)
				}
			}
			if err := pr.Err(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if isDict := k == kindDict || k == kindNullDict; isDict != (dict >= 0) {
				t.Errorf("%s: dictionary page %t, want %t", name, dict >= 0, isDict)
			}
			if values != rgr.NumRows() {
				t.Errorf("%s: %d values in the pages of a row group of %d rows", name, values, rgr.NumRows())
			}
			most = max(most, pages)
		}
	}
	if most < 2 {
		t.Errorf("at most %d data page a column chunk, want several", most)
	}
}

// checkDataPage checks a data page of a column of kind k, whose
// dictionary, if it has one, holds dict values.
func checkDataPage(k kind, p *file.DataPageV1, dict int) error {
	want := map[kind]parquet.Encoding{
		kindPlainBytes: parquet.Encodings.Plain, kindPlainInt64: parquet.Encodings.Plain, kindPlainBool: parquet.Encodings.Plain,
		kindDict: parquet.Encodings.RLEDict, kindNullDict: parquet.Encodings.RLEDict, kindNull: parquet.Encodings.Plain,
		kindDelta64: parquet.Encodings.DeltaBinaryPacked, kindDelta32: parquet.Encodings.DeltaBinaryPacked,
		kindDeltaLength: parquet.Encodings.DeltaLengthByteArray,
	}[k]
	if enc := parquet.Encoding(p.Encoding()); enc != want || p.DefinitionLevelEncoding() != parquet.Encodings.RLE || p.RepetitionLevelEncoding() != parquet.Encodings.RLE {
		return fmt.Errorf("encodings %s, levels %s %s; want %s, RLE", enc, p.DefinitionLevelEncoding(), p.RepetitionLevelEncoding(), want)
	}
	n, body := int(p.NumValues()), p.Data()
	nulls := k == kindNull || k == kindNullDict
	st := p.Statistics()
	if !st.HasNullCount || (st.NullCount == int64(n)) != nulls || (st.NullCount == 0) == nulls || st.HasMin == nulls || st.HasMax == nulls {
		return fmt.Errorf("statistics %+v of a page of %d values (nulls %t)", st, n, nulls)
	}
	deltaHeader := binary.AppendUvarint([]byte{0x80, 0x01, 0x04}, uint64(n))
	var ok bool
	switch k {
	case kindPlainInt64:
		ok = len(body) == 8*n
	case kindPlainBool:
		ok = len(body) == (n+7)/8
	case kindPlainBytes:
		rest := body
		for range n {
			l := int(binary.LittleEndian.Uint32(rest))
			rest = rest[4+l:]
		}
		ok = len(rest) == 0
	case kindDelta64, kindDelta32, kindDeltaLength:
		ok = bytes.HasPrefix(body, deltaHeader)
	case kindDict:
		// The bit width of the dictionary as it was when the page was
		// cut: at most that of the whole chunk's.
		ok = len(body) > 1 && int(body[0]) <= bitWidth(dict)
	case kindNull, kindNullDict:
		// The levels' length, then one RLE run of n zeros.
		run := append(binary.AppendUvarint(nil, uint64(n)<<1), 0)
		levels := append(binary.LittleEndian.AppendUint32(nil, uint32(len(run))), run...)
		if k == kindNullDict {
			levels = append(levels, 0)
		}
		ok = bytes.Equal(body, levels)
	}
	if !ok {
		return fmt.Errorf("%d values in bytes % x", n, body[:min(len(body), 32)])
	}
	return nil
}

// TestNewWriterRefuses checks that a column or property the package
// does not write is refused, before a byte is written.
func TestNewWriterRefuses(t *testing.T) {
	base := testProps(compress.Codecs.Zstd, 1, 100, 1<<20)
	for _, tc := range []struct {
		name  string
		field arrow.Field
		props []parquet.WriterProperty
	}{
		{"repeated", arrow.Field{Name: "x", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)}, nil},
		{"float", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64}, nil},
		{"INT32 PLAIN", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}, nil},
		{"INT64 dictionary", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64}, []parquet.WriterProperty{parquet.WithDictionaryFor("x", true)}},
		{"optional DELTA", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, []parquet.WriterProperty{parquet.WithEncodingFor("x", parquet.Encodings.DeltaBinaryPacked)}},
		{"data pages V2", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64}, []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2)}},
		{"no statistics", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64}, []parquet.WriterProperty{parquet.WithStats(false)}},
		{"page index", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64}, []parquet.WriterProperty{parquet.WithPageIndexEnabledFor("x", true)}},
		{"dictionary cost fallback", arrow.Field{Name: "x", Type: arrow.BinaryTypes.String}, []parquet.WriterProperty{parquet.WithDictionaryFor("x", true), parquet.WithCompression(compress.Codecs.Uncompressed)}},
		{"bloom filter", arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64}, []parquet.WriterProperty{parquet.WithBloomFilterEnabledFor("x", true)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			props := parquet.NewWriterProperties(append([]parquet.WriterProperty{parquet.WithDictionaryDefault(false)}, tc.props...)...)
			sc := parquetSchema(t, arrow.NewSchema([]arrow.Field{tc.field}, nil), base)
			var buf bytes.Buffer
			if _, err := NewWriter(&buf, sc, props, nil); err == nil || buf.Len() > 0 {
				t.Errorf("error %v, %d bytes written; want an error and none", err, buf.Len())
			}
		})
	}
}

// TestWriterMisuse checks that a row short of a column's value fails the
// row group, naming the column, that every later call fails too, and
// that a value of the wrong type panics.
func TestWriterMisuse(t *testing.T) {
	props := testProps(compress.Codecs.Snappy, 1, 100, 1<<20)
	w, err := NewWriter(&bytes.Buffer{}, parquetSchema(t, testSchema, props), props, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, add := range []func(){
		func() { w.Columns()[0].AddInt64(1) },
		func() { w.Columns()[3].AddString("x") },
		func() { w.Columns()[7].AddInt64(1) },
		func() { w.Columns()[8].AddNull() },
		func() { w.Columns()[9].AddBool(true) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "parquetpages: ") {
					t.Errorf("recovered %v, want the package's panic", r)
				}
			}()
			add()
		}()
	}
	w.Columns()[1].AddString("x") // and no other column
	if err := w.EndRow(); err != nil {
		t.Fatalf("end of the first row: %v", err)
	}
	err = w.Close()
	if err == nil || !strings.Contains(err.Error(), "column plain: 0 values in a row group of 1 rows") {
		t.Fatalf("close: error %v, want one naming column plain", err)
	}
	if err2 := w.EndRow(); err2 != err || w.Columns() != nil {
		t.Errorf("after the failure: error %v, columns %v; want %v, none", err2, w.Columns(), err)
	}

	w, err = NewWriter(&bytes.Buffer{}, parquetSchema(t, testSchema, props), props, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.EndRow(); !errors.Is(err, ErrClosed) {
		t.Errorf("end of a row after Close: error %v, want %v", err, ErrClosed)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close: error %v, want %v", err, ErrClosed)
	}
}

// docExample is the beginning of the file of the package documentation's
// example, up to its footer.
const docExample = `
50 41 52 31
15 04 15 16 15 16 4c 15 02 15 00 12 00 00 07 00 00 00 63 6c 6f 62 62 65 72
15 00 15 06 15 06 2c 15 06 15 10 15 06 15 06 1c 36 00 28 07 63 6c 6f 62 62 65 72 18 07 63 6c 6f 62 62 65 72 00 00 00 01 06 00
15 00 15 14 15 14 2c 15 06 15 0a 15 06 15 06 1c 36 00 28 08 09 00 00 00 00 00 00 00 18 08 05 00 00 00 00 00 00 00 00 00 00
80 01 04 03 0a 04 00 00 00 00
15 00 15 30 15 30 2c 15 06 15 00 15 06 15 06 1c 18 08 00 00 00 00 00 00 00 00 18 08 fe ff ff ff ff ff ff ff 16 00
28 08 00 00 00 00 00 00 00 00 18 08 fe ff ff ff ff ff ff ff 00 00 00
00 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff fe ff ff ff ff ff ff ff
15 00 15 02 15 02 2c 15 06 15 00 15 06 15 06 1c 18 01 01 18 01 00 16 00 28 01 01 18 01 00 00 00 00 02
15 00 15 0c 15 0c 2c 15 06 15 00 15 06 15 06 1c 36 06 00 00 00 02 00 00 00 06 00
15 04`

// TestDocExample writes the package documentation's example and checks
// its bytes, up to the beginning of the footer, and that it reads back.
func TestDocExample(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "game", Type: arrow.BinaryTypes.String},
		{Name: "key", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "v", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithDictionaryDefault(false), parquet.WithDictionaryFor("game", true), parquet.WithDictionaryCostFallbackFor("game", false),
		parquet.WithEncodingFor("key", parquet.Encodings.DeltaBinaryPacked))
	var buf bytes.Buffer
	w, err := NewWriter(&buf, parquetSchema(t, sc, props), props, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		c := w.Columns()
		c[0].AddString("clobber")
		c[1].AddInt64(int64(5 + 2*i))
		c[2].AddInt64(int64(-i))
		c[3].AddBool(i == 1)
		c[4].AddNull()
		if err := w.EndRow(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, b := range strings.Fields(docExample) {
		var v byte
		fmt.Sscanf(b, "%x", &v)
		want = append(want, v)
	}
	if got := buf.Bytes(); !bytes.HasPrefix(got, want) {
		t.Errorf("file begins\n% x\nwant\n% x", got[:min(len(got), len(want))], want)
	}
	if _, err := file.NewParquetReader(bytes.NewReader(buf.Bytes())); err != nil {
		t.Error(err)
	}
}

package schema

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// writePiecesArrow writes rows the way pqarrow writes an Arrow table: the
// rows built into record batches of opts.batchRows rows through Arrow
// builders and handed to pqarrow's buffered writer. PieceWriter must write
// the file this writes, but for the cut of the data pages.
func writePiecesArrow(rows []Piece, o writeOptions) func(w io.Writer) error {
	return func(w io.Writer) error {
		fw, err := newFileWriter(piecesSchema, w, o, ColKeyHi, ColKeyLo)
		if err != nil {
			return err
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, piecesSchema)
		defer b.Release()
		str := func(i int) *array.StringBuilder { return b.Field(i).(*array.StringBuilder) }
		u64 := func(i int) *array.Uint64Builder { return b.Field(i).(*array.Uint64Builder) }
		i32 := func(i int) *array.Int32Builder { return b.Field(i).(*array.Int32Builder) }
		boolean := func(i int) *array.BooleanBuilder { return b.Field(i).(*array.BooleanBuilder) }
		for start := 0; start < len(rows); start += o.batchRows {
			for _, p := range rows[start:min(start+o.batchRows, len(rows))] {
				str(pGame).Append(p.Game)
				str(pBoard).Append(p.Board)
				u64(pKeyHi).Append(p.KeyHi)
				u64(pKeyLo).Append(p.KeyLo)
				i32(pRows).Append(p.Rows)
				i32(pCols).Append(p.Cols)
				i32(pSize).Append(p.Size)
				str(pPicture).Append(p.Picture)
				u64(pSymmetricHi).Append(p.SymmetricHi)
				u64(pSymmetricLo).Append(p.SymmetricLo)
				u64(pNegationHi).Append(p.NegationHi)
				u64(pNegationLo).Append(p.NegationLo)
				boolean(pSelfNegative).Append(p.SelfNegative)
				u64(pPositions).Append(p.Positions)
				i32(pFirstTier).Append(p.FirstTier)
				if v := p.PieceValue; v.Valued {
					str(pOutcome).Append(v.Outcome)
					str(pValue).Append(v.Value)
					boolean(pValueCapped).Append(v.ValueCapped)
					i32(pValueNodes).Append(v.ValueNodes)
					u64(pCost).Append(v.Cost)
				} else {
					for _, c := range []int{pOutcome, pValue, pValueCapped, pValueNodes, pCost} {
						b.Field(c).AppendNull()
					}
				}
			}
			rec := b.NewRecordBatch()
			err := fw.WriteBuffered(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return fw.Close()
	}
}

// valuedPieces is randomPieces with every third row valued, so that the
// nullable columns hold values and nulls.
func valuedPieces(n int, seed uint64) []Piece {
	rows := randomPieces(n, seed)
	outcomes := []string{"L", "R", "N", "P"}
	for i := range rows {
		if i%3 != 0 {
			continue
		}
		rows[i].PieceValue = PieceValue{
			Valued: true, Outcome: outcomes[i%4], Value: fmt.Sprintf("{%d|%d}", i%7, i%5),
			ValueCapped: i%9 == 0, ValueNodes: int32(i % 11), Cost: uint64(i) * 3,
		}
	}
	return rows
}

// TestPieceWriterMatchesPqarrow writes the same rows through PieceWriter
// and through pqarrow from Arrow builders, and compares the two files: the
// rows read back, the Parquet schema, the key-value metadata, the row
// groups, and each column chunk's type, encodings, compression and
// statistics.
func TestPieceWriterMatchesPqarrow(t *testing.T) {
	tests := []struct {
		name string
		rows []Piece
		opts writeOptions
	}{
		{"empty", nil, defaultOptions},
		{"one row", randomPieces(1, 1), defaultOptions},
		{"small batches and row groups", valuedPieces(1000, 2), writeOptions{batchRows: 70, rowGroupRows: 300}},
		{"batch larger than row group", valuedPieces(500, 3), writeOptions{batchRows: 128, rowGroupRows: 100}},
		{"unvalued, default sizes", randomPieces(20000, 4), defaultOptions},
		{"valued, default sizes", valuedPieces(20000, 5), defaultOptions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := writePieces(tt.rows, tt.opts)(&got); err != nil {
				t.Fatalf("PieceWriter: %v", err)
			}
			if err := writePiecesArrow(tt.rows, tt.opts)(&want); err != nil {
				t.Fatalf("pqarrow: %v", err)
			}
			gotRows, err := ReadPieces(bytes.NewReader(got.Bytes()))
			if err != nil {
				t.Fatalf("read PieceWriter's file: %v", err)
			}
			wantRows, err := ReadPieces(bytes.NewReader(want.Bytes()))
			if err != nil {
				t.Fatalf("read pqarrow's file: %v", err)
			}
			if len(tt.rows) == 0 {
				tt.rows = []Piece{}
			}
			if !reflect.DeepEqual(gotRows, tt.rows) || !reflect.DeepEqual(wantRows, tt.rows) {
				t.Fatalf("rows read back differ from the rows written (PieceWriter %d rows, pqarrow %d, written %d)", len(gotRows), len(wantRows), len(tt.rows))
			}
			compareFileMetadata(t, fileMetadata(t, got.Bytes()), fileMetadata(t, want.Bytes()))
		})
	}
}

func fileMetadata(t *testing.T, data []byte) *metadata.FileMetaData {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	return pf.MetaData()
}

// compareFileMetadata reports every difference a reader could see between
// two files' footers: everything but sizes and page offsets.
func compareFileMetadata(t *testing.T, got, want *metadata.FileMetaData) {
	t.Helper()
	if g, w := got.Schema.String(), want.Schema.String(); g != w {
		t.Errorf("parquet schema:\n%s\nwant\n%s", g, w)
	}
	if g, w := keyValues(got.KeyValueMetadata()), keyValues(want.KeyValueMetadata()); !slices.Equal(g, w) {
		t.Errorf("key-value metadata %s, want %s", g, w)
	}
	if got.GetCreatedBy() != want.GetCreatedBy() || got.Version() != want.Version() {
		t.Errorf("created by %q version %v, want %q version %v", got.GetCreatedBy(), got.Version(), want.GetCreatedBy(), want.Version())
	}
	if got.NumRows != want.NumRows || got.NumRowGroups() != want.NumRowGroups() {
		t.Fatalf("%d rows in %d row groups, want %d in %d", got.NumRows, got.NumRowGroups(), want.NumRows, want.NumRowGroups())
	}
	for rg := range want.NumRowGroups() {
		g, w := got.RowGroup(rg), want.RowGroup(rg)
		if g.NumRows() != w.NumRows() {
			t.Errorf("row group %d: %d rows, want %d", rg, g.NumRows(), w.NumRows())
		}
		for col := range w.NumColumns() {
			gc, err := g.ColumnChunk(col)
			if err != nil {
				t.Fatal(err)
			}
			wc, err := w.ColumnChunk(col)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("row group %d column %s", rg, wc.PathInSchema())
			if gc.Type() != wc.Type() || gc.Compression() != wc.Compression() || gc.NumValues() != wc.NumValues() {
				t.Errorf("%s: %s %s %d values, want %s %s %d", name, gc.Type(), gc.Compression(), gc.NumValues(), wc.Type(), wc.Compression(), wc.NumValues())
			}
			if ge, we := sortedEncodings(gc), sortedEncodings(wc); !slices.Equal(ge, we) || gc.HasDictionaryPage() != wc.HasDictionaryPage() {
				t.Errorf("%s: encodings %v (dictionary %t), want %v (%t)", name, ge, gc.HasDictionaryPage(), we, wc.HasDictionaryPage())
			}
			compareStatistics(t, name, gc, wc)
		}
	}
}

func sortedEncodings(cc *metadata.ColumnChunkMetaData) []string {
	var out []string
	for _, e := range cc.Encodings() {
		out = append(out, e.String())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func compareStatistics(t *testing.T, name string, got, want *metadata.ColumnChunkMetaData) {
	t.Helper()
	gs, err := got.StatsSet()
	if err != nil {
		t.Fatal(err)
	}
	ws, err := want.StatsSet()
	if err != nil {
		t.Fatal(err)
	}
	if gs != ws {
		t.Fatalf("%s: statistics set %t, want %t", name, gs, ws)
	}
	if !ws {
		return
	}
	g, err := got.Statistics()
	if err != nil {
		t.Fatal(err)
	}
	w, err := want.Statistics()
	if err != nil {
		t.Fatal(err)
	}
	if g.HasMinMax() != w.HasMinMax() || g.NullCount() != w.NullCount() || g.NumValues() != w.NumValues() {
		t.Errorf("%s: min/max %t, %d nulls, %d values; want %t, %d, %d", name, g.HasMinMax(), g.NullCount(), g.NumValues(), w.HasMinMax(), w.NullCount(), w.NumValues())
	}
	if w.HasMinMax() && (!bytes.Equal(g.EncodeMin(), w.EncodeMin()) || !bytes.Equal(g.EncodeMax(), w.EncodeMax())) {
		t.Errorf("%s: min %x max %x, want %x %x", name, g.EncodeMin(), g.EncodeMax(), w.EncodeMin(), w.EncodeMax())
	}
}

// keyValues spells key-value metadata as key=value strings, in order.
func keyValues(kv metadata.KeyValueMetadata) []string {
	var out []string
	for _, k := range kv.Keys() {
		v := kv.FindValue(k)
		out = append(out, fmt.Sprintf("%s=%v", k, *v))
	}
	return out
}

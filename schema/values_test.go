package schema

import (
	"io"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestPieceValuesRoundTrip writes rows with and without values (null value
// columns) and reads them back.
func TestPieceValuesRoundTrip(t *testing.T) {
	rows := randomPieces(50, 7)
	outcomes := []string{"L", "R", "N", "P"}
	for i := range rows {
		switch i % 3 {
		case 0: // not valued: the columns stay null
		case 1:
			rows[i].PieceValue = PieceValue{Valued: true, Outcome: outcomes[i%4], Value: "{1|*}", ValueNodes: 5, Cost: uint64(i)}
		case 2:
			rows[i].PieceValue = PieceValue{Valued: true, Outcome: outcomes[i%4], ValueCapped: true, ValueNodes: int32(i), Cost: 1 << 40}
		}
	}
	path := writeFile(t, "part-0.parquet", writePieces(rows, writeOptions{batchRows: 7, rowGroupRows: 20}))
	got, err := ReadPiecesFile(path)
	if err != nil {
		t.Fatalf("ReadPiecesFile: %v", err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got[:3], rows[:3])
	}
}

// TestReadPiecesVersion2 reads a pieces file of version 2, without the
// value columns: its rows read as not valued.
func TestReadPiecesVersion2(t *testing.T) {
	fields := PiecesSchema().Fields()[:pOutcome]
	md := arrow.MetadataFrom(map[string]string{MetaTable: TablePieces, MetaSchemaVersion: "2"})
	sc := arrow.NewSchema(fields, &md)
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := range fields {
		switch fb := b.Field(i).(type) {
		case *array.StringBuilder:
			fb.Append("x")
		case *array.Uint64Builder:
			fb.Append(1)
		case *array.Int32Builder:
			fb.Append(1)
		case *array.BooleanBuilder:
			fb.Append(true)
		default:
			t.Fatalf("column %s: builder %T", fields[i].Name, fb)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	path := writeFile(t, "part-0.parquet", func(w io.Writer) error {
		fw, err := pqarrow.NewFileWriter(sc, w, nil, pqarrow.DefaultWriterProps())
		if err != nil {
			return err
		}
		if err := fw.Write(rec); err != nil {
			return err
		}
		return fw.Close()
	})
	rows, err := ReadPiecesFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Piece{Game: "x", Board: "x", KeyHi: 1, KeyLo: 1, Rows: 1, Cols: 1, Size: 1, Picture: "x", CGSuite: "x",
		SymmetricHi: 1, SymmetricLo: 1, NegationHi: 1, NegationLo: 1, SelfNegative: true, Positions: 1, FirstTier: 1}
	if len(rows) != 1 || !reflect.DeepEqual(rows[0], want) {
		t.Errorf("read %+v, want %+v", rows, want)
	}
}

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

// TestReadOldPieces reads pieces files of versions 2 (without the value
// columns) and 3 (with them), both with the CGSuite string after the
// picture, which version 4 dropped: every other column reads into its
// field. Each column holds a value of its own, so that a column read into
// the field of its neighbour shows.
func TestReadOldPieces(t *testing.T) {
	for _, c := range []struct {
		version string
		sc      *arrow.Schema
		value   PieceValue
	}{
		{"2", piecesSchemaV2, PieceValue{}},
		{"3", piecesSchemaV3, PieceValue{Valued: true, Outcome: "N", Value: "*", ValueNodes: 20, Cost: 21}},
	} {
		t.Run("version "+c.version, func(t *testing.T) {
			fields := c.sc.Fields()
			md := arrow.MetadataFrom(map[string]string{MetaTable: TablePieces, MetaSchemaVersion: c.version})
			sc := arrow.NewSchema(fields, &md)
			b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
			defer b.Release()
			strs := map[string]string{"game": "clobber", "board": "4x4", "picture": "xo/o.", "cgsuite": "xo|o.", "outcome": "N", "value": "*"}
			for i, f := range fields {
				switch fb := b.Field(i).(type) {
				case *array.StringBuilder:
					fb.Append(strs[f.Name])
				case *array.Uint64Builder:
					fb.Append(uint64(i + 1))
				case *array.Int32Builder:
					fb.Append(int32(i + 1))
				case *array.BooleanBuilder:
					fb.Append(f.Name == "self_negative")
				default:
					t.Fatalf("column %s: builder %T", f.Name, fb)
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
			// The columns' places in the old files: cgsuite is the 9th.
			want := Piece{Game: "clobber", Board: "4x4", KeyHi: 3, KeyLo: 4, Rows: 5, Cols: 6, Size: 7, Picture: "xo/o.",
				SymmetricHi: 10, SymmetricLo: 11, NegationHi: 12, NegationLo: 13, SelfNegative: true, Positions: 15, FirstTier: 16,
				PieceValue: c.value}
			if len(rows) != 1 || !reflect.DeepEqual(rows[0], want) {
				t.Errorf("read %+v, want %+v", rows, want)
			}
		})
	}
}

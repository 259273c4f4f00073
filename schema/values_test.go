package schema

import (
	"reflect"
	"testing"
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

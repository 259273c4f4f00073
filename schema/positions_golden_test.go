package schema

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenPositions are the rows of testdata/positions-unsolved.parquet: two
// row groups of a part as a tier job writes it.
func goldenPositions() []Position {
	pictures := []string{"xo.x/o.ox", "..x./.o..", "#..#/.x.o"}
	rows := make([]Position, 1500)
	for i := range rows {
		rows[i] = Position{Key: uint64(i)*0x9e37 + uint64(i%7), LivePieces: int32(i % 4), DeadPieces: int32(i % 3),
			Picture: pictures[i%len(pictures)]}
	}
	return rows
}

// TestPositionsUnsolvedGolden checks that the positions part of a run that
// is not solved is, byte for byte, the file census wrote before the solve
// stage could add its outcome column. A new arrow-go writes other bytes:
// then rerun with -update and check the diff of the file's schema.
func TestPositionsUnsolvedGolden(t *testing.T) {
	t.Cleanup(func() { censusVersion.Store(nil) })
	SetVersion("v1.2.3-test")
	var buf bytes.Buffer
	pw, err := NewPositionWriter(&buf, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range goldenPositions() {
		if err := pw.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "positions-unsolved.parquet")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("an unsolved positions part is %d bytes unlike the %d of %s", buf.Len(), len(want), path)
	}
	got, err := ReadPositionsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, goldenPositions()) {
		t.Errorf("%s holds %d rows unlike the %d written", path, len(got), len(goldenPositions()))
	}
}

package schema

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestSummaryRoundTrip(t *testing.T) {
	full := clobberSummary()

	domineering := clobberSummary()
	domineering.Game, domineering.Board, domineering.Start = "domineering", "4x4", "..../..../..../...."
	domineering.EdgeRuleJoins = nil
	domineering.MovedPieceFraction = nil
	domineering.MovedPieceFractionAfterSplit = nil

	amazons := domineering
	amazons.Game, amazons.Board = "amazons", "3x4"
	amazons.EdgeRuleJoins = ptr(uint64(0)) // zero, but present

	onlyOneFraction := clobberSummary()
	onlyOneFraction.MovedPieceFractionAfterSplit = nil

	// Empty slices and map come back empty, not nil.
	empty := Summary{Game: "clobber", Board: "1x1", Start: "x",
		PositionsByTier: []uint64{}, SplitByTier: []uint64{}, PiecesBySize: map[int]uint64{}}
	emptyWant := empty
	emptyWant.SchemaVersion = Version

	nilSlices := Summary{Game: "clobber", Board: "1x1", Start: "x"}
	nilWant := emptyWant

	tests := []struct {
		name     string
		in, want Summary
	}{
		{"clobber all optional set", full, full},
		{"domineering optional nil", domineering, domineering},
		{"amazons edge rule zero", amazons, amazons},
		{"one fraction nil", onlyOneFraction, onlyOneFraction},
		{"empty lists and map", empty, emptyWant},
		{"nil lists and map", nilSlices, nilWant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "summary.parquet", func(w io.Writer) error { return WriteSummary(w, tt.in) })
			got, err := ReadSummaryFile(path)
			if err != nil {
				t.Fatalf("ReadSummaryFile: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.want)
			}
			if got.PositionsByTier == nil || got.SplitByTier == nil || got.PiecesBySize == nil {
				t.Errorf("nil slice or map in %+v", got)
			}
		})
	}
}

func TestWriteSummaryRejects(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Summary)
	}{
		{"other schema version", func(s *Summary) { s.SchemaVersion = Version + 1 }},
		{"tiers beyond int32", func(s *Summary) { s.Tiers = 1 << 40 }},
		{"size beyond int32", func(s *Summary) { s.PiecesBySize[-1<<40] = 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := clobberSummary()
			tt.edit(&s)
			if err := WriteSummary(io.Discard, s); err == nil {
				t.Fatal("WriteSummary succeeded, want an error")
			}
		})
	}
}

func TestTiersRoundTrip(t *testing.T) {
	clobber := make([]Tier, 16)
	for i := range clobber {
		clobber[i] = Tier{Game: "clobber", Board: "4x4", Tier: int32(i),
			Positions: uint64(1000 * i), Moves: uint64(7000 * i), Split: uint64(300 * i),
			LivePiecesWhenSplit: uint64(620 * i), WithDead: uint64(700 * i)}
	}
	amazons := []Tier{
		{Game: "amazons", Board: "3x4", Tier: 0, Positions: 1, Moves: 20, EdgeRuleJoins: 3},
		{Game: "amazons", Board: "3x4", Tier: 1, Positions: 20, Moves: 300, Joins: 0, EdgeRuleJoins: 1 << 63},
	}
	// Rows of a solved run: each tier's classes add up to its positions,
	// the last at the limit of the column.
	solved := []Tier{
		{Game: "clobber", Board: "3x3", Tier: 0, Positions: 1, Moves: 12, Outcomes: &TierOutcomes{N: 1}},
		{Game: "clobber", Board: "3x3", Tier: 1, Positions: 12, Moves: 80, Outcomes: &TierOutcomes{L: 3, R: 4, N: 2, P: 3}},
		{Game: "clobber", Board: "3x3", Tier: 2, Positions: 1<<64 - 1, Outcomes: &TierOutcomes{L: 1 << 62, R: 1 << 62, N: 1 << 62, P: 1<<62 - 1}},
	}
	tests := []struct {
		name string
		rows []Tier
	}{
		{"empty", []Tier{}},
		{"one tier", clobber[:1]},
		{"clobber 16 tiers", clobber},
		{"amazons extremes", amazons},
		{"solved", solved},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "tiers.parquet", func(w io.Writer) error { return WriteTiers(w, tt.rows) })
			got, err := ReadTiersFile(path)
			if err != nil {
				t.Fatalf("ReadTiersFile: %v", err)
			}
			if !reflect.DeepEqual(got, tt.rows) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.rows)
			}
		})
	}
}

// TestTiersOutcomesRefused checks that WriteTiers refuses outcomes on some
// rows only, and classes that do not add up to the tier's positions.
func TestTiersOutcomesRefused(t *testing.T) {
	tests := []struct {
		name string
		rows []Tier
		want string
	}{
		{"some rows", []Tier{{Tier: 0, Positions: 1, Outcomes: &TierOutcomes{P: 1}}, {Tier: 1, Positions: 4}}, "outcomes on some rows only"},
		{"first row without", []Tier{{Tier: 0, Positions: 1}, {Tier: 1, Positions: 4, Outcomes: &TierOutcomes{N: 4}}}, "outcomes on some rows only"},
		{"short", []Tier{{Tier: 0, Positions: 5, Outcomes: &TierOutcomes{L: 1, R: 1, N: 1, P: 1}}}, "outcomes of 4 positions, the tier has 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WriteTiers(io.Discard, tt.rows)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("WriteTiers = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestPiecesRoundTrip(t *testing.T) {
	small := writeOptions{batchRows: 7, rowGroupRows: 20}
	tests := []struct {
		name      string
		n         int
		opts      writeOptions
		rowGroups int
	}{
		{"empty", 0, small, 0},
		{"one row", 1, small, 1},
		{"one short of a batch", 6, small, 1},
		{"exactly one batch", 7, small, 1},
		{"batch and one", 8, small, 1},
		{"exactly one row group", 20, small, 1},
		{"row groups not multiple of batch", 101, small, 6},
		{"batch divides row group", 40, writeOptions{batchRows: 5, rowGroupRows: 20}, 2},
		{"batch larger than row group", 50, writeOptions{batchRows: 32, rowGroupRows: 10}, 5},
		{"default sizes", 3000, defaultOptions, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := randomPieces(tt.n, uint64(tt.n))
			path := writeFile(t, "part-0.parquet", writePieces(rows, tt.opts))
			got, err := ReadPiecesFile(path)
			if err != nil {
				t.Fatalf("ReadPiecesFile: %v", err)
			}
			if !reflect.DeepEqual(got, rows) {
				t.Errorf("round trip of %d rows differs", tt.n)
			}
			md := openParquet(t, path).MetaData()
			if md.NumRowGroups() != tt.rowGroups {
				t.Errorf("%d row groups, want %d", md.NumRowGroups(), tt.rowGroups)
			}
			for i := 0; i < md.NumRowGroups(); i++ {
				if n := md.RowGroup(i).NumRows(); n <= 0 || n > tt.opts.rowGroupRows {
					t.Errorf("row group %d has %d rows, want 1..%d", i, n, tt.opts.rowGroupRows)
				}
			}
		})
	}
}

func TestPieceWriterAfterClose(t *testing.T) {
	var buf bytes.Buffer
	pw, err := NewPieceWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := pw.Write(randomPieces(1, 1)[0]); err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	size := buf.Len()
	if err := pw.Write(Piece{}); err == nil {
		t.Error("Write after Close succeeded")
	}
	if err := pw.Close(); err == nil {
		t.Error("second Close succeeded")
	}
	if buf.Len() != size {
		t.Errorf("file grew from %d to %d bytes after Close", size, buf.Len())
	}
	got, err := ReadPieces(bytes.NewReader(buf.Bytes()))
	if err != nil || len(got) != 1 {
		t.Errorf("ReadPieces = %d rows, %v; want 1 row", len(got), err)
	}
}

// BenchmarkPieceWriter measures streaming a pieces part with the default
// sizes; ns/op is per row.
func BenchmarkPieceWriter(b *testing.B) {
	rows := randomPieces(1<<16, 7)
	b.ReportAllocs()
	pw, err := NewPieceWriter(io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if err := pw.Write(rows[i&(len(rows)-1)]); err != nil {
			b.Fatal(err)
		}
	}
	if err := pw.Close(); err != nil {
		b.Fatal(err)
	}
}

func TestScanPiecesFile(t *testing.T) {
	rows := randomPieces(300, 9)
	path := writeFile(t, "part-0.parquet", writePieces(rows, writeOptions{batchRows: 50, rowGroupRows: 100}))
	var got []Piece
	if err := ScanPiecesFile(path, func(p Piece) error { got = append(got, p); return nil }); err != nil {
		t.Fatalf("ScanPiecesFile: %v", err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Errorf("scanned %d rows, differ from the %d written", len(got), len(rows))
	}
	stop := errors.New("stop")
	n := 0
	err := ScanPiecesFile(path, func(Piece) error {
		if n++; n == 120 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 120 {
		t.Errorf("after fn failed at row 120: %d rows, error %v", n, err)
	}
}

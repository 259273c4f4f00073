package schema

import (
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// randomPositions returns n rows with distinct keys, sorted by key.
func randomPositions(n int, seed uint64) []Position {
	rng := rand.New(rand.NewPCG(seed, 2))
	pictures := []string{"xo.x/o.ox", "..../##..", "o..x/.#../...."}
	seen := make(map[uint64]bool, n)
	out := make([]Position, 0, n)
	for len(out) < n {
		k := rng.Uint64()
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, Position{Key: k, LivePieces: rng.Int32N(5), DeadPieces: rng.Int32N(3),
			Picture: pictures[rng.IntN(len(pictures))]})
	}
	slices.SortFunc(out, func(a, b Position) int { return cmpU64(a.Key, b.Key) })
	return out
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// withOutcomes is rows with an outcome class each, as the solve stage
// writes them.
func withOutcomes(rows []Position) []Position {
	out := slices.Clone(rows)
	for i := range out {
		out[i].Outcome = outcomeClasses[out[i].Key%4]
		out[i].RemotenessLeftFirst, out[i].RemotenessRightFirst = int32(out[i].Key%13), int32(out[i].Key%7)
	}
	return out
}

// writePositions writes rows into a positions file, a solved run's when
// the first row has an outcome.
func writePositions(rows []Position, o writeOptions) func(w io.Writer) error {
	return func(w io.Writer) error {
		sc := positionsSchema
		if len(rows) > 0 && rows[0].Outcome != "" {
			sc = positionsSolvedSchema
		}
		pw, err := newPositionWriter(w, sc, o)
		if err != nil {
			return err
		}
		for _, p := range rows {
			if err := pw.Write(p); err != nil {
				return err
			}
		}
		return pw.Close()
	}
}

// TestPositionsSchemaMatchesStruct checks that every field of Position is
// a column of a solved run's file, in order, and that the file of a run
// not solved has them all but the outcome; every column is required.
func TestPositionsSchemaMatchesStruct(t *testing.T) {
	var fields []string
	for f := range reflect.TypeFor[Position]().Fields() {
		fields = append(fields, snake(f.Name))
	}
	var cols []string
	for _, f := range PositionsSolvedSchema().Fields() {
		cols = append(cols, f.Name)
		if f.Nullable {
			t.Errorf("column %q is nullable", f.Name)
		}
	}
	if !slices.Equal(cols, fields) {
		t.Errorf("columns\n %v\nfields\n %v", cols, fields)
	}
	if got := PositionsSchema().Fields(); !slices.EqualFunc(got, PositionsSolvedSchema().Fields()[:len(got)], func(a, b arrow.Field) bool { return a.Equal(b) }) ||
		len(got) != len(cols)-3 || !slices.Equal(cols[len(got):], []string{ColOutcome, ColRemotenessLeftFirst, ColRemotenessRightFirst}) {
		t.Errorf("the unsolved columns %v are not the solved ones %v without the last three, outcome and the remotenesses", got, cols)
	}
	if slices.Contains(cols, "tier") {
		t.Error("a tier column would clash with the tier=NN directory")
	}
	for _, sc := range []*arrow.Schema{PositionsSchema(), PositionsSolvedSchema()} {
		md := sc.Metadata()
		if v, _ := md.GetValue(MetaTable); v != TablePositions {
			t.Errorf("schema metadata %s = %q, want %q", MetaTable, v, TablePositions)
		}
	}
}

func TestPositionsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		rows []Position
		o    writeOptions
	}{
		{"empty", []Position{}, defaultOptions},
		{"one row", randomPositions(1, 1), defaultOptions},
		{"many batches and row groups", randomPositions(3000, 2), writeOptions{batchRows: 100, rowGroupRows: 700}},
		{"solved", withOutcomes(randomPositions(3000, 5)), writeOptions{batchRows: 100, rowGroupRows: 700}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "part-00000.parquet", writePositions(tt.rows, tt.o))
			got, err := ReadPositionsFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.rows) {
				t.Errorf("read back %d rows unlike the %d written", len(got), len(tt.rows))
			}
			pf := openParquet(t, path)
			if want := (len(tt.rows) + int(tt.o.rowGroupRows) - 1) / int(tt.o.rowGroupRows); pf.NumRowGroups() != want {
				t.Errorf("%d row groups, want %d", pf.NumRowGroups(), want)
			}
		})
	}
}

// TestPositionsFileSettings checks the file metadata, that every column is
// required and zstd, and that the key column is DELTA_BINARY_PACKED with
// no dictionary.
func TestPositionsFileSettings(t *testing.T) {
	path := writeFile(t, "part-00000.parquet", writePositions(randomPositions(2000, 3), writeOptions{batchRows: 256, rowGroupRows: 1000}))
	pf := openParquet(t, path)
	md := pf.MetaData()
	kv := md.KeyValueMetadata()
	if v := kv.FindValue(MetaTable); v == nil || *v != TablePositions {
		t.Errorf("key-value %s = %v, want %q", MetaTable, v, TablePositions)
	}
	if v := kv.FindValue(MetaSchemaVersion); v == nil || *v != strconv.Itoa(Version) {
		t.Errorf("key-value %s = %v, want %d", MetaSchemaVersion, v, Version)
	}
	for i := 0; i < md.Schema.NumColumns(); i++ {
		if c := md.Schema.Column(i); c.MaxDefinitionLevel() != 0 {
			t.Errorf("column %s is optional", c.Path())
		}
	}
	if md.NumRowGroups() != 2 {
		t.Errorf("%d row groups, want 2", md.NumRowGroups())
	}
	for rg := 0; rg < md.NumRowGroups(); rg++ {
		for col := 0; col < md.NumColumns(); col++ {
			cc, err := md.RowGroup(rg).ColumnChunk(col)
			if err != nil {
				t.Fatal(err)
			}
			name := cc.PathInSchema().String()
			if cc.Compression() != compress.Codecs.Zstd {
				t.Errorf("row group %d column %s compressed with %s, want zstd", rg, name, cc.Compression())
			}
			if name != ColKey {
				continue
			}
			if cc.HasDictionaryPage() {
				t.Errorf("row group %d column %s has a dictionary page", rg, name)
			}
			for _, st := range cc.EncodingStats() {
				if st.Encoding != parquet.Encodings.DeltaBinaryPacked {
					t.Errorf("row group %d column %s has a %s page", rg, name, st.Encoding)
				}
			}
		}
	}
}

// TestPositionsOutcomeRefused checks that a writer refuses a row whose
// outcome does not fit its file, and writes nothing of it.
func TestPositionsOutcomeRefused(t *testing.T) {
	tests := []struct {
		name    string
		solved  bool
		outcome string
		want    string
	}{
		{"none in a solved file", true, "", `outcome "", want L, R, N or P`},
		{"not a class", true, "W", `outcome "W", want L, R, N or P`},
		{"one in an unsolved file", false, "N", `outcome "N" in a file without outcomes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := NewPositionWriter
			if tt.solved {
				start = NewSolvedPositionWriter
			}
			path := writeFile(t, "part-00000.parquet", func(w io.Writer) error {
				pw, err := start(w, 1024)
				if err != nil {
					return err
				}
				if err := pw.Write(Position{Key: 7, Picture: "x.", Outcome: tt.outcome}); err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Write = %v, want an error containing %q", err, tt.want)
				}
				return pw.Close()
			})
			if rows, err := ReadPositionsFile(path); err != nil || len(rows) != 0 {
				t.Errorf("the file holds %d rows (%v), want none", len(rows), err)
			}
		})
	}
}

func TestPositionsWrongTable(t *testing.T) {
	positions := writeFile(t, "part-00000.parquet", writePositions(randomPositions(10, 4), defaultOptions))
	pieces := writeFile(t, "part-00001.parquet", writePieces(randomPieces(10, 5), defaultOptions))
	tests := []struct {
		name string
		read func() error
		msg  string
	}{
		{"pieces as positions", func() error { _, err := ReadPositionsFile(pieces); return err }, `holds table "pieces", want "positions"`},
		{"positions as pieces", func() error { _, err := ReadPiecesFile(positions); return err }, `holds table "positions", want "pieces"`},
		{"positions as summary", func() error { _, err := ReadSummaryFile(positions); return err }, `holds table "positions", want "summary"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read()
			if !errors.Is(err, ErrWrongTable) {
				t.Fatalf("error %v does not wrap ErrWrongTable", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
		})
	}
}

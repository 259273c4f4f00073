package schema

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
)

// randomStates returns n rows numbered 0..n-1, with nulls where a drawn or
// unreached state has them.
func randomStates(n int, seed uint64) []StateRow {
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]StateRow, n)
	for i := range out {
		s := StateRow{
			State:       uint64(i),
			Arrangement: []string{"BBBBWWWW.", ".BBBWWWWB", "BWBW.WBWB"}[rng.IntN(3)],
			Mover:       []string{"B", "W"}[i%2],
			Verdict:     []string{"W", "L", "D"}[rng.IntN(3)],
			Reachable:   rng.IntN(2) == 0,
			LegalMoves:  rng.Int32N(5),
		}
		s.LosingMoves = rng.Int32N(s.LegalMoves + 1)
		if s.Verdict != "D" {
			s.Remoteness = ptr(rng.Int32N(6))
		}
		if s.Reachable {
			s.FirstReached = ptr(rng.Int32N(25))
		}
		out[i] = s
	}
	return out
}

func writeStates(rows []StateRow, o writeOptions) func(w io.Writer) error {
	return func(w io.Writer) error {
		sw, err := newStateWriter(w, o)
		if err != nil {
			return err
		}
		for _, s := range rows {
			if err := sw.Write(s); err != nil {
				return err
			}
		}
		return sw.Close()
	}
}

func TestStatesSchemaMatchesStruct(t *testing.T) {
	var fields []string
	for f := range reflect.TypeFor[StateRow]().Fields() {
		fields = append(fields, snake(f.Name))
	}
	var cols, nullable []string
	for _, f := range StatesSchema().Fields() {
		cols = append(cols, f.Name)
		if f.Nullable {
			nullable = append(nullable, f.Name)
		}
	}
	if !slices.Equal(cols, fields) {
		t.Errorf("columns\n %v\nfields\n %v", cols, fields)
	}
	if want := []string{"remoteness", "first_reached"}; !slices.Equal(nullable, want) {
		t.Errorf("nullable columns %v, want %v", nullable, want)
	}
	if v, _ := StatesSchema().Metadata().GetValue(MetaTable); v != TableStates {
		t.Errorf("schema metadata %s = %q, want %q", MetaTable, v, TableStates)
	}
	// The table is in the shared registry that the readers check against.
	if schemaFor(TableStates) != StatesSchema() || !slices.Equal(readVersions[TableStates], []int{2, 3, Version}) {
		t.Errorf("states table registered as %v, versions %v", schemaFor(TableStates), readVersions[TableStates])
	}
}

func TestStatesRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		name string
		rows []StateRow
		o    writeOptions
	}{
		{"empty", []StateRow{}, defaultOptions},
		{"one row", randomStates(1, 1), defaultOptions},
		{"many batches and row groups", randomStates(3000, 2), writeOptions{batchRows: 100, rowGroupRows: 1024}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "states.parquet", writeStates(tt.rows, tt.o))
			got, err := ReadStatesFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.rows) {
				t.Errorf("read back %d rows unlike the %d written", len(got), len(tt.rows))
			}
			if n, err := CountStatesFile(path); err != nil || n != int64(len(tt.rows)) {
				t.Errorf("CountStatesFile = %d, %v; want %d rows", n, err, len(tt.rows))
			}
			pf := openParquet(t, path)
			if want := (len(tt.rows) + int(tt.o.rowGroupRows) - 1) / int(tt.o.rowGroupRows); pf.NumRowGroups() != want {
				t.Errorf("%d row groups, want %d", pf.NumRowGroups(), want)
			}
			for rg := 0; rg < pf.NumRowGroups(); rg++ {
				cc, err := pf.MetaData().RowGroup(rg).ColumnChunk(stState)
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range cc.EncodingStats() {
					if st.Encoding != parquet.Encodings.DeltaBinaryPacked {
						t.Errorf("row group %d: state column has a %s page", rg, st.Encoding)
					}
				}
			}
		})
	}
}

func TestStatesWrongTable(t *testing.T) {
	states := writeFile(t, "states.parquet", writeStates(randomStates(10, 4), defaultOptions))
	positions := writeFile(t, "part-00000.parquet", writePositions(randomPositions(10, 4), defaultOptions))
	for _, tt := range []struct {
		name string
		read func() error
		msg  string
	}{
		{"positions as states", func() error { _, err := ReadStatesFile(positions); return err }, `holds table "positions", want "states"`},
		{"positions counted as states", func() error { _, err := CountStatesFile(positions); return err }, `holds table "positions", want "states"`},
		{"states as positions", func() error { _, err := ReadPositionsFile(states); return err }, `holds table "states", want "positions"`},
		{"states as summary", func() error { _, err := ReadSummaryFile(states); return err }, `holds table "states", want "summary"`},
		// The table first appeared in version 2: a file claiming version 1
		// or a later one is refused, whatever its columns.
		{"version 1 states", func() error {
			_, err := ReadStatesFile(writeRaw(t, withMetadata(StatesSchema(), map[string]string{MetaTable: TableStates, MetaSchemaVersion: "1"})))
			return err
		}, fmt.Sprintf("schema version \"1\", this build reads 2 or 3 or %d", Version)},
		{"newer states", func() error {
			_, err := ReadStatesFile(writeRaw(t, withMetadata(StatesSchema(), map[string]string{MetaTable: TableStates, MetaSchemaVersion: strconv.Itoa(Version + 1)})))
			return err
		}, fmt.Sprintf("schema version %q", strconv.Itoa(Version+1))},
		{"other columns", func() error {
			_, err := ReadStatesFile(writeRaw(t, withMetadata(PositionsSchema(), map[string]string{MetaTable: TableStates, MetaSchemaVersion: strconv.Itoa(Version)})))
			return err
		}, "columns"},
	} {
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

package schema

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// snake turns a Go field name into its column name: KeyHi -> key_hi.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestSchemasMatchStructs checks that every struct field has its column, in
// order, and that exactly the pointer fields are nullable.
func TestSchemasMatchStructs(t *testing.T) {
	tests := []struct {
		name   string
		typ    reflect.Type
		schema *arrow.Schema
		column func(reflect.StructField) string
	}{
		{"summary", reflect.TypeFor[Summary](), SummarySchema(), func(f reflect.StructField) string {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			return name
		}},
		{"tiers", reflect.TypeFor[Tier](), TiersSolvedSchema(), func(f reflect.StructField) string { return snake(f.Name) }},
		{"pieces", reflect.TypeFor[Piece](), PiecesSchema(), func(f reflect.StructField) string { return snake(f.Name) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fields []string
			for f := range tt.typ.Fields() {
				if f.Anonymous {
					// PieceValue's fields but Valued are the nullable
					// value columns; Values is summary.json only.
					if f.Type != reflect.TypeFor[PieceValue]() {
						continue
					}
					for vf := range f.Type.Fields() {
						if vf.Name != "Valued" {
							fields = append(fields, snake(vf.Name))
							if i := len(fields) - 1; i < tt.schema.NumFields() && !tt.schema.Field(i).Nullable {
								t.Errorf("value column %q is not nullable", tt.schema.Field(i).Name)
							}
						}
					}
					continue
				}
				if f.Type == reflect.TypeFor[*Stages]() {
					continue // summary.json only
				}
				if f.Type == reflect.TypeFor[*TierOutcomes]() {
					// A solved run's tiers file has a non-nullable
					// column for each class; another has none.
					for vf := range f.Type.Elem().Fields() {
						fields = append(fields, "outcome_"+strings.ToLower(vf.Name))
						if i := len(fields) - 1; i < tt.schema.NumFields() && tt.schema.Field(i).Nullable {
							t.Errorf("outcome column %q is nullable", tt.schema.Field(i).Name)
						}
					}
					continue
				}
				fields = append(fields, tt.column(f))
				i := len(fields) - 1
				if i >= tt.schema.NumFields() {
					continue
				}
				col := tt.schema.Field(i)
				if isPtr := f.Type.Kind() == reflect.Pointer; col.Nullable != isPtr {
					t.Errorf("column %q nullable=%t, field %s is pointer=%t", col.Name, col.Nullable, f.Name, isPtr)
				}
			}
			var cols []string
			for _, f := range tt.schema.Fields() {
				cols = append(cols, f.Name)
			}
			if !slices.Equal(cols, fields) {
				t.Errorf("columns\n %v\nfields\n %v", cols, fields)
			}
			md := tt.schema.Metadata()
			if v, _ := md.GetValue(MetaSchemaVersion); v != strconv.Itoa(Version) {
				t.Errorf("schema metadata %s = %q", MetaSchemaVersion, v)
			}
			if v, _ := md.GetValue(MetaTable); v != tt.name {
				t.Errorf("schema metadata %s = %q, want %q", MetaTable, v, tt.name)
			}
		})
	}
}

// sampleFiles writes one file of each table and returns their paths by table.
func sampleFiles(t *testing.T) map[string]string {
	t.Helper()
	s := clobberSummary()
	s.MovedPieceFraction = nil // a null in a nullable column
	return map[string]string{
		TableSummary: writeFile(t, "summary.parquet", func(w io.Writer) error { return WriteSummary(w, s) }),
		TableTiers: writeFile(t, "tiers.parquet", func(w io.Writer) error {
			return WriteTiers(w, []Tier{{Game: "clobber", Board: "2x2", Tier: 0, Positions: 1, Moves: 4}})
		}),
		TablePieces: writeFile(t, "part-0.parquet", writePieces(randomPieces(500, 3), writeOptions{batchRows: 64, rowGroupRows: 200})),
	}
}

func TestFileMetadata(t *testing.T) {
	files := sampleFiles(t)
	for _, table := range []string{TableSummary, TableTiers, TablePieces} {
		t.Run(table, func(t *testing.T) {
			pf := openParquet(t, files[table])
			md := pf.MetaData()
			kv := md.KeyValueMetadata()
			if v := kv.FindValue(MetaSchemaVersion); v == nil || *v != strconv.Itoa(Version) {
				t.Errorf("key-value %s = %v, want %d", MetaSchemaVersion, v, Version)
			}
			if v := kv.FindValue(MetaTable); v == nil || *v != table {
				t.Errorf("key-value %s = %v, want %q", MetaTable, v, table)
			}

			// Top-level columns are required unless the schema says nullable,
			// and nested list elements and map values are required too.
			want := schemaFor(table)
			root := md.Schema.Root()
			for i, f := range want.Fields() {
				wantRep := parquet.Repetitions.Required
				if f.Nullable {
					wantRep = parquet.Repetitions.Optional
				}
				if rep := root.Field(i).RepetitionType(); rep != wantRep {
					t.Errorf("column %q is %s, want %s", f.Name, rep, wantRep)
				}
			}
			for i := 0; i < md.Schema.NumColumns(); i++ {
				c := md.Schema.Column(i)
				nullable := want.Field(want.FieldIndices(c.ColumnPath()[0])[0]).Nullable
				if maxDef := c.MaxDefinitionLevel(); !nullable && maxDef > int16(c.MaxRepetitionLevel()) {
					t.Errorf("leaf %s has definition level %d: some level is optional", c.Path(), maxDef)
				}
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
					if name != ColKeyHi && name != ColKeyLo {
						continue
					}
					if cc.HasDictionaryPage() {
						t.Errorf("row group %d column %s has a dictionary page", rg, name)
					}
					encs := cc.Encodings()
					if !slices.Contains(encs, parquet.Encodings.DeltaBinaryPacked) ||
						slices.Contains(encs, parquet.Encodings.RLEDict) || slices.Contains(encs, parquet.Encodings.PlainDict) {
						t.Errorf("row group %d column %s encodings %v, want DELTA_BINARY_PACKED only", rg, name, encs)
					}
					for _, st := range cc.EncodingStats() {
						if st.Encoding != parquet.Encodings.DeltaBinaryPacked {
							t.Errorf("row group %d column %s has a %s page", rg, name, st.Encoding)
						}
					}
				}
			}
		})
	}
}

// writeRaw writes a file of schema sc (with whatever metadata it carries)
// holding no rows, bypassing the package's writers.
func writeRaw(t *testing.T, sc *arrow.Schema) string {
	t.Helper()
	return writeFile(t, "raw.parquet", func(w io.Writer) error {
		fw, err := pqarrow.NewFileWriter(sc, w, nil, pqarrow.DefaultWriterProps())
		if err != nil {
			return err
		}
		return fw.Close()
	})
}

// withMetadata returns sc's fields under other metadata.
func withMetadata(sc *arrow.Schema, kv map[string]string) *arrow.Schema {
	md := arrow.MetadataFrom(kv)
	return arrow.NewSchema(sc.Fields(), &md)
}

func TestReadWrongFile(t *testing.T) {
	files := sampleFiles(t)
	v := strconv.Itoa(Version)
	notParquet := filepath.Join(t.TempDir(), "notes.parquet")
	if err := os.WriteFile(notParquet, []byte("positions,moves\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A one-row-less summary: right table and columns, but zero rows.
	noRows := writeRaw(t, SummarySchema())
	// Two rows in a summary.
	twoRows := writeFile(t, "two.parquet", func(w io.Writer) error {
		rec, err := summaryRecord(clobberSummary())
		if err != nil {
			return err
		}
		defer rec.Release()
		tbl := array.NewTableFromRecords(SummarySchema(), []arrow.RecordBatch{rec, rec})
		defer tbl.Release()
		return pqarrow.WriteTable(tbl, w, 10, nil, pqarrow.DefaultWriterProps())
	})

	type reader func(string) error
	readSummary := func(p string) error { _, err := ReadSummaryFile(p); return err }
	readTiers := func(p string) error { _, err := ReadTiersFile(p); return err }
	readPieces := func(p string) error { _, err := ReadPiecesFile(p); return err }

	tests := []struct {
		name      string
		path      string
		read      reader
		wrongKind bool   // the error must wrap ErrWrongTable
		msg       string // the error must contain this
	}{
		{"tiers as summary", files[TableTiers], readSummary, true, `holds table "tiers", want "summary"`},
		{"pieces as summary", files[TablePieces], readSummary, true, `holds table "pieces", want "summary"`},
		{"summary as tiers", files[TableSummary], readTiers, true, `holds table "summary", want "tiers"`},
		{"summary as pieces", files[TableSummary], readPieces, true, `holds table "summary", want "pieces"`},
		{"tiers as pieces", files[TableTiers], readPieces, true, `holds table "tiers", want "pieces"`},
		{"newer version", writeRaw(t, withMetadata(PiecesSchema(), map[string]string{MetaTable: TablePieces, MetaSchemaVersion: strconv.Itoa(Version + 1)})),
			readPieces, true, fmt.Sprintf("schema version %q", strconv.Itoa(Version+1))},
		{"newer tiers", writeRaw(t, withMetadata(TiersSchema(), map[string]string{MetaTable: TableTiers, MetaSchemaVersion: strconv.Itoa(Version + 1)})),
			readTiers, true, fmt.Sprintf("schema version %q, this build reads 1 or 2 or 3 or %d", strconv.Itoa(Version+1), Version)},
		{"version 0", writeRaw(t, withMetadata(SummarySchema(), map[string]string{MetaTable: TableSummary, MetaSchemaVersion: "0"})),
			readSummary, true, `schema version "0"`},
		// Version 1 pieces files lack the cgsuite column, and are not read
		// although version 4 dropped it too.
		{"version 1 pieces", writeRaw(t, withMetadata(piecesV1(), map[string]string{MetaTable: TablePieces, MetaSchemaVersion: "1"})),
			readPieces, true, `schema version "1"`},
		{"version missing", writeRaw(t, withMetadata(TiersSchema(), map[string]string{MetaTable: TableTiers})),
			readTiers, true, "no \"schema_version\""},
		{"no census metadata", writeRaw(t, withMetadata(TiersSchema(), nil)), readTiers, true, "no \"census_table\""},
		{"other columns", writeRaw(t, withMetadata(TiersSchema(), map[string]string{MetaTable: TableSummary, MetaSchemaVersion: v})),
			readSummary, true, "columns"},
		{"not parquet", notParquet, readSummary, false, "read summary"},
		{"missing file", filepath.Join(t.TempDir(), "none.parquet"), readTiers, false, "no such file"},
		{"summary with no rows", noRows, readSummary, false, "0 rows"},
		{"summary with two rows", twoRows, readSummary, false, "2 rows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read(tt.path)
			if err == nil {
				t.Fatal("read succeeded, want an error")
			}
			if got := errors.Is(err, ErrWrongTable); got != tt.wrongKind {
				t.Errorf("errors.Is(ErrWrongTable) = %t, want %t: %v", got, tt.wrongKind, err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
		})
	}
}

// piecesV1 is the pieces schema of version 1: the columns of version 3
// but cgsuite and the value columns, which are today's but the value
// columns.
func piecesV1() *arrow.Schema {
	return arrow.NewSchema(PiecesSchema().Fields()[:pOutcome], nil)
}

// TestReadVersion1 checks that summary and tiers files of version 1, whose
// columns are today's, still read, with the version they were written
// under; the published results under results/ are such files.
func TestReadVersion1(t *testing.T) {
	withV1 := func(sc *arrow.Schema, table string) *arrow.Schema {
		return withMetadata(sc, map[string]string{MetaTable: table, MetaSchemaVersion: "1"})
	}
	t.Run("tiers", func(t *testing.T) {
		want := []Tier{
			{Game: "domineering", Board: "4x4", Tier: 0, Positions: 1, Moves: 24, WithDead: 0},
			{Game: "domineering", Board: "4x4", Tier: 1, Positions: 24, Moves: 360, Split: 2, LivePiecesWhenSplit: 4, WithDead: 4},
		}
		rec := tiersRecord(t, want)
		defer rec.Release()
		path := writeFile(t, "tiers.parquet", func(w io.Writer) error {
			return writeRecordAs(w, withV1(TiersSchema(), TableTiers), rec)
		})
		got, err := ReadTiersFile(path)
		if err != nil {
			t.Fatalf("ReadTiersFile of version 1: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("read %+v, want %+v", got, want)
		}
	})
	t.Run("summary", func(t *testing.T) {
		want := clobberSummary()
		want.SchemaVersion = 1
		rec, err := summaryRecord(clobberSummary())
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		// The version column says 1, as in a file written by version 1.
		cols := rec.Columns()
		b := array.NewInt32Builder(memory.DefaultAllocator)
		defer b.Release()
		b.Append(1)
		ver := b.NewArray()
		defer ver.Release()
		cols = append([]arrow.Array{ver}, cols[1:]...)
		sc := withV1(SummarySchema(), TableSummary)
		old := array.NewRecordBatch(sc, cols, 1)
		defer old.Release()
		path := writeFile(t, "summary.parquet", func(w io.Writer) error { return writeRecordAs(w, sc, old) })
		got, err := ReadSummaryFile(path)
		if err != nil {
			t.Fatalf("ReadSummaryFile of version 1: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("read %+v, want %+v", got, want)
		}
	})
}

// tiersRecord builds the record batch WriteTiers would write, by writing
// and reading it back.
func tiersRecord(t *testing.T, rows []Tier) arrow.RecordBatch {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteTiers(&buf, rows); err != nil {
		t.Fatal(err)
	}
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf.Bytes()), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, -1)
	defer tr.Release()
	if !tr.Next() {
		t.Fatal("no rows")
	}
	rec := tr.RecordBatch()
	rec.Retain()
	return rec
}

// writeRecordAs writes rec's columns under schema sc (its metadata becomes
// the file's), bypassing the package's writers.
func writeRecordAs(w io.Writer, sc *arrow.Schema, rec arrow.RecordBatch) error {
	fw, err := pqarrow.NewFileWriter(sc, w, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	out := array.NewRecordBatch(sc, rec.Columns(), rec.NumRows())
	defer out.Release()
	if err := fw.Write(out); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

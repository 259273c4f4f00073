package schema

import (
	"bufio"
	"cmp"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// encodingRule is a row of COLUMNS.md's encodings table.
type encodingRule struct {
	table   string
	columns []string // nil: every (other) column
	// encoding is "dictionary", "PLAIN", "DELTA_BINARY_PACKED" or
	// "DELTA_LENGTH_BYTE_ARRAY".
	encoding string
}

// documentedEncodings reads the encodings table of COLUMNS.md.
func documentedEncodings(t *testing.T) []encodingRule {
	t.Helper()
	f, err := os.Open("COLUMNS.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rules []encodingRule
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "### Encodings":
			in = true
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "#"):
			in = false
			continue
		case !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| table") || strings.HasPrefix(line, "|---"):
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 {
			t.Fatalf("COLUMNS.md encodings row %q: want 3 cells", line)
		}
		r := encodingRule{table: cells[0], encoding: strings.Trim(cells[2], "`")}
		if !strings.HasPrefix(cells[1], "every") {
			for _, c := range strings.Split(cells[1], ", ") {
				r.columns = append(r.columns, strings.Trim(c, "`"))
			}
		}
		rules = append(rules, r)
	}
	if len(rules) == 0 {
		t.Fatal("COLUMNS.md has no encodings table under ### Encodings")
	}
	return rules
}

// ruleFor is the rule of COLUMNS.md for a column of a table: the one
// naming it, else the table's rule for every (other) column.
func ruleFor(rules []encodingRule, table, column string) (encodingRule, bool) {
	var every *encodingRule
	for i, r := range rules {
		if r.table != table {
			continue
		}
		if r.columns == nil {
			every = &rules[i]
		} else if slices.Contains(r.columns, column) {
			return r, true
		}
	}
	if every != nil {
		return *every, true
	}
	return encodingRule{}, false
}

// tableFiles writes a file of every table, with enough rows for several
// pages, and returns their paths by table name.
func tableFiles(t *testing.T) map[string]string {
	tiers := []Tier{}
	for i := range 40 {
		tiers = append(tiers, Tier{Game: "clobber", Board: "4x4", Tier: int32(i), Positions: uint64(i * i), Moves: uint64(3 * i)})
	}
	// The positions file is a solved run's, which has every column of the
	// other layout.
	return map[string]string{
		TableSummary:   writeFile(t, SummaryFile, func(w io.Writer) error { return WriteSummary(w, clobberSummary()) }),
		TableTiers:     writeFile(t, TiersFile, func(w io.Writer) error { return WriteTiers(w, tiers) }),
		TablePieces:    writeFile(t, PartName(0), writePieces(randomPieces(5000, 7), defaultOptions)),
		TablePositions: writeFile(t, PartName(0), writePositions(withOutcomes(randomPositions(5000, 7)), defaultOptions)),
	}
}

// TestEncodingsAsDocumented checks every column of every table against
// the encodings table of COLUMNS.md: the data pages' encodings, and a
// dictionary page exactly where it says dictionary.
func TestEncodingsAsDocumented(t *testing.T) {
	rules := documentedEncodings(t)
	for table, path := range tableFiles(t) {
		t.Run(table, func(t *testing.T) {
			md := openParquet(t, path).MetaData()
			for rg := 0; rg < md.NumRowGroups(); rg++ {
				for col := 0; col < md.NumColumns(); col++ {
					cc, err := md.RowGroup(rg).ColumnChunk(col)
					if err != nil {
						t.Fatal(err)
					}
					column := cc.PathInSchema()[0]
					rule, ok := ruleFor(rules, table, column)
					if !ok {
						t.Errorf("COLUMNS.md gives no encoding for %s column %s", table, column)
						continue
					}
					checkEncoding(t, table+"."+column, cc.HasDictionaryPage(), cc.EncodingStats(), rule.encoding)
				}
			}
		})
	}
	for _, r := range rules {
		// A solved run's file has every column of the table.
		sc := cmp.Or(solvedSchemas[r.table], schemaFor(r.table))
		for _, c := range r.columns {
			if sc == nil || slices.IndexFunc(sc.Fields(), func(f arrow.Field) bool { return f.Name == c }) < 0 {
				t.Errorf("COLUMNS.md gives an encoding for %s column %s, which the table lacks", r.table, c)
			}
		}
	}
}

func checkEncoding(t *testing.T, column string, hasDict bool, stats []metadata.PageEncodingStats, want string) {
	t.Helper()
	var data []parquet.Encoding
	var dict []parquet.Encoding
	for _, st := range stats {
		switch st.PageType.String() {
		case "DICTIONARY_PAGE":
			dict = append(dict, st.Encoding)
		case "DATA_PAGE", "DATA_PAGE_V2":
			data = append(data, st.Encoding)
		}
	}
	if len(data) == 0 {
		t.Fatalf("%s: no data pages in the encoding stats", column)
	}
	wantData := map[string]parquet.Encoding{
		"dictionary":              parquet.Encodings.RLEDict,
		"PLAIN":                   parquet.Encodings.Plain,
		"DELTA_BINARY_PACKED":     parquet.Encodings.DeltaBinaryPacked,
		"DELTA_LENGTH_BYTE_ARRAY": parquet.Encodings.DeltaLengthByteArray,
	}[want]
	if wantData == 0 && want != "PLAIN" {
		t.Fatalf("%s: COLUMNS.md names an unknown encoding %q", column, want)
	}
	for _, e := range data {
		if e != wantData {
			t.Errorf("%s: a data page is %s, COLUMNS.md says %s", column, e, want)
		}
	}
	switch {
	case want == "dictionary" && (!hasDict || len(dict) == 0):
		t.Errorf("%s: no dictionary page, COLUMNS.md says dictionary", column)
	case want == "dictionary" && slices.ContainsFunc(dict, func(e parquet.Encoding) bool {
		return e != parquet.Encodings.Plain && e != parquet.Encodings.PlainDict
	}):
		t.Errorf("%s: dictionary page encodings %v, want PLAIN", column, dict)
	case want != "dictionary" && (hasDict || len(dict) > 0):
		t.Errorf("%s: a dictionary page, COLUMNS.md says %s", column, want)
	}
}

// TestCreatedBy checks that every table's files name census and the
// Parquet library, at the library version the module requires.
func TestCreatedBy(t *testing.T) {
	// The library's version as go.mod requires it.
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	lib := ""
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(strings.TrimPrefix(line, "require "))
		if len(f) >= 2 && f[0] == "github.com/apache/arrow-go/v18" {
			lib = f[1]
		}
	}
	if lib == "" {
		t.Fatal("go.mod requires no github.com/apache/arrow-go/v18")
	}
	t.Cleanup(func() { censusVersion.Store(nil) })
	SetVersion("v1.2.3-test")
	want := "census v1.2.3-test (arrow-go parquet " + lib + ")"
	if got := CreatedBy(); got != want {
		t.Errorf("CreatedBy() = %q, want %q", got, want)
	}
	for table, path := range tableFiles(t) {
		if got := openParquet(t, path).MetaData().GetCreatedBy(); got != want {
			t.Errorf("%s file: created_by %q, want %q", table, got, want)
		}
	}
}

package duckdb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// queriesDoc is the page, relative to the repository's root, whose section
// queriesSection holds the SQL blocks the tests run.
const (
	queriesDoc     = "docs/outputs.md"
	queriesSection = "## Querying the results"
)

// TestDocQueries runs every SQL block of docs/outputs.md's "Querying the
// results" section against real census outputs and checks each answer. A
// block names its checker on its first line, "-- check: NAME"; a block
// without a known checker fails, and so does a checker no block names, so the
// page and the tests cannot drift apart.
func TestDocQueries(t *testing.T) {
	blocks, err := sqlBlocks(filepath.Join("..", "..", filepath.FromSlash(queriesDoc)), queriesSection)
	if err != nil {
		t.Fatal(err)
	}
	o := censusOutputs(t)
	db := openDuckDB(t)
	seen := map[string]bool{}
	for _, b := range blocks {
		name := checkName(b.text)
		seen[name] = true
		t.Run(fmt.Sprintf("%s:%d:%s", filepath.Base(queriesDoc), b.line, name), func(t *testing.T) {
			c, ok := checkers[name]
			if !ok {
				t.Fatalf("%s:%d: sql block has no known checker: its first line must be \"-- check: NAME\" with NAME one of %v", queriesDoc, b.line, checkerNames())
			}
			stmts := statements(b.text)
			if len(stmts) != 1 {
				t.Fatalf("%s:%d: sql block holds %d statements, want one query per checked block", queriesDoc, b.line, len(stmts))
			}
			res, err := query(t.Context(), db, withOut(stmts[0], o.dir))
			if err != nil {
				t.Fatalf("%s:%d: %v\n%s", queriesDoc, b.line, err, stmts[0])
			}
			if len(res.rows) == 0 {
				t.Fatalf("%s:%d: query returned no rows", queriesDoc, b.line)
			}
			c.check(t, o, res)
		})
	}
	for _, name := range checkerNames() {
		if !seen[name] {
			t.Errorf("%s section %q has no sql block checked by %q", queriesDoc, queriesSection, name)
		}
	}
}

// TestColumnsQueries runs the DuckDB statements of schema/COLUMNS.md's
// "Reading the tables" on the same outputs. Their answers are each checked
// in substance by docs/outputs.md's queries; here every statement must run
// and return rows. Statements that read the positions table are skipped when the
// census binary cannot write it.
func TestColumnsQueries(t *testing.T) {
	blocks, err := sqlBlocks(filepath.Join("..", "..", "schema", "COLUMNS.md"), "## Reading the tables")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) == 0 {
		t.Fatal("schema/COLUMNS.md \"Reading the tables\" has no sql block")
	}
	o := censusOutputs(t)
	db := openDuckDB(t)
	for _, b := range blocks {
		for i, stmt := range statements(b.text) {
			t.Run(fmt.Sprintf("COLUMNS.md:%d:%d", b.line, i), func(t *testing.T) {
				res, err := query(t.Context(), db, withOut(stmt, o.dir))
				if err != nil {
					t.Fatalf("%v\n%s", err, stmt)
				}
				if len(res.rows) == 0 {
					t.Fatalf("no rows from\n%s", stmt)
				}
			})
		}
	}
}

func TestSQLBlocks(t *testing.T) {
	const doc = "# T\n\n## Other\n\n```sql\nSELECT 0;\n```\n\n## Querying the results\n\ntext\n\n" +
		"```sh\n## not a heading\n```\n\n```sql\n-- check: a\nSELECT 1;\n```\n\n### Sub\n\n" +
		"   ```sql\n   -- check: b\n   SELECT 2;\n   SELECT 3;\n   ```\n\n## Next\n\n```sql\nSELECT 4;\n```\n"
	path := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks, err := sqlBlocks(path, queriesSection)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		got = append(got, fmt.Sprintf("%d %s %q", b.line, checkName(b.text), statements(b.text)))
	}
	want := []string{
		`18 a ["SELECT 1;"]`,
		`25 b ["SELECT 2;" "SELECT 3;"]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("blocks:\n got %q\nwant %q", got, want)
	}
	if _, err := sqlBlocks(path, "## Missing"); err == nil || !strings.Contains(err.Error(), "Missing") {
		t.Errorf("missing section: err = %v, want one naming the section", err)
	}
}

func TestWithOut(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"glob", "FROM read_parquet('OUT/*/summary.parquet')", "FROM read_parquet('/d/*/summary.parquet')"},
		{"bare path", "FROM 'OUT/a/tiers.parquet' x JOIN 'OUT/b' y", "FROM '/d/a/tiers.parquet' x JOIN '/d/b' y"},
		{"not a path", "SELECT 'OUTER', OUT FROM t", "SELECT 'OUTER', OUT FROM t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withOut(tt.in, "/d"); got != tt.want {
				t.Errorf("withOut(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestDuckDBReadsUnsigned checks the type mapping docs/outputs.md and COLUMNS.md
// promise for keys of 2^63 and above, with DuckDB alone.
func TestDuckDBReadsUnsigned(t *testing.T) {
	db := openDuckDB(t)
	res, err := query(t.Context(), db, "SELECT CAST(18446744073709551615 AS UBIGINT) AS k")
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := res.rows[0][0].(uint64); !ok || got != 1<<64-1 {
		t.Errorf("UBIGINT 2^64-1 read as %v (%T), want uint64 %d", res.rows[0][0], res.rows[0][0], uint64(1<<64-1))
	}
}

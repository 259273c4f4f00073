package duckdb

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

// sqlBlock is one ```sql block of a Markdown section.
type sqlBlock struct {
	// line is the block's first line in the file, for messages.
	line int
	text string
}

// sqlBlocks returns the ```sql blocks of the section of a Markdown file that
// starts with the heading line heading and ends at the next heading of the
// same level. A missing section is an error, so renaming it fails the tests
// rather than leaving them with nothing to check.
func sqlBlocks(path, heading string) ([]sqlBlock, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	level := heading[:strings.IndexByte(heading, ' ')+1]
	var (
		blocks     []sqlBlock
		cur        *sqlBlock
		in, found  bool
		fenced     bool
		lineNumber int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineNumber++
		line := sc.Text()
		switch fence := strings.HasPrefix(strings.TrimSpace(line), "```"); {
		case fence && cur != nil:
			blocks = append(blocks, *cur)
			cur, fenced = nil, false
		case fence && fenced:
			fenced = false
		case fence:
			fenced = true
			if in && strings.TrimSpace(line) == "```sql" {
				cur = &sqlBlock{line: lineNumber + 1}
			}
		case cur != nil:
			cur.text += line + "\n"
		case fenced:
			// A line starting with '#' inside a block is not a heading.
		case line == heading:
			in, found = true, true
		case in && strings.HasPrefix(line, level):
			in = false
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !found {
		return nil, fmt.Errorf("%s has no section %q", path, heading)
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: sql block not closed", path, cur.line)
	}
	return blocks, nil
}

// checkName returns the NAME of the block's first line "-- check: NAME", or
// "" if the block does not start with one.
func checkName(block string) string {
	first, _, _ := strings.Cut(block, "\n")
	name, ok := strings.CutPrefix(strings.TrimSpace(first), "-- check:")
	if !ok {
		return ""
	}
	return strings.TrimSpace(name)
}

// statements splits a block of SQL into statements at semicolons that end a
// line, dropping comment lines. The census's documented queries hold no
// semicolons inside strings, which this relies on.
func statements(block string) []string {
	var (
		out []string
		cur strings.Builder
	)
	for line := range strings.Lines(block) {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "--") {
			continue
		}
		cur.WriteString(line)
		if strings.HasSuffix(trimmed, ";") {
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}

// withOut substitutes the output directory for the placeholder OUT at the
// start of every quoted path of a query.
func withOut(query, dir string) string {
	return strings.ReplaceAll(query, "'OUT/", "'"+dir+"/")
}

// result is the answer to one query: its column names and its rows, each
// value as the driver returned it.
type result struct {
	cols []string
	rows [][]any
}

// col returns the index of the named column, failing the test if the query
// has no such column.
func (r result) col(t *testing.T, name string) int {
	t.Helper()
	for i, c := range r.cols {
		if c == name {
			return i
		}
	}
	t.Fatalf("query has no column %q (columns %v)", name, r.cols)
	return -1
}

// has reports whether the query has the named column.
func (r result) has(name string) bool {
	for _, c := range r.cols {
		if c == name {
			return true
		}
	}
	return false
}

func openDuckDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatalf("open duckdb: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func query(ctx context.Context, db *sql.DB, q string) (result, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return result{}, fmt.Errorf("query: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return result{}, fmt.Errorf("columns: %w", err)
	}
	res := result{cols: cols}
	for rows.Next() {
		row := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return result{}, fmt.Errorf("scan: %w", err)
		}
		res.rows = append(res.rows, row)
	}
	if err := rows.Err(); err != nil {
		return result{}, fmt.Errorf("read rows: %w", err)
	}
	return res, nil
}

// asUint returns a non-negative integer the driver returned, whatever the
// SQL type it came from (count is BIGINT, sums of UBIGINT are HUGEINT).
func asUint(t *testing.T, v any) uint64 {
	t.Helper()
	switch x := v.(type) {
	case uint64:
		return x
	case uint32:
		return uint64(x)
	case int64:
		if x >= 0 {
			return uint64(x)
		}
	case int32:
		if x >= 0 {
			return uint64(x)
		}
	case int:
		if x >= 0 {
			return uint64(x)
		}
	case *big.Int:
		if x.IsUint64() {
			return x.Uint64()
		}
	case float64:
		// JSON numbers decode as float64; the counts compared here are
		// far below 2^53.
		if x >= 0 && x == float64(uint64(x)) {
			return uint64(x)
		}
	}
	t.Fatalf("value %v (%T) is not a non-negative integer", v, v)
	return 0
}

func asFloat(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	}
	t.Fatalf("value %v (%T) is not a floating-point number", v, v)
	return 0
}

func asString(t *testing.T, v any) string {
	t.Helper()
	s, ok := v.(string)
	if !ok {
		t.Fatalf("value %v (%T) is not a string", v, v)
	}
	return s
}

// Command readbench measures what the pieces table's page codec costs its
// readers: it runs a fixed set of DuckDB queries over the pieces tables of
// runs of one board written with different codecs (census run
// --pieces-codec zstd|snappy|lz4_raw) and prints, per run, the table's bytes
// on disk and the median wall and CPU time of each query, with their
// ratios to zstd's.
//
//	cd interop/duckdb && go run ./cmd/readbench [-rounds N] RUN_DIR...
//
// RUN_DIR is OUT/GAME-BOARD of a census run. The codec of each run is read
// from its first part's Parquet metadata. DuckDB runs in memory with two
// threads. After one untimed pass of every query over every run (which also
// brings the files into the page cache), each round runs each query over
// each run in turn (query 1 on A, B, C, query 2 on A, B, C, ...), so that
// the runs share the load of a shared machine. A time covers the query and
// reading every row of its answer into Go; the CPU time (getrusage, Unix
// only) is the steadier of the two when the machine is loaded.
// scripts/pieces-codec-read.sh makes the runs and calls it.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

// A query is one of the timed queries; sql returns its text for a run.
type query struct {
	name, what string
	sql        func(r *run) string
}

var queries = []query{
	{"Q1", "sizes: integer columns only", func(r *run) string {
		return "SELECT size, count(*), sum(positions) FROM " + r.from() + " GROUP BY size ORDER BY size"
	}},
	{"Q2", "symmetry classes: two uint64 columns, hashed", func(r *run) string {
		return "SELECT count(*) FROM (SELECT symmetric_hi, symmetric_lo FROM " + r.from() + " GROUP BY ALL)"
	}},
	{"Q3", "a string column in full", func(r *run) string {
		return "SELECT max(length(picture)), count(*) FROM " + r.from() + " WHERE picture LIKE '%x%o%'"
	}},
	{"Q4", "point lookup of one key", func(r *run) string {
		return fmt.Sprintf("SELECT * FROM %s WHERE key_hi = %d AND key_lo = %d", r.from(), r.keyHi, r.keyLo)
	}},
	{"Q5", "top 10 rows, every column", func(r *run) string {
		return "SELECT * FROM " + r.from() + " ORDER BY positions DESC LIMIT 10"
	}},
}

// A run is one census run's pieces table.
type run struct {
	dir, codec   string
	parts        []string
	bytes        int64
	keyHi, keyLo uint64
	wall, cpu    [][]float64 // ms, per query, one time a round
}

// from returns the table expression of the run's parts.
func (r *run) from() string { return quote(filepath.Join(r.dir, "pieces", "*.parquet")) }

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func main() {
	rounds := flag.Int("rounds", 5, "timed rounds")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: readbench [-rounds N] RUN_DIR...")
		fmt.Fprintln(os.Stderr, "Times DuckDB queries over each run's pieces/*.parquet and prints a markdown table.")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 || *rounds < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := bench(flag.Args(), *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "readbench:", err)
		os.Exit(1)
	}
}

func bench(dirs []string, rounds int) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET threads = 2"); err != nil {
		return err
	}
	var version string
	if err := db.QueryRow("SELECT version()").Scan(&version); err != nil {
		return err
	}
	runs := make([]*run, len(dirs))
	for i, dir := range dirs {
		if runs[i], err = open(db, dir); err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
	}
	for _, r := range runs { // warm-up; every query answers at least a row
		for _, q := range queries {
			if _, _, n, err := timeQuery(db, q.sql(r)); err != nil || n == 0 {
				return fmt.Errorf("%s %s: %d rows, error %v", r.dir, q.name, n, err)
			}
		}
	}
	for range rounds {
		for qi, q := range queries {
			for _, r := range runs {
				wall, cpu, _, err := timeQuery(db, q.sql(r))
				if err != nil {
					return fmt.Errorf("%s %s: %w", r.dir, q.name, err)
				}
				r.wall[qi] = append(r.wall[qi], wall)
				r.cpu[qi] = append(r.cpu[qi], cpu)
			}
		}
	}
	printTables(runs, rounds, version)
	return nil
}

// open lists a run's parts and reads their bytes, codec and a key that
// exists (the middle row of the first part) for the point lookup.
func open(db *sql.DB, dir string) (*run, error) {
	r := &run{dir: dir, wall: make([][]float64, len(queries)), cpu: make([][]float64, len(queries))}
	var err error
	if r.parts, err = filepath.Glob(filepath.Join(dir, "pieces", "*.parquet")); err != nil || len(r.parts) == 0 {
		return nil, fmt.Errorf("no pieces/*.parquet")
	}
	for _, p := range r.parts {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		r.bytes += fi.Size()
	}
	first := quote(r.parts[0])
	if err := db.QueryRow("SELECT lower(string_agg(DISTINCT compression, '+')) FROM parquet_metadata(" + first + ")").Scan(&r.codec); err != nil {
		return nil, err
	}
	err = db.QueryRow("SELECT key_hi, key_lo FROM read_parquet("+first+", file_row_number = true)"+
		" WHERE file_row_number = (SELECT count(*) FROM "+first+") // 2").Scan(&r.keyHi, &r.keyLo)
	return r, err
}

// timeQuery runs q, reads every row of its answer and returns the wall and
// CPU milliseconds taken and the number of rows. The CPU time is the whole
// process's (DuckDB's threads and Go's), which a loaded machine inflates
// much less than the wall time.
func timeQuery(db *sql.DB, q string) (wall, cpu float64, n int, err error) {
	start, cpu0 := time.Now(), cpuMillis()
	rows, err := db.Query(q)
	if err != nil {
		return 0, 0, 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, 0, 0, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, 0, n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return 0, 0, n, err
	}
	return float64(time.Since(start).Microseconds()) / 1000, cpuMillis() - cpu0, n, nil
}

// cpuMillis returns the user and system CPU time of the process so far.
func cpuMillis() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// printTables writes the medians of wall and CPU times with their ratios to
// the zstd run (or to the first run, if none is zstd), then the spread of
// each query's times, then the queries.
func printTables(runs []*run, rounds int, version string) {
	base := runs[0]
	for _, r := range runs {
		if r.codec == "zstd" {
			base = r
			break
		}
	}
	fmt.Printf("DuckDB %s, threads 2, %d rounds after a warm-up; ratios to %s\n", version, rounds, base.codec)
	table("median wall ms", runs, "| pieces bytes ", func(r *run) string {
		return fmt.Sprintf("| %s (%.2fx) ", commas(r.bytes), float64(r.bytes)/float64(base.bytes))
	}, func(r *run, qi int) string {
		return fmt.Sprintf("%.1f (%.2fx)", median(r.wall[qi]), median(r.wall[qi])/median(base.wall[qi]))
	})
	table("median CPU ms (user+sys of the process)", runs, "", nil, func(r *run, qi int) string {
		return fmt.Sprintf("%.1f (%.2fx)", median(r.cpu[qi]), median(r.cpu[qi])/median(base.cpu[qi]))
	})
	table("spread: wall ms min-max / CPU ms min-max", runs, "", nil, func(r *run, qi int) string {
		return fmt.Sprintf("%.0f-%.0f / %.0f-%.0f", slices.Min(r.wall[qi]), slices.Max(r.wall[qi]),
			slices.Min(r.cpu[qi]), slices.Max(r.cpu[qi]))
	})
	fmt.Println()
	for _, q := range queries {
		fmt.Printf("%s (%s): %s\n", q.name, q.what, q.sql(runs[0]))
	}
}

// table writes a markdown table of a row a run and a column a query, with
// an optional column (heading extra, cells first) after the codec.
func table(title string, runs []*run, extra string, first func(*run) string, cell func(*run, int) string) {
	fmt.Printf("\n%s:\n\n| codec %s|", title, extra)
	for _, q := range queries {
		fmt.Printf(" %s |", q.name)
	}
	fmt.Print("\n|---|")
	if first != nil {
		fmt.Print("---:|")
	}
	fmt.Println(strings.Repeat("---:|", len(queries)))
	for _, r := range runs {
		fmt.Printf("| %s ", r.codec)
		if first != nil {
			fmt.Print(first(r))
		}
		fmt.Print("|")
		for qi := range queries {
			fmt.Printf(" %s |", cell(r, qi))
		}
		fmt.Println()
	}
}

// commas formats n with thousands separators.
func commas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

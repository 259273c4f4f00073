package duckdb

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/census-cgt/census/schema"
)

// checker checks the answer of one docs/outputs.md query against the census outputs,
// computed without DuckDB.
type checker struct {
	check func(t *testing.T, o *outputs, res result)
}

// checkers are docs/outputs.md's checked queries by the name on their first line.
var checkers = map[string]checker{
	"ladder":            {check: checkLadder},
	"top_pieces":        {check: checkTopPieces},
	"split_by_tier":     {check: checkSplitByTier},
	"pieces_by_size":    {check: checkPiecesBySize},
	"runs_by_file":      {check: checkRunsByFile},
	"kv_metadata":       {check: checkKVMetadata},
	"positions_by_tier": {check: checkPositionsByTier},
}

func checkerNames() []string {
	return slices.Sorted(maps.Keys(checkers))
}

// runOf returns the run GAME-BOARD of a row from its game and board columns.
func runOf(t *testing.T, res result, row []any) string {
	t.Helper()
	return asString(t, row[res.col(t, "game")]) + "-" + asString(t, row[res.col(t, "board")])
}

// wantEveryRun fails the test unless the rows name every run exactly once.
func wantEveryRun(t *testing.T, o *outputs, runs []string) {
	t.Helper()
	got := slices.Sorted(slices.Values(runs))
	want := slices.Sorted(maps.Keys(o.summaries))
	if !slices.Equal(got, want) {
		t.Errorf("rows for runs %v, want one row for each of %v", got, want)
	}
}

// closeTo reports whether got is want rounded to the given decimals.
func closeTo(got, want float64, decimals int) bool {
	return math.Abs(got-want) <= 0.5*math.Pow(10, -float64(decimals))+1e-12
}

// ladderSteps are the identification ladder's counts, in order.
var ladderSteps = []string{
	"positions", "dead_free_boards", "pieces_in_place",
	"pieces_translated", "pieces_symmetric", "pieces_negation",
}

// checkLadder: one row per run with the six counts of the ladder equal to
// summary.json, and x_STEP the factor from the previous step to STEP,
// rounded to two decimals.
func checkLadder(t *testing.T, o *outputs, res result) {
	var runs []string
	for _, row := range res.rows {
		run := runOf(t, res, row)
		runs = append(runs, run)
		raw, ok := o.raw[run]
		if !ok {
			t.Fatalf("row for run %s, which the tests did not run", run)
		}
		for i, step := range ladderSteps {
			got := asUint(t, row[res.col(t, step)])
			if want := asUint(t, raw[step]); got != want {
				t.Errorf("%s %s = %d, want %d (summary.json)", run, step, got, want)
			}
			if i == 0 {
				continue
			}
			factor := "x_" + step[len("pieces_"):]
			if step == "dead_free_boards" {
				factor = "x_dead_free"
			}
			want := asFloat(t, raw[ladderSteps[i-1]]) / asFloat(t, raw[step])
			if got := asFloat(t, row[res.col(t, factor)]); !closeTo(got, want, 2) {
				t.Errorf("%s %s = %v, want %.4f rounded to 2 decimals", run, factor, got, want)
			}
		}
	}
	wantEveryRun(t, o, runs)
}

// checkTopPieces: the ten pieces of Clobber 4x4 that occur in the most
// positions, ties broken by key, against the pieces files read with the
// census's own reader and sorted here.
func checkTopPieces(t *testing.T, o *outputs, res result) {
	parts, err := filepath.Glob(filepath.Join(o.dir, "clobber-4x4", "pieces", "part-*.parquet"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("pieces parts of clobber-4x4: %v, %v", parts, err)
	}
	var all []schema.Piece
	for _, p := range parts {
		pieces, err := schema.ReadPiecesFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, pieces...)
	}
	if got, want := uint64(len(all)), o.summaries["clobber-4x4"].PiecesTranslated; got != want {
		t.Fatalf("pieces files hold %d rows, summary says %d", got, want)
	}
	slices.SortFunc(all, func(a, b schema.Piece) int {
		return cmp.Or(cmp.Compare(b.Positions, a.Positions), cmp.Compare(a.KeyHi, b.KeyHi), cmp.Compare(a.KeyLo, b.KeyLo))
	})
	want := all[:10]
	if len(res.rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(res.rows), len(want))
	}
	for i, row := range res.rows {
		w := want[i]
		got := fmt.Sprintf("%s size %d in %d positions",
			asString(t, row[res.col(t, "picture")]), asUint(t, row[res.col(t, "size")]), asUint(t, row[res.col(t, "positions")]))
		if exp := fmt.Sprintf("%s size %d in %d positions", w.Picture, w.Size, w.Positions); got != exp {
			t.Errorf("row %d: %s, want %s", i, got, exp)
		}
	}
}

// checkSplitByTier: one row per tier of every run, with the tier's positions
// and split positions equal to positions_by_tier and split_by_tier of
// summary.json and split_share their ratio to four decimals.
func checkSplitByTier(t *testing.T, o *outputs, res result) {
	seen := map[string]bool{}
	for _, row := range res.rows {
		run := runOf(t, res, row)
		s := o.summary(t, asString(t, row[res.col(t, "game")]), asString(t, row[res.col(t, "board")]))
		tier := asUint(t, row[res.col(t, "tier")])
		if tier >= uint64(len(s.PositionsByTier)) {
			t.Fatalf("%s: tier %d, but the run has %d tiers", run, tier, len(s.PositionsByTier))
		}
		seen[fmt.Sprintf("%s/%d", run, tier)] = true
		positions, split := asUint(t, row[res.col(t, "positions")]), asUint(t, row[res.col(t, "split")])
		if positions != s.PositionsByTier[tier] || split != s.SplitByTier[tier] {
			t.Errorf("%s tier %d: %d positions, %d split; summary.json says %d, %d",
				run, tier, positions, split, s.PositionsByTier[tier], s.SplitByTier[tier])
		}
		want := float64(s.SplitByTier[tier]) / float64(s.PositionsByTier[tier])
		if got := asFloat(t, row[res.col(t, "split_share")]); !closeTo(got, want, 4) {
			t.Errorf("%s tier %d: split_share %v, want %.6f to 4 decimals", run, tier, got, want)
		}
	}
	total := 0
	for _, s := range o.summaries {
		total += len(s.PositionsByTier)
	}
	if len(seen) != total || len(res.rows) != total {
		t.Errorf("%d rows for %d distinct tiers, want one row for each of the %d tiers of the runs", len(res.rows), len(seen), total)
	}
}

// checkPiecesBySize: one row per run and size, equal to pieces_by_size of
// summary.json.
func checkPiecesBySize(t *testing.T, o *outputs, res result) {
	got := map[string]map[int]uint64{}
	for _, row := range res.rows {
		run := runOf(t, res, row)
		size := int(asUint(t, row[res.col(t, "size")]))
		if got[run] == nil {
			got[run] = map[int]uint64{}
		}
		if _, dup := got[run][size]; dup {
			t.Errorf("%s: two rows for size %d", run, size)
		}
		got[run][size] = asUint(t, row[res.col(t, "pieces")])
	}
	for run, s := range o.summaries {
		if !maps.Equal(got[run], s.PiecesBySize) {
			t.Errorf("%s pieces by size = %v, summary.json says %v", run, got[run], s.PiecesBySize)
		}
	}
}

// checkRunsByFile: one row per run named from the file it was read from,
// with the number of tiers and the summed positions and moves of
// summary.json.
func checkRunsByFile(t *testing.T, o *outputs, res result) {
	var runs []string
	for _, row := range res.rows {
		run := asString(t, row[res.col(t, "run")])
		runs = append(runs, run)
		s, ok := o.summaries[run]
		if !ok {
			t.Errorf("row for run %q, which the tests did not run", run)
			continue
		}
		tiers, positions, moves := asUint(t, row[res.col(t, "tiers")]), asUint(t, row[res.col(t, "positions")]), asUint(t, row[res.col(t, "moves")])
		if tiers != uint64(s.Tiers) || positions != s.Positions || moves != s.Moves {
			t.Errorf("%s: %d tiers, %d positions, %d moves; summary.json says %d, %d, %d",
				run, tiers, positions, moves, s.Tiers, s.Positions, s.Moves)
		}
	}
	wantEveryRun(t, o, runs)
}

// partFile matches a pieces part; its table is pieces.
var partFile = regexp.MustCompile(`/pieces/part-[0-9]+\.parquet$`)

// checkKVMetadata: every file the query read carries census_table naming
// its table and schema_version equal to schema.Version, and the query read
// summary.parquet and tiers.parquet of every run.
func checkKVMetadata(t *testing.T, o *outputs, res result) {
	meta := map[string]map[string]string{}
	for _, row := range res.rows {
		file := asString(t, row[res.col(t, "file_name")])
		if meta[file] == nil {
			meta[file] = map[string]string{}
		}
		meta[file][asString(t, row[res.col(t, "key")])] = asString(t, row[res.col(t, "value")])
	}
	for name := range o.summaries {
		for _, f := range []string{"summary.parquet", "tiers.parquet"} {
			if p := filepath.Join(o.dir, name, f); meta[p] == nil {
				t.Errorf("no metadata of %s", p)
			}
		}
	}
	for file, kv := range meta {
		table := map[string]string{"summary.parquet": "summary", "tiers.parquet": "tiers"}[filepath.Base(file)]
		if partFile.MatchString(file) {
			table = "pieces"
		}
		if kv["census_table"] != table || kv["schema_version"] != strconv.Itoa(schema.Version) {
			t.Errorf("%s: census_table %q, schema_version %q; want %q, %d", file, kv["census_table"], kv["schema_version"], table, schema.Version)
		}
	}
}

// positionsRun is the run the tests ask to write its positions table.
const positionsRun = "clobber-3x4"

// checkPositionsByTier: counting the rows of the hive-partitioned positions
// table by the tier of its directory gives positions_by_tier of summary.json,
// and counting those with two or more live pieces gives split_by_tier.
func checkPositionsByTier(t *testing.T, o *outputs, res result) {
	s := o.summaries[positionsRun]
	if len(res.rows) != len(s.PositionsByTier) {
		t.Errorf("%d rows, want one for each of the %d tiers of %s", len(res.rows), len(s.PositionsByTier), positionsRun)
	}
	for _, row := range res.rows {
		tier := asUint(t, row[res.col(t, "tier")])
		if tier >= uint64(len(s.PositionsByTier)) {
			t.Fatalf("tier %d, but %s has %d tiers", tier, positionsRun, len(s.PositionsByTier))
		}
		positions, split := asUint(t, row[res.col(t, "positions")]), asUint(t, row[res.col(t, "split")])
		if positions != s.PositionsByTier[tier] || split != s.SplitByTier[tier] {
			t.Errorf("%s tier %d: %d positions, %d split; summary.json says %d, %d",
				positionsRun, tier, positions, split, s.PositionsByTier[tier], s.SplitByTier[tier])
		}
	}
}

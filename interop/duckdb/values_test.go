package duckdb

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

func init() {
	checkers["outcomes_by_size"] = checker{check: checkOutcomesBySize}
	checkers["top_values"] = checker{check: checkTopValues}
}

// outcomeClasses are the outcome classes, the names of the columns of
// outcomes_by_size.
var outcomeClasses = []string{"L", "R", "N", "P"}

// readPieces reads every pieces part of the run with the census's own
// reader and checks that they hold a row per piece of summary.json.
func readPieces(t *testing.T, o *outputs, run string) []schema.Piece {
	t.Helper()
	parts, err := filepath.Glob(filepath.Join(o.dir, run, "pieces", "part-*.parquet"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("pieces parts of %s: %v, %v", run, parts, err)
	}
	var all []schema.Piece
	for _, p := range parts {
		pieces, err := schema.ReadPiecesFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, pieces...)
	}
	if got, want := uint64(len(all)), o.summaries[run].PiecesTranslated; got != want {
		t.Fatalf("%s: pieces files hold %d rows, summary says %d", run, got, want)
	}
	return all
}

// checkOutcomesBySize: one row per run and size; the classes of a size add
// up to pieces_by_size of summary.json, those of a run by class to
// outcomes_translated; the classes, mean_cost (two decimals) and max_cost
// of each size equal a recount of the pieces files.
func checkOutcomesBySize(t *testing.T, o *outputs, res result) {
	got := map[string]map[int][]any{}
	var runs []string
	for _, row := range res.rows {
		run := runOf(t, res, row)
		size := int(asUint(t, row[res.col(t, "size")]))
		if got[run] == nil {
			got[run] = map[int][]any{}
			runs = append(runs, run)
		}
		if _, dup := got[run][size]; dup {
			t.Errorf("%s: two rows for size %d", run, size)
		}
		got[run][size] = row
	}
	wantEveryRun(t, o, runs)
	for run, s := range o.summaries {
		if s.Values == nil {
			t.Fatalf("%s: summary.json has no values", run)
		}
		type tally struct {
			classes   map[string]uint64
			sum, most uint64
			pieces    uint64
		}
		want := map[int]*tally{}
		for _, p := range readPieces(t, o, run) {
			w := want[int(p.Size)]
			if w == nil {
				w = &tally{classes: map[string]uint64{}}
				want[int(p.Size)] = w
			}
			w.classes[p.Outcome]++
			w.pieces++
			w.sum += p.Cost
			w.most = max(w.most, p.Cost)
		}
		if g, w := slices.Sorted(maps.Keys(got[run])), slices.Sorted(maps.Keys(want)); !slices.Equal(g, w) {
			t.Errorf("%s: sizes %v, the pieces files have %v", run, g, w)
			continue
		}
		byClass := map[string]uint64{}
		for size, row := range got[run] {
			w := want[size]
			var n uint64
			for _, c := range outcomeClasses {
				k := asUint(t, row[res.col(t, c)])
				byClass[c] += k
				n += k
				if k != w.classes[c] {
					t.Errorf("%s size %d: %s = %d, the pieces files %d", run, size, c, k, w.classes[c])
				}
			}
			if n != s.PiecesBySize[size] {
				t.Errorf("%s size %d: the classes add up to %d, pieces_by_size says %d", run, size, n, s.PiecesBySize[size])
			}
			mean := float64(w.sum) / float64(w.pieces)
			if g := asFloat(t, row[res.col(t, "mean_cost")]); !closeTo(g, mean, 2) {
				t.Errorf("%s size %d: mean_cost %v, want %.4f to 2 decimals", run, size, g, mean)
			}
			if g := asUint(t, row[res.col(t, "max_cost")]); g != w.most {
				t.Errorf("%s size %d: max_cost %d, the pieces files %d", run, size, g, w.most)
			}
		}
		if !maps.Equal(byClass, s.OutcomesTranslated) {
			t.Errorf("%s: classes add up to %v, outcomes_translated says %v", run, byClass, s.OutcomesTranslated)
		}
	}
}

// checkTopValues: the ten values held by the most pieces of Clobber 4x4,
// ties broken by the value string, each with the outcome class of its
// pieces, against the pieces files read with the census's own reader; the
// distinct value strings there fall short of distinct_values of
// summary.json by at most the pieces whose string alone was left out.
func checkTopValues(t *testing.T, o *outputs, res result) {
	const run = "clobber-4x4"
	count := map[string]uint64{}
	outcome := map[string]string{}
	// stringless counts the pieces whose form is within the node cap but
	// whose string was left out: distinct_values counts their forms too.
	var stringless uint64
	for _, p := range readPieces(t, o, run) {
		if p.ValueCapped {
			if p.ValueNodes > 0 {
				stringless++
			}
			continue
		}
		count[p.Value]++
		if c, ok := outcome[p.Value]; ok && c != p.Outcome {
			t.Fatalf("value %q has pieces of outcome %s and %s", p.Value, c, p.Outcome)
		}
		outcome[p.Value] = p.Outcome
	}
	if got, all := uint64(len(count)), o.summaries[run].DistinctValues; got > all || all-got > stringless {
		t.Errorf("%d distinct value strings in the pieces files and %d pieces whose string alone was left out; distinct_values says %d",
			got, stringless, all)
	}
	values := slices.SortedFunc(maps.Keys(count), func(a, b string) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), strings.Compare(a, b))
	})
	want := values[:10]
	if len(res.rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(res.rows), len(want))
	}
	for i, row := range res.rows {
		got := fmt.Sprintf("%q %s in %d pieces", asString(t, row[res.col(t, "value")]),
			asString(t, row[res.col(t, "outcome")]), asUint(t, row[res.col(t, "pieces")]))
		if exp := fmt.Sprintf("%q %s in %d pieces", want[i], outcome[want[i]], count[want[i]]); got != exp {
			t.Errorf("row %d: %s, want %s", i, got, exp)
		}
	}
}

package duckdb

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

func init() {
	checkers["outcomes_by_tier"] = checker{check: checkOutcomesByTier}
	checkers["position_outcomes"] = checker{check: checkPositionOutcomes}
}

// checkOutcomesByTier: one row per tier of every solved run and none of an
// unsolved one; each tier's four classes equal that tier's entry of
// outcomes_by_tier in summary.json and add up to its positions, and n_share
// is N over positions to four decimals.
func checkOutcomesByTier(t *testing.T, o *outputs, res result) {
	column := func(c string) string { return "outcome_" + strings.ToLower(c) }
	checkClassesByTier(t, o, res, func(row []any) string { return runOf(t, res, row) }, column,
		func(run string, tier uint64, row []any, classes map[string]uint64, positions uint64) {
			if got, want := asFloat(t, row[res.col(t, "n_share")]), float64(classes["N"])/float64(positions); !closeTo(got, want, 4) {
				t.Errorf("%s tier %d: n_share %v, want %.6f to 4 decimals", run, tier, got, want)
			}
		})
}

// checkPositionOutcomes: the rows of the positions files by class, one row
// per tier of every solved run and none of an unsolved one (whose files
// have no outcome column); each tier's classes equal that tier's entry of
// outcomes_by_tier in summary.json and add up to its positions.
func checkPositionOutcomes(t *testing.T, o *outputs, res result) {
	checkClassesByTier(t, o, res, func(row []any) string { return asString(t, row[res.col(t, "run")]) }, strings.ToLower, nil)
}

// checkClassesByTier checks the answer of a query that counts the positions
// of every solved run by tier and class: a row for each tier of each solved
// run (run names the row's run), its column class(C) counting class C,
// equal to summary.json's outcomes_by_tier and adding up to the column
// positions. more, when not nil, checks the rest of a row.
func checkClassesByTier(t *testing.T, o *outputs, res result, run func(row []any) string, class func(string) string,
	more func(run string, tier uint64, row []any, classes map[string]uint64, positions uint64)) {
	t.Helper()
	seen := map[string]bool{}
	for _, row := range res.rows {
		name := run(row)
		s, ok := o.summaries[name]
		if !ok {
			t.Fatalf("a row for run %q, which the tests did not make", name)
		}
		if s.Solved == nil {
			t.Fatalf("%s: a row for a run that was not solved", name)
		}
		tier := asUint(t, row[res.col(t, "tier")])
		if tier >= uint64(len(s.Solved.OutcomesByTier)) {
			t.Fatalf("%s: tier %d, but the solve has %d tiers", name, tier, len(s.Solved.OutcomesByTier))
		}
		seen[fmt.Sprintf("%s/%d", name, tier)] = true
		want := s.Solved.OutcomesByTier[tier]
		var sum uint64
		for _, c := range outcomeClasses {
			got := asUint(t, row[res.col(t, class(c))])
			if got != want[c] {
				t.Errorf("%s tier %d: class %s %d, summary.json says %d", name, tier, c, got, want[c])
			}
			sum += got
		}
		positions := asUint(t, row[res.col(t, "positions")])
		if positions != s.PositionsByTier[tier] || sum != positions {
			t.Errorf("%s tier %d: %d positions, classes add up to %d; summary.json says %d", name, tier, positions, sum, s.PositionsByTier[tier])
		}
		if more != nil {
			more(name, tier, row, want, positions)
		}
	}
	total, unsolved := 0, 0
	for _, s := range o.summaries {
		if s.Solved != nil {
			total += len(s.Solved.OutcomesByTier)
		} else {
			unsolved++
		}
	}
	if len(seen) != total || len(res.rows) != total {
		t.Errorf("%d rows for %d distinct tiers, want one row for each of the %d tiers of the solved runs", len(res.rows), len(seen), total)
	}
	if unsolved == 0 || total == 0 {
		t.Errorf("the tests made %d unsolved runs and %d solved tiers: the query's union of the two layouts is not checked", unsolved, total)
	}
}

func init() {
	checkers["longest_win"] = checker{check: checkLongestWin}
}

// checkLongestWin: one row per tier of every solved run in which Left,
// moving first, wins some position; its longest win, its count of such
// positions and its example's remoteness, against the positions files
// read row by row by the census's own reader.
func checkLongestWin(t *testing.T, o *outputs, res result) {
	type key struct {
		run  string
		tier int
	}
	type tierWins struct {
		longest int32
		count   uint64
		byPic   map[string]int32
	}
	want := map[key]*tierWins{}
	for _, r := range censusRuns {
		if !r.solve {
			continue
		}
		tiers, err := os.ReadDir(filepath.Join(o.dir, r.name(), schema.PositionsDir))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range tiers {
			tier, ok := schema.ParseTierDir(d.Name())
			if !ok {
				continue
			}
			parts, err := filepath.Glob(filepath.Join(o.dir, r.name(), schema.PositionsDir, d.Name(), schema.PartGlob))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range parts {
				err := schema.ScanPositionsFile(p, func(row schema.Position) error {
					if row.RemotenessLeftFirst%2 == 0 {
						return nil
					}
					k := key{r.name(), tier}
					w := want[k]
					if w == nil {
						w = &tierWins{byPic: map[string]int32{}}
						want[k] = w
					}
					w.longest = max(w.longest, row.RemotenessLeftFirst)
					w.count++
					w.byPic[row.Picture] = row.RemotenessLeftFirst
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if len(res.rows) != len(want) {
		t.Errorf("%d rows, want %d (run, tier) with a win for Left moving first", len(res.rows), len(want))
	}
	for _, row := range res.rows {
		k := key{asString(t, row[res.col(t, "run")]), int(asUint(t, row[res.col(t, "tier")]))}
		w := want[k]
		if w == nil {
			t.Errorf("%s tier %d: a row, but no position of the tier is a win for Left moving first", k.run, k.tier)
			continue
		}
		longest, count := asUint(t, row[res.col(t, "longest_win")]), asUint(t, row[res.col(t, "left_wins")])
		example := asString(t, row[res.col(t, "example")])
		if longest != uint64(w.longest) || count != w.count || w.byPic[example] != w.longest {
			t.Errorf("%s tier %d: longest win %d of %d, example %s (%d); the files: %d of %d",
				k.run, k.tier, longest, count, example, w.byPic[example], w.longest, w.count)
		}
	}
}

package duckdb

import (
	"fmt"
	"strings"
	"testing"
)

func init() {
	checkers["outcomes_by_tier"] = checker{check: checkOutcomesByTier}
}

// checkOutcomesByTier: one row per tier of every solved run and none of an
// unsolved one; each tier's four classes equal that tier's entry of
// outcomes_by_tier in summary.json and add up to its positions, and n_share
// is N over positions to four decimals.
func checkOutcomesByTier(t *testing.T, o *outputs, res result) {
	seen := map[string]bool{}
	for _, row := range res.rows {
		run := runOf(t, res, row)
		s := o.summary(t, asString(t, row[res.col(t, "game")]), asString(t, row[res.col(t, "board")]))
		if s.Solved == nil {
			t.Fatalf("%s: a row for a run that was not solved", run)
		}
		tier := asUint(t, row[res.col(t, "tier")])
		if tier >= uint64(len(s.Solved.OutcomesByTier)) {
			t.Fatalf("%s: tier %d, but the solve has %d tiers", run, tier, len(s.Solved.OutcomesByTier))
		}
		seen[fmt.Sprintf("%s/%d", run, tier)] = true
		want := s.Solved.OutcomesByTier[tier]
		var sum uint64
		for _, c := range outcomeClasses {
			got := asUint(t, row[res.col(t, "outcome_"+strings.ToLower(c))])
			if got != want[c] {
				t.Errorf("%s tier %d: class %s %d, summary.json says %d", run, tier, c, got, want[c])
			}
			sum += got
		}
		positions := asUint(t, row[res.col(t, "positions")])
		if positions != s.PositionsByTier[tier] || sum != positions {
			t.Errorf("%s tier %d: %d positions, classes add up to %d; summary.json says %d", run, tier, positions, sum, s.PositionsByTier[tier])
		}
		if got, want := asFloat(t, row[res.col(t, "n_share")]), float64(want["N"])/float64(positions); !closeTo(got, want, 4) {
			t.Errorf("%s tier %d: n_share %v, want %.6f to 4 decimals", run, tier, got, want)
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

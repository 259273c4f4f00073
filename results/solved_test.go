package results_test

import (
	"path/filepath"
	"testing"

	"github.com/census-cgt/census/schema"
)

// TestSolvedConsistent checks every published solved run: its classes add
// up to its positions, tier by tier and in all; the start's class is one of
// tier 0's; and its tiers.parquet holds the classes by tier as
// summary.json's outcomes_by_tier.
func TestSolvedConsistent(t *testing.T) {
	solved := 0
	for _, r := range load(t) {
		s := r.s
		if s.Solved == nil {
			continue
		}
		solved++
		t.Run(r.dir, func(t *testing.T) {
			classes := []string{"L", "R", "N", "P"}
			var total uint64
			for _, c := range classes {
				total += s.Solved.Outcomes[c]
			}
			if total != s.Positions {
				t.Errorf("outcomes add up to %d, positions %d", total, s.Positions)
			}
			if len(s.Solved.OutcomesByTier) != s.Tiers {
				t.Fatalf("outcomes_by_tier has %d tiers, the run %d", len(s.Solved.OutcomesByTier), s.Tiers)
			}
			if s.Solved.OutcomesByTier[0][s.Solved.StartOutcome] != 1 {
				t.Errorf("start_outcome %s, tier 0's classes %v", s.Solved.StartOutcome, s.Solved.OutcomesByTier[0])
			}
			sums := map[string]uint64{}
			for i, m := range s.Solved.OutcomesByTier {
				var n uint64
				for _, c := range classes {
					n += m[c]
					sums[c] += m[c]
				}
				if n != s.PositionsByTier[i] {
					t.Errorf("tier %d: classes add up to %d, positions %d", i, n, s.PositionsByTier[i])
				}
			}
			for _, c := range classes {
				if sums[c] != s.Solved.Outcomes[c] {
					t.Errorf("class %s: %d by tier, %d in all", c, sums[c], s.Solved.Outcomes[c])
				}
			}
			tiers, err := schema.ReadTiersFile(filepath.Join(r.dir, schema.TiersFile))
			if err != nil {
				t.Fatal(err)
			}
			for i, tr := range tiers {
				m := s.Solved.OutcomesByTier[i]
				want := schema.TierOutcomes{L: m["L"], R: m["R"], N: m["N"], P: m["P"]}
				if tr.Outcomes == nil || *tr.Outcomes != want {
					t.Errorf("tiers.parquet tier %d: outcomes %+v, summary.json %v", i, tr.Outcomes, m)
				}
			}
		})
	}
	if solved == 0 {
		t.Errorf("no published run is solved")
	}
}

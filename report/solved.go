package report

import "fmt"

// chartSolved is the chart of a solved run: the share of each outcome
// class by tier.
const chartSolved = "outcomes-by-tier"

// tierOutcomes returns a solved run's positions by class for each tier,
// tier 0 first: tiers.parquet's outcome columns, or summary.json's
// outcomes_by_tier when the tiers file predates them. It returns nil for a
// run that has not been solved.
func tierOutcomes(r Run) []map[string]uint64 {
	if r.Summary.Solved == nil {
		return nil
	}
	byTier := make([]map[string]uint64, 0, len(r.Tiers))
	for _, t := range r.Tiers {
		if t.Outcomes == nil {
			return r.Summary.Solved.OutcomesByTier
		}
		o := t.Outcomes
		byTier = append(byTier, map[string]uint64{"L": o.L, "R": o.R, "N": o.N, "P": o.P})
	}
	return byTier
}

// solvedChart stacks, for each tier, the shares of the tier's positions in
// each outcome class, L at the bottom, as outcomesChart does by piece size.
func solvedChart(r Run) (*chart, error) {
	byTier := tierOutcomes(r)
	if len(byTier) == 0 {
		return nil, fmt.Errorf("no outcomes by tier")
	}
	p := newPlot("Outcome classes by tier: "+runName(r), tierLabel, "share of the tier's positions")
	share := func(i int, c string) float64 {
		var total uint64
		for _, k := range outcomeClasses {
			total += byTier[i][k]
		}
		if total == 0 {
			return 0
		}
		return float64(byTier[i][c]) / float64(total)
	}
	label := func(c string) string {
		l := fmt.Sprintf("%s: %s positions", outcomeNames[c], commas(r.Summary.Solved.Outcomes[c]))
		if r.Summary.Solved.StartOutcome == c {
			l += " (the start)"
		}
		return l
	}
	return stackedShares(chartSolved, p, tiers(len(byTier)), share, label), nil
}

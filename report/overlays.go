package report

import (
	"fmt"

	"gonum.org/v1/plot"
)

// overlayCharts returns the charts that overlay several runs, one line per
// run: every chart that at least two of the runs have.
func overlayCharts(runs []Run) ([]*chart, error) {
	var charts []*chart
	for _, m := range []func([]Run) (*chart, error){overlayPositions, overlaySplit, overlayPieces, overlayLadder, overlayEdge} {
		ch, err := m(runs)
		if err != nil {
			return nil, fmt.Errorf("overlay chart: %w", err)
		}
		if ch != nil {
			charts = append(charts, ch)
		}
	}
	return charts, nil
}

// overlay builds a chart with one series per run that has data for it.
// points returns a run's series, ok false when the run has none. It
// returns nil when fewer than two runs have data.
func overlay(runs []Run, name string, p *plot.Plot, logScale bool, points func(Run) (xs, ys []float64, ok bool)) (*chart, error) {
	leg := newLegend()
	var all [][]float64
	for i, r := range runs {
		xs, ys, ok := points(r)
		if !ok {
			continue
		}
		all = append(all, ys)
		if err := series(p, leg, runName(r), xs, ys, palette[i%len(palette)], glyphOf(r.Summary.Game), logScale); err != nil {
			return nil, err
		}
	}
	if len(all) < 2 {
		return nil, nil
	}
	if logScale {
		lo, hi := positive(all...)
		logY(p, lo, hi, 1.5)
	}
	return &chart{Name: name, plot: p, legend: leg, width: overlayWidth, height: overlayHeight}, nil
}

func overlayPositions(runs []Run) (*chart, error) {
	p := newPlot("Positions by tier", tierLabel, "positions (log scale)")
	p.X.Tick.Marker = integerTicks{}
	return overlay(runs, chartPositions, p, true, func(r Run) ([]float64, []float64, bool) {
		ys := floats(r.Summary.PositionsByTier)
		return tiers(len(ys)), ys, true
	})
}

func overlaySplit(runs []Run) (*chart, error) {
	p := newPlot("Share of split positions by tier (two or more live pieces)", tierLabel, "split positions / positions")
	p.X.Tick.Marker = integerTicks{}
	var shares [][]float64
	ch, err := overlay(runs, chartSplit, p, false, func(r Run) ([]float64, []float64, bool) {
		s := r.Summary
		ys := make([]float64, len(s.PositionsByTier))
		for i, n := range s.PositionsByTier {
			if n > 0 {
				ys[i] = float64(s.SplitByTier[i]) / float64(n)
			}
		}
		shares = append(shares, ys)
		return tiers(len(ys)), ys, true
	})
	if ch != nil {
		shareAxis(p, shares...)
	}
	return ch, err
}

func overlayPieces(runs []Run) (*chart, error) {
	label := "piece size (stones for Clobber, squares otherwise)"
	p := newPlot("Distinct live pieces by size (translated)", label, "pieces (log scale)")
	p.X.Tick.Marker = integerTicks{}
	return overlay(runs, chartPieces, p, true, func(r Run) ([]float64, []float64, bool) {
		xs, ys := bySize(r)
		return xs, ys, len(xs) > 0
	})
}

func overlayLadder(runs []Run) (*chart, error) {
	p := newPlot("Identification ladder", "", "count (log scale)")
	ch, err := overlay(runs, chartLadder, p, true, func(r Run) ([]float64, []float64, bool) {
		ys := floats(ladder(r))
		return tiers(len(ys)), ys, true
	})
	if ch != nil {
		p.NominalX(ladderNames...)
		p.X.Min, p.X.Max = -0.4, float64(len(ladderNames))-0.6
	}
	return ch, err
}

func overlayEdge(runs []Run) (*chart, error) {
	p := newPlot("Edge-rule joins by tier (Amazons)", tierLabel, "moves that join edge-regions (log scale)")
	p.X.Tick.Marker = integerTicks{}
	return overlay(runs, chartEdge, p, true, func(r Run) ([]float64, []float64, bool) {
		if r.Summary.EdgeRuleJoins == nil {
			return nil, nil, false
		}
		ys := make([]float64, len(r.Tiers))
		for i, t := range r.Tiers {
			ys[i] = float64(t.EdgeRuleJoins)
		}
		return tiers(len(ys)), ys, true
	})
}

package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlayPoint is one player's rate at one search depth: exact, or sampled
// with its 95% interval [Lo, Hi].
type PlayPoint struct {
	Depth        int
	Rate, Lo, Hi float64
	Exact        bool
}

// PlaySeries is one board's rates by depth.
type PlaySeries struct {
	Name   string
	Points []PlayPoint
}

// PlayChart draws the rates of the minimax player over random leaves by
// its depth, one line per board, with the sampled points' intervals as
// error bars; it returns the chart as PNG and as SVG.
func PlayChart(title, yLabel string, series []PlaySeries) (png, svg []byte, err error) {
	p := newPlot(title, "search depth d (0 = random player)", yLabel)
	leg := newLegend()
	for i, s := range series {
		pts := make(plotter.XYs, len(s.Points))
		var errs plotter.YErrors
		var errPts plotter.XYs
		for k, pt := range s.Points {
			// Nudge the boards apart so that their error bars do not
			// hide one another.
			x := float64(pt.Depth) + 0.04*(float64(i)-float64(len(series)-1)/2)
			pts[k] = plotter.XY{X: x, Y: pt.Rate}
			if !pt.Exact {
				errPts = append(errPts, plotter.XY{X: x, Y: pt.Rate})
				errs = append(errs, struct{ Low, High float64 }{pt.Rate - pt.Lo, pt.Hi - pt.Rate})
			}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, nil, fmt.Errorf("series %s: %w", s.Name, err)
		}
		c := palette[i%len(palette)]
		line.Color, line.Width = c, vg.Points(1.6)
		points.Color, points.Shape, points.Radius = c, draw.CircleGlyph{}, vg.Points(2.5)
		p.Add(line, points)
		if len(errPts) > 0 {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{errPts, errs})
			if err != nil {
				return nil, nil, fmt.Errorf("error bars of %s: %w", s.Name, err)
			}
			eb.Color, eb.Width = c, vg.Points(1)
			p.Add(eb)
		}
		leg.Add(s.Name, line, points)
	}
	p.X.Min, p.X.Max = -0.3, 4.3
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = percentTicks{}
	p.X.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 1, Label: "1"},
		{Value: 2, Label: "2"}, {Value: 3, Label: "3"}, {Value: 4, Label: "4"}})
	ch := &chart{Name: "play", plot: p, legend: leg, width: overlayWidth, height: overlayHeight}
	if png, err = ch.PNG(); err != nil {
		return nil, nil, err
	}
	if svg, err = ch.SVG(); err != nil {
		return nil, nil, err
	}
	return png, svg, nil
}

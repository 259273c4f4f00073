package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Names of the charts, as they appear in PNG file names and HTML ids.
const (
	chartPositions = "positions"
	chartSplit     = "split-share"
	chartPieces    = "pieces-by-size"
	chartLadder    = "ladder"
	chartEdge      = "edge-rule-joins"
)

// tierLabel is the X axis of every chart by tier.
const tierLabel = "tier (moves made since the start)"

// ladderNames are the six levels of identification, as the ladder chart
// labels them.
var ladderNames = []string{"positions", "dead-free\nboards", "pieces\nin place", "translated", "symmetric", "negation"}

// ladder returns the six levels of identification of a run.
func ladder(r Run) []uint64 {
	s := r.Summary
	return []uint64{s.Positions, s.DeadFreeBoards, s.PiecesInPlace, s.PiecesTranslated, s.PiecesSymmetric, s.PiecesNegation}
}

// ladderFactors returns the factor by which each level shrinks the one
// before it, as written on the ladder chart.
func ladderFactors(r Run) []string {
	l := ladder(r)
	f := make([]string, len(l)-1)
	for i := range f {
		f[i] = factor(l[i], l[i+1])
	}
	return f
}

// runCharts returns the charts of one run.
func runCharts(r Run) ([]*chart, error) {
	if r.Loopy != nil {
		return loopyCharts(r)
	}
	makers := []func(Run) (*chart, error){positionsChart, splitChart, piecesChart, ladderChart}
	if r.Summary.EdgeRuleJoins != nil {
		makers = append(makers, edgeChart)
	}
	if len(r.Values) > 0 {
		makers = append(makers, outcomesChart, costChart)
	}
	if r.Summary.Solved != nil {
		makers = append(makers, solvedChart)
	}
	var charts []*chart
	for _, m := range makers {
		ch, err := m(r)
		if err != nil {
			return nil, fmt.Errorf("chart of %s: %w", r.ID, err)
		}
		charts = append(charts, ch)
	}
	return charts, nil
}

func runChart(name string, p *plot.Plot) *chart {
	return &chart{Name: name, plot: p, width: runWidth, height: runHeight}
}

// runName is how a chart title names a run.
func runName(r Run) string { return r.Game() + " " + r.Board() }

func tiers(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	return xs
}

func floats(vs []uint64) []float64 {
	fs := make([]float64, len(vs))
	for i, v := range vs {
		fs[i] = float64(v)
	}
	return fs
}

// positive returns the least positive value of vs and the greatest.
func positive(vs ...[]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	for _, v := range slices.Concat(vs...) {
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi == 0 {
		return 1, 1
	}
	return lo, hi
}

// series adds a line with points to p and an entry to leg. On a log scale
// (logScale) it plots log10 of the values and leaves out those of zero.
func series(p *plot.Plot, leg *plot.Legend, name string, xs, ys []float64, clr color.Color, glyph draw.GlyphDrawer, logScale bool) error {
	if logScale {
		ys = log10s(ys)
	}
	var pts plotter.XYs
	for i := range xs {
		if math.IsNaN(ys[i]) {
			continue
		}
		pts = append(pts, plotter.XY{X: xs[i], Y: ys[i]})
	}
	if len(pts) == 0 {
		return nil
	}
	line, dots, err := plotter.NewLinePoints(pts)
	if err != nil {
		return fmt.Errorf("series %s: %w", name, err)
	}
	line.Color, line.Width = clr, vg.Points(1.6)
	dots.Color, dots.Shape, dots.Radius = clr, glyph, vg.Points(2.4)
	p.Add(line, dots)
	leg.Add(name, line, dots)
	return nil
}

func positionsChart(r Run) (*chart, error) {
	s := r.Summary
	p := newPlot("Positions by tier: "+runName(r), tierLabel, "positions (log scale)")
	leg := newLegend()
	all, split := floats(s.PositionsByTier), floats(s.SplitByTier)
	xs := tiers(len(all))
	glyph := glyphOf(s.Game)
	if err := series(p, leg, "all positions", xs, all, palette[0], glyph, true); err != nil {
		return nil, err
	}
	if err := series(p, leg, "split positions (two or more live pieces)", xs, split, palette[1], glyph, true); err != nil {
		return nil, err
	}
	lo, hi := positive(all, split)
	logY(p, lo, hi, 1.5)
	p.X.Tick.Marker = integerTicks{}
	ch := runChart(chartPositions, p)
	ch.legend, ch.legendBelow = leg, true
	return ch, nil
}

func splitChart(r Run) (*chart, error) {
	s := r.Summary
	p := newPlot("Share of split positions by tier: "+runName(r), tierLabel, "split positions / positions")
	leg := newLegend()
	xs := tiers(len(s.PositionsByTier))
	shares := make([]float64, len(xs))
	for i, n := range s.PositionsByTier {
		if n > 0 {
			shares[i] = float64(s.SplitByTier[i]) / float64(n)
		}
	}
	if err := series(p, leg, "share of the tier's positions", xs, shares, palette[0], glyphOf(s.Game), false); err != nil {
		return nil, err
	}
	whole, err := plotter.NewLine(plotter.XYs{{X: 0, Y: s.SplitShare}, {X: xs[len(xs)-1], Y: s.SplitShare}})
	if err != nil {
		return nil, err
	}
	whole.Color, whole.Width, whole.Dashes = palette[1], vg.Points(1.2), []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(whole)
	leg.Add("share over the whole run: "+percent(s.SplitShare), whole)
	shareAxis(p, shares)
	p.X.Tick.Marker = integerTicks{}
	ch := runChart(chartSplit, p)
	ch.legend, ch.legendBelow = leg, true
	return ch, nil
}

// shareAxis puts a share axis from 0 to a tenth above the greatest share.
func shareAxis(p *plot.Plot, shares ...[]float64) {
	hi := slices.Max(slices.Concat(shares...))
	p.Y.Min, p.Y.Max = 0, math.Min(1, math.Ceil(hi*10+0.5)/10)
	p.Y.Tick.Marker = percentTicks{}
}

// sizeLabel names what the size of a piece counts in a game.
func sizeLabel(game string) string {
	if game == "clobber" {
		return "piece size (stones)"
	}
	return "piece size (squares)"
}

// bySize returns the sizes of pieces_by_size in order and their counts.
func bySize(r Run) (sizes, counts []float64) {
	keys := make([]int, 0, len(r.Summary.PiecesBySize))
	for k := range r.Summary.PiecesBySize {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		sizes = append(sizes, float64(k))
		counts = append(counts, float64(r.Summary.PiecesBySize[k]))
	}
	return sizes, counts
}

func piecesChart(r Run) (*chart, error) {
	p := newPlot("Distinct live pieces by size: "+runName(r), sizeLabel(r.Summary.Game), "translated pieces (log scale)")
	sizes, counts := bySize(r)
	if len(sizes) == 0 {
		p.Title.Text += " (none)"
		sizes, counts = []float64{0}, []float64{0}
	}
	p.Add(&bars{x: sizes, y: log10s(counts), color: palette[0], fill: 0.75})
	lo, hi := positive(counts)
	logY(p, lo, hi, 1.5)
	p.X.Tick.Marker = integerTicks{}
	return runChart(chartPieces, p), nil
}

// Colours of the ladder: boards, then pieces.
var boardColor, pieceColor = palette[0], palette[1]

func ladderChart(r Run) (*chart, error) {
	p := newPlot("Identification ladder: "+runName(r), "", "count (log scale)")
	levels := floats(ladder(r))
	xs := tiers(len(levels))
	logs := log10s(levels)
	boards := &bars{x: xs[:2], y: logs[:2], color: boardColor, fill: 0.7}
	pieces := &bars{x: xs[2:], y: logs[2:], color: pieceColor, fill: 0.7}
	p.Add(boards, pieces)
	factors := ladderFactors(r)
	var at plotter.XYs
	var labels []string
	for i, f := range factors {
		if levels[i+1] > 0 {
			at = append(at, plotter.XY{X: xs[i+1], Y: logs[i+1]})
			labels = append(labels, f)
		}
	}
	if len(at) > 0 {
		l, err := plotter.NewLabels(plotter.XYLabels{XYs: at, Labels: labels})
		if err != nil {
			return nil, err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Typeface, l.TextStyle[i].Font.Variant = textFont.Typeface, textFont.Variant
			l.TextStyle[i].Font.Size = vg.Points(10)
			l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YBottom
		}
		l.Offset = vg.Point{Y: vg.Points(3)}
		p.Add(l)
	}
	lo, hi := positive(levels)
	logY(p, lo, hi, 4)
	p.NominalX(ladderNames...)
	leg := newLegend()
	leg.Add("boards", boards)
	leg.Add("live pieces (the factor is the shrink from the bar to its left)", pieces)
	ch := runChart(chartLadder, p)
	ch.legend, ch.legendBelow = leg, true
	return ch, nil
}

func edgeChart(r Run) (*chart, error) {
	s := r.Summary
	total := *s.EdgeRuleJoins
	share := 0.0
	if s.Moves > 0 {
		share = float64(total) / float64(s.Moves)
	}
	note := fmt.Sprintf("total %s of %s moves (%s)", commas(total), commas(s.Moves), percent(share))
	p := newPlot("Edge-rule joins by tier: "+runName(r)+"\n"+note, tierLabel, "moves that join edge-regions")
	xs := tiers(len(r.Tiers))
	ys := make([]float64, len(r.Tiers))
	for i, t := range r.Tiers {
		ys[i] = float64(t.EdgeRuleJoins)
	}
	p.Add(&bars{x: xs, y: ys, color: palette[2], fill: 0.75})
	p.Y.Min, p.Y.Max = 0, math.Max(1, slices.Max(ys)*1.05)
	p.Y.Tick.Marker = countTicks{}
	p.X.Tick.Marker = integerTicks{}
	ch := runChart(chartEdge, p)
	return ch, nil
}

// Thumbnail draws the bars' colour in a legend.
func (b *bars) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	pts := []vg.Point{r.Min, {X: r.Min.X, Y: r.Max.Y}, r.Max, {X: r.Max.X, Y: r.Min.Y}}
	c.FillPolygon(b.color, pts)
}

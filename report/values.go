package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/census-cgt/census/schema"
)

// Names of the charts of a run that has been through the values stage.
const (
	chartOutcomes = "outcomes-by-size"
	chartCost     = "value-cost-by-size"
)

// outcomeClasses are the outcome classes in the order the charts stack them.
var outcomeClasses = []string{"L", "R", "N", "P"}

// outcomeColors colour the classes: L blue, R red, N orange, P green.
var outcomeColors = map[string]color.RGBA{"L": palette[0], "R": palette[2], "N": palette[1], "P": palette[4]}

// outcomeNames are the classes as the legend explains them.
var outcomeNames = map[string]string{
	"L": "L (Left wins)", "R": "R (Right wins)", "N": "N (the first player wins)", "P": "P (the second player wins)",
}

// SizeValues are the value columns of a run's pieces of one size.
type SizeValues struct {
	// Size is the piece size (stones for Clobber, squares otherwise).
	Size int
	// Outcomes counts the distinct translated live pieces of the size
	// by outcome class (keys L, R, N, P).
	Outcomes map[string]uint64
	// Pieces is the number of pieces of the size, CostSum the sum of
	// their cost and CostMax the greatest.
	Pieces  uint64
	CostSum uint64
	CostMax uint64
}

// MeanCost is the mean cost of valuing a piece of the size.
func (s SizeValues) MeanCost() float64 {
	if s.Pieces == 0 {
		return 0
	}
	return float64(s.CostSum) / float64(s.Pieces)
}

// loadValues reads the value columns of the run's pieces files, by size in
// increasing order; of a partial values stage, the sizes it valued. It
// returns nil when the run has not been valued (summary.json has no
// values) or its directory holds no pieces files (outputs copied without
// them, like the published results), and an error when a pieces file
// cannot be read, a piece that should have a value has none, or the
// counts disagree with summary.json's outcomes_translated.
func loadValues(dir string, s schema.Summary) ([]SizeValues, error) {
	if s.Values == nil {
		return nil, nil
	}
	paths, err := schema.PiecesParts(dir)
	if err != nil || len(paths) == 0 {
		return nil, err
	}
	by := map[int]*SizeValues{}
	for _, path := range paths {
		err := schema.ScanPiecesFile(path, func(p schema.Piece) error {
			if !p.Valued {
				if s.LeftUnvalued(int(p.Size)) {
					return nil
				}
				return errors.New("a piece without a value")
			}
			if !slices.Contains(outcomeClasses, p.Outcome) {
				return fmt.Errorf("outcome %q", p.Outcome)
			}
			sv := by[int(p.Size)]
			if sv == nil {
				sv = &SizeValues{Size: int(p.Size), Outcomes: map[string]uint64{}}
				by[int(p.Size)] = sv
			}
			sv.Outcomes[p.Outcome]++
			sv.Pieces++
			sv.CostSum += p.Cost
			sv.CostMax = max(sv.CostMax, p.Cost)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	out := make([]SizeValues, 0, len(by))
	total := map[string]uint64{}
	for _, sv := range by {
		out = append(out, *sv)
		for c, n := range sv.Outcomes {
			total[c] += n
		}
	}
	slices.SortFunc(out, func(a, b SizeValues) int { return a.Size - b.Size })
	for _, c := range outcomeClasses {
		if total[c] != s.OutcomesTranslated[c] {
			return nil, fmt.Errorf("read %s: %d pieces of outcome %s, summary.json's outcomes_translated %d",
				filepath.Join(dir, schema.PiecesDir), total[c], c, s.OutcomesTranslated[c])
		}
	}
	return out, nil
}

// band is one class's part of stacked bars: at each x a bar from lo to hi.
type band struct {
	x, lo, hi []float64
	color     color.Color
	// fill is the share of the space between two bars that a bar takes.
	fill float64
}

func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	w := barWidth(b.x, b.fill, trX)
	for i := range b.x {
		if b.hi[i] <= b.lo[i] {
			continue
		}
		x, lo, hi := trX(b.x[i]), trY(b.lo[i]), trY(b.hi[i])
		pts := []vg.Point{{X: x - w/2, Y: lo}, {X: x - w/2, Y: hi}, {X: x + w/2, Y: hi}, {X: x + w/2, Y: lo}}
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
	}
}

// DataRange covers the bars, half a bar's spacing either side.
func (b *band) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, x := range b.x {
		xmin, xmax = math.Min(xmin, x-0.5), math.Max(xmax, x+0.5)
		ymin, ymax = math.Min(ymin, b.lo[i]), math.Max(ymax, b.hi[i])
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail draws the band's colour in a legend.
func (b *band) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(b.color, []vg.Point{r.Min, {X: r.Min.X, Y: r.Max.Y}, r.Max, {X: r.Max.X, Y: r.Min.Y}})
}

// outcomesChart stacks, for each piece size, the shares of the size's
// distinct translated live pieces in each outcome class, L at the bottom.
func outcomesChart(r Run) (*chart, error) {
	title := "Outcome classes by piece size: " + runName(r)
	if r.Summary.Partial() {
		title += fmt.Sprintf(" (sizes up to %d valued)", r.Summary.MaxSize)
	}
	p := newPlot(title, sizeLabel(r.Summary.Game), "share of the size's translated pieces")
	xs := make([]float64, len(r.Values))
	for i, sv := range r.Values {
		xs[i] = float64(sv.Size)
	}
	share := func(i int, c string) float64 { return float64(r.Values[i].Outcomes[c]) / float64(r.Values[i].Pieces) }
	label := func(c string) string {
		return fmt.Sprintf("%s: %s pieces", outcomeNames[c], commas(r.Summary.OutcomesTranslated[c]))
	}
	return stackedShares(chartOutcomes, p, xs, share, label), nil
}

// stackedShares draws on p a stack of bars at each of xs, one bar a class
// from L at the bottom to P, as tall as share(i, class) at xs[i]; label
// names each class in the legend.
func stackedShares(name string, p *plot.Plot, xs []float64, share func(i int, c string) float64, label func(c string) string) *chart {
	leg := newLegend()
	n := len(xs)
	base := make([]float64, n)
	for _, c := range outcomeClasses {
		b := &band{x: xs, lo: slices.Clone(base), hi: make([]float64, n), color: outcomeColors[c], fill: 0.75}
		for i := range xs {
			b.hi[i] = b.lo[i] + share(i, c)
			base[i] = b.hi[i]
		}
		p.Add(b)
		leg.Add(label(c), b)
	}
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = percentTicks{}
	p.X.Tick.Marker = integerTicks{}
	ch := runChart(name, p)
	ch.legend, ch.legendBelow = leg, true
	return ch
}

// costChart draws, for each piece size, the mean and the greatest cost of
// valuing a piece: the distinct positions one move away that its
// valuation decomposed and summed.
func costChart(r Run) (*chart, error) {
	p := newPlot("Cost of valuing a piece by size: "+runName(r), sizeLabel(r.Summary.Game), "positions one move away (log scale)")
	leg := newLegend()
	n := len(r.Values)
	xs, mean, most := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, sv := range r.Values {
		xs[i], mean[i], most[i] = float64(sv.Size), sv.MeanCost(), float64(sv.CostMax)
	}
	glyph := glyphOf(r.Summary.Game)
	if err := series(p, leg, "greatest cost of a piece of the size", xs, most, palette[2], glyph, true); err != nil {
		return nil, err
	}
	if err := series(p, leg, "mean cost", xs, mean, palette[0], glyph, true); err != nil {
		return nil, err
	}
	lo, hi := positive(mean, most)
	logY(p, lo, hi, 1.5)
	p.X.Tick.Marker = integerTicks{}
	ch := runChart(chartCost, p)
	ch.legend, ch.legendBelow = leg, true
	return ch, nil
}

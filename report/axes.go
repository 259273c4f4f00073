package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// commas writes n with thousands separators: 1,809,927.
func commas(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// compact writes a tick value short: 950, 20k, 1.5M, 10B.
func compact(v float64) string {
	for _, u := range []struct {
		scale  float64
		suffix string
	}{{1e9, "B"}, {1e6, "M"}, {1e3, "k"}} {
		if math.Abs(v) >= u.scale {
			return strconv.FormatFloat(v/u.scale, 'g', 3, 64) + u.suffix
		}
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// factor writes by how much a level shrinks the one before it, or a dash
// when either is zero.
func factor(prev, n uint64) string {
	if prev == 0 || n == 0 {
		return "÷–"
	}
	return fmt.Sprintf("÷%.2f", float64(prev)/float64(n))
}

// percent writes a share in [0, 1] as a percentage.
func percent(share float64) string {
	return fmt.Sprintf("%.2f%%", 100*share)
}

// logTicks marks the Y axis of a chart that plots log10 of its values (a
// linear axis of exponents, which gonum lays out better than its log
// scale): every power of ten with a label and the multiples between them
// without one. Over less than two decades it labels the multiples 2 and 5
// as well, so that the axis always reads.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	few := hi-lo < 2
	for k := math.Floor(lo); k <= math.Ceil(hi); k++ {
		for m := 1.0; m < 10; m++ {
			e := k + math.Log10(m)
			if e < lo-1e-9 || e > hi+1e-9 {
				continue
			}
			t := plot.Tick{Value: e}
			if m == 1 || few && (m == 2 || m == 5) {
				t.Label = compact(m * math.Pow(10, k))
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}

// log10s returns log10 of each value, NaN for a value of zero, which a log
// scale cannot show.
func log10s(vs []float64) []float64 {
	ls := make([]float64, len(vs))
	for i, v := range vs {
		ls[i] = math.NaN()
		if v > 0 {
			ls[i] = math.Log10(v)
		}
	}
	return ls
}

// countTicks is gonum's default ticks on a linear axis of counts, labelled
// short (20M rather than 2e+07).
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = compact(ticks[i].Value)
		}
	}
	return ticks
}

// percentTicks labels a share axis in percent, every 10% up to a half,
// every 20% above.
type percentTicks struct{}

func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 0.1
	if hi-lo > 0.5 {
		step = 0.2
	}
	var ticks []plot.Tick
	for i := math.Ceil(lo/step-1e-9) + 0; i*step <= hi+1e-9; i++ {
		v := i * step
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(math.Round(100*v), 'f', 0, 64) + "%"})
		if m := v + step/2; m <= hi+1e-9 {
			ticks = append(ticks, plot.Tick{Value: m})
		}
	}
	return ticks
}

// integerTicks labels whole numbers only (tiers, piece sizes), at a step
// of 1, 2 or 5 times a power of ten that leaves at most about ten labels.
type integerTicks struct{}

func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	// Adding zero turns the -0 that Ceil gives for -0.5 into 0.
	lo, hi = math.Ceil(lo)+0, math.Floor(hi)
	step := 1.0
	for (hi-lo)/step > 10 {
		switch s := step / math.Pow(10, math.Floor(math.Log10(step))); s {
		case 1:
			step *= 2
		case 2:
			step *= 2.5
		default:
			step *= 2
		}
	}
	var ticks []plot.Tick
	for v := lo; v <= hi; v++ {
		t := plot.Tick{Value: v}
		if math.Mod(v, step) == 0 {
			t.Label = strconv.FormatFloat(v, 'f', 0, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// logY makes the Y axis of p, which plots log10 of values, run from the
// power of ten at or below lo to the one at or above hi times headroom
// (room for labels), lo and hi being the least and greatest positive value.
func logY(p *plot.Plot, lo, hi, headroom float64) {
	p.Y.Tick.Marker = logTicks{}
	p.Y.Min = math.Floor(math.Log10(lo))
	p.Y.Max = math.Ceil(math.Log10(hi * headroom))
	if p.Y.Max <= p.Y.Min {
		p.Y.Max = p.Y.Min + 1
	}
}

// bars is a bar chart whose bars rise from the bottom of the Y axis, which
// unlike gonum's BarChart (bars from zero) suits an axis of log10 values.
// A bar of height NaN is left out.
type bars struct {
	// x and y are the bars' positions and heights.
	x, y  []float64
	color color.Color
	// fill is the share of the space between two bars that a bar takes.
	fill float64
}

// barWidth is the width of bars at xs that take the share fill of the
// space between the closest two, so that none overlap.
func barWidth(xs []float64, fill float64, trX func(float64) vg.Length) vg.Length {
	gap := math.Inf(1)
	for i := 1; i < len(xs); i++ {
		gap = math.Min(gap, math.Abs(xs[i]-xs[i-1]))
	}
	if math.IsInf(gap, 1) || gap == 0 {
		gap = 1
	}
	return vg.Length(fill) * (trX(gap) - trX(0))
}

func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	w := barWidth(b.x, b.fill, trX)
	bottom := trY(p.Y.Min)
	for i, v := range b.y {
		if math.IsNaN(v) || v < p.Y.Min {
			continue
		}
		x := trX(b.x[i])
		pts := []vg.Point{{X: x - w/2, Y: bottom}, {X: x - w/2, Y: trY(v)}, {X: x + w/2, Y: trY(v)}, {X: x + w/2, Y: bottom}}
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
	}
}

// DataRange covers the bars, half a bar's spacing either side, and their
// heights.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i, x := range b.x {
		xmin, xmax = math.Min(xmin, x-0.5), math.Max(xmax, x+0.5)
		if v := b.y[i]; !math.IsNaN(v) {
			ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		}
	}
	return xmin, xmax, ymin, ymax
}

// palette holds the colours of runs in overlays (Tableau 10), in order.
var palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0xf2, 0x8e, 0x2b, 0xff}, {0xe1, 0x57, 0x59, 0xff},
	{0x76, 0xb7, 0xb2, 0xff}, {0x59, 0xa1, 0x4f, 0xff}, {0xed, 0xc9, 0x48, 0xff},
	{0xb0, 0x7a, 0xa1, 0xff}, {0xff, 0x9d, 0xa7, 0xff}, {0x9c, 0x75, 0x5f, 0xff},
	{0xba, 0xb0, 0xac, 0xff},
}

// glyphs mark the points of a game's runs, so that overlays tell the
// games apart even where colours are close.
var glyphs = map[string]draw.GlyphDrawer{
	"clobber":     draw.CircleGlyph{},
	"domineering": draw.BoxGlyph{},
	"amazons":     draw.PyramidGlyph{},
}

func glyphOf(game string) draw.GlyphDrawer {
	if g, ok := glyphs[game]; ok {
		return g
	}
	return draw.CrossGlyph{}
}

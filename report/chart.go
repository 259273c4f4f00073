package report

import (
	"bytes"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// chart is one chart of the report: a plot and, for charts that overlay
// several runs, a legend drawn right of the plot so that it never hides
// the data.
type chart struct {
	// Name is the chart's part of its PNG file name and of its HTML id:
	// positions, split-share, pieces-by-size, ladder, edge-rule-joins,
	// outcomes-by-size or value-cost-by-size.
	Name   string
	plot   *plot.Plot
	legend *plot.Legend
	// legendBelow puts the legend under the plot rather than right of it.
	legendBelow bool
	width       vg.Length
	height      vg.Length
}

// Sizes of the charts: two per-run charts side by side fill a page, an
// overlay of several runs takes the whole width.
const (
	runWidth      = 5.6 * vg.Inch
	runHeight     = 3.4 * vg.Inch
	overlayWidth  = 9.5 * vg.Inch
	overlayHeight = 4.4 * vg.Inch
	// pngDPI makes the PNG files sharp on high-density screens.
	pngDPI = 144
)

// textFont is the one face every chart uses. The page embeds it, so that
// the browser draws the text with the metrics the layout was computed for.
var textFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot returns a plot with the report's font, title and axis labels.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(textFont, 13)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(textFont, 11)
		a.Tick.Label.Font = font.From(textFont, 10)
	}
	p.Legend.TextStyle.Font = font.From(textFont, 10)
	p.Y.Label.Padding = vg.Points(4)
	return p
}

// newLegend returns a legend for drawing beside a plot.
func newLegend() *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(textFont, 10)
	l.Top, l.Left = true, true
	l.Padding = vg.Points(3)
	return &l
}

// draw draws the chart onto c: the plot, and the legend right of it.
func (ch *chart) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	if ch.legend == nil {
		ch.plot.Draw(c)
		return
	}
	if ch.legendBelow {
		lh := ch.legend.Rectangle(c).Size().Y + vg.Points(10)
		ch.plot.Draw(draw.Crop(c, 0, 0, lh, 0))
		ch.legend.Draw(draw.Crop(c, vg.Points(48), 0, vg.Points(4), -(c.Size().Y - lh)))
		return
	}
	lw := ch.legend.Rectangle(c).Size().X + vg.Points(16)
	ch.plot.Draw(draw.Crop(c, 0, -lw, 0, 0))
	ch.legend.Draw(draw.Crop(c, c.Size().X-lw+vg.Points(8), 0, 0, -vg.Points(34)))
}

// SVG returns the chart as SVG markup to put inline in HTML: the <svg>
// element without the XML prolog.
func (ch *chart) SVG() (out []byte, err error) {
	defer recoverDraw(ch.Name, &err)
	c := vgsvg.New(ch.width, ch.height)
	ch.draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("draw %s as SVG: %w", ch.Name, err)
	}
	svg := b.Bytes()
	i := bytes.Index(svg, []byte("<svg"))
	if i < 0 {
		return nil, fmt.Errorf("draw %s as SVG: no <svg> element", ch.Name)
	}
	svg = svg[i:]
	// The charts link nothing, so the XLink namespace is only noise.
	if !bytes.Contains(svg, []byte("xlink:href")) {
		svg = bytes.Replace(svg, []byte(`xmlns:xlink="http://www.w3.org/1999/xlink"`), nil, 1)
	}
	return svg, nil
}

// PNG returns the chart as a PNG image.
func (ch *chart) PNG() (out []byte, err error) {
	defer recoverDraw(ch.Name, &err)
	c := vgimg.NewWith(vgimg.UseWH(ch.width, ch.height), vgimg.UseDPI(pngDPI))
	ch.draw(draw.New(c))
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&b); err != nil {
		return nil, fmt.Errorf("draw %s as PNG: %w", ch.Name, err)
	}
	return b.Bytes(), nil
}

// recoverDraw turns a panic of the plotting library (it panics on data it
// cannot draw, such as a zero on a log scale) into an error.
func recoverDraw(name string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("draw %s: %v", name, r)
	}
}

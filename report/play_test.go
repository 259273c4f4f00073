package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestPlayChart draws a chart of two boards, one with sampled points, and
// finds every board and the title in the SVG, and a PNG.
func TestPlayChart(t *testing.T) {
	series := []PlaySeries{
		{Name: "Clobber 3x4", Points: []PlayPoint{{Depth: 0, Rate: 0.3756, Exact: true}, {Depth: 3, Rate: 0.69, Lo: 0.67, Hi: 0.71}}},
		{Name: "Amazons 3x4", Points: []PlayPoint{{Depth: 0, Rate: 0.0047, Exact: true}, {Depth: 4, Rate: 0.94, Lo: 0.93, Hi: 0.95}}},
	}
	png, svg, err := PlayChart("Players by depth", "P wins", series)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Error("no PNG")
	}
	for _, want := range []string{"Players by depth", "Clobber 3x4", "Amazons 3x4", "<svg"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

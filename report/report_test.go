package report

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/census-cgt/census/schema"
)

// published is the report of the runs under results/, written once for
// the tests that read it.
var published struct {
	once sync.Once
	dir  string
	out  Output
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if published.dir != "" {
		os.RemoveAll(published.dir)
	}
	os.Exit(code)
}

// publishedReport writes the report, with PNG files, of a copy of the
// published runs.
func publishedReport(t *testing.T) (string, Output) {
	t.Helper()
	published.once.Do(func() {
		dir, err := os.MkdirTemp("", "census-report-")
		if err != nil {
			published.err = err
			return
		}
		published.dir = dir
		copyRuns(t, dir)
		published.out, published.err = Write(dir, Options{PNG: true, Version: "test"})
	})
	if published.err != nil {
		t.Fatal(published.err)
	}
	return published.dir, published.out
}

// wantRunCharts is the charts of a run that has not been through the
// values stage: those of its game, and the outcomes by tier when it has
// been solved.
func wantRunCharts(r Run) []string {
	charts := wantCharts(r.Game())
	if r.Summary.Solved != nil {
		charts = append(charts, chartSolved)
	}
	return charts
}

// wantCharts is the charts a run of a game has, before any stage but the
// census.
func wantCharts(game string) []string {
	if game == "mutorere" {
		return []string{chartRandom}
	}
	charts := []string{chartPositions, chartSplit, chartPieces, chartLadder}
	if game == "amazons" {
		charts = append(charts, chartEdge)
	}
	return charts
}

func TestPublishedRunsInOrder(t *testing.T) {
	_, out := publishedReport(t)
	var got []string
	for _, r := range out.Runs {
		got = append(got, r.ID)
	}
	want := []string{"clobber-3x5", "clobber-4x4", "clobber-3x6", "clobber-2x10", "clobber-4x5", "clobber-3x7", "clobber-3x8", "clobber-4x6", "clobber-5x5",
		"domineering-5x6", "domineering-6x6", "domineering-6x7", "amazons-4x4", "amazons-4x5", "mutorere-8", "mutorere-8-free-centre"}
	if !slices.Equal(got, want) {
		t.Errorf("runs %v, want %v", got, want)
	}
}

func TestChartsAreInlineSVG(t *testing.T) {
	dir, out := publishedReport(t)
	doc := parsePage(t, filepath.Join(dir, HTMLName))
	for _, r := range out.Runs {
		sec := doc.all(withAttr("section", "data-run", r.ID))
		if len(sec) != 1 {
			t.Fatalf("%d sections for %s, want 1", len(sec), r.ID)
		}
		var got []string
		for _, fig := range sec[0].all(named("figure")) {
			if n := len(fig.all(named("svg"))); n != 1 {
				t.Errorf("figure %s holds %d <svg>, want 1", fig.attr["id"], n)
			}
			got = append(got, fig.attr["data-chart"])
		}
		if want := wantRunCharts(r); !slices.Equal(got, want) {
			t.Errorf("%s: charts %v, want %v", r.ID, got, want)
		}
	}
	comparison := doc.all(withAttr("section", "id", "comparison"))
	if len(comparison) != 1 {
		t.Fatalf("%d comparison sections, want 1", len(comparison))
	}
	var overlays []string
	for _, fig := range comparison[0].all(named("figure")) {
		overlays = append(overlays, fig.attr["data-chart"])
	}
	// Two Amazons runs: the edge-rule joins are overlaid too.
	if want := wantCharts("amazons"); !slices.Equal(overlays, want) {
		t.Errorf("overlays %v, want %v", overlays, want)
	}
	// Four charts a tiered run (14), one the edge-rule joins of each
	// Amazons run, one the outcomes by tier of each solved run, one each
	// Mū tōrere run, five overlays.
	solved := 0
	for _, r := range out.Runs {
		if r.Summary.Solved != nil {
			solved++
		}
	}
	if n, want := len(doc.all(named("svg"))), 4*14+2+solved+2+5; n != want {
		t.Errorf("%d <svg> in the page, want %d", n, want)
	}
}

// number reads a table cell: digits with separators, or a percentage
// (returned as a share).
func number(t *testing.T, cell string) float64 {
	t.Helper()
	v, pct := strings.CutSuffix(strings.ReplaceAll(cell, ",", ""), "%")
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("cell %q: %v", cell, err)
	}
	if pct {
		f /= 100
	}
	return f
}

func TestComparisonTableIsSummary(t *testing.T) {
	dir, out := publishedReport(t)
	doc := parsePage(t, filepath.Join(dir, HTMLName))
	ladderKeys := []string{"positions", "dead_free_boards", "pieces_in_place", "pieces_translated", "pieces_symmetric", "pieces_negation"}
	for _, r := range out.Runs {
		t.Run(r.ID, func(t *testing.T) {
			rows := doc.all(withAttr("tr", "data-run", r.ID))
			if r.Loopy != nil {
				// A loopy game's census has no tiers to compare.
				if len(rows) != 0 {
					t.Errorf("%d comparison rows for a loopy run, want none", len(rows))
				}
				return
			}
			raw := rawSummary(t, filepath.Join(r.Dir, schema.SummaryJSONFile))
			if len(rows) != 1 {
				t.Fatalf("%d table rows, want 1", len(rows))
			}
			cells := map[string]*node{}
			for _, td := range rows[0].all(named("td")) {
				cells[td.attr["data-key"]] = td
			}
			for _, key := range []string{"positions", "moves", "tiers", "dead_free_boards", "pieces_in_place",
				"pieces_translated", "pieces_symmetric", "pieces_negation", "self_negative_symmetric", "edge_rule_joins"} {
				td := cells[key]
				if td == nil {
					t.Fatalf("no cell %s", key)
				}
				value, _, _ := strings.Cut(td.text.String(), "÷")
				want, ok := raw[key]
				if !ok {
					if value != "–" {
						t.Errorf("%s = %q, want – (not in summary.json)", key, value)
					}
					continue
				}
				if got := number(t, value); fmt.Sprint(got) != fmt.Sprint(mustFloat(t, want)) {
					t.Errorf("%s = %q, summary.json %s", key, value, want)
				}
			}
			for _, key := range []string{"split_share", "dead_share"} {
				got, want := number(t, cells[key].text.String()), mustFloat(t, raw[key])
				if math.Abs(got-want) > 0.00005 {
					t.Errorf("%s = %v, summary.json %v", key, got, want)
				}
			}
			var factors []string
			for i := 1; i < len(ladderKeys); i++ {
				want := fmt.Sprintf("÷%.2f", mustFloat(t, raw[ladderKeys[i-1]])/mustFloat(t, raw[ladderKeys[i]]))
				factors = append(factors, want)
				if _, got, _ := strings.Cut(cells[ladderKeys[i]].text.String(), "÷"); "÷"+got != want {
					t.Errorf("%s factor ÷%s, want %s", ladderKeys[i], got, want)
				}
			}
			// The ladder chart writes the same factors on its bars.
			fig := doc.all(withAttr("figure", "id", r.ID+"-"+chartLadder))
			if len(fig) != 1 {
				t.Fatalf("no ladder chart")
			}
			var onChart []string
			for _, txt := range fig[0].all(named("text")) {
				if s := strings.TrimSpace(txt.text.String()); strings.HasPrefix(s, "÷") {
					onChart = append(onChart, s)
				}
			}
			if !slices.Equal(onChart, factors) {
				t.Errorf("ladder chart shows %v, want %v", onChart, factors)
			}
		})
	}
}

func mustFloat(t *testing.T, n interface{ Float64() (float64, error) }) float64 {
	t.Helper()
	f, err := n.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestNoExternalReference checks that the page loads nothing from the
// network: the only URLs in it are the SVG namespace.
func TestNoExternalReference(t *testing.T) {
	dir, _ := publishedReport(t)
	path := filepath.Join(dir, HTMLName)
	doc := parsePage(t, path)
	for _, n := range doc.all(func(*node) bool { return true }) {
		switch n.name {
		case "script", "link", "img", "iframe", "object", "embed", "image", "use":
			t.Errorf("element <%s> in the page", n.name)
		}
		for k, v := range n.attr {
			if !strings.Contains(v, "://") {
				continue
			}
			if k != "xmlns" || v != "http://www.w3.org/2000/svg" {
				t.Errorf("<%s %s=%q>: an external reference", n.name, k, v)
			}
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s"')]*`).FindAllString(string(data), -1) {
		if u != "http://www.w3.org/2000/svg" {
			t.Errorf("URL %q in the page", u)
		}
	}
	if !bytes.Contains(data, []byte("url(data:font/ttf;base64,")) {
		t.Errorf("the page does not embed its font")
	}
}

func TestPNGFiles(t *testing.T) {
	dir, out := publishedReport(t)
	var want []string
	for _, r := range out.Runs {
		for _, c := range wantRunCharts(r) {
			want = append(want, filepath.Join(dir, PNGDir, r.ID+"-"+c+".png"))
		}
	}
	for _, c := range wantCharts("amazons") {
		want = append(want, filepath.Join(dir, PNGDir, "all-"+c+".png"))
	}
	if !slices.Equal(out.PNGs, want) {
		t.Fatalf("PNG files %v, want %v", out.PNGs, want)
	}
	for _, p := range []string{want[0], want[len(want)-1]} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		wantW := int(math.Round(float64(runWidth/vg.Inch) * pngDPI))
		if strings.Contains(p, "all-") {
			wantW = int(math.Round(float64(overlayWidth/vg.Inch) * pngDPI))
		}
		if got := img.Bounds().Dx(); got != wantW {
			t.Errorf("%s is %d pixels wide, want %d", p, got, wantW)
		}
		if n := colours(img, img.Bounds()); n < 20 {
			t.Errorf("%s has %d colours: blank?", p, n)
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, PNGDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Errorf("%d files in %s, want %d (a temporary file left?)", len(entries), PNGDir, len(want))
	}
}

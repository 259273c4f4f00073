package report

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/schema"
)

// valuedRun runs the census of game on board and its values stage in
// this process (up to pieces of maxSize, all when 0), with the outputs
// under dir, and returns the run's directory and its pieces rows.
func valuedRun(t *testing.T, dir, game, board string, maxSize int) (string, []schema.Piece) {
	t.Helper()
	out := coordinator.OutputDir(dir, game, board)
	data := filepath.Join(t.TempDir(), "data")
	ctx := context.Background()
	if _, err := embedded.Run(ctx, embedded.Options{
		Game: game, Board: board, Out: out, Data: data, Workers: 2, Shards: 2, MemBudget: 64 << 20, Version: "test",
	}); err != nil {
		t.Fatalf("census %s %s: %v", game, board, err)
	}
	if _, err := embedded.RunValues(ctx, embedded.ValuesOptions{Dir: out, Data: data + "-values", Workers: 2, MaxSize: maxSize}); err != nil {
		t.Fatalf("values of %s %s: %v", game, board, err)
	}
	parts, err := filepath.Glob(filepath.Join(out, "pieces", "part-*.parquet"))
	if err != nil || len(parts) == 0 {
		t.Fatalf("no pieces files in %s: %v", out, err)
	}
	var rows []schema.Piece
	for _, p := range parts {
		r, err := schema.ReadPiecesFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
	}
	return out, rows
}

// recount is what the value charts must show of one size, counted from
// the pieces rows.
type recount struct {
	classes    map[string]float64
	pieces     float64
	mean, most float64
}

func recountBySize(rows []schema.Piece) (sizes []int, by map[int]*recount) {
	by = map[int]*recount{}
	sums := map[int]float64{}
	for _, p := range rows {
		rc := by[int(p.Size)]
		if rc == nil {
			rc = &recount{classes: map[string]float64{}}
			by[int(p.Size)] = rc
			sizes = append(sizes, int(p.Size))
		}
		rc.classes[p.Outcome]++
		rc.pieces++
		sums[int(p.Size)] += float64(p.Cost)
		rc.most = math.Max(rc.most, float64(p.Cost))
	}
	for s, rc := range by {
		rc.mean = sums[s] / rc.pieces
	}
	slices.Sort(sizes)
	return sizes, by
}

// rect is a bar as drawn: a filled path of four corners.
type rect struct {
	fill           string
	x0, x1, y0, y1 float64
}

// filledRects returns the filled four-cornered paths under n.
func filledRects(n *node) []rect {
	var out []rect
	for _, p := range n.all(named("path")) {
		style := p.attr["style"]
		if !strings.Contains(style, "fill:") || strings.Contains(style, "fill:none") {
			continue
		}
		m := pathPoint.FindAllStringSubmatch(p.attr["d"], -1)
		if len(m) != 4 {
			continue
		}
		r := rect{x0: math.Inf(1), x1: math.Inf(-1), y0: math.Inf(1), y1: math.Inf(-1)}
		for _, xy := range m {
			x, _ := strconv.ParseFloat(xy[1], 64)
			y, _ := strconv.ParseFloat(xy[2], 64)
			r.x0, r.x1 = math.Min(r.x0, x), math.Max(r.x1, x)
			r.y0, r.y1 = math.Min(r.y0, y), math.Max(r.y1, y)
		}
		for _, part := range strings.Split(style, ";") {
			if v, ok := strings.CutPrefix(part, "fill:"); ok {
				r.fill = v
			}
		}
		out = append(out, r)
	}
	return out
}

// TestValueCharts reports valued runs of small boards and checks that the
// outcome chart's bars and the cost chart's points are a recount of the
// pieces rows.
func TestValueCharts(t *testing.T) {
	dir := t.TempDir()
	recounts := map[string][]schema.Piece{}
	for _, gb := range [][2]string{{"clobber", "3x3"}, {"domineering", "3x3"}, {"amazons", "2x3"}} {
		_, rows := valuedRun(t, dir, gb[0], gb[1], 0)
		recounts[gb[0]+"-"+gb[1]] = rows
	}
	// A run that has not been valued: no value charts.
	plain := oneRun(t, dir, "plain")
	out, err := Write(dir, Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	doc := parsePage(t, filepath.Join(dir, HTMLName))
	for _, r := range out.Runs {
		t.Run(r.ID, func(t *testing.T) {
			got := sectionCharts(t, doc, r.ID)
			want := wantRunCharts(r)
			rows, valued := recounts[r.ID]
			if r.Dir == plain {
				if valued {
					t.Fatalf("the plain run is %s", r.ID)
				}
			} else {
				want = append(want, chartOutcomes, chartCost)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("charts %v, want %v", got, want)
			}
			if !valued {
				return
			}
			sizes, by := recountBySize(rows)
			checkOutcomeChart(t, doc, r.ID+"-"+chartOutcomes, sizes, by)
			checkCostChart(t, doc, r.ID, sizes, by)
		})
	}
}

// TestValueChartsPartial reports a run valued up to a piece size: its
// value charts show the sizes valued, as a recount of their rows.
func TestValueChartsPartial(t *testing.T) {
	dir := t.TempDir()
	_, rows := valuedRun(t, dir, "clobber", "3x3", 5)
	all := len(rows)
	valued := slices.DeleteFunc(rows, func(p schema.Piece) bool { return !p.Valued })
	if len(valued) == 0 || len(valued) == all {
		t.Fatalf("%d of %d pieces valued up to size 5", len(valued), all)
	}
	out, err := Write(dir, Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	doc := parsePage(t, filepath.Join(dir, HTMLName))
	id := out.Runs[0].ID
	sizes, by := recountBySize(valued)
	if sizes[len(sizes)-1] != 5 {
		t.Fatalf("pieces of sizes %v valued, want up to 5", sizes)
	}
	checkOutcomeChart(t, doc, id+"-"+chartOutcomes, sizes, by)
	checkCostChart(t, doc, id, sizes, by)
}

// sectionCharts returns the charts of a run's section in page order,
// checking that each figure holds one <svg>.
func sectionCharts(t *testing.T, doc *node, id string) []string {
	t.Helper()
	var got []string
	for _, fig := range doc.all(withAttr("section", "data-run", id))[0].all(named("figure")) {
		if n := len(fig.all(named("svg"))); n != 1 {
			t.Errorf("figure %s holds %d <svg>, want 1", fig.attr["id"], n)
		}
		got = append(got, fig.attr["data-chart"])
	}
	return got
}

// checkOutcomeChart checks that the figure id stacks a bar for each of
// sizes (piece sizes, or tiers) with one bar per class present, in the
// order L, R, N, P from the bottom, and that each bar's height over the
// stack's is the class's share of the size's pieces (or the tier's
// positions).
func checkOutcomeChart(t *testing.T, doc *node, id string, sizes []int, by map[int]*recount) {
	t.Helper()
	fig := doc.all(withAttr("figure", "id", id))
	if len(fig) != 1 {
		t.Fatalf("%d outcome charts, want 1", len(fig))
	}
	fills := map[string]string{}
	for c, col := range outcomeColors {
		fills[strings.ToLower(svgColor(col.R, col.G, col.B))] = c
	}
	// Bars by their centre, in drawing order (the legend's swatches are
	// narrower and stand apart; they are told apart by their height).
	type seg struct {
		class  string
		y0, y1 float64
	}
	stacks := map[float64][]seg{}
	var centres []float64
	for _, r := range filledRects(fig[0]) {
		class, ok := fills[strings.ToLower(r.fill)]
		if !ok {
			continue
		}
		c := math.Round((r.x0+r.x1)/2*100) / 100
		if _, seen := stacks[c]; !seen {
			centres = append(centres, c)
		}
		stacks[c] = append(stacks[c], seg{class, r.y0, r.y1})
	}
	// Every stack is a whole (the shares add up to one), so all are as
	// tall as the tallest; the legend's swatches, one above the other at
	// one centre, are shorter.
	height := func(c float64) float64 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range stacks[c] {
			lo, hi = math.Min(lo, s.y0), math.Max(hi, s.y1)
		}
		return hi - lo
	}
	tallest := 0.0
	for _, c := range centres {
		tallest = math.Max(tallest, height(c))
	}
	var bars []float64
	for _, c := range centres {
		if height(c) > 0.99*tallest {
			bars = append(bars, c)
		}
	}
	slices.Sort(bars)
	if len(bars) != len(sizes) {
		t.Fatalf("%d stacks drawn, %d sizes of pieces", len(bars), len(sizes))
	}
	for i, c := range bars {
		rc := by[sizes[i]]
		segs := stacks[c]
		var classes []string
		total := 0.0
		for _, s := range segs {
			classes = append(classes, s.class)
			total += s.y1 - s.y0
		}
		var want []string
		for _, cl := range outcomeClasses {
			if rc.classes[cl] > 0 {
				want = append(want, cl)
			}
		}
		if !slices.Equal(classes, want) {
			t.Errorf("size %d: classes %v drawn, the rows have %v", sizes[i], classes, want)
			continue
		}
		for _, s := range segs {
			got, share := (s.y1-s.y0)/total, rc.classes[s.class]/rc.pieces
			if math.Abs(got-share) > 2e-3 {
				t.Errorf("size %d, class %s: %.4f of the stack, %.4f of the rows", sizes[i], s.class, got, share)
			}
		}
	}
}

// checkCostChart checks that the two lines, greatest then mean, run
// through the recounted costs on the log scale.
func checkCostChart(t *testing.T, doc *node, id string, sizes []int, by map[int]*recount) {
	t.Helper()
	fig := doc.all(withAttr("figure", "id", id+"-"+chartCost))
	if len(fig) != 1 {
		t.Fatalf("%d cost charts, want 1", len(fig))
	}
	var lines [][][2]float64
	for _, p := range fig[0].all(named("path")) {
		if !strings.Contains(p.attr["style"], "fill:none") {
			continue
		}
		m := pathPoint.FindAllStringSubmatch(p.attr["d"], -1)
		if len(m) != len(sizes) || !strings.Contains(p.attr["d"], "L") {
			continue
		}
		pts := make([][2]float64, len(m))
		for i, xy := range m {
			pts[i][0], _ = strconv.ParseFloat(xy[1], 64)
			pts[i][1], _ = strconv.ParseFloat(xy[2], 64)
		}
		lines = append(lines, pts)
	}
	if len(lines) < 2 {
		t.Fatalf("%d lines of %d points drawn, want 2", len(lines), len(sizes))
	}
	// Both lines share the axes: fit the log scale on the greatest
	// costs' first and last points, and check every point of both.
	most, mean := lines[0], lines[1]
	n := len(sizes) - 1
	v := func(k int, greatest bool) float64 {
		if greatest {
			return math.Log10(by[sizes[k]].most)
		}
		return math.Log10(by[sizes[k]].mean)
	}
	if n == 0 || v(0, true) == v(n, true) {
		t.Skip("the greatest cost is the same at every size: no scale to fit")
	}
	scale := (most[n][1] - most[0][1]) / (v(n, true) - v(0, true))
	xscale := (most[n][0] - most[0][0]) / float64(sizes[n]-sizes[0])
	for li, line := range [][][2]float64{most, mean} {
		for k := range line {
			wantY := most[0][1] + (v(k, li == 0)-v(0, true))*scale
			wantX := most[0][0] + float64(sizes[k]-sizes[0])*xscale
			if math.Abs(line[k][1]-wantY) > 0.05 || math.Abs(line[k][0]-wantX) > 0.05 {
				t.Errorf("line %d, size %d: drawn at (%.2f, %.2f), the rows give (%.2f, %.2f)",
					li, sizes[k], line[k][0], line[k][1], wantX, wantY)
			}
		}
	}
}

// svgColor writes a colour as the SVG backend does.
func svgColor(r, g, b uint8) string {
	return "#" + strconv.FormatUint(uint64(r)>>4, 16) + strconv.FormatUint(uint64(r)&15, 16) +
		strconv.FormatUint(uint64(g)>>4, 16) + strconv.FormatUint(uint64(g)&15, 16) +
		strconv.FormatUint(uint64(b)>>4, 16) + strconv.FormatUint(uint64(b)&15, 16)
}

// TestValuesDisagree checks that a run whose pieces files do not add up
// to summary.json's outcome counts is refused, naming its pieces.
func TestValuesDisagree(t *testing.T) {
	dir := t.TempDir()
	run, _ := valuedRun(t, dir, "clobber", "2x3", 0)
	path := filepath.Join(run, "summary.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	s["outcomes_translated"].(map[string]any)["N"] = s["outcomes_translated"].(map[string]any)["N"].(float64) + 1
	if data, err = json.Marshal(s); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Write(dir, Options{Version: "test"})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(run, "pieces")) || !strings.Contains(err.Error(), "outcomes_translated") {
		t.Fatalf("Write: %v, want an error naming %s and outcomes_translated", err, filepath.Join(run, "pieces"))
	}
	if _, err := os.Stat(filepath.Join(dir, HTMLName)); err == nil {
		t.Errorf("%s written", HTMLName)
	}
}

package report

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// jsonAt returns the value at a dotted key of a summary.json read on its
// own: object keys, and array indexes counted from 1.
func jsonAt(t *testing.T, doc any, key string) any {
	t.Helper()
	v := doc
	for _, part := range strings.Split(key, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[part]; !ok {
				t.Fatalf("summary.json has no %s", key)
			}
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 1 || i > len(x) {
				t.Fatalf("summary.json has no %s", key)
			}
			v = x[i-1]
		default:
			t.Fatalf("summary.json has no %s", key)
		}
	}
	return v
}

func rawJSON(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestLoopyFactsAreSummary checks every number of a Mū tōrere run's table
// against its summary.json, read on its own.
func TestLoopyFactsAreSummary(t *testing.T) {
	dir, out := publishedReport(t)
	doc := parsePage(t, filepath.Join(dir, HTMLName))
	verdicts := map[string]string{"won": "W", "lost": "L", "drawn": "D"}
	loopyRuns := 0
	for _, r := range out.Runs {
		if r.Loopy == nil {
			continue
		}
		loopyRuns++
		t.Run(r.ID, func(t *testing.T) {
			raw := rawJSON(t, filepath.Join(r.Dir, "summary.json"))
			sec := doc.all(withAttr("section", "data-run", r.ID))
			if len(sec) != 1 {
				t.Fatalf("%d sections, want 1", len(sec))
			}
			cells := sec[0].all(func(n *node) bool { return n.name == "td" && n.attr["data-key"] != "" })
			seen := map[string]bool{}
			for _, td := range cells {
				key, text := td.attr["data-key"], strings.TrimSpace(td.text.String())
				seen[key] = true
				want := jsonAt(t, raw, key)
				switch {
				case key == "start_verdict":
					if verdicts[text] != want {
						t.Errorf("%s = %q, summary.json %v", key, text, want)
					}
				case strings.HasSuffix(text, "%"):
					if got, w := number(t, text), mustFloat(t, want.(json.Number)); math.Abs(got-w) > 0.00005 {
						t.Errorf("%s = %v, summary.json %v", key, got, w)
					}
				case strings.HasSuffix(key, "expected_moves"):
					if got, w := number(t, text), mustFloat(t, want.(json.Number)); math.Abs(got-w) > 0.0005 {
						t.Errorf("%s = %v, summary.json %v", key, got, w)
					}
				default:
					if got, w := number(t, text), mustFloat(t, want.(json.Number)); got != w {
						t.Errorf("%s = %v, summary.json %v", key, got, w)
					}
				}
			}
			// The table holds the counts the checks name.
			for _, key := range []string{"arrangements", "states", "reachable_states", "verdicts.W", "verdicts.L", "verdicts.D",
				"reachable_verdicts.D", "verdicts_by_arrangement.DD", "last_first_reached",
				"random_player.black.lost_within.10", "random_player.white.expected_moves"} {
				if !seen[key] {
					t.Errorf("no cell %s", key)
				}
			}
		})
	}
	if loopyRuns != 2 {
		t.Errorf("%d Mū tōrere runs in the published report, want 2 (classic and free-centre)", loopyRuns)
	}
}

// pathPoint matches the points of an SVG path made of M and L commands.
var pathPoint = regexp.MustCompile(`[ML](-?[0-9.]+),(-?[0-9.]+)`)

// TestRandomChartIsSummary checks that the random player's chart draws
// summary.json's lost_within, Black then White: the chart's scale is
// unknown to the test, so it compares each line's points with the values
// after mapping both onto [0, 1] by their first and last point (a linear
// axis keeps those ratios).
func TestRandomChartIsSummary(t *testing.T) {
	dir, out := publishedReport(t)
	doc := parsePage(t, filepath.Join(dir, HTMLName))
	for _, r := range out.Runs {
		if r.Loopy == nil {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			raw := rawJSON(t, filepath.Join(r.Dir, "summary.json"))
			fig := doc.all(withAttr("figure", "id", r.ID+"-"+chartRandom))
			if len(fig) != 1 {
				t.Fatalf("%d random-player charts, want 1", len(fig))
			}
			if n := len(fig[0].all(named("svg"))); n != 1 {
				t.Fatalf("the figure holds %d <svg>, want 1", n)
			}
			var lines [][][2]float64
			for _, p := range fig[0].all(named("path")) {
				m := pathPoint.FindAllStringSubmatch(p.attr["d"], -1)
				if len(m) < 10 {
					continue // an axis, a tick or a legend's sample
				}
				pts := make([][2]float64, len(m))
				for i, xy := range m {
					pts[i][0], _ = strconv.ParseFloat(xy[1], 64)
					pts[i][1], _ = strconv.ParseFloat(xy[2], 64)
				}
				lines = append(lines, pts)
			}
			if len(lines) != 2 {
				t.Fatalf("%d lines drawn, want 2", len(lines))
			}
			for i, side := range []string{"black", "white"} {
				vals := jsonAt(t, raw, "random_player."+side+".lost_within").([]any)
				pts := lines[i]
				if len(pts) != len(vals) {
					t.Fatalf("%s: %d points, summary.json %d values", side, len(pts), len(vals))
				}
				v := make([]float64, len(vals))
				for k := range vals {
					v[k] = mustFloat(t, vals[k].(json.Number))
				}
				n := len(v) - 1
				for k := range v {
					gotX := (pts[k][0] - pts[0][0]) / (pts[n][0] - pts[0][0])
					gotY := (pts[k][1] - pts[0][1]) / (pts[n][1] - pts[0][1])
					wantY := (v[k] - v[0]) / (v[n] - v[0])
					if math.Abs(gotX-float64(k)/float64(n)) > 1e-3 || math.Abs(gotY-wantY) > 1e-3 {
						t.Fatalf("%s, k = %d: drawn at (%.4f, %.4f) of the line's span, summary.json gives (%.4f, %.4f)",
							side, k+1, gotX, gotY, float64(k)/float64(n), wantY)
					}
				}
			}
			// The legend gives each side's expected moves.
			var text strings.Builder
			for _, txt := range fig[0].all(named("text")) {
				text.WriteString(txt.text.String() + "\n")
			}
			for _, side := range []string{"black", "white"} {
				e := mustFloat(t, jsonAt(t, raw, "random_player."+side+".expected_moves").(json.Number))
				if want := strconv.FormatFloat(e, 'f', 3, 64) + " moves on average"; !strings.Contains(text.String(), want) {
					t.Errorf("the legend lacks %q for %s", want, side)
				}
			}
		})
	}
}

// loopyRunCopy copies the published Mū tōrere run into dir/name.
func loopyRunCopy(t *testing.T, dir, name string) string {
	t.Helper()
	to := filepath.Join(dir, name)
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"summary.json", "states.parquet"} {
		data, err := os.ReadFile(filepath.Join("..", "results", "mutorere-8", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// TestLoopyRunAlone checks that a directory holding only a Mū tōrere
// census is reported, with neither comparison table nor overlays.
func TestLoopyRunAlone(t *testing.T) {
	dir := t.TempDir()
	loopyRunCopy(t, dir, "mutorere-8")
	out, err := Write(dir, Options{PNG: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Runs) != 1 || out.Runs[0].ID != "mutorere-8" || out.Runs[0].Loopy == nil {
		t.Fatalf("runs %+v, want mutorere-8", out.Runs)
	}
	if want := filepath.Join(dir, PNGDir, "mutorere-8-"+chartRandom+".png"); len(out.PNGs) != 1 || out.PNGs[0] != want {
		t.Errorf("PNG files %v, want %s", out.PNGs, want)
	}
	doc := parsePage(t, out.HTML)
	if n := len(doc.all(named("svg"))); n != 1 {
		t.Errorf("%d <svg> in the page, want 1", n)
	}
	if n := len(doc.all(withAttr("section", "id", "comparison"))); n != 0 {
		t.Errorf("a comparison section for one run")
	}
}

// TestLoopyRunErrors checks that a broken Mū tōrere census is an error
// naming the file, and that no report is left behind.
func TestLoopyRunErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, run string) string
	}{
		{"corrupt summary", func(t *testing.T, run string) string {
			p := filepath.Join(run, "summary.json")
			os.WriteFile(p, []byte(`{"game": "mutorere", "states": `), 0o644)
			return p
		}},
		{"summary without the random player", func(t *testing.T, run string) string {
			p := filepath.Join(run, "summary.json")
			os.WriteFile(p, []byte(`{"game": "mutorere", "board": "8", "arrangements": 630, "states": 1260}`), 0o644)
			return p
		}},
		{"states of another run", func(t *testing.T, run string) string {
			p := filepath.Join(run, "summary.json")
			data, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(strings.Replace(string(data), `"states": 1260`, `"states": 1262`, 1), `"arrangements": 630`, `"arrangements": 631`, 1)), 0o644)
			return filepath.Join(run, "states.parquet")
		}},
		{"states not a states table", func(t *testing.T, run string) string {
			p := filepath.Join(run, "states.parquet")
			data, err := os.ReadFile(filepath.Join("..", "results", "clobber-4x4", "tiers.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p, data, 0o644)
			return p
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			oneRun(t, dir, "clobber-4x4")
			file := tc.setup(t, loopyRunCopy(t, dir, "mutorere-8"))
			_, err := Write(dir, Options{PNG: true})
			switch {
			case err == nil:
				t.Fatal("no error")
			case errors.Is(err, ErrNoRuns):
				t.Errorf("error %v wraps ErrNoRuns", err)
			case !strings.Contains(err.Error(), file):
				t.Errorf("error %q does not name %s", err, file)
			}
			for _, out := range []string{HTMLName, PNGDir} {
				if _, err := os.Stat(filepath.Join(dir, out)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a failed report left %s", out)
				}
			}
		})
	}
}

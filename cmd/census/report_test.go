package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

// TestReport runs two small censuses and reports on them, as a user would.
func TestReport(t *testing.T) {
	out := t.TempDir()
	for _, args := range [][]string{{"clobber", "2x6"}, {"amazons", "3x4"}} {
		if _, stderr, code := census(t, append([]string{"run", "--quiet", "--out", out}, args...)...); code != 0 {
			t.Fatalf("census run %v: exit %d: %s", args, code, stderr)
		}
	}
	stdout, stderr, code := census(t, "report", out, "--png")
	if code != 0 {
		t.Fatalf("census report: exit %d: %s", code, stderr)
	}
	html := filepath.Join(out, "report.html")
	if !strings.Contains(stdout, html) || !strings.Contains(stdout, "2 run(s)") {
		t.Errorf("stdout %q: want the path of report.html and 2 runs", stdout)
	}
	data, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	// Numbers of census-spec.md, with separators.
	for _, want := range []string{
		`data-run="clobber-2x6"`, `data-run="amazons-3x4"`, `id="comparison-table"`,
		`data-key="positions">29,463<`, `data-key="moves">139,136<`, `data-key="dead_free_boards">13,404<`,
		`data-key="positions">127,583<`, `data-key="moves">2,300,392<`,
		"finished", // from run.json, which census run writes
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 4+5+4 {
		t.Errorf("report.html holds %d charts, want 13 (4 + 5 for the runs, 4 overlaid)", n)
	}
	for _, name := range []string{"clobber-2x6-positions.png", "clobber-2x6-ladder.png", "amazons-3x4-edge-rule-joins.png", "all-split-share.png"} {
		if fi, err := os.Stat(filepath.Join(out, "report", name)); err != nil || fi.Size() == 0 {
			t.Errorf("report/%s: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "report", "all-edge-rule-joins.png")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("edge-rule joins overlaid for one Amazons run")
	}
}

// TestReportMutorere runs the Mū tōrere census beside a tiered one and
// reports on both: the loopy run gets its section and its chart, the
// tiered one stays alone in no comparison.
func TestReportMutorere(t *testing.T) {
	out := t.TempDir()
	for _, args := range [][]string{{"clobber", "2x6"}, {"mutorere", "8"}} {
		if _, stderr, code := census(t, append([]string{"run", "--quiet", "--out", out}, args...)...); code != 0 {
			t.Fatalf("census run %v: exit %d: %s", args, code, stderr)
		}
	}
	stdout, stderr, code := census(t, "report", out, "--png")
	if code != 0 {
		t.Fatalf("census report: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "2 run(s)") {
		t.Errorf("stdout %q: want 2 runs", stdout)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	// The numbers for Mū tōrere, with separators.
	for _, want := range []string{
		`data-run="mutorere-8"`, `data-run="clobber-2x6"`, `data-chart="random-player"`,
		`data-key="arrangements">630<`, `data-key="states">1,260<`, `data-key="reachable_states">1,180<`,
		`data-key="reachable_verdicts.W">208<`, `data-key="reachable_verdicts.L">128<`, `data-key="reachable_verdicts.D">844<`,
		`data-key="verdicts_by_arrangement.DD">294<`, `data-key="last_first_reached">24<`, `data-key="start_verdict">drawn<`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(page, `id="comparison"`) {
		t.Errorf("a comparison of one tiered run")
	}
	if n := strings.Count(page, "<svg"); n != 4+1 {
		t.Errorf("report.html holds %d charts, want 5 (4 for clobber, 1 for mutorere)", n)
	}
	if fi, err := os.Stat(filepath.Join(out, "report", "mutorere-8-random-player.png")); err != nil || fi.Size() == 0 {
		t.Errorf("report/mutorere-8-random-player.png: %v", err)
	}
}

func TestReportBadInput(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	empty := filepath.Join(tmp, "empty")
	corrupt := filepath.Join(tmp, "corrupt")
	for _, d := range []string{empty, filepath.Join(corrupt, "clobber-4x4")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(corrupt, "clobber-4x4", schema.SummaryJSONFile)
	if err := os.WriteFile(bad, []byte(`{"game": `), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		code  int
		names string
		// dir is where no report.html may appear.
		dir string
	}{
		{"missing", []string{"report", filepath.Join(tmp, "nope")}, 2, filepath.Join(tmp, "nope"), tmp},
		{"not a directory", []string{"report", file}, 2, file, tmp},
		{"no run", []string{"report", empty, "--png"}, 2, empty, empty},
		{"corrupt summary", []string{"report", corrupt}, 1, bad, corrupt},
		{"no argument", []string{"report"}, 2, "DIR", tmp},
		{"two arguments", []string{"report", empty, corrupt}, 2, "DIR", tmp},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := census(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d; stderr %q", code, tc.code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tc.names) {
				t.Errorf("stderr %q: want one line naming %q", stderr, tc.names)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			for _, f := range []string{"report.html", "report"} {
				if _, err := os.Stat(filepath.Join(tc.dir, f)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("bad input left %s behind", filepath.Join(tc.dir, f))
				}
			}
		})
	}
}

func TestReportHelp(t *testing.T) {
	stdout, stderr, code := census(t, "report", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"DIR/report.html", "--png", "RUN-CHART.png", "all-CHART.png", "split-share", "states.parquet", "random-player"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("census report --help lacks %q", want)
		}
	}
}

// TestReportSolved solves a census and reports on it beside one that is
// not solved: the solved run's section has the chart of its outcome
// classes by tier, with its PNG, and the other has none.
func TestReportSolved(t *testing.T) {
	out := t.TempDir()
	for _, args := range [][]string{{"clobber", "2x3", "--solve"}, {"domineering", "2x3"}} {
		if _, stderr, code := census(t, append([]string{"run", "--quiet", noMetrics, "--out", out}, args...)...); code != 0 {
			t.Fatalf("census run %v: exit %d: %s", args, code, stderr)
		}
	}
	if _, stderr, code := census(t, "report", out, "--png"); code != 0 {
		t.Fatalf("census report: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	section := func(run string) string {
		_, rest, ok := strings.Cut(page, `<section class="run" id="run-`+run+`"`)
		if !ok {
			t.Fatalf("report.html has no section of %s", run)
		}
		s, _, _ := strings.Cut(rest, "</section>")
		return s
	}
	const chart = `data-chart="outcomes-by-tier"`
	if s := section("clobber-2x3"); !strings.Contains(s, chart) || !strings.Contains(s, "Outcome classes by tier") {
		t.Errorf("the solved run's section has no chart of its outcome classes by tier")
	}
	if strings.Contains(section("domineering-2x3"), chart) {
		t.Errorf("the run that is not solved has a chart of outcome classes")
	}
	if fi, err := os.Stat(filepath.Join(out, "report", "clobber-2x3-outcomes-by-tier.png")); err != nil || fi.Size() == 0 {
		t.Errorf("report/clobber-2x3-outcomes-by-tier.png: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "report", "domineering-2x3-outcomes-by-tier.png")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a PNG of outcome classes for the run that is not solved (%v)", err)
	}
}

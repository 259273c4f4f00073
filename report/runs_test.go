package report

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

// oneRun copies the published clobber 4x4 run into dir/name.
func oneRun(t *testing.T, dir, name string) string {
	t.Helper()
	to := filepath.Join(dir, name)
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{schema.SummaryJSONFile, schema.TiersFile} {
		data, err := os.ReadFile(filepath.Join("..", "results", "clobber-4x4", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

func TestFindErrors(t *testing.T) {
	tests := []struct {
		name string
		// setup breaks a copy of a run in dir; it returns the file the
		// error must name.
		setup func(t *testing.T, run string) string
		noRun bool
	}{
		{"no run", func(t *testing.T, run string) string {
			os.RemoveAll(run)
			return ""
		}, true},
		{"corrupt summary", func(t *testing.T, run string) string {
			p := filepath.Join(run, schema.SummaryJSONFile)
			os.WriteFile(p, []byte(`{"game": "clobber", "positions": `), 0o644)
			return p
		}, false},
		{"summary without tiers", func(t *testing.T, run string) string {
			p := filepath.Join(run, schema.SummaryJSONFile)
			os.WriteFile(p, []byte(`{"game": "clobber", "board": "4x4", "positions": 3}`), 0o644)
			return p
		}, false},
		{"missing tiers", func(t *testing.T, run string) string {
			p := filepath.Join(run, schema.TiersFile)
			os.Remove(p)
			return p
		}, false},
		{"tiers of another run", func(t *testing.T, run string) string {
			p := filepath.Join(run, schema.TiersFile)
			data, err := os.ReadFile(filepath.Join("..", "results", "clobber-3x5", schema.TiersFile))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p, data, 0o644)
			return p
		}, false},
		{"corrupt run.json", func(t *testing.T, run string) string {
			p := filepath.Join(run, schema.ManifestFile)
			os.WriteFile(p, []byte(`[`), 0o644)
			return p
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			oneRun(t, dir, "good")
			file := tc.setup(t, oneRun(t, dir, "bad"))
			if tc.noRun {
				os.RemoveAll(filepath.Join(dir, "good"))
			}
			_, err := Write(dir, Options{PNG: true})
			switch {
			case err == nil:
				t.Fatal("no error")
			case tc.noRun != errors.Is(err, ErrNoRuns):
				t.Errorf("error %v: ErrNoRuns %v, want %v", err, errors.Is(err, ErrNoRuns), tc.noRun)
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

func TestFindNamesAndOrder(t *testing.T) {
	dir := t.TempDir()
	oneRun(t, dir, "b/clobber-4x4")
	oneRun(t, dir, "a/clobber-4x4")
	oneRun(t, dir, ".census-data/clobber-4x4")
	small := oneRun(t, dir, "c/small")
	// A smaller board sorts first, whatever its directory is called.
	data, err := os.ReadFile(filepath.Join("..", "results", "clobber-3x5", schema.SummaryJSONFile))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(small, schema.SummaryJSONFile), data, 0o644)
	data, _ = os.ReadFile(filepath.Join("..", "results", "clobber-3x5", schema.TiersFile))
	os.WriteFile(filepath.Join(small, schema.TiersFile), data, 0o644)

	runs, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		rel, _ := filepath.Rel(dir, r.Dir)
		got = append(got, r.ID+" "+filepath.ToSlash(rel))
	}
	want := []string{"clobber-3x5 c/small", "clobber-4x4 a/clobber-4x4", "clobber-4x4-2 b/clobber-4x4"}
	if !slices.Equal(got, want) {
		t.Errorf("runs %q, want %q", got, want)
	}

	// The directory itself may be the run.
	runs, err = Find(small)
	if err != nil || len(runs) != 1 || runs[0].ID != "clobber-3x5" {
		t.Errorf("Find(run directory) = %v, %v", runs, err)
	}
}

func TestManifest(t *testing.T) {
	dir := t.TempDir()
	run := oneRun(t, dir, "clobber-4x4")
	if err := os.WriteFile(filepath.Join(run, schema.ManifestFile), []byte(`{"census_version": "v1.2.3", "run": "clobber-4x4-abc", "files": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := Write(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := out.Runs[0].Manifest
	if m == nil || m.Census != "v1.2.3" || m.Run != "clobber-4x4-abc" || m.Written.IsZero() {
		t.Fatalf("manifest %+v", m)
	}
	doc := parsePage(t, out.HTML)
	sec := doc.all(withAttr("section", "data-run", "clobber-4x4"))
	if len(sec) != 1 {
		t.Fatal("no section for the run")
	}
	text := sec[0].text.String()
	for _, want := range []string{"clobber-4x4-abc", "v1.2.3", m.Written.Format("2006-01-02 15:04")} {
		if !strings.Contains(text, want) {
			t.Errorf("the run's section does not show %q", want)
		}
	}
	if strings.Contains(text, "edge-rule joins") {
		t.Errorf("a Clobber run shows edge-rule joins")
	}
	// One run: no comparison, no overlays, no PNG files.
	if len(doc.all(withAttr("section", "id", "comparison"))) != 0 || len(out.PNGs) != 0 {
		t.Errorf("one run got a comparison or PNG files")
	}
	if n, want := len(doc.all(named("svg"))), len(wantRunCharts(out.Runs[0])); n != want {
		t.Errorf("%d charts, want %d", n, want)
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

// valueCounts is v with its levels' costs zeroed, which differ from run to
// run.
func valueCounts(v *schema.Values) *schema.Values {
	if v == nil {
		return nil
	}
	c := *v
	c.Levels = nil
	for _, l := range v.Levels {
		l.WallS, l.CPUS, l.JobWallS, l.LoadS = 0, 0, 0, 0
		c.Levels = append(c.Levels, l)
	}
	return &c
}

// TestValuesCommand runs census run --values and census values on small
// runs and checks they agree, and that bad input exits 2 with one line
// naming it and leaves the directory as it was.
func TestValuesCommand(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, code := census(t, "run", "clobber", "2x4", "--out", out, "--values", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("census run --values: exit %d: %s", code, stderr)
	}
	var withValues schema.Summary
	if err := json.Unmarshal([]byte(stdout), &withValues); err != nil || withValues.Values == nil {
		t.Fatalf("summary on stdout: %v %s", err, stdout)
	}
	var n uint64
	for _, c := range withValues.OutcomesTranslated {
		n += c
	}
	if n != withValues.PiecesTranslated {
		t.Errorf("outcomes_translated add up to %d, pieces_translated %d", n, withValues.PiecesTranslated)
	}

	plain := t.TempDir()
	if _, stderr, code := census(t, "run", "clobber", "2x4", "--out", plain, "--quiet"); code != 0 {
		t.Fatalf("census run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(plain, "clobber-2x4")
	stdout, stderr, code = census(t, "values", dir, "--json", "--quiet")
	if code != 0 {
		t.Fatalf("census values: exit %d: %s", code, stderr)
	}
	var later schema.Summary
	if err := json.Unmarshal([]byte(stdout), &later); err != nil || !reflect.DeepEqual(valueCounts(later.Values), valueCounts(withValues.Values)) {
		t.Errorf("census values gives %+v, census run --values %+v (%v)", later.Values, withValues.Values, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".census-values")); !os.IsNotExist(err) {
		t.Errorf("working data left behind: %v", err)
	}

	old := t.TempDir()
	if err := os.CopyFS(old, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(old, "run.json"))
	older := fmt.Sprintf(`"schema_version": %d`, schema.Version-1)
	manifest = []byte(strings.Replace(string(manifest), fmt.Sprintf(`"schema_version": %d`, schema.Version), older, 1))
	if err := os.WriteFile(filepath.Join(old, "run.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		names string
	}{
		{"OUT rather than OUT/GAME-BOARD", []string{"values", plain}, dir},
		{"older schema", []string{"values", old}, fmt.Sprintf("schema_version %d", schema.Version-1)},
		{"not a directory", []string{"values", filepath.Join(plain, "nothing")}, "nothing"},
		{"bad cap", []string{"values", dir, "--cap", "0"}, "--cap 0"},
		{"bad mem budget", []string{"values", dir, "--mem-budget", "lots"}, "lots"},
		{"bad max size", []string{"values", dir, "--max-size", "-1"}, "--max-size -1"},
		{"bad run cap", []string{"run", "clobber", "2x3", "--out", t.TempDir(), "--values", "--shard-pieces", "0"}, "--shard-pieces 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadDir(plain)
			_, stderr, code := census(t, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2: %s", code, stderr)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 || !strings.Contains(stderr, tt.names) {
				t.Errorf("stderr %q: want one line naming %q", stderr, tt.names)
			}
			if after, _ := os.ReadDir(plain); len(after) != len(before) {
				t.Errorf("%s: %d entries, had %d", plain, len(after), len(before))
			}
		})
	}
	if _, _, code := census(t, "values", "--help"); code != 0 {
		t.Errorf("census values --help: exit %d", code)
	}
}

// TestValuesProgress checks that census values tells a person, off a
// terminal, each level it values (every size of piece of the run, in
// order) and when it writes the outputs, and that --quiet silences it.
func TestValuesProgress(t *testing.T) {
	out := t.TempDir()
	if _, stderr, code := census(t, "run", "clobber", "2x4", "--out", out, "--quiet"); code != 0 {
		t.Fatalf("census run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(out, "clobber-2x4")
	parts, err := schema.PiecesParts(dir)
	if err != nil || len(parts) == 0 {
		t.Fatalf("no pieces parts in %s: %v", dir, err)
	}
	sizes := map[int32]bool{}
	var pieces int
	for _, p := range parts {
		rows, err := schema.ReadPiecesFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			sizes[r.Size] = true
		}
		pieces += len(rows)
	}
	_, stderr, code := census(t, "values", dir, "--data", t.TempDir())
	if code != 0 {
		t.Fatalf("census values: exit %d: %s", code, stderr)
	}
	var levels []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "census: values: level ") {
			levels = append(levels, l)
		}
	}
	if len(levels) < len(sizes) {
		t.Errorf("%d level lines for %d sizes of piece:\n%s", len(levels), len(sizes), stderr)
	}
	for i := 1; i <= len(sizes); i++ {
		if !strings.Contains(stderr, fmt.Sprintf("census: values: level %d/%d (size ", i, len(sizes))) {
			t.Errorf("no line for level %d/%d:\n%s", i, len(sizes), stderr)
		}
	}
	if want := fmt.Sprintf("census: values: writing the value columns  %d/%d pieces valued", pieces, pieces); !strings.Contains(stderr, want) {
		t.Errorf("no line %q:\n%s", want, stderr)
	}

	_, stderr, code = census(t, "values", dir, "--data", t.TempDir(), "--quiet")
	if code != 0 || strings.Contains(stderr, "census: values") {
		t.Errorf("census values --quiet: exit %d, stderr %q", code, stderr)
	}
}

// TestValuesMaxSizeCommand values a run with census run --values
// --max-size, which keeps its working data and names the command that
// extends it, then runs that command: it ends where census values of the
// whole run does, and removes the data.
func TestValuesMaxSizeCommand(t *testing.T) {
	out := t.TempDir()
	_, stderr, code := census(t, "run", "clobber", "2x4", "--out", out, "--values", "--max-size", "4")
	if code != 0 {
		t.Fatalf("census run --values --max-size 4: exit %d: %s", code, stderr)
	}
	dir, data := filepath.Join(out, "clobber-2x4"), filepath.Join(out, ".census-data", "values")
	extend := "census values " + dir + " --data " + data
	if !strings.Contains(stderr, "partial: pieces of up to 4 stones valued") || !strings.Contains(stderr, extend) {
		t.Errorf("stderr names neither the partial values nor %q:\n%s", extend, stderr)
	}
	if _, err := os.Stat(filepath.Join(data, "nats")); err != nil {
		t.Errorf("working data of the partial values not kept: %v", err)
	}
	partial := readSummary(t, dir)
	if partial.MaxSize != 4 || partial.PiecesNotValued == 0 {
		t.Errorf("summary.json of census run --values --max-size 4: %+v", partial.Values)
	}

	_, stderr, code = census(t, append(strings.Fields(extend)[1:], "--cap", "50")...)
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, "--cap") {
		t.Errorf("%s --cap 50: exit %d, want 2 and one line naming --cap: %s", extend, code, stderr)
	}
	_, stderr, code = census(t, strings.Fields(extend)[1:]...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", extend, code, stderr)
	}
	if strings.Contains(stderr, "partial") {
		t.Errorf("%s says it is partial:\n%s", extend, stderr)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("working data left behind: %v", err)
	}
	plain := t.TempDir()
	if _, stderr, code := census(t, "run", "clobber", "2x4", "--out", plain, "--values", "--quiet"); code != 0 {
		t.Fatalf("census run --values: exit %d: %s", code, stderr)
	}
	if got, want := readSummary(t, dir), readSummary(t, filepath.Join(plain, "clobber-2x4")); !reflect.DeepEqual(valueCounts(got.Values), valueCounts(want.Values)) {
		t.Errorf("extended values %+v, census run --values %+v", got.Values, want.Values)
	}
}

func readSummary(t *testing.T, dir string) schema.Summary {
	t.Helper()
	var s schema.Summary
	data, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s); err != nil || s.Values == nil {
		t.Fatalf("%s: %v, values %v", schema.SummaryJSONFile, err, s.Values)
	}
	return s
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKonaneRun runs the essay's census of the Kōnane row of eight and
// checks its numbers in the written outputs: 6,561 arrangements, 3,493
// P-positions, 36 distinct values.
func TestKonaneRun(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, code := census(t, "run", "konane", "1x8", "--all-arrangements", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "36 distinct values") {
		t.Errorf("stdout: %q", stdout)
	}
	dir := filepath.Join(out, "konane-1x8")
	var sum struct {
		Game           string         `json:"game"`
		Board          string         `json:"board"`
		Arrangements   int            `json:"arrangements"`
		Outcomes       map[string]int `json:"outcomes"`
		DistinctValues int            `json:"distinct_values"`
		Values         []struct {
			Value string `json:"value"`
			Count int    `json:"count"`
		} `json:"values"`
	}
	readKonaneJSON(t, filepath.Join(dir, "summary.json"), &sum)
	if sum.Game != "konane" || sum.Board != "1x8" {
		t.Errorf("game %q board %q", sum.Game, sum.Board)
	}
	if sum.Arrangements != 6561 || sum.Outcomes["P"] != 3493 || sum.DistinctValues != 36 || len(sum.Values) != 36 {
		t.Errorf("arrangements %d, P %d, distinct %d (%d listed); want 6,561, 3,493, 36",
			sum.Arrangements, sum.Outcomes["P"], sum.DistinctValues, len(sum.Values))
	}
	total := 0
	for i, v := range sum.Values {
		total += v.Count
		if i > 0 && v.Count > sum.Values[i-1].Count {
			t.Errorf("values not sorted by count at %d: %v", i, sum.Values[i-1:i+1])
		}
	}
	if total != sum.Arrangements {
		t.Errorf("value counts add up to %d", total)
	}
	if sum.Values[0].Value != "0" || sum.Values[0].Count != 3493 {
		t.Errorf("most frequent value %+v, want 0 (the P-positions)", sum.Values[0])
	}
	var m struct {
		Game  string `json:"game"`
		Files []struct {
			Path  string `json:"path"`
			Bytes int64  `json:"bytes"`
		} `json:"files"`
	}
	readKonaneJSON(t, filepath.Join(dir, "run.json"), &m)
	fi, err := os.Stat(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Game != "konane" || len(m.Files) != 1 || m.Files[0].Path != "summary.json" || m.Files[0].Bytes != fi.Size() {
		t.Errorf("run.json: %+v", m)
	}

	// --json prints the same summary.
	stdout, stderr, code = census(t, "run", "konane", "1x4", "--all-arrangements", "--out", out, "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Arrangements != 81 {
		t.Errorf("--json: %v, %d arrangements", err, sum.Arrangements)
	}
}

func readKonaneJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestKonaneBadInput(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		name  string
		args  []string
		names string
	}{
		{"no rows", []string{"konane", "0x8", "--all-arrangements"}, `"0x8"`},
		{"two rows", []string{"konane", "2x8", "--all-arrangements"}, "2x8"},
		{"too long", []string{"konane", "1x15", "--all-arrangements"}, "1x15"},
		{"not a board", []string{"konane", "1xy", "--all-arrangements"}, `"1xy"`},
		{"no --all-arrangements", []string{"konane", "1x8"}, "--all-arrangements"},
		{"other game", []string{"clobber", "4x4", "--all-arrangements"}, `"clobber"`},
		{"too many squares", []string{"konane", "9x9"}, "9x9"},
		{"--values on a row", []string{"konane", "1x8", "--all-arrangements", "--values"}, "--values"},
		{"a start", []string{"konane", "1x8", "--all-arrangements", "--start", "xo......"}, `"xo......"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := census(t, append(append([]string{"run"}, tc.args...), "--out", out)...)
			if code != 2 {
				t.Errorf("exit %d, want 2: %s", code, stderr)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 || !strings.Contains(stderr, tc.names) {
				t.Errorf("stderr %q: want one line naming %s", stderr, tc.names)
			}
		})
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("bad input left %d entries in --out", len(entries))
	}
}

// TestKonaneOpenings runs the census of the openings of 4x4 with values
// and checks what its summary must hold: the 12 openings, each with a
// value whose outcome class agrees with black_wins, and counts that add
// up.
func TestKonaneOpenings(t *testing.T) {
	out := t.TempDir()
	_, stderr, code := census(t, "run", "konane", "4x4", "--values", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum struct {
		Board     string         `json:"board"`
		Openings  int            `json:"openings"`
		Method    string         `json:"method"`
		Outcomes  map[string]int `json:"outcomes"`
		BlackWins int            `json:"black_wins"`
		Results   []struct {
			Outcome   string `json:"outcome"`
			BlackWins bool   `json:"black_wins"`
			Value     string `json:"value"`
		} `json:"results"`
	}
	dir := filepath.Join(out, "konane-4x4")
	readKonaneJSON(t, filepath.Join(dir, "summary.json"), &sum)
	if sum.Board != "4x4" || sum.Openings != 12 || len(sum.Results) != 12 || sum.Method != "values" {
		t.Fatalf("summary: %+v", sum)
	}
	total, wins := 0, 0
	for _, r := range sum.Results {
		if r.Value == "" {
			t.Errorf("opening without a value: %+v", r)
		}
		if r.BlackWins {
			wins++
		}
	}
	for _, n := range sum.Outcomes {
		total += n
	}
	if total != 12 || wins != sum.BlackWins {
		t.Errorf("outcomes add up to %d; black wins %d, counted %d", total, sum.BlackWins, wins)
	}
	if _, err := os.Stat(filepath.Join(dir, "run.json")); err != nil {
		t.Errorf("no run.json: %v", err)
	}
}

func TestKonaneHelp(t *testing.T) {
	stdout, _, code := census(t, "run", "--help")
	if code != 0 || !strings.Contains(stdout, "--all-arrangements") || !strings.Contains(stdout, "konane 1xN") {
		t.Errorf("run --help (exit %d) does not describe konane:\n%s", code, stdout)
	}
}

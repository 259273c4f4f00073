package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/games/mutorere"
	"github.com/census-cgt/census/loopy"
	"github.com/census-cgt/census/schema"
)

// TestMutorereOutputs runs `census run mutorere 8`, reads states.parquet
// back and recounts summary.json from it.
func TestMutorereOutputs(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, code := census(t, "run", "mutorere", "8", "--out", out, "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	dir := filepath.Join(out, "mutorere-8")
	var s loopy.Summary
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(stdout) != strings.TrimSpace(string(data)) {
		t.Error("--json printed other than summary.json")
	}
	rows, err := schema.ReadStatesFile(filepath.Join(dir, "states.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	got := recount(t, rows)
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"arrangements", got.Arrangements, s.Arrangements},
		{"states", got.States, s.States},
		{"arrangements_symmetric", got.ArrangementsSymmetric, s.ArrangementsSymmetric},
		{"reachable_states", got.ReachableStates, s.ReachableStates},
		{"reachable_states_symmetric", got.ReachableStatesSymmetric, s.ReachableStatesSymmetric},
		{"last_first_reached", got.LastFirstReached, s.LastFirstReached},
		{"first_won_reached", got.FirstWonReached, s.FirstWonReached},
		{"reachable_drawn_moves", got.ReachableDrawnMoves, s.ReachableDrawnMoves},
		{"reachable_drawn_losing_moves", got.ReachableDrawnLosingMoves, s.ReachableDrawnLosingMoves},
		{"start_verdict", got.StartVerdict, s.StartVerdict},
		{"max_remoteness", got.MaxRemoteness, s.MaxRemoteness},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v from states.parquet, %v in summary.json", c.name, c.got, c.want)
		}
	}
	for name, m := range map[string][2]map[string]uint64{
		"verdicts":                {got.Verdicts, s.Verdicts},
		"verdicts_by_arrangement": {got.VerdictsByArrangement, s.VerdictsByArrangement},
		"reachable_verdicts":      {got.ReachableVerdicts, s.ReachableVerdicts},
	} {
		if !maps.Equal(m[0], m[1]) {
			t.Errorf("%s: %v from states.parquet, %v in summary.json", name, m[0], m[1])
		}
	}
	if !maps.Equal(got.ReachableDrawnByLosingMoves, s.ReachableDrawnByLosingMoves) {
		t.Errorf("reachable_drawn_by_losing_moves: %v from states.parquet, %v in summary.json", got.ReachableDrawnByLosingMoves, s.ReachableDrawnByLosingMoves)
	}
	// The essay's numbers, as they land in summary.json.
	if s.Arrangements != 630 || s.States != 1260 || s.ReachableStates != 1180 || s.LastFirstReached != 24 ||
		!maps.Equal(s.ReachableVerdicts, map[string]uint64{"W": 208, "L": 128, "D": 844}) {
		t.Errorf("summary %+v does not carry the essay's numbers", s)
	}
	if len(s.RandomPlayer.Black.LostWithin) != 100 || s.RandomPlayer.Black.ExpectedMoves == nil {
		t.Errorf("random player missing from summary.json: %+v", s.RandomPlayer)
	}

	var m schema.Manifest
	data, err = os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Game != "mutorere" || m.Board != "8" || m.Start != "BBBBWWWW." || len(m.Files) != 2 {
		t.Errorf("run.json %+v", m)
	}
	for _, f := range m.Files {
		fi, err := os.Stat(filepath.Join(dir, f.Path))
		if err != nil || fi.Size() != f.Bytes {
			t.Errorf("run.json lists %s of %d bytes: %v", f.Path, f.Bytes, err)
		}
	}
}

// recount computes the summary's counts from the rows of states.parquet.
func recount(t *testing.T, rows []schema.StateRow) loopy.Summary {
	t.Helper()
	r, err := mutorere.New(8, mutorere.Classic)
	if err != nil {
		t.Fatal(err)
	}
	s := loopy.Summary{
		States: uint64(len(rows)), Arrangements: uint64(len(rows) / 2),
		Verdicts: map[string]uint64{}, VerdictsByArrangement: map[string]uint64{},
		ReachableVerdicts: map[string]uint64{}, ReachableDrawnByLosingMoves: map[int]uint64{},
		FirstWonReached: -1,
	}
	orbits := map[mutorere.Arrangement]bool{}
	reachOrbits := map[[2]string]bool{}
	for i, row := range rows {
		if row.State != uint64(i) {
			t.Fatalf("row %d holds state %d", i, row.State)
		}
		a, err := r.Parse(row.Arrangement)
		if err != nil {
			t.Fatal(err)
		}
		orbits[r.Canonical(a)] = true
		s.Verdicts[row.Verdict]++
		if i%2 == 1 {
			if rows[i-1].Arrangement != row.Arrangement || rows[i-1].Mover != "B" || row.Mover != "W" {
				t.Fatalf("rows %d and %d are not one arrangement with each mover", i-1, i)
			}
			s.VerdictsByArrangement[rows[i-1].Verdict+row.Verdict]++
		}
		if row.Remoteness != nil {
			s.MaxRemoteness = max(s.MaxRemoteness, int(*row.Remoteness))
		}
		if row.Arrangement == "BBBBWWWW." && row.Mover == "B" {
			s.StartVerdict = row.Verdict
		}
		if !row.Reachable {
			continue
		}
		d := int(*row.FirstReached)
		s.ReachableStates++
		reachOrbits[[2]string{r.String(r.Canonical(a)), row.Mover}] = true
		s.ReachableVerdicts[row.Verdict]++
		s.LastFirstReached = max(s.LastFirstReached, d)
		if row.Verdict == "W" && (s.FirstWonReached < 0 || d < s.FirstWonReached) {
			s.FirstWonReached = d
		}
		if row.Verdict == "D" {
			s.ReachableDrawnByLosingMoves[int(row.LosingMoves)]++
			s.ReachableDrawnMoves += uint64(row.LegalMoves)
			s.ReachableDrawnLosingMoves += uint64(row.LosingMoves)
		}
	}
	s.ArrangementsSymmetric = uint64(len(orbits))
	s.ReachableStatesSymmetric = uint64(len(reachOrbits))
	return s
}

func TestMutorereBadInput(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		name  string
		args  []string
		names string
	}{
		{"odd star", []string{"run", "mutorere", "7"}, "mutorere 7"},
		{"too small", []string{"run", "mutorere", "2"}, "mutorere 2"},
		{"too large", []string{"run", "mutorere", "24"}, "mutorere 24"},
		{"not a number", []string{"run", "mutorere", "4x4"}, "mutorere 4x4"},
		{"unknown variant", []string{"run", "mutorere", "8", "--variant", "free"}, "--variant free"},
		{"unknown tie-break", []string{"run", "mutorere", "8", "--tie-break", "last"}, "--tie-break last"},
		{"flag of the tiered games", []string{"run", "mutorere", "8", "--jobs", "3"}, "--jobs"},
		{"variant for another game", []string{"run", "clobber", "2x2", "--variant", "free-centre"}, "--variant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := census(t, append(tc.args, "--out", out)...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %q", code, stderr)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n"); lines != 0 || !strings.Contains(stderr, tc.names) {
				t.Errorf("stderr %q: want one line naming %q", stderr, tc.names)
			}
		})
	}
}

func TestMutorereHelp(t *testing.T) {
	stdout, _, code := census(t, "run", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"mutorere", "no NATS", "--variant", "free-centre", "--tie-break"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run --help does not mention %q", want)
		}
	}
}

// TestMutorereFreeCentre checks that the variant lands in its own
// directory and summary.
func TestMutorereFreeCentre(t *testing.T) {
	out := t.TempDir()
	if _, stderr, code := census(t, "run", "mutorere", "8", "--variant", "free-centre", "--out", out, "--quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "mutorere-8-free-centre", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s loopy.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	// Without the clause Black wins at once (see loopy's TestFreeCentre).
	if s.Variant != "free-centre" || s.StartVerdict != "W" {
		t.Errorf("variant %q, start %s: want free-centre, W", s.Variant, s.StartVerdict)
	}
}

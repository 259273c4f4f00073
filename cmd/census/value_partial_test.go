package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/values"
)

// partialMaxSize is the --max-size of the partial runs of Clobber 3x4
// below: its pieces have 2 to 12 stones.
const partialMaxSize = 6

// partialRun runs census run clobber 3x4 --values --max-size
// partialMaxSize into a temporary OUT and returns OUT/clobber-3x4.
func partialRun(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	args := []string{"run", "clobber", "3x4", "--out", out, "--values", "--max-size", fmt.Sprint(partialMaxSize), "--quiet"}
	if _, stderr, code := census(t, args...); code != 0 {
		t.Fatalf("census %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	dir := filepath.Join(out, "clobber-3x4")
	if s := summaryJSON(t, dir); s.MaxSize != partialMaxSize || s.PiecesNotValued == 0 {
		t.Fatalf("summary.json of the partial run: %+v", s.Values)
	}
	return dir
}

// TestValueIndexPartial values positions of Clobber 3x4, reached by play
// and drawn at random, with the index of a partial run and that of a
// complete one: a position whose pieces all have at most partialMaxSize
// stones gets the same answer from both; one with a larger piece names it
// as unvalued, and its outcome is left undecided (nothing is known of the
// piece), or if given is the complete run's.
func TestValueIndexPartial(t *testing.T) {
	full, err := values.LoadIndex(valuedRun(t, "clobber", "3x4"))
	if err != nil {
		t.Fatal(err)
	}
	part, err := values.LoadIndex(partialRun(t))
	if err != nil {
		t.Fatal(err)
	}
	if full.MaxSize() != 0 || part.MaxSize() != partialMaxSize || part.Len() != full.Len() {
		t.Fatalf("MaxSize %d and %d, Len %d and %d; want 0 and %d, equal lengths",
			full.MaxSize(), part.MaxSize(), full.Len(), part.Len(), partialMaxSize)
	}
	g := full.Game().(games.Mover)
	rng := rand.New(rand.NewPCG(25, 2))
	small, large := 0, 0
	for i := range 1000 {
		pos := g.Start()
		if i%2 == 0 {
			pos = randomPlay(g, pos, rng)
		} else {
			pos = randomDiagram(t, full, rng)
		}
		a, want := part.Value(pos), full.Value(pos)
		var larger []string
		for _, p := range g.Pieces(pos, nil) {
			k := g.Translate(p.Key)
			if p.Live && p.Size > partialMaxSize && !containsKey(want.Missing, k) {
				larger = append(larger, g.Picture(k))
			}
		}
		if len(larger) == 0 {
			small++
			if a.Outcome != want.Outcome || part.String(a) != full.String(want) || len(a.NotValued) != 0 {
				t.Fatalf("%s: partial run %s %s (unvalued %v), complete run %s %s",
					g.Format(pos), a.Outcome, part.String(a), a.NotValued, want.Outcome, full.String(want))
			}
			continue
		}
		large++
		if got := pictures(part, a.NotValued); strings.Join(got, " ") != strings.Join(larger, " ") {
			t.Fatalf("%s: unvalued %v, want the pieces of more than %d stones %v", g.Format(pos), got, partialMaxSize, larger)
		}
		if s := part.String(a); a.Complete() || !strings.Contains(s, "unvalued("+larger[0]+")") {
			t.Fatalf("%s: value %q (complete %v) does not name unvalued(%s)", g.Format(pos), s, a.Complete(), larger[0])
		}
		// An unvalued piece could be any game: no outcome is decided.
		if a.Outcome != 0 {
			t.Fatalf("%s: outcome %s (complete run %s) decided with an unvalued piece", g.Format(pos), a.Outcome, want.Outcome)
		}
	}
	if small < 100 || large < 100 {
		t.Errorf("%d positions with pieces of up to %d stones only, %d with a larger one; want 100 of each", small, partialMaxSize, large)
	}
}

func containsKey(keys []games.PieceKey, k games.PieceKey) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// TestValueCommandPartial runs census value on a partial run: the answers
// start with a line saying the run is partial, a position of small pieces
// is answered in full, one with a larger piece names it unvalued with
// outcome "?"; with --json, values_max_size and not_valued say the same,
// and a complete run's answers have no values_max_size.
func TestValueCommandPartial(t *testing.T) {
	dir := partialRun(t)
	// xo alone is *; the start is one piece of 12 stones.
	small, large := "xo../..../....", "xoxo/oxox/xoxo"
	stdout, stderr, code := census(t, "value", dir, small, large)
	if code != 0 {
		t.Fatalf("census value: exit %d: %s", code, stderr)
	}
	want := "# partial values run: pieces of up to 6 stones valued; unvalued(PICTURE) is a larger piece, not valued\n" +
		small + "\tN\t*\n" + large + "\t?\tunvalued(xoxo/oxox/xoxo)\n"
	if stdout != want {
		t.Errorf("census value printed\n%s\nwant\n%s", stdout, want)
	}

	stdout, stderr, code = census(t, "value", dir, "--json", small, large)
	if code != 0 {
		t.Fatalf("census value --json: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("census value --json printed %d lines: %s", len(lines), stdout)
	}
	var got [2]valueAnswer
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &got[i]); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
	}
	if a := got[0]; a.MaxSize != partialMaxSize || a.Value == nil || *a.Value != "*" || a.NotValued == nil || len(a.NotValued) != 0 {
		t.Errorf("census value --json %s: %s", small, lines[0])
	}
	if a := got[1]; a.MaxSize != partialMaxSize || a.Value != nil || a.Outcome != nil || a.Known != "0" ||
		len(a.NotValued) != 1 || a.NotValued[0] != large {
		t.Errorf("census value --json %s: %s", large, lines[1])
	}

	stdout, stderr, code = census(t, "value", valuedRun(t, "clobber", "2x4"), "--json", "xo../....")
	if code != 0 || strings.Contains(stdout, "values_max_size") || !strings.Contains(stdout, `"not_valued":[]`) {
		t.Errorf("census value --json of a complete run: exit %d, %s%s", code, stdout, stderr)
	}
}

// TestExportValuesPartial exports a partial run with --values: every piece
// is exported, as without --values; one of up to partialMaxSize stones
// with the outcome and value of the complete run's export, a larger one
// with both empty (nil in the script, whose header says the run is
// partial), as many as summary.json's pieces_not_valued.
func TestExportValuesPartial(t *testing.T) {
	dir, fullDir := partialRun(t), valuedRun(t, "clobber", "3x4")
	export := func(dir string, args ...string) string {
		t.Helper()
		args = append([]string{"export", dir, "--values", "--level", "translated"}, args...)
		stdout, stderr, code := census(t, args...)
		if code != 0 {
			t.Fatalf("census %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		return stdout
	}
	got := strings.Split(strings.TrimSuffix(export(dir, "--format", "list"), "\n"), "\n")
	want := strings.Split(strings.TrimSuffix(export(fullDir, "--format", "list"), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("partial run: %d pieces exported, complete run %d", len(got), len(want))
	}
	unvalued := 0
	for i, l := range got {
		grid, _, _ := strings.Cut(want[i], "\t")
		stones := strings.Count(grid, "x") + strings.Count(grid, "o")
		if stones <= partialMaxSize {
			if l != want[i] {
				t.Errorf("piece of %d stones: %q, complete run %q", stones, l, want[i])
			}
			continue
		}
		unvalued++
		if l != grid+"\t\t" {
			t.Errorf("piece of %d stones: %q, want %q", stones, l, grid+"\t\t")
		}
	}
	if n := summaryJSON(t, dir).PiecesNotValued; uint64(unvalued) != n || n == 0 {
		t.Errorf("%d pieces exported unvalued, pieces_not_valued %d", unvalued, n)
	}

	script := export(dir)
	header := "// A partial values run: only pieces of up to 6 stones were valued; both are nil"
	if !strings.Contains(script, header) || strings.Count(script, "  nil") != 2*unvalued {
		t.Errorf("script: want the header %q and %d nil entries:\n%.600s", header, 2*unvalued, script)
	}
}

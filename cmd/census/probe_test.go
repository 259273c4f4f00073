package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/internal/refsolve"
	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/schema"
)

// probeRun is a run solved once for the probe tests: Clobber 3x4 in three
// shards a tier, with its values.
var probeRun = sync.OnceValues(func() (string, error) {
	out, err := os.MkdirTemp(scratch, "probe-")
	if err != nil {
		return "", err
	}
	args := []string{"run", "clobber", "3x4", "--shards", "3", "--out", out, "--jobs", "2", "--quiet", noMetrics, "--solve", "--values"}
	if b, err := exec.Command(binary, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("census %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return filepath.Join(out, "clobber-3x4"), nil
})

// TestProbe probes a solved run by every way census probe takes its
// diagrams and checks the answers against the whole-board solver.
func TestProbe(t *testing.T) {
	dir, err := probeRun()
	if err != nil {
		t.Fatal(err)
	}
	g, err := all.New("clobber", "3x4", "")
	if err != nil {
		t.Fatal(err)
	}
	rec := refsolve.NewRecorder(g.(games.Mover))
	tiers := refsolve.Reachable(g)
	var diagrams []string
	for _, tier := range tiers {
		for i, pos := range tier {
			if i%97 == 0 {
				diagrams = append(diagrams, g.Format(pos))
			}
		}
	}
	check := func(t *testing.T, a probe.Answer) {
		t.Helper()
		pos, err := all.New("clobber", "3x4", a.Diagram)
		if err != nil {
			t.Fatal(err)
		}
		want := rec.Record(pos.Start())
		if a.LeftFirst.Remoteness != int(want.Left) || a.RightFirst.Remoteness != int(want.Right) || a.Outcome != want.Outcome().String() {
			t.Fatalf("%s: %s %+v %+v, whole board %s %+v", a.Diagram, a.Outcome, a.LeftFirst, a.RightFirst, want.Outcome(), want)
		}
	}
	t.Run("arguments, json", func(t *testing.T) {
		stdout, stderr, code := census(t, append([]string{"probe", dir, "--json"}, diagrams[:20]...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		answers := jsonLines[probe.Answer](t, stdout)
		if len(answers) != 20 {
			t.Fatalf("%d answers for 20 diagrams", len(answers))
		}
		// The values are census value's.
		valued, stderr, code := census(t, append([]string{"value", dir, "--json"}, diagrams[:20]...)...)
		if code != 0 {
			t.Fatalf("census value: exit %d: %s", code, stderr)
		}
		values := jsonLines[valueAnswer](t, valued)
		for i, a := range answers {
			if a.Diagram != diagrams[i] {
				t.Fatalf("answer %d is of %s, asked %s", i, a.Diagram, diagrams[i])
			}
			check(t, a)
			if len(a.Moves) != 2 || len(a.BestLine) != 2 || a.Value == nil || values[i].Value == nil || *a.Value != *values[i].Value {
				t.Fatalf("%s: moves of %d players, best lines of %d, value %v (census value: %v)", a.Diagram, len(a.Moves), len(a.BestLine), a.Value, values[i].Value)
			}
			pieces := 0
			for _, p := range a.Pieces {
				if p.Value == "" {
					t.Fatalf("%s: piece %s has no value", a.Diagram, p.Picture)
				}
				pieces++
			}
			if pos, err := all.New("clobber", "3x4", a.Diagram); err != nil || pieces != livePieces(g, pos.Start()) {
				t.Fatalf("%s: %d pieces valued, %d live", a.Diagram, pieces, livePieces(g, pos.Start()))
			}
		}
	})
	t.Run("file, a bad line answered in place", func(t *testing.T) {
		in := filepath.Join(t.TempDir(), "diagrams")
		lines := append([]string{"# a comment", diagrams[0], "xo/ox", "xxxx/xxxx/xxxx"}, diagrams[1:]...)
		if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := census(t, "probe", dir, "--file", in, "--json", "--brief", "--to-move", "right")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		answers := jsonLines[probe.Answer](t, stdout)
		if len(answers) != len(diagrams)+2 {
			t.Fatalf("%d answers for %d lines", len(answers), len(diagrams)+2)
		}
		for i, a := range answers {
			switch i {
			case 1, 2:
				if a.Error == "" || a.Outcome != "" {
					t.Fatalf("line %q answered %+v, want an error", a.Diagram, a)
				}
			default:
				check(t, a)
				if a.Moves != nil || a.ToMove != "right" {
					t.Fatalf("--brief --to-move right: moves %v, to move %q", a.Moves, a.ToMove)
				}
			}
		}
		if !strings.Contains(answers[1].Error, "rows") || !strings.Contains(answers[2].Error, "not reachable") {
			t.Errorf("errors %q and %q do not say what is wrong", answers[1].Error, answers[2].Error)
		}
	})
	t.Run("text", func(t *testing.T) {
		stdout, stderr, code := census(t, "probe", dir, "xoxo/oxox/xoxo")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		want := rec.Record(g.Start())
		if !strings.HasPrefix(stdout, "xoxo/oxox/xoxo\t"+want.Outcome().String()+"\t") || !strings.Contains(stdout, "best line:") {
			t.Errorf("output:\n%s", stdout)
		}
	})
}

// TestProbeBadInput checks that census probe refuses bad input with exit
// 2 and one line, and prints no answer.
func TestProbeBadInput(t *testing.T) {
	dir, err := probeRun()
	if err != nil {
		t.Fatal(err)
	}
	// A run solved before the solve kept a tablebase: its summary has no
	// tablebase key.
	old := filepath.Join(t.TempDir(), "clobber-3x4")
	if err := os.CopyFS(old, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	s := summaryJSON(t, old)
	s.Solved.Tablebase = nil
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, schema.SummaryJSONFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no diagrams", []string{"probe", dir}, "wants diagrams"},
		{"bad diagram", []string{"probe", dir, "xoxo/oxox/xoxo", "xo/ox"}, "xo/ox"},
		{"unreachable", []string{"probe", dir, "xxxx/xxxx/xxxx"}, "not reachable"},
		{"bad player", []string{"probe", dir, "xoxo/oxox/xoxo", "--to-move", "up"}, `"up"`},
		{"not a run", []string{"probe", t.TempDir(), "xoxo/oxox/xoxo"}, "not the outputs of a finished census run"},
		{"no such directory", []string{"probe", filepath.Join(dir, "nope"), "xoxo/oxox/xoxo"}, "nope"},
		{"solved before tablebases", []string{"probe", old, "xoxo/oxox/xoxo"}, "census solve"},
		{"missing file", []string{"probe", dir, "--file", filepath.Join(dir, "nope")}, "nope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := census(t, c.args...)
			if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no output and one line naming %q", code, stdout, stderr, c.want)
			}
		})
	}
}

// jsonLines decodes one JSON object a line.
func jsonLines[T any](t *testing.T, s string) []T {
	t.Helper()
	var out []T
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		out = append(out, v)
	}
	return out
}

// TestPlayTablebase plays against the perfect player reading the
// tablebase: each seat's outcome with best play is the in-memory solver's,
// and a tablebase of another board is refused.
func TestPlayTablebase(t *testing.T) {
	dir, err := probeRun()
	if err != nil {
		t.Fatal(err)
	}
	play := func(args ...string) playResult {
		t.Helper()
		stdout, stderr, code := census(t, append([]string{"play", "clobber", "3x4", "--player", "random", "--against", "perfect", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("census play %v: exit %d: %s", args, code, stderr)
		}
		var r playResult
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	memory, tb := play(), play("--tablebase", dir)
	if len(tb.Seats) != 4 || tb.Method != "exact" {
		t.Fatalf("--tablebase: %d seats, method %s", len(tb.Seats), tb.Method)
	}
	for i, s := range tb.Seats {
		if s.PStart != memory.Seats[i].PStart {
			t.Errorf("seat %s: P's outcome %s with the tablebase, %s with the in-memory solve", s.Seat, s.PStart, memory.Seats[i].PStart)
		}
	}
	_, stderr, code := census(t, "play", "clobber", "2x4", "--tablebase", dir)
	if code != 2 || !strings.Contains(stderr, "not of clobber 2x4") {
		t.Errorf("a tablebase of another board: exit %d, %q", code, stderr)
	}
}

// livePieces counts the live pieces of pos.
func livePieces(g games.Game, pos uint64) int {
	n := 0
	for _, p := range g.Pieces(pos, nil) {
		if p.Live {
			n++
		}
	}
	return n
}

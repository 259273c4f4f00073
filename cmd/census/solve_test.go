package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/internal/refsolve"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/solve"
)

// solveBoard is the census the solve tests run: fourteen tiers of three
// shards, 42 solve jobs, in a few seconds.
var solveBoard = []string{"clobber", "2x7", "--shards", "3"}

// readSolved reads the solve stage's part of dir's summary.json.
func readSolved(t *testing.T, dir string) (schema.Solved, uint64) {
	t.Helper()
	s := summaryJSON(t, dir)
	if s.Solved == nil {
		t.Fatalf("%s has no outcomes", dir)
	}
	return *s.Solved, s.Positions
}

// wholeBoard counts the positions of game on board by class with the
// whole-board reference solver.
func wholeBoard(t *testing.T, game, board string) (solve.Counts, solve.Outcome) {
	t.Helper()
	g, err := all.New(game, board, "")
	if err != nil {
		t.Fatal(err)
	}
	ref := refsolve.New(g.(games.Mover))
	var c solve.Counts
	for _, tier := range refsolve.Reachable(g) {
		for _, pos := range tier {
			c[ref.Outcome(pos)]++
		}
	}
	return c, ref.Outcome(g.Start())
}

// TestRunSolve runs census run --solve and checks summary.json against the
// whole-board solver.
func TestRunSolve(t *testing.T) {
	out := t.TempDir()
	args := append([]string{"run", "--out", out, "--jobs", "2", "--quiet", noMetrics, "--solve"}, solveBoard...)
	if _, stderr, code := census(t, args...); code != 0 {
		t.Fatalf("census %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	got, positions := readSolved(t, filepath.Join(out, "clobber-2x7"))
	want, start := wholeBoard(t, "clobber", "2x7")
	if !reflect.DeepEqual(got.Outcomes, want.Map()) || got.StartOutcome != start.String() {
		t.Errorf("start %s, outcomes %v; whole board: start %s, %v", got.StartOutcome, got.Outcomes, start, want.Map())
	}
	var byTier solve.Counts
	for _, m := range got.OutcomesByTier {
		for _, o := range solve.Classes {
			byTier[o] += m[o.String()]
		}
	}
	if byTier != want || want.Total() != positions {
		t.Errorf("outcomes by tier add up to %v, positions %d; whole board %v", byTier.Map(), positions, want.Map())
	}
	checkTiersOutcomes(t, filepath.Join(out, "clobber-2x7"), got)
}

// checkTiersOutcomes reads dir's tiers.parquet back and checks that every
// tier's outcome columns are summary.json's outcomes_by_tier.
func checkTiersOutcomes(t *testing.T, dir string, solved schema.Solved) {
	t.Helper()
	tiers, err := schema.ReadTiersFile(filepath.Join(dir, schema.TiersFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(tiers) != len(solved.OutcomesByTier) {
		t.Fatalf("tiers.parquet has %d tiers, outcomes_by_tier %d", len(tiers), len(solved.OutcomesByTier))
	}
	for i, r := range tiers {
		m := solved.OutcomesByTier[i]
		want := schema.TierOutcomes{L: m["L"], R: m["R"], N: m["N"], P: m["P"]}
		if r.Outcomes == nil || *r.Outcomes != want {
			t.Errorf("tiers.parquet tier %d: outcomes %+v, summary.json %v", r.Tier, r.Outcomes, m)
		}
	}
}

// TestSolveKilled kills `census solve` with SIGKILL three times, after its
// first job, in the middle of a tier and late, each time starting the same
// command again on the same --data. A solve job done before a kill must
// not run again, and the outcomes must be those of an uninterrupted solve.
func TestSolveKilled(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	run := append([]string{"run", "--out", out, "--jobs", "2", "--quiet", noMetrics, "--keep-positions"}, solveBoard...)
	if _, stderr, code := census(t, run...); code != 0 {
		t.Fatalf("census %s: exit %d: %s", strings.Join(run, " "), code, stderr)
	}
	dir := filepath.Join(out, "clobber-2x7")
	summary, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile))
	if err != nil {
		t.Fatal(err)
	}
	// The uninterrupted solve, on a copy of the run.
	ref := filepath.Join(tmp, "ref")
	if err := os.CopyFS(ref, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := census(t, "solve", ref, "--quiet", "--jobs", "2", noMetrics); code != 0 {
		t.Fatalf("census solve: exit %d: %s", code, stderr)
	}
	want, _ := readSolved(t, ref)

	args := []string{"solve", dir, "--data", filepath.Join(tmp, "data"), "--jobs", "2", noMetrics}
	env := []string{"CENSUS_LOG=debug"}
	solveJobs := func(log string) (ids []string) {
		for _, id := range doneJobs(log) {
			if strings.HasPrefix(id, "solve-") {
				ids = append(ids, id)
			}
		}
		return ids
	}
	kills := []struct {
		name string
		at   func(log string) bool
	}{
		{"after the first job", func(log string) bool { return len(solveJobs(log)) >= 1 }},
		{"in the middle of a tier", func(log string) bool {
			for _, id := range solveJobs(log) {
				var tier, shard int
				if n, _ := fmt.Sscanf(id, "solve-%d-shard-%d", &tier, &shard); n == 2 && tier <= 8 && shard == 1 {
					return true
				}
			}
			return false
		}},
		{"late, tier 3 solved", func(log string) bool { return strings.Contains(log, `msg="solved tier" tier=3`) }},
	}
	doneIn := map[string]int{}
	record := func(life int, log string) {
		for _, id := range solveJobs(log) {
			if first, ok := doneIn[id]; ok && first != life {
				t.Errorf("job %s, done before kill %d, ran again after it", id, first+1)
			}
			doneIn[id] = life
		}
	}
	for i, k := range kills {
		p := startCensus(t, fmt.Sprintf("solve-%d", i), env, args...)
		if !killWhen(p, k.at) {
			t.Fatalf("census solve ended (or hung) before it could be killed %s: %s", k.name, tail(p.output(), 2000))
		}
		record(i, p.output())
		t.Logf("killed %s after %d solve jobs done in this start", k.name, len(solveJobs(p.output())))
		if now, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile)); err != nil || string(now) != string(summary) {
			t.Errorf("a killed solve changed summary.json (%v)", err)
		}
	}
	_, stderr, code := censusWithin(t, 60*time.Second, env, args...)
	if code != 0 {
		t.Fatalf("census solve after the kills: exit %d: %s", code, tail(stderr, 2000))
	}
	record(len(kills), stderr)
	t.Logf("the last start ran %d solve jobs, %d in all", len(solveJobs(stderr)), len(doneIn))
	got, _ := readSolved(t, dir)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the kills: %+v, uninterrupted: %+v", got, want)
	}
	checkTiersOutcomes(t, dir, got)
}

// TestSolveBadInput checks that what the solve stage cannot solve is
// refused with exit 2 and one line saying what to do, changing nothing.
func TestSolveBadInput(t *testing.T) {
	out := t.TempDir()
	if _, stderr, code := census(t, "run", "clobber", "2x3", "--out", out, "--quiet", noMetrics); code != 0 {
		t.Fatalf("census run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(out, "clobber-2x3")
	before, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"solve", dir}, "--solve"},
		{[]string{"solve", out}, "OUT/GAME-BOARD"},
		{[]string{"solve", filepath.Join(out, "nothing")}, "not a directory"},
		{[]string{"run", "mutorere", "8", "--solve"}, "loopy"},
	}
	for _, c := range cases {
		_, stderr, code := census(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("census %s: exit %d, %q; want exit 2 and one line with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
	after, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile))
	if err != nil || string(after) != string(before) {
		t.Errorf("a refused solve changed summary.json (%v)", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".census-solve") {
			t.Errorf("a refused solve left %s", e.Name())
		}
	}
}

// resumeBoard is the census the tests of a solve resumed run: eleven
// tiers of three shards, the census in a few seconds, the solve in a
// fraction of one.
var resumeBoard = []string{"clobber", "3x4", "--shards", "3"}

// tierWork lists the tier jobs a census process logged as done and the
// tiers its coordinator logged as done (at level debug): evidence that it
// ran the census, or resumed it, rather than going straight to the solve.
func tierWork(log string) []string {
	var work []string
	for _, id := range doneJobs(log) {
		if strings.HasPrefix(id, "tier-") {
			work = append(work, id)
		}
	}
	for tier := range tiersDone(log) {
		work = append(work, fmt.Sprintf("tier %d done", tier))
	}
	return work
}

// TestRunSolveResumed runs census run --solve again on the outputs of a
// census that finished: after census run --keep-positions, after a
// census run --solve killed with SIGKILL during its solve, and after one
// that finished. Each goes straight to the solve, resuming it, and runs
// no tier job; each ends with the outputs of an uninterrupted census run
// --solve, positions table included.
func TestRunSolveResumed(t *testing.T) {
	want, _ := embeddedRun(t, resumeBoard[0], resumeBoard[1], append([]string{"--solve", "--positions"}, resumeBoard[2:]...)...)
	wantSolved, _ := readSolved(t, want)
	env := []string{"CENSUS_LOG=debug"}
	// solve is census run --solve on out and data.
	solve := func(out, data string) []string {
		return append([]string{"run", "--out", out, "--data", data, "--jobs", "1", noMetrics, "--solve", "--positions"}, resumeBoard...)
	}
	// again runs census run --solve once more and checks it ran no tier
	// job, said it took the census from the outputs, and wrote those of
	// the uninterrupted run; it returns its log.
	again := func(t *testing.T, out, data, next string) string {
		t.Helper()
		args := solve(out, data)
		_, stderr, code := censusWithin(t, 60*time.Second, env, args...)
		if code != 0 {
			t.Fatalf("census %s: exit %d: %s", strings.Join(args, " "), code, tail(stderr, 2000))
		}
		if work := tierWork(stderr); len(work) > 0 {
			t.Errorf("census run --solve on a finished census ran it again: %v", work)
		}
		if !strings.Contains(stderr, "holds the finished census of run clobber-3x4-") || !strings.Contains(stderr, next) {
			t.Errorf("stderr says nothing of the finished census and %q:\n%s", next, tail(stderr, 2000))
		}
		got := filepath.Join(out, "clobber-3x4")
		sameOutputs(t, got, want)
		if solved, _ := readSolved(t, got); !reflect.DeepEqual(solved, wantSolved) {
			t.Errorf("outcomes %+v, uninterrupted %+v", solved, wantSolved)
		}
		checkTiersOutcomes(t, got, wantSolved)
		if a, b := allPositions(t, got), allPositions(t, want); !reflect.DeepEqual(a, b) {
			t.Errorf("positions of %s differ from those of an uninterrupted run: %d rows vs %d", got, len(a), len(b))
		}
		if _, err := os.Stat(data); !os.IsNotExist(err) {
			t.Errorf("the working data %s is left after the run (%v)", data, err)
		}
		return stderr
	}

	t.Run("kept", func(t *testing.T) {
		tmp := t.TempDir()
		out, data := filepath.Join(tmp, "out"), filepath.Join(tmp, "data")
		keep := append([]string{"run", "--out", out, "--data", data, "--jobs", "2", "--quiet", noMetrics, "--keep-positions", "--positions"}, resumeBoard...)
		if _, stderr, code := census(t, keep...); code != 0 {
			t.Fatalf("census %s: exit %d: %s", strings.Join(keep, " "), code, stderr)
		}
		log := again(t, out, data, "going on to the solve")
		if !strings.Contains(log, `msg="solved tier" tier=0`) {
			t.Errorf("census run --solve did not solve the kept census:\n%s", tail(log, 2000))
		}
	})

	t.Run("killed in the solve, then finished", func(t *testing.T) {
		tmp := t.TempDir()
		out, data := filepath.Join(tmp, "out"), filepath.Join(tmp, "data")
		p := startCensus(t, "solve", env, solve(out, data)...)
		// The first solve job is done: the census is written, and
		// tiers are left to solve.
		first := func(log string) bool {
			return slices.ContainsFunc(doneJobs(log), func(id string) bool { return strings.HasPrefix(id, "solve-") })
		}
		if !killWhen(p, first) {
			t.Fatalf("census run --solve ended (or hung) before its first solve job was done: %s", tail(p.output(), 2000))
		}
		before := doneJobs(p.output())
		log := again(t, out, data, "going on to the solve")
		for _, id := range doneJobs(log) {
			if slices.Contains(before, id) {
				t.Errorf("job %s, done before the kill, ran again", id)
			}
		}
		if !slices.ContainsFunc(doneJobs(log), func(id string) bool { return strings.HasPrefix(id, "solve-0000-") }) {
			t.Errorf("the start after the kill did not solve tier 0:\n%s", tail(log, 2000))
		}

		summary, err := os.ReadFile(filepath.Join(out, "clobber-3x4", schema.SummaryJSONFile))
		if err != nil {
			t.Fatal(err)
		}
		log = again(t, out, data, "solved already")
		if jobs := doneJobs(log); len(jobs) > 0 {
			t.Errorf("census run --solve on a solved run ran %d jobs: %v", len(jobs), jobs)
		}
		if now, err := os.ReadFile(filepath.Join(out, "clobber-3x4", schema.SummaryJSONFile)); err != nil || string(now) != string(summary) {
			t.Errorf("census run --solve on a solved run changed summary.json (%v)", err)
		}
	})
}

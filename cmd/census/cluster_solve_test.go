package main

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/schema"
)

// TestCoordinatorSolve runs census coordinator --solve --positions with a
// server and two workers as separate processes, and census run --solve
// --positions on the same board: the two write the same summary.json (the
// outcomes included), tiers.parquet (its outcome columns included), pieces
// and positions table (each position's class included), and the
// cluster's store holds nothing of the census or the solve afterwards.
func TestCoordinatorSolve(t *testing.T) {
	srv := startServer(t)
	for _, name := range []string{"worker-0", "worker-1"} {
		startWorker(t, name, srv.url)
	}
	tmp := t.TempDir()
	out, st := filepath.Join(tmp, "out"), filepath.Join(tmp, "store")
	args := append([]string{"coordinator", "--nats", srv.url, "--store", st, "--out", out, noMetrics, "--solve", "--positions"}, solveBoard...)
	_, stderr, code := censusWithin(t, 120*time.Second, nil, args...)
	if code != 0 {
		t.Fatalf("census %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	if !strings.Contains(stderr, "solved ") {
		t.Errorf("coordinator stderr %q: want a closing line of the solve", stderr)
	}
	got := filepath.Join(out, "clobber-2x7")
	want, _ := embeddedRun(t, solveBoard[0], solveBoard[1], append([]string{"--solve", "--positions"}, solveBoard[2:]...)...)
	sameOutputs(t, got, want)
	solved, positions := readSolved(t, got)
	whole, start := wholeBoard(t, "clobber", "2x7")
	if !reflect.DeepEqual(solved.Outcomes, whole.Map()) || solved.StartOutcome != start.String() || whole.Total() != positions {
		t.Errorf("start %s, outcomes %v; whole board: start %s, %v", solved.StartOutcome, solved.Outcomes, start, whole.Map())
	}
	checkTiersOutcomes(t, got, solved)
	if a, b := allPositions(t, got), allPositions(t, want); len(a) == 0 || a[0].Outcome == "" || !reflect.DeepEqual(a, b) {
		t.Errorf("positions of %s differ from %s or have no outcomes: %d rows vs %d", got, want, len(a), len(b))
	}
	var left []string
	err := filepath.WalkDir(st, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return err
	})
	if err != nil || len(left) > 0 {
		t.Errorf("the store holds %d files after the run (%v): %v", len(left), err, left)
	}
}

// allPositions reads every part of the positions table of an output
// directory, sorted by key.
func allPositions(t *testing.T, dir string) []schema.Position {
	t.Helper()
	return allRows(t, dir, schema.PositionsParts, schema.ReadPositionsFile, func(a, b schema.Position) int { return cmpUint(a.Key, b.Key) })
}

// TestCoordinatorSolveResumed runs census coordinator --keep-positions,
// then census coordinator --solve on the same outputs, with a server and
// a worker as separate processes: the second goes straight to the solve,
// leaving the census's record on the server as the first left it, and
// writes the outputs of census run --solve. A third start finds the run
// solved and does nothing.
func TestCoordinatorSolveResumed(t *testing.T) {
	srv := startServer(t)
	startWorker(t, "worker-0", srv.url)
	conn := connectTest(t, srv.url)
	tmp := t.TempDir()
	out, st := filepath.Join(tmp, "out"), filepath.Join(tmp, "store")
	coord := func(flag string) string {
		t.Helper()
		args := append([]string{"coordinator", "--nats", srv.url, "--store", st, "--out", out, noMetrics, flag}, resumeBoard...)
		_, stderr, code := censusWithin(t, 120*time.Second, []string{"CENSUS_LOG=info"}, args...)
		if code != 0 {
			t.Fatalf("census %s: exit %d: %s", strings.Join(args, " "), code, tail(stderr, 2000))
		}
		return stderr
	}
	coord("--keep-positions")
	census, ok := runStatus(conn)
	if !ok || census.Status.State != coordinator.StateDone {
		t.Fatalf("after census coordinator --keep-positions the server holds %+v, want one run, done", census)
	}

	log := coord("--solve")
	if tiers := tiersDone(log); len(tiers) > 0 || !strings.Contains(log, "going on to the solve") || !strings.Contains(log, `msg="solved tier" tier=0`) {
		t.Errorf("census coordinator --solve on a finished census: %d tiers done, want none, and the solve:\n%s", len(tiers), tail(log, 2000))
	}
	if now, ok := runStatus(conn); !ok || !now.Status.Updated.Equal(census.Status.Updated) || now.JobsDone != census.JobsDone || now.Solve != nil {
		t.Errorf("census coordinator --solve changed the census's record: %+v, was %+v", now, census)
	}
	got := filepath.Join(out, "clobber-3x4")
	want, _ := embeddedRun(t, resumeBoard[0], resumeBoard[1], append([]string{"--solve"}, resumeBoard[2:]...)...)
	sameOutputs(t, got, want)
	solved, _ := readSolved(t, got)
	if wantSolved, _ := readSolved(t, want); !reflect.DeepEqual(solved, wantSolved) {
		t.Errorf("outcomes %+v, census run --solve %+v", solved, wantSolved)
	}

	if log := coord("--solve"); !strings.Contains(log, "solved already") || strings.Contains(log, "solved tier") {
		t.Errorf("census coordinator --solve on a solved run:\n%s", tail(log, 2000))
	}
}

package main

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

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

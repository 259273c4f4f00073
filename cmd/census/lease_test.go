package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/schema"
)

// leaseBoard is the census of the lease tests: long enough (a few seconds
// on a cluster of two workers) for a second coordinator to meet the first.
var leaseBoard = []string{"clobber", "4x4", "--shards", "3"}

// checkSpec4x4 checks a Clobber 4x4 summary.json against census-spec.md.
func checkSpec4x4(t *testing.T, out string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "clobber-4x4", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s schema.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Positions != 1809927 || s.Moves != 12192184 || s.DeadFreeBoards != 791655 || s.PiecesTranslated != 395947 {
		t.Errorf("positions, moves, dead-free, translated = %d, %d, %d, %d; want 1809927, 12192184, 791655, 395947",
			s.Positions, s.Moves, s.DeadFreeBoards, s.PiecesTranslated)
	}
}

// heldLine is the line a coordinator prints when another holds its run,
// naming the holder's pid.
func heldLine(log string, pid int) bool {
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "held by") && strings.Contains(l, fmt.Sprintf("/%d ", pid)) {
			return true
		}
	}
	return false
}

// TestTwoCoordinators starts two coordinators of the same census at once,
// on the same store and output directory, with --no-wait: one runs the
// census, the other exits 2 at once with one line naming the holder.
func TestTwoCoordinators(t *testing.T) {
	srv := startServer(t)
	startWorker(t, "worker-0", srv.url)
	startWorker(t, "worker-1", srv.url)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	args := append([]string{"coordinator", "--nats", srv.url, "--store", filepath.Join(tmp, "store"),
		"--out", out, "--no-wait", "--quiet", noMetrics}, leaseBoard...)
	coords := []*proc{startCensus(t, "coordinator-0", nil, args...), startCensus(t, "coordinator-1", nil, args...)}
	codes := []int{coords[0].wait(120 * time.Second), coords[1].wait(120 * time.Second)}
	if !(codes[0] == 0 && codes[1] == 2) && !(codes[0] == 2 && codes[1] == 0) {
		t.Fatalf("exit codes %v, want one 0 and one 2", codes)
	}
	winner, loser := coords[0], coords[1]
	if codes[0] == 2 {
		winner, loser = loser, winner
	}
	msg := strings.TrimSpace(loser.output())
	if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, fmt.Sprintf("/%d since", winner.cmd.Process.Pid)) {
		t.Errorf("the refused coordinator said %q; want one line naming the holder's pid %d", msg, winner.cmd.Process.Pid)
	}
	checkSpec4x4(t, out)
}

// TestCoordinatorTakesOver starts a second coordinator while the first
// runs the census: it waits, saying who holds the run. The first is then
// killed with SIGKILL: the second takes the run over within the stated
// bound (at once on the same host, at most the lease's 10 s and a second
// of polling elsewhere; 20 s allowed here for a busy machine), resumes it
// and writes the census of census-spec.md.
func TestCoordinatorTakesOver(t *testing.T) {
	srv := startServer(t)
	startWorker(t, "worker-0", srv.url)
	startWorker(t, "worker-1", srv.url)
	conn := connectTest(t, srv.url)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	args := append([]string{"coordinator", "--nats", srv.url, "--store", filepath.Join(tmp, "store"),
		"--out", out, "--quiet", noMetrics}, leaseBoard...)
	env := []string{"CENSUS_LOG=info"}
	first := startCensus(t, "coordinator-first", env, args...)
	if !waitForStage(t, conn, first, 2) {
		t.Fatalf("the first coordinator ended before tier 2")
	}
	second := startCensus(t, "coordinator-second", env, args...)
	for deadline := time.Now().Add(30 * time.Second); !heldLine(second.output(), first.cmd.Process.Pid); time.Sleep(10 * time.Millisecond) {
		if second.exited() || first.exited() || time.Now().After(deadline) {
			t.Fatalf("the second coordinator did not say it waits for the first (pid %d)", first.cmd.Process.Pid)
		}
	}
	st, _ := runStatus(conn)
	if st.Status.State != coordinator.StateRunning {
		t.Fatalf("run %s while the first coordinator holds it, want running", st.Status.State)
	}
	first.kill()
	killed := time.Now()
	t.Logf("killed the first coordinator at stage %s, tier %d", st.Status.Stage, st.Status.Tier)
	// The second shows it runs the run: its status is newer than the kill.
	for {
		st, ok := runStatus(conn)
		if ok && st.Status.Updated.After(killed) {
			break
		}
		if second.exited() || time.Since(killed) > 20*time.Second {
			t.Fatalf("the second coordinator did not take the run over within 20 s of the kill")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("the second coordinator took over %v after the kill", time.Since(killed))
	if code := second.wait(120 * time.Second); code != 0 {
		t.Fatalf("the second coordinator: exit %d", code)
	}
	if !strings.Contains(second.output(), "resuming run") {
		t.Errorf("the second coordinator did not resume the run")
	}
	checkSpec4x4(t, out)
}

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
// on the same store and output directory. With --no-wait one runs the
// census and the other exits 2 at once with one line naming the holder.
// Without, the other says who holds the run, waits, and once the holder
// has finished the census exits 0 saying so, without running it again.
func TestTwoCoordinators(t *testing.T) {
	for _, noWait := range []bool{true, false} {
		t.Run(fmt.Sprintf("no-wait=%v", noWait), func(t *testing.T) {
			srv := startServer(t)
			startWorker(t, "worker-0", srv.url)
			startWorker(t, "worker-1", srv.url)
			tmp := t.TempDir()
			out := filepath.Join(tmp, "out")
			args := append([]string{"coordinator", "--nats", srv.url, "--store", filepath.Join(tmp, "store"),
				"--out", out, "--quiet", noMetrics, fmt.Sprintf("--no-wait=%v", noWait)}, leaseBoard...)
			coords := []*proc{startCensus(t, "coordinator-0", nil, args...), startCensus(t, "coordinator-1", nil, args...)}
			codes := []int{coords[0].wait(120 * time.Second), coords[1].wait(120 * time.Second)}
			// The holder is the one the other names.
			winner, loser := coords[0], coords[1]
			if strings.Contains(coords[0].output(), fmt.Sprintf("/%d since", coords[1].cmd.Process.Pid)) {
				winner, loser = loser, winner
				codes[0], codes[1] = codes[1], codes[0]
			}
			pid := winner.cmd.Process.Pid
			msg := strings.TrimSpace(loser.output())
			lines := strings.Split(msg, "\n")
			if noWait {
				if codes[0] != 0 || codes[1] != 2 {
					t.Errorf("exit codes %v, want 0 for the holder and 2 for the other", codes)
				}
				if len(lines) != 1 || !strings.Contains(msg, fmt.Sprintf("/%d since", pid)) {
					t.Errorf("the refused coordinator said %q; want one line naming the holder's pid %d", msg, pid)
				}
			} else {
				if codes[0] != 0 || codes[1] != 0 {
					t.Errorf("exit codes %v, want 0 and 0", codes)
				}
				if len(lines) != 2 || !heldLine(lines[0], pid) || !strings.Contains(lines[1], fmt.Sprintf("finished meanwhile by coordinator %s/%d", hostname(t), pid)) {
					t.Errorf("the waiting coordinator said %q; want a line naming the holder's pid %d, then one saying it finished the run", msg, pid)
				}
			}
			checkSpec4x4(t, out)
		})
	}
}

func hostname(t *testing.T) string {
	h, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return h
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
	if want := fmt.Sprintf("%s/%d", hostname(t), first.cmd.Process.Pid); st.Holder != want {
		t.Errorf("status shows the run held by %q, want %q", st.Holder, want)
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
	if st, _ := runStatus(conn); st.Holder != fmt.Sprintf("%s/%d", hostname(t), second.cmd.Process.Pid) {
		t.Errorf("status shows the run held by %q after the takeover, want the second coordinator (pid %d)", st.Holder, second.cmd.Process.Pid)
	}
	if code := second.wait(120 * time.Second); code != 0 {
		t.Fatalf("the second coordinator: exit %d", code)
	}
	if !strings.Contains(second.output(), "resuming run") {
		t.Errorf("the second coordinator did not resume the run")
	}
	checkSpec4x4(t, out)
}

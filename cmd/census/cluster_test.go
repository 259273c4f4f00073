package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/schema"
)

// The cluster tests run census as a user runs it on a cluster: `census
// server`, `census worker` and `census coordinator` as separate processes
// talking over a real NATS connection, some of them killed with SIGKILL.
// Every process they start is killed when the test ends.

// noMetrics keeps the census processes of a test from competing for the
// default metrics port (and from printing that they moved elsewhere).
const noMetrics = "--metrics-addr="

// proc is a census process running in the background, its standard output
// and error going to a file.
type proc struct {
	name  string
	cmd   *exec.Cmd
	log   string
	began time.Time
	done  chan struct{}
	err   error // what Wait returned, once done is closed
}

// startCensus starts `census args...` in the background with env added to
// the environment. The process is killed when the test ends; when the test
// has failed, the tail of its output is logged.
func startCensus(t *testing.T, name string, env []string, args ...string) *proc {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, args...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, log: logPath, began: time.Now(), done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("%s (census %s) output:\n%s", name, strings.Join(args, " "), tail(p.output(), 3000))
		}
	})
	return p
}

// kill sends SIGKILL unless the process has ended, and waits for it.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Kill()
	<-p.done
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// wait waits up to d for the process to end and returns its exit code, or
// -1 when it is still running.
func (p *proc) wait(d time.Duration) int {
	select {
	case <-p.done:
	case <-time.After(d):
		return -1
	}
	var exit *exec.ExitError
	switch {
	case p.err == nil:
		return 0
	case errors.As(p.err, &exit):
		return exit.ExitCode()
	}
	return -2
}

func (p *proc) output() string {
	data, _ := os.ReadFile(p.log)
	return string(data)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// censusWithin runs census like census() does, with env added, but gives
// up after d (code -1), so that a hang fails the test instead of stalling
// the suite.
func censusWithin(t *testing.T, d time.Duration, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 5 * time.Second
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		code = -1
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// natsProc is a `census server` process.
type natsProc struct {
	*proc
	url string
}

// startServer starts `census server` on a free port with extra flags and
// waits until it takes connections.
func startServer(t *testing.T, extra ...string) *natsProc {
	t.Helper()
	dir := t.TempDir()
	// Another process may take the port between freePort and the
	// server's listen: then try another.
	for attempt := 0; ; attempt++ {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
		args := append([]string{"server", "--listen", addr, "--store-dir", filepath.Join(dir, fmt.Sprint(attempt))}, extra...)
		p := startCensus(t, fmt.Sprintf("server-%d", attempt), nil, args...)
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) && !p.exited() {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				return &natsProc{proc: p, url: "nats://" + addr}
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !p.exited() || attempt == 2 {
			t.Fatalf("census server on %s did not take connections: %s", addr, p.output())
		}
	}
}

// startWorker starts `census worker --jobs 1` against url.
func startWorker(t *testing.T, name, url string) *proc {
	t.Helper()
	return startCensus(t, name, nil, "worker", "--nats", url, "--jobs", "1", noMetrics)
}

// connectTest connects the test itself to a server, to watch a run.
func connectTest(t *testing.T, url string) *broker.Conn {
	t.Helper()
	conn, err := broker.Connect(context.Background(), broker.ConnOptions{URL: url, Name: "census-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	return conn
}

// sameOutputs checks that two output directories (OUT/GAME-BOARD) hold the
// same census: summary.json but for its stage times, and tiers.parquet
// byte for byte, and the pieces tables as sets of rows (the number of
// parts follows the reduce shards, which may differ).
func sameOutputs(t *testing.T, got, want string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(got, schema.ManifestFile)); err != nil {
		t.Errorf("no manifest: %v", err)
	}
	for _, f := range []string{schema.SummaryJSONFile, schema.TiersFile} {
		a, err := os.ReadFile(filepath.Join(got, f))
		if err != nil {
			t.Error(err)
			continue
		}
		b, err := os.ReadFile(filepath.Join(want, f))
		if err != nil {
			t.Error(err)
			continue
		}
		if f == schema.SummaryJSONFile {
			a, b = withoutStages(t, a), withoutStages(t, b)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from %s", filepath.Join(got, f), filepath.Join(want, f))
			if f == "summary.json" {
				t.Logf("got:\n%s\nwant:\n%s", a, b)
			}
		}
	}
	a, b := allPieces(t, got), allPieces(t, want)
	if len(a) == 0 {
		t.Errorf("%s: no pieces", got)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("pieces of %s differ from %s: %d rows vs %d", got, want, len(a), len(b))
	}
}

// withoutStages is summary.json without its stage times, which differ
// from run to run.
func withoutStages(t *testing.T, data []byte) []byte {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("read summary.json: %v", err)
	}
	if _, ok := s["stages"]; !ok {
		t.Error("summary.json has no stages")
	}
	delete(s, "stages")
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// allPieces reads every pieces part of an output directory, sorted by key.
func allPieces(t *testing.T, dir string) []schema.Piece {
	t.Helper()
	return allRows(t, dir, schema.PiecesParts, schema.ReadPiecesFile, func(a, b schema.Piece) int {
		if c := cmpUint(a.KeyHi, b.KeyHi); c != 0 {
			return c
		}
		return cmpUint(a.KeyLo, b.KeyLo)
	})
}

// allRows reads every part of a table of an output directory, which parts
// lists, with read, and sorts the rows with cmp.
func allRows[T any](t *testing.T, dir string, parts func(dir string) ([]string, error), read func(path string) ([]T, error), cmp func(a, b T) int) []T {
	t.Helper()
	paths, err := parts(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rows []T
	for _, p := range paths {
		r, err := read(p)
		if err != nil {
			t.Fatalf("read %s: %v", p, err)
		}
		rows = append(rows, r...)
	}
	slices.SortFunc(rows, cmp)
	return rows
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// embeddedRun runs `census run` to completion and returns its output
// directory and how long it took.
func embeddedRun(t *testing.T, game, board string, extra ...string) (string, time.Duration) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	args := append([]string{"run", game, board, "--out", out, "--quiet", noMetrics}, extra...)
	began := time.Now()
	_, stderr, code := censusWithin(t, 80*time.Second, nil, args...)
	if code != 0 {
		t.Fatalf("census %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return schema.RunDir(out, game, board), time.Since(began)
}

// seeded returns a random source whose seed is in the test log, so that a
// failing schedule of kills can be replayed with CENSUS_TEST_SEED.
func seeded(t *testing.T) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("CENSUS_TEST_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("CENSUS_TEST_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d (replay with CENSUS_TEST_SEED=%d)", seed, seed)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// TestMultiProcess runs a census with a server, three workers and a
// coordinator as separate processes and compares it with `census run`.
func TestMultiProcess(t *testing.T) {
	srv := startServer(t)
	for i := range 3 {
		startWorker(t, fmt.Sprintf("worker-%d", i), srv.url)
	}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	began := time.Now()
	_, stderr, code := censusWithin(t, 80*time.Second, nil, "coordinator", "--nats", srv.url,
		"--store", filepath.Join(tmp, "store"), "clobber", "3x4", "--out", out, noMetrics)
	if code != 0 {
		t.Fatalf("census coordinator: exit %d: %s", code, stderr)
	}
	t.Logf("cluster run took %v", time.Since(began))
	if !strings.Contains(stderr, "35772 positions") {
		t.Errorf("coordinator stderr %q: want a closing line with the positions", stderr)
	}
	want, took := embeddedRun(t, "clobber", "3x4")
	t.Logf("embedded run took %v", took)
	sameOutputs(t, filepath.Join(out, "clobber-3x4"), want)

	stdout, stderr, code := census(t, "status", "--nats", srv.url)
	if code != 0 {
		t.Fatalf("census status: exit %d: %s", code, stderr)
	}
	line := ""
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "clobber-3x4") {
			line = l
		}
	}
	if f := strings.Fields(line); len(f) < 4 || f[1] != "clobber" || f[2] != "3x4" || f[3] != coordinator.StateDone {
		t.Errorf("census status:\n%s\nwant a line for the clobber 3x4 run, done", stdout)
	}
	stdout, stderr, code = census(t, "status", "--nats", srv.url, "--json")
	if code != 0 {
		t.Fatalf("census status --json: exit %d: %s", code, stderr)
	}
	var runs []coordinator.RunInfo
	if err := json.Unmarshal([]byte(stdout), &runs); err != nil {
		t.Fatalf("census status --json printed %q: %v", stdout, err)
	}
	if len(runs) != 1 || runs[0].Plan.Game != "clobber" || runs[0].Plan.Board != "3x4" ||
		runs[0].Status.State != coordinator.StateDone || runs[0].Status.Positions != 35772 {
		t.Errorf("census status --json = %+v, want one clobber 3x4 run, done, with 35772 positions", runs)
	}
	// One run by name, and an unknown one.
	if _, stderr, code := census(t, "status", "--nats", srv.url, runs[0].Run); code != 0 {
		t.Errorf("census status %s: exit %d: %s", runs[0].Run, code, stderr)
	}
	if _, stderr, code := census(t, "status", "--nats", srv.url, "no-such-run"); code != 2 || !strings.Contains(stderr, "no-such-run") {
		t.Errorf("census status no-such-run: exit %d, stderr %q; want 2 naming the run", code, stderr)
	}
}

// killBoard is the census the kill tests run: big enough that jobs and
// tiers take a while, with fixed shards so that the embedded run makes
// the same jobs.
var killBoard = []string{"clobber", "4x4", "--shards", "3"}

// TestWorkerKilled kills a worker with SIGKILL while it runs a job; its
// job is delivered again once its AckWait has passed, and the census
// comes out the same.
func TestWorkerKilled(t *testing.T) {
	// A killed worker's job comes back after the consumer's AckWait: a
	// short one keeps the test short (the processes inherit it).
	t.Setenv("CENSUS_ACK_WAIT", "3s")
	rng := seeded(t)
	want, took := embeddedRun(t, killBoard[0], killBoard[1], killBoard[2:]...)
	t.Logf("embedded run took %v", took)

	srv := startServer(t)
	workers := []*proc{startWorker(t, "worker-0", srv.url), startWorker(t, "worker-1", srv.url)}
	conn := connectTest(t, srv.url)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "out")
	began := time.Now()
	coord := startCensus(t, "coordinator", nil, append([]string{"coordinator", "--nats", srv.url,
		"--store", filepath.Join(tmp, "store"), "--out", out, noMetrics}, killBoard...)...)

	// A random moment of the first half of the run (as long as the
	// embedded run took), at most 1.5s in.
	maxDelay := min(1500*time.Millisecond, max(took/2, 300*time.Millisecond))
	delay := 200*time.Millisecond + time.Duration(rng.Int64N(int64(maxDelay-200*time.Millisecond)))
	victim := rng.IntN(len(workers))
	time.Sleep(delay)
	// Kill when both workers hold a job, so that the victim surely dies
	// in the middle of one. The workers are frozen while the pending acks
	// are counted, so that neither can finish its job between the count
	// and the kill.
	busy := false
	deadline := time.Now().Add(10 * time.Second)
	for !busy && time.Now().Before(deadline) && !coord.exited() {
		for _, w := range workers {
			w.freeze()
		}
		busy = ackPending(conn) >= len(workers)
		if !busy {
			for _, w := range workers {
				w.thaw()
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	if coord.exited() {
		t.Fatalf("the run ended before a worker could be killed (after %v): make the board bigger", time.Since(began))
	}
	workers[victim].kill()
	for _, w := range workers {
		w.thaw()
	}
	t.Logf("killed worker-%d after %v (both workers busy: %v)", victim, time.Since(began), busy)
	startWorker(t, "worker-2", srv.url)

	code := coord.wait(80 * time.Second)
	if code != 0 {
		t.Fatalf("coordinator: exit %d after %v", code, time.Since(began))
	}
	t.Logf("cluster run took %v", time.Since(began))
	sameOutputs(t, filepath.Join(out, "clobber-4x4"), want)

	// A delivery more than the stream has messages is the killed job
	// delivered again. The run may end before that delivery: a victim
	// killed between storing its job's done-record and acknowledging the
	// job has its job done, and the job comes back once its AckWait has
	// passed, to be found done and acknowledged. So wait until no job is
	// held or waiting.
	info := consumerInfo(t, conn)
	for settle := time.Now().Add(20 * time.Second); (info.NumAckPending > 0 || info.NumPending > 0) && time.Now().Before(settle); {
		time.Sleep(100 * time.Millisecond)
		info = consumerInfo(t, conn)
	}
	s, err := conn.JS.Stream(context.Background(), broker.Stream)
	if err != nil {
		t.Fatal(err)
	}
	msgs := s.CachedInfo().State.LastSeq
	t.Logf("%d jobs published, %d deliveries", msgs, info.Delivered.Consumer)
	if busy && info.Delivered.Consumer <= msgs {
		t.Errorf("%d deliveries of %d jobs: the killed worker's job was not delivered again", info.Delivered.Consumer, msgs)
	}
}

func consumerInfo(t *testing.T, conn *broker.Conn) *jetstream.ConsumerInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := conn.JS.Consumer(ctx, broker.Stream, broker.Consumer)
	if err != nil {
		t.Fatal(err)
	}
	info, err := c.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// ackPending is how many jobs the workers hold, or -1 before the consumer
// exists.
func ackPending(conn *broker.Conn) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := conn.JS.Consumer(ctx, broker.Stream, broker.Consumer)
	if err != nil {
		return -1
	}
	info, err := c.Info(ctx)
	if err != nil {
		return -1
	}
	return info.NumAckPending
}

// runStatus is the status of the only run on the server, once there is
// one.
func runStatus(conn *broker.Conn) (coordinator.RunInfo, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	runs, err := coordinator.ListRuns(ctx, conn)
	if err != nil || len(runs) != 1 {
		return coordinator.RunInfo{}, false
	}
	return runs[0], true
}

// TestCoordinatorKilled kills the coordinator with SIGKILL three times at
// random moments of the run and starts it again each time, once with
// --resume; then kills `census run` and runs the same command again. Both
// censuses must come out as an uninterrupted run's.
func TestCoordinatorKilled(t *testing.T) {
	rng := seeded(t)
	want, took := embeddedRun(t, killBoard[0], killBoard[1], killBoard[2:]...)
	t.Logf("embedded run took %v", took)

	t.Run("cluster", func(t *testing.T) {
		srv := startServer(t)
		startWorker(t, "worker-0", srv.url)
		startWorker(t, "worker-1", srv.url)
		conn := connectTest(t, srv.url)
		tmp := t.TempDir()
		out := filepath.Join(tmp, "out")
		args := append([]string{"coordinator", "--nats", srv.url, "--store", filepath.Join(tmp, "store"),
			"--out", out, noMetrics}, killBoard...)
		began := time.Now()

		// The kill points: three distinct stages of the run, in order,
		// each a tier (1 to 15) or 16 for the reductions; a kill lands a
		// random moment after its stage begins.
		const reductions = 16
		points := rng.Perm(reductions)[:3]
		for i := range points {
			points[i]++
		}
		slices.Sort(points)
		t.Logf("kill points %v (16 is the reductions)", points)
		run := ""
		for i, point := range points {
			cmdArgs := args
			if i == 2 {
				// Once with --resume, the run's ID as census status shows it.
				cmdArgs = []string{"coordinator", "--nats", srv.url, "--resume", run, "--out", out, noMetrics}
			}
			coord := startCensus(t, fmt.Sprintf("coordinator-%d", i), nil, cmdArgs...)
			reached := waitForStage(t, conn, coord, point)
			if !reached {
				if code := coord.wait(60 * time.Second); code != 0 {
					t.Fatalf("coordinator %d: exit %d", i, code)
				}
				t.Logf("coordinator %d finished before stage %d", i, point)
				break
			}
			time.Sleep(time.Duration(rng.Int64N(int64(150 * time.Millisecond))))
			if st, ok := runStatus(conn); coord.exited() || (ok && st.Status.State == coordinator.StateDone) {
				// Too late: the run is finished.
				t.Logf("coordinator %d finished before its kill", i)
				if code := coord.wait(60 * time.Second); code != 0 {
					t.Fatalf("coordinator %d: exit %d", i, code)
				}
				break
			}
			coord.kill()
			st, _ := runStatus(conn)
			t.Logf("killed coordinator %d after %v at stage %s, tier %d", i, time.Since(began), st.Status.Stage, st.Status.Tier)
			if run == "" {
				run = statusRun(t, srv.url)
			}
		}
		if st, ok := runStatus(conn); !ok || st.Status.State != coordinator.StateDone {
			coord := startCensus(t, "coordinator-last", nil, args...)
			if code := coord.wait(60 * time.Second); code != 0 {
				t.Fatalf("last coordinator: exit %d", code)
			}
		}
		t.Logf("cluster run with kills took %v", time.Since(began))
		sameOutputs(t, filepath.Join(out, "clobber-4x4"), want)
	})

	t.Run("embedded", func(t *testing.T) {
		tmp := t.TempDir()
		out, data := filepath.Join(tmp, "out"), filepath.Join(tmp, "data")
		args := append([]string{"run", "--out", out, "--data", data, "--jobs", "2", noMetrics}, killBoard...)
		// The coordinator logs every finished tier at level info: kill
		// once a random tier is done.
		env := []string{"CENSUS_LOG=info"}
		target := 1 + rng.IntN(12)
		first := startCensus(t, "run-killed", env, args...)
		tierDone := regexp.MustCompile(`msg="tier done" tier=(\d+)`)
		killed := false
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && !first.exited(); time.Sleep(5 * time.Millisecond) {
			m := tierDone.FindAllStringSubmatch(first.output(), -1)
			if len(m) > 0 {
				if n, _ := strconv.Atoi(m[len(m)-1][1]); n >= target {
					first.kill()
					killed = true
					break
				}
			}
		}
		if !killed {
			t.Fatalf("census run ended (or hung) before tier %d was done: %s", target, tail(first.output(), 2000))
		}
		t.Logf("killed census run after tier %d", target)
		if _, err := os.Stat(filepath.Join(out, "clobber-4x4", schema.ManifestFile)); err == nil {
			t.Errorf("a killed run left a manifest")
		}
		_, stderr, code := censusWithin(t, 60*time.Second, env, args...)
		if code != 0 {
			t.Fatalf("census run again: exit %d: %s", code, stderr)
		}
		if !strings.Contains(stderr, "resuming run") {
			t.Errorf("census run again did not resume: %s", tail(stderr, 2000))
		}
		sameOutputs(t, filepath.Join(out, "clobber-4x4"), want)
	})
}

// waitForStage waits until the coordinator has reached point (a tier, or
// 16 for the reductions) in this life of it; false when it ended first.
func waitForStage(t *testing.T, conn *broker.Conn, coord *proc, point int) bool {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if coord.exited() {
			return false
		}
		st, ok := runStatus(conn)
		// Every life of the coordinator starts its status afresh at
		// tier 0.
		if ok && st.Status.Updated.After(coord.began) {
			switch st.Status.Stage {
			case "tier":
				if st.Status.Tier >= point {
					return true
				}
			case "pieces", "classes", "outputs":
				return true
			case "done":
				return false
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s did not reach stage %d within a minute", coord.name, point)
	return false
}

// statusRun is the ID of the one run `census status --json` lists.
func statusRun(t *testing.T, url string) string {
	t.Helper()
	stdout, stderr, code := census(t, "status", "--nats", url, "--json")
	if code != 0 {
		t.Fatalf("census status --json: exit %d: %s", code, stderr)
	}
	var runs []coordinator.RunInfo
	if err := json.Unmarshal([]byte(stdout), &runs); err != nil {
		t.Fatalf("census status --json printed %q: %v", stdout, err)
	}
	if len(runs) != 1 || runs[0].Run == "" || runs[0].Status.State != coordinator.StateRunning {
		t.Fatalf("census status --json = %+v, want one run, running", runs)
	}
	return runs[0].Run
}

// TestClusterBadInput checks the exit code and the one-line message of
// the cluster commands given what cannot work, and that they write no
// outputs.
func TestClusterBadInput(t *testing.T) {
	srv := startServer(t)
	const token = "s3cr3t-t0ken"
	const wrong = "wr0ng-t0ken"
	tokenSrv := startServer(t, "--token", token)
	tokenHost := strings.TrimPrefix(tokenSrv.url, "nats://")

	s3 := s3mem.New()
	if err := s3.CreateBucket("census"); err != nil {
		t.Fatal(err)
	}
	s3srv := httptest.NewServer(gofakes3.New(s3).Server())
	t.Cleanup(s3srv.Close)
	s3env := []string{"AWS_ENDPOINT_URL=" + s3srv.URL, "AWS_ACCESS_KEY_ID=census",
		"AWS_SECRET_ACCESS_KEY=census-secret", "AWS_REGION=us-east-1"}

	// The run ID X names a finished clobber 2x2 run and Y an unfinished
	// one (no worker ever takes its jobs).
	startWorker(t, "worker", srv.url)
	if _, stderr, code := censusWithin(t, 60*time.Second, nil, "coordinator", "--nats", srv.url, "--store", t.TempDir(),
		"--run", "X", "clobber", "2x2", "--out", t.TempDir(), "--quiet", noMetrics); code != 0 {
		t.Fatalf("census coordinator --run X clobber 2x2: exit %d: %s", code, stderr)
	}
	tokenNats := "--nats=" + tokenSrv.url
	y := startCensus(t, "coordinator-Y", nil, "coordinator", tokenNats, "--nats-token", token,
		"--store", t.TempDir(), "--run", "Y", "clobber", "2x2", "--out", t.TempDir(), "--quiet", noMetrics)
	tconn, err := broker.Connect(context.Background(), broker.ConnOptions{URL: tokenSrv.url, Token: token, Name: "census-test"})
	if err != nil {
		t.Fatal(err)
	}
	defer tconn.Close()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if st, ok := runStatus(tconn); ok && st.Run == "Y" && st.Plan.Board == "2x2" {
			break
		}
		if y.exited() || time.Now().After(deadline) {
			t.Fatalf("census coordinator --run Y clobber 2x2 with no workers did not start the run: %s", y.output())
		}
	}
	y.kill()

	tests := []struct {
		name string
		env  []string
		args []string
		// names is what the one-line error must mention; never is what
		// it must not.
		names []string
		never []string
		board string // the GAME-BOARD directory that must not appear
	}{
		{name: "unreachable", args: []string{"coordinator", "--nats", "nats://127.0.0.1:1", "--store", "D", "clobber", "2x2"},
			names: []string{"nats://127.0.0.1:1"}, board: "clobber-2x2"},
		{name: "unreachable worker", args: []string{"worker", "--nats", "nats://127.0.0.1:1"},
			names: []string{"nats://127.0.0.1:1"}},
		{name: "unreachable status", args: []string{"status", "--nats", "nats://127.0.0.1:1"},
			names: []string{"nats://127.0.0.1:1"}},
		{name: "wrong token", args: []string{"coordinator", tokenNats, "--nats-token", wrong, "--store", "D", "clobber", "2x2"},
			names: []string{"refused", tokenHost}, never: []string{token, wrong}, board: "clobber-2x2"},
		{name: "no token", args: []string{"coordinator", tokenNats, "--store", "D", "clobber", "2x2"},
			names: []string{"refused", tokenHost}, never: []string{token}, board: "clobber-2x2"},
		{name: "wrong token in URL", args: []string{"coordinator", "--nats", "nats://" + wrong + "@" + tokenHost, "--store", "D", "clobber", "2x2"},
			names: []string{"refused", tokenHost}, never: []string{token, wrong}, board: "clobber-2x2"},
		{name: "wrong token worker", args: []string{"worker", tokenNats, "--nats-token", wrong},
			names: []string{"refused", tokenHost}, never: []string{token, wrong}},
		{name: "wrong token status", args: []string{"status", tokenNats, "--nats-token", wrong},
			names: []string{"refused", tokenHost}, never: []string{token, wrong}},
		{name: "unknown run", args: []string{"coordinator", "--nats", srv.url, "--resume", "no-such-run"},
			names: []string{"no-such-run"}},
		{name: "solve a run that kept nothing", args: []string{"coordinator", "--nats", srv.url, "--resume", "X", "--solve"},
			names: []string{"--resume X", "--solve"}},
		{name: "keep the positions of a run that kept nothing", args: []string{"coordinator", "--nats", srv.url, "--resume", "X", "--keep-positions"},
			names: []string{"--resume X", "--keep-positions"}},
		{name: "resume with other shards", args: []string{"coordinator", "--nats", srv.url, "--resume", "X", "--shards", "3"},
			names: []string{"--resume X", "--shards 3", "plan (0)"}},
		{name: "resume with another codec", args: []string{"coordinator", "--nats", srv.url, "--resume", "X", "--pieces-codec", "snappy"},
			names: []string{"--resume X", "--pieces-codec snappy", "plan (zstd)"}},
		{name: "resume with another start", args: []string{"coordinator", "--nats", srv.url, "--resume", "X", "--start", "ox/xo"},
			names: []string{"--resume X", "--start ox/xo"}},
		{name: "resume with another store", args: []string{"coordinator", "--nats", srv.url, "--resume", "X", "--store", "D"},
			names: []string{"--resume X", "--store"}},
		{name: "resume with positions", args: []string{"coordinator", "--nats", srv.url, "--resume", "X", "--positions"},
			names: []string{"--resume X", "--positions true", "plan (false)"}},
		{name: "run clash with a finished run", args: []string{"coordinator", "--nats", srv.url, "--store", "D", "--run", "X", "clobber", "2x3"},
			names: []string{"X", "2x2", "2x3"}, board: "clobber-2x3"},
		{name: "run clash with an unfinished run", args: []string{"coordinator", tokenNats, "--nats-token", token, "--store", "D", "--run", "Y", "clobber", "2x3"},
			names: []string{"Y", "2x2", "2x3"}, never: []string{token}, board: "clobber-2x3"},
		{name: "no such bucket", env: s3env, args: []string{"coordinator", "--nats", srv.url, "--store", "s3://no-such-bucket/p", "clobber", "2x2"},
			names: []string{"no-such-bucket"}, never: []string{"census-secret"}, board: "clobber-2x2"},
		{name: "no jobs", args: []string{"worker", "--nats", srv.url, "--jobs", "0"},
			names: []string{"--jobs 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			args := slices.Clone(tc.args)
			for i, a := range args {
				if a == "D" {
					args[i] = filepath.Join(dir, "store")
				}
			}
			if args[0] == "coordinator" || args[0] == "worker" {
				args = append(args, noMetrics)
			}
			if args[0] == "coordinator" {
				args = append(args, "--out", out)
			}
			stdout, stderr, code := censusWithin(t, 20*time.Second, tc.env, args...)
			if code == -1 {
				t.Fatalf("census %s still running after 20s; stderr %q", strings.Join(args, " "), stderr)
			}
			if code != 2 {
				t.Errorf("exit code %d, want 2; stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 {
				t.Errorf("stderr %q: want one line", stderr)
			}
			for _, n := range tc.names {
				if !strings.Contains(stderr, n) {
					t.Errorf("stderr %q does not name %q", stderr, n)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(stderr+stdout, n) {
					t.Errorf("output %q gives away %q", stderr+stdout, n)
				}
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if tc.board != "" {
				if _, err := os.Stat(filepath.Join(out, tc.board)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("bad input left %s behind", filepath.Join(out, tc.board))
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Logf("note: bad input created the empty --out directory %s", out)
			}
		})
	}
}

// TestCoordinatorRerun runs the same census twice on one server, one run
// after the other: the second run starts afresh and finishes too.
func TestCoordinatorRerun(t *testing.T) {
	srv := startServer(t)
	startWorker(t, "worker", srv.url)
	tmp := t.TempDir()
	var outs []string
	for i := range 2 {
		out := filepath.Join(tmp, fmt.Sprint("out", i))
		_, stderr, code := censusWithin(t, 30*time.Second, nil, "coordinator", "--nats", srv.url, "--store", filepath.Join(tmp, "store"),
			"clobber", "2x3", "--out", out, "--quiet", noMetrics)
		if code == -1 {
			t.Fatalf("run %d of the same census still running after 30s; stderr %q", i+1, stderr)
		}
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, code, stderr)
		}
		outs = append(outs, filepath.Join(out, "clobber-2x3"))
	}
	sameOutputs(t, outs[1], outs[0])
}

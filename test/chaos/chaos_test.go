// Package chaos_test runs test/chaos/chaos.sh, which injects faults into a
// census on a cluster (workers, the coordinator and NATS nodes killed and
// cut off) and wants the outputs of an undisturbed run.
//
// TestDocker runs the short version on a Docker cluster: it needs a Docker
// engine and docker-compose; without them it skips, except with CI=true,
// where it fails (as test/docker does). TestLoopback runs the same faults on
// processes on 127.0.0.1 and needs nothing but bash. -short skips both;
// CENSUS_SKIP_DOCKER=1 skips TestDocker.
package chaos_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/census-cgt/census/internal/testbin"
)

var here = mustAbs(".")

// static, cmpout and leader are what chaos.sh runs. TestMain builds them
// before any test starts, or finds them built by another package of this
// go test run, so that no test's time bound includes a build; without
// -short only, as the tests that run chaos.sh skip with it.
var static, cmpout, leader string

func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Short() {
		var err error
		if static, err = testbin.Census(testbin.Static); err == nil {
			cmpout, err = testbin.Build("./test/docker/cmpout", testbin.Plain)
		}
		if err == nil {
			// Static: it runs in the nodes' scratch containers too.
			leader, err = testbin.Build("./test/chaos/leader", testbin.Static)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

// kinds are the faults chaos.sh injects; the short version injects each.
var kinds = []string{"worker-kill", "coordinator-kill", "nats-kill", "partition", "leader-kill", "nats-stall"}

func dockerUnavailable() string {
	if _, err := exec.LookPath("docker"); err != nil {
		return "no docker command"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := exec.CommandContext(ctx, "docker", "info").Run(); err != nil {
		return "the docker engine is not running (docker info: " + err.Error() + ")"
	}
	if _, err := exec.LookPath("docker-compose"); err == nil {
		return ""
	}
	if exec.CommandContext(ctx, "docker", "compose", "version").Run() == nil {
		return ""
	}
	return "neither docker-compose nor docker compose"
}

// chaos runs chaos.sh with args and extra environment, within limit, and
// returns its output and exit code (-1 when it did not finish).
// The limit covers the image build, the cluster, the reference run and the
// trials, never the build of census (TestMain's): the short version takes
// a few minutes on an idle machine, so the callers' eight leave room for a
// busy one.
func chaos(t *testing.T, limit time.Duration, env []string, args ...string) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("chaos.sh needs bash:", err)
	}
	if d, ok := t.Deadline(); ok {
		limit = min(limit, time.Until(d)-30*time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(here, "chaos.sh")}, args...)...)
	cmd.Env = append(os.Environ(), "CENSUS_BINARY="+static, "CENSUS_CMPOUT="+cmpout, "CENSUS_CHAOS_LEADER="+leader)
	cmd.Env = append(cmd.Env, env...)
	// On the deadline, SIGTERM the whole process group so that the
	// script's trap tears the cluster down; SIGKILL a minute later.
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return terminateGroup(cmd) }
	cmd.WaitDelay = time.Minute
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("chaos.sh %s (%s):\n%s", strings.Join(args, " "), time.Since(start).Round(time.Second), out.String())
	if ctx.Err() != nil {
		t.Fatalf("chaos.sh did not finish within %s", limit)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

var faultsLine = regexp.MustCompile(`(?m)^faults((?: [a-z-]+=\d+)+)$`)

// wantPass checks chaos.sh's verdict, its table, and that every kind of
// fault was injected at least once.
func wantPass(t *testing.T, out string, code int, mode string) {
	t.Helper()
	last := lastLine(out)
	if code != 0 || !strings.HasPrefix(last, "PASS chaos") {
		t.Fatalf("chaos.sh: exit %d: %s", code, last)
	}
	if !strings.Contains(last, "mode "+mode) {
		t.Errorf("chaos.sh ran in another mode than %s: %s", mode, last)
	}
	for _, want := range []string{"mismatches", "errors"} {
		if !regexp.MustCompile(`(?m)^` + want + ` +0$`).MatchString(out) {
			t.Errorf("the table lacks the line %q with 0", want)
		}
	}
	m := faultsLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no line 'faults KIND=N ...' in the output")
	}
	got := map[string]int{}
	for _, f := range strings.Fields(m[1]) {
		k, v, _ := strings.Cut(f, "=")
		got[k], _ = strconv.Atoi(v)
	}
	for _, k := range kinds {
		if got[k] < 1 {
			t.Errorf("no %s fault was injected (%s): the run ended before it; a longer board is needed", k, m[0])
		}
	}
}

func TestDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no Docker cluster")
	}
	if os.Getenv("CENSUS_SKIP_DOCKER") == "1" {
		t.Skip("CENSUS_SKIP_DOCKER=1")
	}
	if why := dockerUnavailable(); why != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and Docker is needed: %s", why)
		}
		t.Skip(why)
	}
	out, code := chaos(t, 8*time.Minute, nil, "--short")
	wantPass(t, out, code, "docker")
}

func TestLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no cluster of processes")
	}
	out, code := chaos(t, 8*time.Minute, []string{"CHAOS_NO_DOCKER=1"}, "--short")
	wantPass(t, out, code, "loopback")
	if !strings.Contains(out, "SIGSTOP") {
		t.Error("the loopback mode does not say that a partition is SIGSTOP there")
	}
}

// TestS3NeedsDocker: the S3 mode runs its S3 server in a container, so
// --s3 without Docker fails at once, with one line saying so.
func TestS3NeedsDocker(t *testing.T) {
	cmd := exec.Command("bash", filepath.Join(here, "chaos.sh"), "--s3")
	cmd.Env = append(os.Environ(), "CHAOS_NO_DOCKER=1")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1: %s", err, out)
	}
	if msg := strings.TrimSpace(string(out)); msg != "FAIL chaos: --s3 needs Docker: CHAOS_NO_DOCKER=1" {
		t.Errorf("output %q", msg)
	}
}

// TestUsage checks that bad settings exit 2 with one line naming the bad
// value, before anything is built or started.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"unknown flag", nil, []string{"--bogus"}, "--bogus"},
		{"trials", []string{"CHAOS_TRIALS=0"}, nil, "CHAOS_TRIALS=0"},
		{"workers", []string{"CHAOS_WORKERS=1"}, nil, "CHAOS_WORKERS=1"},
		{"seed", []string{"CHAOS_SEED=abc"}, nil, "CHAOS_SEED=abc"},
		{"hold", []string{"CHAOS_HOLD=5 2"}, nil, "CHAOS_HOLD"},
		{"ack wait", []string{"CHAOS_ACK_WAIT=ten"}, nil, "CHAOS_ACK_WAIT=ten"},
		{"kind", []string{"CHAOS_KINDS=nats-kill leader-stall"}, nil, "leader-stall"},
		{"kind twice", []string{"CHAOS_KINDS=nats-kill nats-kill"}, nil, "nats-kill twice"},
		{"s3 kind without --s3", []string{"CHAOS_KINDS=s3-restart"}, nil, "CHAOS_KINDS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("bash", append([]string{filepath.Join(here, "chaos.sh")}, tc.args...)...)
			cmd.Env = append(os.Environ(), tc.env...)
			out, err := cmd.CombinedOutput()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 2 {
				t.Fatalf("exit %v, want 2: %s", err, out)
			}
			msg := strings.TrimSpace(string(out))
			if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, tc.want) {
				t.Errorf("message %q: want one line naming %s", msg, tc.want)
			}
		})
	}
	out, err := exec.Command("bash", filepath.Join(here, "chaos.sh"), "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "CHAOS_SEED") {
		t.Errorf("--help: %v: %s", err, out)
	}
}

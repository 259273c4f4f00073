package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/internal/testbin"
	"github.com/census-cgt/census/schema"
)

var (
	binary string
	// scratch holds what the tests write outside their own t.TempDir.
	scratch string
)

// TestMain builds the census binary, or finds it built by another package
// of this go test run, before any test starts; the tests run it as a user
// would.
func TestMain(m *testing.M) {
	var err error
	if binary, err = testbin.Census(testbin.Plain); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if scratch, err = os.MkdirTemp("", "census-cmd-test-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(scratch)
	os.Exit(code)
}

func census(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestBadInput(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		// names is what the one-line error must mention.
		names string
	}{
		{"unknown game", []string{"run", "chess", "4x4"}, `"chess"`},
		{"zero rows", []string{"run", "clobber", "0x4"}, "0x4"},
		{"no cols", []string{"run", "clobber", "4x"}, "4x"},
		{"no rows", []string{"run", "clobber", "x4"}, "x4"},
		{"negative", []string{"run", "clobber", "--", "-1x3"}, "-1x3"},
		{"three numbers", []string{"run", "clobber", "4x4x4"}, "4x4x4"},
		{"clobber over the limit", []string{"run", "clobber", "6x6"}, "32"},
		{"amazons over the limit", []string{"run", "amazons", "3x11"}, "32"},
		{"domineering over the limit", []string{"run", "domineering", "5x13"}, "64"},
		{"start row length", []string{"run", "clobber", "2x3", "--start", "xo/oxo"}, "xo"},
		{"start character", []string{"run", "clobber", "2x3", "--start", "xoz/oxo"}, "'z'"},
		{"start burnt in clobber", []string{"run", "clobber", "2x3", "--start", "xo#/oxo"}, "'#'"},
		{"start rows", []string{"run", "domineering", "2x3", "--start", "..."}, "..."},
		{"start for another board", []string{"run", "amazons", "3x3", "--start", "o..x/..../...."}, "3x3"},
		{"unwritable out", []string{"run", "clobber", "2x2", "--out", filepath.Join(notDir, "out")}, notDir},
		{"jobs", []string{"run", "clobber", "2x2", "--jobs", "0"}, "--jobs 0"},
		{"shards", []string{"run", "clobber", "2x2", "--shards", "-3"}, "--shards -3"},
		{"values max size", []string{"run", "clobber", "2x2", "--values", "--max-size", "-1"}, "--max-size -1"},
		{"mem budget", []string{"run", "clobber", "2x2", "--mem-budget", "lots"}, "lots"},
		{"pieces codec", []string{"run", "clobber", "2x2", "--pieces-codec", "gzip"}, `"gzip"`},
		{"missing board", []string{"run", "clobber"}, "BOARD"},
		{"unknown flag", []string{"run", "clobber", "2x2", "--colour", "red"}, "--colour"},
		{"positions value", []string{"run", "clobber", "2x2", "--positions=some"}, `"some"`},
		{"unknown command", []string{"runn"}, "runn"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := tc.args
			if !strings.Contains(strings.Join(args, " "), "--out") {
				args = append(args, "--out", filepath.Join(dir, "out"))
			}
			stdout, stderr, code := census(t, args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2; stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tc.names) {
				t.Errorf("stderr %q: want one line naming %q", stderr, tc.names)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("bad input left %s behind", filepath.Join(dir, "out"))
			}
		})
	}
}

func TestRunJSON(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, code := census(t, "run", "clobber", "2x6", "--out", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s schema.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("--json printed %q: %v", stdout, err)
	}
	// Numbers of census-spec.md.
	if s.Positions != 29463 || s.Moves != 139136 || s.DeadFreeBoards != 13404 {
		t.Errorf("positions, moves, dead-free = %d, %d, %d; want 29463, 139136, 13404", s.Positions, s.Moves, s.DeadFreeBoards)
	}
	data, err := os.ReadFile(filepath.Join(out, "clobber-2x6", schema.SummaryJSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var file schema.Summary
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if file.Positions != s.Positions || file.PiecesNegation != s.PiecesNegation {
		t.Errorf("summary.json and --json differ")
	}
	for _, f := range []string{schema.ManifestFile, schema.SummaryFile, schema.TiersFile} {
		if _, err := os.Stat(filepath.Join(out, "clobber-2x6", f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, ".census-data")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("working data left behind without --keep-data")
	}
	if !strings.Contains(stderr, "29463 positions") {
		t.Errorf("stderr %q: want a closing line with the positions", stderr)
	}
}

func TestHelpEverywhere(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"run", "--help"}, {"version", "--help"}} {
		stdout, stderr, code := census(t, args...)
		if code != 0 || !strings.Contains(stdout, "Usage:") {
			t.Errorf("census %v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	stdout, _, code := census(t, "version")
	if code != 0 || !strings.HasPrefix(stdout, "census ") {
		t.Errorf("census version: exit %d, %q", code, stdout)
	}
}

package main

import (
	"strings"
	"testing"
)

// TestDeprecatedFlags gives the old names of --jobs: each still sets the
// setting (a bad value is refused as --jobs's) and prints a one-line notice
// naming the new flag on standard error, nothing on standard output.
func TestDeprecatedFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"run --workers", []string{"run", "clobber", "2x2", "--workers", "0", "--out", "OUT"}},
		{"coordinator --parallelism", []string{"coordinator", "clobber", "2x2", "--parallelism", "0", "--out", "OUT"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			for i, a := range args {
				if a == "OUT" {
					args[i] = t.TempDir()
				}
			}
			stdout, stderr, code := census(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != 2 || len(lines) != 2 || !strings.Contains(lines[0], "deprecated, use --jobs") || !strings.Contains(lines[1], "--jobs 0") {
				t.Errorf("exit %d, stderr %q; want 2, a notice naming --jobs and the error naming --jobs 0", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
	// The old name works: a small census with --workers 2.
	out := t.TempDir()
	_, stderr, code := census(t, "run", "clobber", "2x3", "--workers", "2", "--out", out, "--quiet", noMetrics)
	if code != 0 || !strings.Contains(stderr, "--workers has been deprecated, use --jobs") {
		t.Errorf("census run --workers 2: exit %d, stderr %q; want 0 and a notice", code, stderr)
	}
	// And the new names are in every command's help, the old ones not.
	for _, cmd := range []string{"run", "coordinator", "worker"} {
		stdout, _, _ := census(t, cmd, "--help")
		if !strings.Contains(stdout, "--jobs") || strings.Contains(stdout, "--workers") || strings.Contains(stdout, "--parallelism") {
			t.Errorf("census %s --help: want --jobs and no old name:\n%s", cmd, stdout)
		}
	}
	for _, cmd := range []string{"run", "coordinator"} {
		stdout, _, _ := census(t, cmd, "--help")
		if !strings.Contains(stdout, memBudgetUsage) {
			t.Errorf("census %s --help does not say --mem-budget is one job's:\n%s", cmd, stdout)
		}
	}
}

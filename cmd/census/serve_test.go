package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeBadUsage: census serve refuses, with exit 2 and one line naming
// the bad value, what it cannot serve.
func TestServeBadUsage(t *testing.T) {
	tmp := t.TempDir()
	empty := filepath.Join(tmp, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(tmp, "missing")
	tests := []struct {
		name string
		args []string
		says []string
	}{
		{"no arguments", []string{"serve"}, []string{"OUT"}},
		{"missing directory", []string{"serve", missing}, []string{missing, "no such directory", "census solve"}},
		{"missing after one", []string{"serve", empty, missing}, []string{empty, "census solve DIR"}},
		{"no solved run", []string{"serve", empty}, []string{empty, "no solved run", "census solve DIR"}},
		{"not a directory", []string{"serve", file}, []string{file, "not a directory"}},
		{"unknown flag", []string{"serve", empty, "--port", "80"}, []string{"--port"}},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := census(t, c.args...)
			if code != 2 {
				t.Fatalf("census %v: exit %d, want 2\nstdout: %s\nstderr: %s", c.args, code, stdout, stderr)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 {
				t.Errorf("stderr has %d lines, want 1: %s", lines, stderr)
			}
			for _, s := range c.says {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q does not say %q", stderr, s)
				}
			}
		})
	}
}

func TestServeHelp(t *testing.T) {
	stdout, stderr, code := census(t, "serve", "--help")
	if code != 0 {
		t.Fatalf("census serve --help: exit %d: %s", code, stderr)
	}
	for _, s := range []string{"census serve OUT [OUT...]", "--addr", "127.0.0.1:8080", "/api/v1/runs", "Examples:"} {
		if !strings.Contains(stdout, s) {
			t.Errorf("help lacks %q", s)
		}
	}
}

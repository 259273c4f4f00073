package embedded_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/census-cgt/census/embedded"
)

func TestClean(t *testing.T) {
	tests := []struct {
		name  string
		files []string // under the data directory
		left  []string // what Clean must leave, nil for nothing at all
	}{
		{"only the run's data", []string{"nats/jetstream/x", "blobs/run/t0001/s0.frag"}, nil},
		{"nothing yet", nil, nil},
		{"other files stay", []string{"nats/jetstream/x", "blobs/b", "notes.txt"}, []string{"notes.txt"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			if err := os.MkdirAll(data, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.files {
				p := filepath.Join(data, f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := embedded.Clean(data); err != nil {
				t.Fatalf("Clean: %v", err)
			}
			entries, err := os.ReadDir(data)
			if tc.left == nil {
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("Clean left %s (%d entries, %v)", data, len(entries), err)
				}
				return
			}
			var left []string
			for _, e := range entries {
				left = append(left, e.Name())
			}
			if !slices.Equal(left, tc.left) {
				t.Errorf("Clean left %q, want %q", left, tc.left)
			}
		})
	}
}

package coordinator_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/internal/embedded"
)

// runWay runs a census, backward unless forward is set.
func runWay(t *testing.T, game, board, start string, shards int, forward bool) (*coordinator.Result, string) {
	t.Helper()
	return runCensus(t, embedded.Options{Game: game, Board: board, Start: start, Workers: 2, Shards: shards, Forward: forward})
}

// TestBackwardTiers runs Amazons censuses whose tiers are found backwards
// (the default for a start with one amazon a side) and forwards: their
// summaries and every output table must be the same, byte for byte.
func TestBackwardTiers(t *testing.T) {
	for _, tc := range []struct {
		board  string
		shards int
	}{{"3x4", 0}, {"4x4", 0}, {"3x4", 3}} {
		t.Run(tc.board, func(t *testing.T) {
			back, backOut := runWay(t, "amazons", tc.board, "", tc.shards, false)
			fwd, fwdOut := runWay(t, "amazons", tc.board, "", tc.shards, true)
			if !back.Backward || fwd.Backward {
				t.Fatalf("backward %v and %v, want true and false", back.Backward, fwd.Backward)
			}
			if !reflect.DeepEqual(counts(back.Summary), counts(fwd.Summary)) {
				t.Errorf("summaries differ:\nbackward %+v\nforward  %+v", back.Summary, fwd.Summary)
			}
			files, err := filepath.Glob(filepath.Join(fwdOut, "*", "*.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			top, err := filepath.Glob(filepath.Join(fwdOut, "*.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, top...)
			if len(files) < 3 {
				t.Fatalf("forward run wrote %v", files)
			}
			for _, f := range files {
				rel, _ := filepath.Rel(fwdOut, f)
				want, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(backOut, rel))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs between the backward and the forward run", rel)
				}
			}
		})
	}
	// Two amazons a side are not numbered: that start runs forward.
	res, _ := runWay(t, "amazons", "3x3", "xx./.../.oo", 0, false)
	if res.Backward {
		t.Error("a start with two amazons a side ran backward")
	}
}

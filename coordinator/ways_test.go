package coordinator_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
)

// runWay runs a census, backward or listed (the game's default) unless
// forward is set.
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
			sameOutputs(t, backOut, fwdOut)
		})
	}
	// Two amazons a side are not numbered: that start runs forward.
	res, _ := runWay(t, "amazons", "3x3", "xx./.../.oo", 0, false)
	if res.Backward {
		t.Error("a start with two amazons a side ran backward")
	}
}

// TestListedTiers runs Domineering censuses whose tiers are listed (the
// default) and found forwards: their summaries and every output table
// must be the same, byte for byte. The boards cover a square board (a
// group of 8), an oblong one (4), tiers split in parts (shards 3), lines
// along the columns (a board wider than 8) and a start with squares
// covered.
func TestListedTiers(t *testing.T) {
	for _, tc := range []struct {
		board, start string
		shards       int
	}{{"4x4", "", 0}, {"4x5", "", 0}, {"4x5", "", 3}, {"2x9", "", 0}, {"4x4", "#.../..../..#./....", 2}} {
		t.Run(tc.board, func(t *testing.T) {
			list, listOut := runWay(t, "domineering", tc.board, tc.start, tc.shards, false)
			fwd, fwdOut := runWay(t, "domineering", tc.board, tc.start, tc.shards, true)
			if !list.Listed || fwd.Listed || list.Backward {
				t.Fatalf("listed %v and %v (backward %v), want true and false", list.Listed, fwd.Listed, list.Backward)
			}
			if !reflect.DeepEqual(counts(list.Summary), counts(fwd.Summary)) {
				t.Errorf("summaries differ:\nlisted  %+v\nforward %+v", list.Summary, fwd.Summary)
			}
			sameOutputs(t, listOut, fwdOut)
		})
	}
}

// sameOutputs checks that every Parquet output under want is under got
// too, byte for byte.
func sameOutputs(t *testing.T, got, want string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(want, "*", "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	top, err := filepath.Glob(filepath.Join(want, "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, top...)
	if len(files) < 3 {
		t.Fatalf("forward run wrote %v", files)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(want, f)
		w, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("%s differs from the forward run's", rel)
		}
	}
}

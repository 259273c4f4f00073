package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/census-cgt/census/schema"
)

// TestRunPositions runs `census run --positions` and reads the positions
// table back from the hive layout: one tier=NN directory per tier, as many
// rows in it as the summary has positions in that tier.
func TestRunPositions(t *testing.T) {
	out := t.TempDir()
	stdout, stderr, code := census(t, "run", "clobber", "2x4", "--out", out, "--json", "--quiet", "--positions", "--shards", "2", noMetrics)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var s schema.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("--json printed %q: %v", stdout, err)
	}
	dir := filepath.Join(out, "clobber-2x4", "positions")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(s.PositionsByTier) {
		t.Fatalf("%d entries in positions/, %d tiers", len(entries), len(s.PositionsByTier))
	}
	for tier, want := range s.PositionsByTier {
		parts, _ := filepath.Glob(filepath.Join(dir, schema.TierDir(tier), schema.PartGlob))
		var n uint64
		for _, p := range parts {
			rows, err := schema.ReadPositionsFile(p)
			if err != nil {
				t.Fatal(err)
			}
			n += uint64(len(rows))
		}
		if n != want {
			t.Errorf("tier %d: %d rows in %d parts, want %d", tier, n, len(parts), want)
		}
	}
}

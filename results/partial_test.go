package results_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

// partial is a run stopped before its end: the tiers it finished.
type partial struct {
	Game     string `json:"game"`
	Board    string `json:"board"`
	Complete bool   `json:"complete"`
	// NoSymmetry marks a run that stored every position, not one per
	// orbit of the board's symmetries: GAME-BOARD-no-symmetry-partial.json.
	NoSymmetry bool `json:"no_symmetry"`
	Tiers      []struct {
		Tier      int    `json:"tier"`
		Positions uint64 `json:"positions"`
		Stored    uint64 `json:"stored"`
		Moves     uint64 `json:"moves"`
	} `json:"tiers"`
}

// TestPartialRunsAgree checks each stopped run kept as GAME-BOARD-partial.json
// against the complete run of the same board, when one is published: the
// tiers the stopped run finished must hold the same positions and moves in
// the complete run's tiers.parquet, as two runs of different versions of
// census, days apart, counted them. A stopped run with --no-symmetry
// (GAME-BOARD-no-symmetry-partial.json) stored every position of its
// tiers, where the complete run stored one per orbit: the same counts
// then come from different code paths.
func TestPartialRunsAgree(t *testing.T) {
	paths, err := filepath.Glob("*-partial.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no partial runs: %v", err)
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var pr partial
			if err := json.Unmarshal(data, &pr); err != nil {
				t.Fatal(err)
			}
			dir := strings.TrimSuffix(p, "-partial.json")
			if pr.NoSymmetry {
				dir = strings.TrimSuffix(dir, "-no-symmetry")
			}
			if pr.Complete || dir != schema.RunName(pr.Game, pr.Board) || len(pr.Tiers) == 0 {
				t.Fatalf("%s: game %q board %q, complete %v, %d tiers", p, pr.Game, pr.Board, pr.Complete, len(pr.Tiers))
			}
			for i, tr := range pr.Tiers {
				if tr.Tier != i || tr.Positions == 0 {
					t.Fatalf("%s: row %d is tier %d with %d positions", p, i, tr.Tier, tr.Positions)
				}
				// Without symmetry every position is stored; with it, one
				// per orbit, so at least an eighth of them.
				if pr.NoSymmetry && tr.Stored != tr.Positions || tr.Stored > tr.Positions || tr.Stored*8 < tr.Positions {
					t.Errorf("%s: tier %d stored %d of %d positions", p, i, tr.Stored, tr.Positions)
				}
			}
			tiers, err := schema.ReadTiersFile(filepath.Join(dir, schema.TiersFile))
			if errors.Is(err, fs.ErrNotExist) {
				t.Skipf("%s: no complete run of %s %s is published", p, pr.Game, pr.Board)
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(tiers) < len(pr.Tiers) {
				t.Fatalf("the complete run has %d tiers, the stopped one finished %d", len(tiers), len(pr.Tiers))
			}
			for i, tr := range pr.Tiers {
				if tiers[i].Positions != tr.Positions || tiers[i].Moves != tr.Moves {
					t.Errorf("tier %d: the complete run counts %d positions and %d moves, the stopped one %d and %d",
						i, tiers[i].Positions, tiers[i].Moves, tr.Positions, tr.Moves)
				}
			}
		})
	}
}

package coordinator_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/schema"
)

// plainAndReduced runs one census with and without the symmetry reduction
// and requires identical summaries and pieces tables.
func plainAndReduced(t *testing.T, game string, rows, cols int) {
	t.Helper()
	board := fmt.Sprintf("%dx%d", rows, cols)
	var sums [2]schema.Summary
	var pieces [2][]schema.Piece
	for i, plain := range []bool{false, true} {
		tmp := t.TempDir()
		out := coordinator.OutputDir(filepath.Join(tmp, "out"), game, board)
		res, err := embedded.Run(context.Background(), embedded.Options{
			Game: game, Board: board, Out: out, Data: filepath.Join(tmp, "data"),
			Workers: 2, MemBudget: 256 << 20, NoSymmetry: plain,
		})
		if err != nil {
			t.Fatalf("%s %s (no symmetry %v): %v", game, board, plain, err)
		}
		sums[i], pieces[i] = res.Summary, readPieces(t, out)
	}
	if !reflect.DeepEqual(counts(sums[0]), counts(sums[1])) {
		t.Errorf("summary with symmetry reduction differs from the plain enumeration:\n%+v\n%+v", sums[0], sums[1])
	}
	if !reflect.DeepEqual(pieces[0], pieces[1]) {
		t.Errorf("pieces table with symmetry reduction differs from the plain enumeration (%d rows vs %d)", len(pieces[0]), len(pieces[1]))
	}
}

// TestSymmetryReduction compares the census with and without the symmetry
// reduction on every board of up to 10 squares of each game (TestAgainstReference
// covers 12 against the plain reference enumerator); with
// CENSUS_LONG_TESTS=1, up to 16 squares.
func TestSymmetryReduction(t *testing.T) {
	limit := 10
	if os.Getenv("CENSUS_LONG_TESTS") == "1" {
		limit = 16
	}
	for _, game := range []string{"clobber", "domineering", "amazons"} {
		for r := 1; r <= limit; r++ {
			for c := 1; r*c <= limit; c++ {
				if game == "amazons" && r*c < 2 {
					continue
				}
				t.Run(fmt.Sprintf("%s-%dx%d", game, r, c), func(t *testing.T) {
					plainAndReduced(t, game, r, c)
				})
			}
		}
	}
}

package coordinator_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/internal/refcensus"
	"github.com/census-cgt/census/schema"
)

// readPieces reads every pieces part of a run, sorted by key.
func readPieces(t *testing.T, dir string) []schema.Piece {
	t.Helper()
	parts, _ := schema.PiecesParts(dir)
	var all []schema.Piece
	for _, p := range parts {
		rows, err := schema.ReadPiecesFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, rows...)
	}
	slices.SortFunc(all, func(a, b schema.Piece) int {
		if a.KeyHi != b.KeyHi {
			return cmpU(a.KeyHi, b.KeyHi)
		}
		return cmpU(a.KeyLo, b.KeyLo)
	})
	return all
}

func cmpU(a, b uint64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// TestShardsAndWorkersDoNotMatter runs the same censuses with one shard,
// seven shards and automatic sharding, on one and two workers, and with
// the piece fragments compacted beside every tier that follows one that
// wrote some (and never): the summaries and the pieces tables must be
// identical.
func TestShardsAndWorkersDoNotMatter(t *testing.T) {
	for _, tc := range []struct{ game, board string }{
		{"clobber", "3x4"}, {"domineering", "4x4"}, {"amazons", "2x4"},
	} {
		t.Run(tc.game+"-"+tc.board, func(t *testing.T) {
			base, baseDir := census(t, tc.game, tc.board, "", 1, 1)
			basePieces := readPieces(t, baseDir)
			for _, v := range []struct {
				shards, workers int
				compactMin      uint64
			}{{7, 1, 0}, {7, 2, 0}, {0, 2, 0}, {1, 2, 0}, {7, 2, 1}, {1, 1, 1}, {0, 2, 1 << 62}} {
				res, dir := censusCompact(t, tc.game, tc.board, "", v.shards, v.workers, v.compactMin)
				s := res.Summary
				if compacted := len(res.Compactions) > 0; compacted != (v.compactMin == 1) {
					t.Errorf("--shards %d --workers %d, compacting from %d bytes: %d compactions", v.shards, v.workers, v.compactMin, len(res.Compactions))
				}
				if !reflect.DeepEqual(counts(s), counts(base)) {
					t.Errorf("--shards %d --workers %d, compacting from %d bytes: summary differs from --shards 1 --workers 1:\n%+v\n%+v", v.shards, v.workers, v.compactMin, s, base)
				}
				if p := readPieces(t, dir); !reflect.DeepEqual(p, basePieces) {
					t.Errorf("--shards %d --workers %d, compacting from %d bytes: pieces table differs (%d rows vs %d)", v.shards, v.workers, v.compactMin, len(p), len(basePieces))
				}
			}
		})
	}
}

// TestAgainstReference compares the engine with the deliberately simple
// enumerator of internal/refcensus on every board of up to 12 squares of
// each game, and on a few non-standard starts.
func TestAgainstReference(t *testing.T) {
	type board struct{ rows, cols int }
	var boards []board
	for r := 1; r <= 12; r++ {
		for c := 1; r*c <= 12; c++ {
			boards = append(boards, board{r, c})
		}
	}
	for _, game := range []string{"clobber", "domineering", "amazons"} {
		for _, b := range boards {
			if game == "amazons" && b.rows*b.cols < 2 {
				continue // no room for two amazons
			}
			name := fmt.Sprintf("%s-%dx%d", game, b.rows, b.cols)
			t.Run(name, func(t *testing.T) {
				compareWithReference(t, game, b.rows, b.cols, "")
			})
		}
	}
	starts := []struct {
		game  string
		rows  int
		cols  int
		start string
	}{
		{"clobber", 3, 3, "xox/o.o/xxo"},
		{"clobber", 2, 5, "xxoox/o.oxo"},
		{"domineering", 3, 4, "#.../..#./...."},
		{"amazons", 3, 3, "x.o/.#./o.x"},
		{"amazons", 2, 5, "x...o/#..#."},
	}
	for _, s := range starts {
		t.Run(fmt.Sprintf("%s-%s", s.game, s.start), func(t *testing.T) {
			compareWithReference(t, s.game, s.rows, s.cols, s.start)
		})
	}
}

func compareWithReference(t *testing.T, game string, rows, cols int, start string) {
	t.Helper()
	refStart := start
	if refStart == "" {
		var err error
		if refStart, err = refcensus.Start(game, rows, cols); err != nil {
			t.Fatal(err)
		}
	}
	ref, err := refcensus.Census(game, rows, cols, refStart)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := census(t, game, fmt.Sprintf("%dx%d", rows, cols), start, 0, 2)
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, reference %v", name, got, want)
		}
	}
	check("start", s.Start, refStart)
	check("positions", s.Positions, ref.Positions)
	check("moves", s.Moves, ref.Moves)
	check("positions_by_tier", s.PositionsByTier, ref.PositionsByTier)
	check("split_by_tier", s.SplitByTier, ref.SplitByTier)
	check("split_positions", s.SplitPositions, ref.SplitPositions)
	check("positions_with_dead", s.PositionsWithDead, ref.PositionsWithDead)
	check("dead_free_boards", s.DeadFreeBoards, ref.DeadFreeBoards)
	check("pieces_in_place", s.PiecesInPlace, ref.PiecesInPlace)
	check("pieces_translated", s.PiecesTranslated, ref.PiecesTranslated)
	check("pieces_symmetric", s.PiecesSymmetric, ref.PiecesSymmetric)
	check("pieces_negation", s.PiecesNegation, ref.PiecesNegation)
	check("self_negative_symmetric", s.SelfNegativeSymmetric, ref.SelfNegativeSymmetric)
	check("joins", s.Joins, ref.Joins)
	if len(ref.PiecesBySize) > 0 || len(s.PiecesBySize) > 0 {
		check("pieces_by_size", s.PiecesBySize, ref.PiecesBySize)
	}
	if ref.SplitPositions > 0 && !near(s.MeanLivePiecesWhenSplit, float64(ref.LivePiecesWhenSplit)/float64(ref.SplitPositions)) {
		t.Errorf("mean_live_pieces_when_split = %v, reference %d/%d", s.MeanLivePiecesWhenSplit, ref.LivePiecesWhenSplit, ref.SplitPositions)
	}
	switch game {
	case "amazons":
		check("edge_rule_joins", deref64(s.EdgeRuleJoins), ref.EdgeRuleJoins)
	case "clobber":
		if ref.MovedPieceMoves > 0 {
			want := ref.MovedPieceFracSum / float64(ref.MovedPieceMoves)
			if got := deref(s.MovedPieceFraction); !closeTo(got, want) {
				t.Errorf("moved_piece_fraction = %v, reference %v", got, want)
			}
		}
		if ref.MovedPieceMovesAfterSplit > 0 {
			want := ref.MovedPieceFracSumAfterSplit / float64(ref.MovedPieceMovesAfterSplit)
			if got := deref(s.MovedPieceFractionAfterSplit); !closeTo(got, want) {
				t.Errorf("moved_piece_fraction_after_split = %v, reference %v", got, want)
			}
		}
	}
}

// closeTo allows for the order of floating-point additions only.
func closeTo(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

func deref64(p *uint64) uint64 {
	if p == nil {
		return 1<<64 - 1
	}
	return *p
}

// TestTinyMemoryBudget runs Clobber 4x4 with the smallest budget, so that
// jobs spill many sorted runs and merge them, and checks the spec's numbers.
func TestTinyMemoryBudget(t *testing.T) {
	tmp := t.TempDir()
	out := coordinator.OutputDir(filepath.Join(tmp, "out"), "clobber", "4x4")
	res, err := embedded.Run(context.Background(), embedded.Options{
		Game: "clobber", Board: "4x4", Out: out, Data: filepath.Join(tmp, "data"),
		Workers: 2, MemBudget: 1 << 20, Version: "test", KeepData: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summary
	// census-spec.md, Clobber 4x4.
	if s.Positions != 1809927 || s.Moves != 12192184 || s.DeadFreeBoards != 791655 || s.PiecesInPlace != 424085 || s.PiecesTranslated != 395947 {
		t.Errorf("with a 1MiB budget: positions %d, moves %d, dead-free %d, in place %d, translated %d; want the spec's 1809927, 12192184, 791655, 424085, 395947",
			s.Positions, s.Moves, s.DeadFreeBoards, s.PiecesInPlace, s.PiecesTranslated)
	}
	if n := len(readPieces(t, out)); n != 395947 {
		t.Errorf("pieces table has %d rows, want 395947", n)
	}
	// The budget must have made the jobs spill: some job wrote more than
	// one part.
	parts, _ := filepath.Glob(filepath.Join(tmp, "data", "blobs", "*", "t*", "*-p001.frag"))
	if len(parts) == 0 {
		t.Errorf("no job spilled a second part with a 1MiB budget")
	}
}

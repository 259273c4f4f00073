package refcensus

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

func run(t *testing.T, game string, rows, cols int) Result {
	t.Helper()
	start, err := Start(game, rows, cols)
	if err != nil {
		t.Fatalf("Start(%s, %d, %d): %v", game, rows, cols, err)
	}
	res, err := Census(game, rows, cols, start)
	if err != nil {
		t.Fatalf("Census(%s, %d, %d, %q): %v", game, rows, cols, start, err)
	}
	return res
}

func share(num, den uint64) string { return fmt.Sprintf("%.4f", float64(num)/float64(den)) }

func check[T comparable](t *testing.T, name string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// consistent checks the invariants that tie the fields of a Result together.
func consistent(t *testing.T, res Result) {
	t.Helper()
	check(t, "sum(PositionsByTier)", sum(res.PositionsByTier), res.Positions)
	check(t, "sum(SplitByTier)", sum(res.SplitByTier), res.SplitPositions)
	check(t, "len(SplitByTier)", len(res.SplitByTier), len(res.PositionsByTier))
	var bySize uint64
	for _, n := range res.PiecesBySize {
		bySize += n
	}
	check(t, "sum(PiecesBySize)", bySize, res.PiecesTranslated)
	if !(res.PiecesInPlace >= res.PiecesTranslated && res.PiecesTranslated >= res.PiecesSymmetric &&
		res.PiecesSymmetric >= res.PiecesNegation && res.PiecesSymmetric >= res.SelfNegativeSymmetric) {
		t.Errorf("levels not decreasing: %+v", res)
	}
}

func TestStart(t *testing.T) {
	for _, c := range []struct {
		game       string
		rows, cols int
		want       string
	}{
		{"clobber", 2, 6, "xoxoxo/oxoxox"},
		{"clobber", 3, 4, "xoxo/oxox/xoxo"},
		{"clobber", 1, 1, "x"},
		{"domineering", 2, 3, ".../..."},
		{"amazons", 3, 4, "o..x/..../...."},
		{"amazons", 3, 3, "o.x/.../..."},
		{"amazons", 4, 3, "o../.../.../x.."},
		{"amazons", 1, 2, "ox"},
	} {
		got, err := Start(c.game, c.rows, c.cols)
		if err != nil || got != c.want {
			t.Errorf("Start(%s, %d, %d) = %q, %v; want %q", c.game, c.rows, c.cols, got, err, c.want)
		}
	}
	for _, c := range []struct {
		game       string
		rows, cols int
	}{{"chess", 3, 3}, {"", 3, 3}, {"clobber", 0, 3}, {"domineering", 3, -1}, {"amazons", 1, 1}} {
		if got, err := Start(c.game, c.rows, c.cols); err == nil {
			t.Errorf("Start(%q, %d, %d) = %q, want an error", c.game, c.rows, c.cols, got)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		game       string
		rows, cols int
		start      string
	}{
		{"go", 1, 2, "xo"},
		{"clobber", 0, 2, ""},
		{"clobber", 2, 2, "xo"},         // too few rows
		{"clobber", 1, 2, "xo/ox"},      // too many rows
		{"clobber", 2, 2, "xo/o"},       // short row
		{"clobber", 2, 2, "xox/ox"},     // long row
		{"clobber", 1, 2, "x#"},         // no burnt squares in Clobber
		{"clobber", 1, 2, "xz"},         // unknown character
		{"domineering", 1, 2, "x."},     // no stones in Domineering
		{"amazons", 1, 3, "o.X"},        // case matters
		{"amazons", 1, 3, "o.x/"},       // trailing separator
		{"domineering", 2, 2, "../.. "}, // space
	} {
		if _, err := Census(c.game, c.rows, c.cols, c.start); err == nil {
			t.Errorf("Census(%q, %d, %d, %q): want an error", c.game, c.rows, c.cols, c.start)
		}
	}
}

// Tiny boards, counted by hand.
func TestTiny(t *testing.T) {
	t.Run("clobber 1x2", func(t *testing.T) {
		// xo -> .x (x clobbers) or o. (o clobbers).
		res, err := Census("clobber", 1, 2, "xo")
		if err != nil {
			t.Fatal(err)
		}
		check(t, "Positions", res.Positions, 3)
		check(t, "Moves", res.Moves, 2)
		check(t, "PositionsByTier", fmt.Sprint(res.PositionsByTier), "[1 2]")
		check(t, "PositionsWithDead", res.PositionsWithDead, 2)
		check(t, "DeadFreeBoards", res.DeadFreeBoards, 2) // xo and ..
		check(t, "PiecesInPlace", res.PiecesInPlace, 1)
		check(t, "PiecesSymmetric", res.PiecesSymmetric, 1)
		check(t, "SelfNegativeSymmetric", res.SelfNegativeSymmetric, 1) // ox is xo reflected
		check(t, "MovedPieceFracSum", res.MovedPieceFracSum, 2.0)
		check(t, "MovedPieceMoves", res.MovedPieceMoves, 2)
		check(t, "MovedPieceMovesAfterSplit", res.MovedPieceMovesAfterSplit, 0)
	})
	t.Run("clobber two pieces", func(t *testing.T) {
		// xo.x is two pieces (one dead); both moves are made in the 2-stone piece, of 3 stones.
		res, err := Census("clobber", 1, 4, "xo.x")
		if err != nil {
			t.Fatal(err)
		}
		check(t, "Moves", res.Moves, 2)
		check(t, "MovedPieceFracSum", fmt.Sprintf("%.4f", res.MovedPieceFracSum), "1.3333") // 2/3 + 2/3
		check(t, "MovedPieceMovesAfterSplit", res.MovedPieceMovesAfterSplit, 2)
		check(t, "PositionsWithDead", res.PositionsWithDead, 3)
		check(t, "DeadFreeBoards", res.DeadFreeBoards, 2) // xo.. and ....
	})
	t.Run("domineering 1x3", func(t *testing.T) {
		res, err := Census("domineering", 1, 3, "...")
		if err != nil {
			t.Fatal(err)
		}
		check(t, "Positions", res.Positions, 3) // ..., ##., .##
		check(t, "Moves", res.Moves, 2)
		check(t, "DeadFreeBoards", res.DeadFreeBoards, 2) // ... and ###
		check(t, "PiecesTranslated", res.PiecesTranslated, 1)
		check(t, "PiecesSymmetric", res.PiecesSymmetric, 1)
		check(t, "PiecesNegation", res.PiecesNegation, 1)
		check(t, "SelfNegativeSymmetric", res.SelfNegativeSymmetric, 0) // a row is not a column
	})
	t.Run("domineering 2x2", func(t *testing.T) {
		res, err := Census("domineering", 2, 2, "../..")
		if err != nil {
			t.Fatal(err)
		}
		check(t, "Positions", res.Positions, 1+4+1) // both pairs of dominoes cover the board
		check(t, "Moves", res.Moves, 4+4)
		check(t, "PiecesTranslated", res.PiecesTranslated, 3)           // the square, a row, a column
		check(t, "PiecesSymmetric", res.PiecesSymmetric, 3)             // no quarter turns
		check(t, "PiecesNegation", res.PiecesNegation, 2)               // row = transposed column
		check(t, "SelfNegativeSymmetric", res.SelfNegativeSymmetric, 1) // the square
	})
	t.Run("amazons 1x3", func(t *testing.T) {
		// o.x: o steps right and shoots back (#ox), or x steps left and shoots back (ox#).
		res, err := Census("amazons", 1, 3, "o.x")
		if err != nil {
			t.Fatal(err)
		}
		check(t, "Positions", res.Positions, 3)
		check(t, "Moves", res.Moves, 2)
		check(t, "PositionsWithDead", res.PositionsWithDead, 2) // amazons with no empty square
		check(t, "SelfNegativeSymmetric", res.SelfNegativeSymmetric, 1)
		check(t, "EdgeRuleJoins", res.EdgeRuleJoins, 0)
	})
	t.Run("amazons diagonal", func(t *testing.T) {
		// The amazon steps through the corner into another edge-region and shoots back.
		res, err := Census("amazons", 2, 2, "o#/#.")
		if err != nil {
			t.Fatal(err)
		}
		check(t, "Positions", res.Positions, 2)
		check(t, "Moves", res.Moves, 1)
		check(t, "Joins", res.Joins, 0)
		check(t, "EdgeRuleJoins", res.EdgeRuleJoins, 1)
		check(t, "SplitPositions", res.SplitPositions, 0)
		check(t, "PiecesInPlace", res.PiecesInPlace, 1) // o#/#. is one king-connected live region
	})
}

// The joins check itself must be able to see a join.
func TestJoinsDetects(t *testing.T) {
	g, _ := newGeom("clobber", 1, 3)
	if !g.joins([]byte("xo."), []int{0, 1, -1}) {
		t.Error("two old labels in one new piece not seen as a join")
	}
	g, _ = newGeom("clobber", 1, 4)
	if g.joins([]byte("xo.x"), []int{0, 0, -1, 1}) {
		t.Error("separate pieces seen as a join")
	}
}

type clobberRow struct {
	rows, cols                                  int
	positions, moves, deadFree, inPlace, transl uint64
	split, meanLive, dead, frac                 string
}

func testClobber(t *testing.T, c clobberRow) Result {
	res := run(t, "clobber", c.rows, c.cols)
	consistent(t, res)
	check(t, "Positions", res.Positions, c.positions)
	check(t, "Moves", res.Moves, c.moves)
	check(t, "DeadFreeBoards", res.DeadFreeBoards, c.deadFree)
	check(t, "PiecesInPlace", res.PiecesInPlace, c.inPlace)
	check(t, "PiecesTranslated", res.PiecesTranslated, c.transl)
	check(t, "split share", share(res.SplitPositions, res.Positions), c.split)
	check(t, "mean live pieces when split", share(res.LivePiecesWhenSplit, res.SplitPositions), c.meanLive)
	check(t, "dead share", share(res.PositionsWithDead, res.Positions), c.dead)
	check(t, "moved-piece fraction", fmt.Sprintf("%.4f", res.MovedPieceFracSum/float64(res.MovedPieceMoves)), c.frac)
	check(t, "MovedPieceMoves", res.MovedPieceMoves, res.Moves)
	check(t, "Joins", res.Joins, 0)
	check(t, "EdgeRuleJoins", res.EdgeRuleJoins, 0)
	return res
}

func TestClobber(t *testing.T) {
	small := []clobberRow{
		{2, 6, 29463, 139136, 13404, 5836, 4999, "0.2954", "2.0260", "0.6976", "0.6894"},
		{3, 4, 35772, 175190, 18327, 12766, 11191, "0.1780", "2.0170", "0.6837", "0.7811"},
	}
	for _, c := range small {
		t.Run(fmt.Sprintf("%dx%d", c.rows, c.cols), func(t *testing.T) {
			testClobber(t, c)
		})
	}
	t.Run("3x5", func(t *testing.T) {
		if testing.Short() {
			t.Skip("Clobber 3x5 takes several seconds")
		}
		testClobber(t, clobberRow{3, 5, 618575, 3800492, 274653, 137708, 126811, "0.3168", "2.0510", "0.7480", "0.7053"})
	})
	t.Run("4x4", func(t *testing.T) {
		if testing.Short() {
			t.Skip("Clobber 4x4 takes about half a minute")
		}
		res := testClobber(t, clobberRow{4, 4, 1809927, 12192184, 791655, 424085, 395947, "0.3290", "2.0852", "0.7475", "0.7158"})
		check(t, "PositionsByTier", fmt.Sprint(res.PositionsByTier),
			"[1 48 878 7972 40216 125696 274116 419284 430528 313516 141088 45856 8916 1676 120 16]")
		check(t, "SplitByTier", fmt.Sprint(res.SplitByTier),
			"[0 0 0 112 4366 33124 105674 172568 169215 84508 22584 3244 126 0 0 0]")
		var bySize []uint64
		for _, size := range slices.Sorted(maps.Keys(res.PiecesBySize)) {
			bySize = append(bySize, res.PiecesBySize[size])
		}
		check(t, "PiecesBySize", fmt.Sprint(bySize),
			"[4 36 266 1830 11100 41422 76122 93688 82170 54692 26682 7032 854 48 1]")
		check(t, "sizes 2..3", res.PiecesBySize[2]+res.PiecesBySize[3], 40)
		check(t, "moved-piece fraction after split",
			fmt.Sprintf("%.4f", res.MovedPieceFracSumAfterSplit/float64(res.MovedPieceMovesAfterSplit)), "0.6368")
	})
}

func TestDomineering(t *testing.T) {
	res := run(t, "domineering", 4, 4)
	consistent(t, res)
	check(t, "Positions", res.Positions, 5700)
	check(t, "Moves", res.Moves, 32464)
	check(t, "PositionsByTier", fmt.Sprint(res.PositionsByTier), "[1 24 215 912 1911 1868 704 64 1]")
	check(t, "split share", fmt.Sprintf("%.3f", float64(res.SplitPositions)/float64(res.Positions)), "0.470")
	check(t, "Joins", res.Joins, 0)
	check(t, "EdgeRuleJoins", res.EdgeRuleJoins, 0)
	check(t, "MovedPieceMoves", res.MovedPieceMoves, 0)
}

func TestAmazons(t *testing.T) {
	res := run(t, "amazons", 3, 4)
	consistent(t, res)
	check(t, "Positions", res.Positions, 127583)
	check(t, "Moves", res.Moves, 2300392)
	check(t, "Joins", res.Joins, 0)
	check(t, "tiers", len(res.PositionsByTier), 11) // 10 arrows fill the 12-2 empty squares
	if res.EdgeRuleJoins == 0 || res.EdgeRuleJoins >= res.Moves {
		t.Errorf("EdgeRuleJoins = %d, want some but not all moves", res.EdgeRuleJoins)
	}
	check(t, "MovedPieceMoves", res.MovedPieceMoves, 0)
}

package values

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// pieceOf reads a piece diagram of the spec's characters into a translated
// key, through the game on a board of the diagram's size.
func pieceOf(t *testing.T, game, diagram string) games.PieceKey {
	t.Helper()
	rows, cols := 1, 0
	for i, r := range splitRows(diagram) {
		rows, cols = i+1, len(r)
	}
	g, err := all.New(game, fmt.Sprintf("%dx%d", rows, cols), diagram)
	if err != nil {
		t.Fatal(err)
	}
	var live []games.Piece
	for _, p := range g.Pieces(g.Start(), nil) {
		if p.Live {
			live = append(live, p)
		}
	}
	if len(live) != 1 {
		t.Fatalf("%s holds %d live pieces, want 1", diagram, len(live))
	}
	return g.Translate(live[0].Key)
}

func splitRows(d string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(d); i++ {
		if i == len(d) || d[i] == '/' {
			out = append(out, d[start:i])
			start = i + 1
		}
	}
	return out
}

// TestKnownValues checks pieces whose values are in the literature, or
// follow by hand from the rules in a line (the derivation is given).
//
//	[AGNW] Albert, Grossman, Nowakowski, Wolfe, "An introduction to
//	       Clobber", Integers 5(2) (2005).
//	[WW]   Berlekamp, Conway, Guy, Winning Ways, 2nd ed., vol. 1, ch. 1-2.
//	[LiP]  Albert, Nowakowski, Wolfe, Lessons in Play (2007), ch. 1-2.
//	[CGS]  CGSuite's test suite, GameGridTest.scala under
//	       lib/core/src/test/scala/org/cgsuite/lang/ in aaron-siegel/cgsuite,
//	       which gives canonical forms as CGSuite prints them (Left is x in
//	       Clobber and Amazons and vertical in Domineering there too), and
//	       Profiler.scala next to it for the Clobber 3x4 start.
//
// A cost of -1 is not checked.
func TestKnownValues(t *testing.T) {
	tests := []struct {
		name, game, piece, value string
		cost                     int
	}{
		{"xo = * [AGNW]: either player's only move leaves one dead stone", "clobber", "xo", "*", 2},
		{"ox = * (a symmetric image of xo)", "clobber", "ox", "*", 2},
		{"xxo = ^ [AGNW]: Left's move leaves dead stones, 0; Right's leaves xo = *", "clobber", "xxo", "^", 2},
		{"oox = v, the negative of xxo (colour swap)", "clobber", "oox", "v", 2},
		{"xxxo = ^^* [AGNW]: {0 | xxo} = {0|^}", "clobber", "xxxo", "^^*", 2},
		{"xxxxo = ^3 [AGNW]: {0 | xxxo} = {0|^^*}", "clobber", "xxxxo", "^3", 2},
		{"vertical xxo = ^ (a symmetric image)", "clobber", "x/x/o", "^", 2},
		{"vertical pair = 1 [WW ch. 1; LiP ch. 1]", "domineering", "./.", "1", 1},
		{"horizontal pair = -1 [WW ch. 1; LiP ch. 1]", "domineering", "..", "-1", 1},
		{"2x2 square = +-1 [WW ch. 1; LiP ch. 1]: a domino leaves a pair of the other's", "domineering", "../..", "+-1", 4},
		{"vertical strip of 3 = 1 [WW ch. 1]: Left's two moves each leave a lone square", "domineering", "././.", "1", 2},
		{"vertical strip of 4 = 2 [WW ch. 1]: {0, 1 | } = 2", "domineering", "./././.", "2", 3},
		{"horizontal strip of 5 = -2 [WW ch. 1]", "domineering", ".....", "-2", 4},
		{"L tromino = * : each player's one domino leaves a lone square", "domineering", ".#/..", "*", 2},
		{"amazons x. = 1: Left moves and shoots back to 0, Right cannot move", "amazons", "x.", "1", 1},
		{"amazons x.o: whoever moves first burns the middle and wins, * ", "amazons", "x.o", "*", 2},
		{"clobber xox/ox. [CGS]", "clobber", "xox/ox.", "{^^*|*,v}", -1},
		{"clobber 3x4 start = 0 [CGS]", "clobber", "xoxo/oxox/xoxo", "0", -1},
		{"domineering 4x4 [CGS]", "domineering", "..../..../..../....", "+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}", 24},
		{"amazons x.../o... [CGS]", "amazons", "x.../o...", "+-{3,{4|0,{1|0,*}},{4|{0,{1/2|0}|v},+-1,+-{1,{2|0}}}}", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := New(tc.game, 0)
			if err != nil {
				t.Fatal(err)
			}
			val := v.Value(pieceOf(t, tc.game, tc.piece))
			if got := v.String(val); got != tc.value {
				t.Errorf("value of %s = %q, want %q", tc.piece, got, tc.value)
			}
			if want := v.Table().Outcome(v.Table().MustParse(tc.value)); val.Outcome != want {
				t.Errorf("outcome of %s = %s, want %s", tc.piece, val.Outcome, want)
			}
			if tc.cost >= 0 && val.Cost != tc.cost {
				t.Errorf("cost of %s = %d, want %d", tc.piece, val.Cost, tc.cost)
			}
		})
	}
}

// boards are the boards whose every live piece is checked against brute
// force: every board of each game of at most 12 squares, both ways round,
// that the game is played on (a board too small for its start, such as
// Amazons on fewer than two squares, is refused by the game and left out),
// and Domineering 4x4, the spec's board.
func boards(tb testing.TB) []struct{ game, board string } {
	var out []struct{ game, board string }
	for _, game := range all.Names {
		for rows := 1; rows <= 12; rows++ {
			for cols := 1; rows*cols <= 12; cols++ {
				board := fmt.Sprintf("%dx%d", rows, cols)
				if _, err := all.New(game, board, ""); err != nil {
					tb.Logf("%s %s: %v", game, board, err)
					continue
				}
				out = append(out, struct{ game, board string }{game, board})
			}
		}
	}
	return append(out, struct{ game, board string }{"domineering", "4x4"})
}

// TestOutcomeBruteForce checks the outcome class of every live piece of
// small boards against brute-force search of the piece's whole board,
// Left first and Right first.
func TestOutcomeBruteForce(t *testing.T) {
	for _, bc := range boards(t) {
		t.Run(bc.game+"/"+bc.board, func(t *testing.T) {
			keys := livePieces(t, bc.game, bc.board)
			v, err := New(bc.game, 0)
			if err != nil {
				t.Fatal(err)
			}
			bf := newBruteForce(t, bc.game)
			bad, distinct := 0, map[cgt.ID]bool{}
			for _, k := range keys {
				val := v.Value(k)
				distinct[val.ID] = true
				if want := bf.pieceOutcome(t, k); val.Outcome.String() != want {
					bad++
					if bad <= 5 {
						t.Errorf("%s: outcome %s (value %s), brute force %s", v.box(k).Picture(k), val.Outcome, v.String(val), want)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d pieces disagree", bad, len(keys))
			}
			t.Logf("%d pieces, %d distinct values, %d games in the table", len(keys), len(distinct), v.Table().Len())
		})
	}
}

// TestCappedOutcome caps canonical forms at a few nodes, so that most
// pieces are valued by search over sums, and checks their outcomes against
// brute force.
func TestCappedOutcome(t *testing.T) {
	for _, bc := range []struct{ game, board string }{{"clobber", "3x4"}, {"domineering", "3x4"}, {"amazons", "2x4"}} {
		t.Run(bc.game+"/"+bc.board, func(t *testing.T) {
			keys := livePieces(t, bc.game, bc.board)
			v, err := New(bc.game, 4)
			if err != nil {
				t.Fatal(err)
			}
			bf := newBruteForce(t, bc.game)
			capped := 0
			for _, k := range keys {
				val := v.Value(k)
				if val.Capped {
					capped++
					if v.String(val) != "" || val.Nodes != 0 {
						t.Fatalf("capped value printed %q with %d nodes", v.String(val), val.Nodes)
					}
				}
				if want := bf.pieceOutcome(t, k); val.Outcome.String() != want {
					t.Fatalf("%s: outcome %s (capped %v), brute force %s", v.box(k).Picture(k), val.Outcome, val.Capped, want)
				}
			}
			if capped == 0 {
				t.Fatal("no piece was capped: the test checks nothing of the search")
			}
			t.Logf("%d of %d pieces capped", capped, len(keys))
		})
	}
}

// TestSums places random pairs of pieces G, H side by side on one board and
// checks that brute force on the whole board gives the outcome class of
// value(G) + value(H).
func TestSums(t *testing.T) {
	for _, bc := range []struct {
		game, board string
		maxSquares  int
	}{{"clobber", "3x4", 32}, {"domineering", "4x4", 64}, {"amazons", "3x3", 32}} {
		t.Run(bc.game+"/"+bc.board, func(t *testing.T) {
			keys := livePieces(t, bc.game, bc.board)
			v, err := New(bc.game, 0)
			if err != nil {
				t.Fatal(err)
			}
			bf := newBruteForce(t, bc.game)
			rng := rand.New(rand.NewPCG(1, 1))
			checked, kinds := 0, map[cgt.Outcome]int{}
			for tries := 0; checked < 300 && tries < 100000; tries++ {
				g, h := keys[rng.IntN(len(keys))], keys[rng.IntN(len(keys))]
				diagram, rows, cols := sideBySide(bc.game, v.box(g).Picture, g, h)
				if rows*cols > bc.maxSquares || sizeOf(v, g)+sizeOf(v, h) > 9 {
					continue
				}
				vg, vh := v.Value(g), v.Value(h)
				sum := v.Table().Add(vg.ID, vh.ID)
				want := v.Table().Outcome(sum)
				board, err := all.New(bc.game, fmt.Sprintf("%dx%d", rows, cols), diagram)
				if err != nil {
					t.Fatal(err)
				}
				mv := board.(games.Mover)
				if got := bf.outcome(mv, mv.Start()); got != want.String() {
					t.Errorf("%s: brute force %s, %s + %s = %s is %s", diagram, got, v.String(vg), v.String(vh), v.Table().String(sum), want)
				}
				checked++
				kinds[want]++
			}
			if checked < 100 {
				t.Fatalf("only %d pairs fit", checked)
			}
			t.Logf("%d pairs, outcomes %v", checked, kinds)
		})
	}
}

func sizeOf(v *Valuer, k games.PieceKey) int { return v.box(k).Size(k) }

// TestSymmetry values every symmetric image and the negation of random
// pieces from their own options (not through their class) and checks that
// a symmetry keeps the value and the negation negates it.
func TestSymmetry(t *testing.T) {
	for _, bc := range []struct {
		game, board string
		group       int
		negate      func(games.PieceKey) games.PieceKey
	}{
		{"clobber", "3x4", 8, games.SwapPlanes},
		{"domineering", "4x4", 4, func(k games.PieceKey) games.PieceKey { return games.Transform(k, games.Transpose, 1) }},
		{"amazons", "2x4", 8, games.SwapPlanes},
	} {
		t.Run(bc.game, func(t *testing.T) {
			keys := livePieces(t, bc.game, bc.board)
			v, err := New(bc.game, 0)
			if err != nil {
				t.Fatal(err)
			}
			planes := 2
			if bc.game == "domineering" {
				planes = 1
			}
			rng := rand.New(rand.NewPCG(2, 2))
			for range 200 {
				k := keys[rng.IntN(len(keys))]
				want := v.Value(k)
				for _, s := range games.Symmetries[:bc.group] {
					img := games.Transform(k, s, planes)
					if got := v.compute(v.box(img), img); got.ID != want.ID {
						t.Fatalf("%s under %d: %s, want %s", v.box(k).Picture(k), s, v.String(got), v.String(want))
					}
				}
				n := bc.negate(k)
				if got := v.compute(v.box(n), n); got.ID != v.Table().Neg(want.ID) {
					t.Fatalf("negation of %s: %s, want -(%s)", v.box(k).Picture(k), v.String(got), v.String(want))
				}
			}
		})
	}
}

// TestOutcomeSample checks the outcome class of a random sample of the
// live pieces of larger boards against brute force.
func TestOutcomeSample(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for _, bc := range []struct {
		game, board string
		n           int
	}{{"clobber", "4x4", 10000}, {"clobber", "3x5", 10000}, {"amazons", "3x4", 2000}} {
		t.Run(bc.game+"/"+bc.board, func(t *testing.T) {
			keys := livePieces(t, bc.game, bc.board)
			v, err := New(bc.game, 0)
			if err != nil {
				t.Fatal(err)
			}
			bf := newBruteForce(t, bc.game)
			rng := rand.New(rand.NewPCG(4, 4))
			for range bc.n {
				k := keys[rng.IntN(len(keys))]
				val := v.Value(k)
				if want := bf.pieceOutcome(t, k); val.Outcome.String() != want {
					t.Errorf("%s: outcome %s (value %s), brute force %s", v.box(k).Picture(k), val.Outcome, v.String(val), want)
				}
			}
			t.Logf("%d of %d pieces sampled", bc.n, len(keys))
		})
	}
}

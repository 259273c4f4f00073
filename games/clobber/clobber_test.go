package clobber

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
)

func mustNew(t *testing.T, rows, cols int, start string) *Game {
	t.Helper()
	g, err := New(rows, cols, start)
	if err != nil {
		t.Fatalf("New(%d, %d, %q): %v", rows, cols, start, err)
	}
	return g
}

func formatAll(g *Game, ps []uint64) []string {
	var out []string
	for _, p := range ps {
		out = append(out, g.Format(p))
	}
	slices.Sort(out)
	return out
}

func TestStandardStart(t *testing.T) {
	tests := []struct {
		rows, cols int
		want       string
		maxTier    int
	}{
		{1, 1, "x", 0},
		{1, 2, "xo", 1},
		{3, 1, "x/o/x", 2},
		{2, 3, "xox/oxo", 5},
		{4, 4, "xoxo/oxox/xoxo/oxox", 15},
		{4, 8, "xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox", 31},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			g := mustNew(t, tc.rows, tc.cols, "")
			if got := g.Format(g.Start()); got != tc.want {
				t.Errorf("start = %s, want %s", got, tc.want)
			}
			if g.Tier(g.Start()) != 0 || g.MaxTier() != tc.maxTier {
				t.Errorf("start tier %d, MaxTier %d; want 0, %d", g.Tier(g.Start()), g.MaxTier(), tc.maxTier)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	for _, sh := range [][2]int{{3, 11}, {1, 33}, {33, 1}, {6, 6}} {
		_, err := New(sh[0], sh[1], "")
		if !errors.Is(err, games.ErrBadBoard) || !strings.Contains(err.Error(), "32") {
			t.Errorf("New(%d, %d): error %v, want ErrBadBoard naming the limit 32", sh[0], sh[1], err)
		}
	}
	for _, sh := range [][2]int{{4, 8}, {8, 4}, {1, 32}, {32, 1}} {
		if _, err := New(sh[0], sh[1], ""); err != nil {
			t.Errorf("New(%d, %d): %v", sh[0], sh[1], err)
		}
	}
}

// TestMovesByHand checks small positions whose moves are easy to list.
func TestMovesByHand(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		start      string
		succ       []string // sorted
		maxTier    int
	}{
		// Black takes White ("." then "x"), or White takes Black.
		{"xo", 1, 2, "xo", []string{".x", "o."}, 1},
		// Each of the four stones has two opposing neighbours.
		// x o / o x: x(0,0) takes o(0,1) or o(1,0); x(1,1) takes o(0,1) or
		// o(1,0); o(0,1) takes x(0,0) or x(1,1); o(1,0) takes x(0,0) or
		// x(1,1). The mover's square empties, the taken one turns.
		{"2x2 checkerboard", 2, 2, "", []string{
			".x/ox", ".o/xx", "xx/o.", "xo/x.",
			"o./ox", "x./oo", "oo/.x", "xo/.o",
		}, 3},
		{"two dead pieces", 1, 3, "x.o", nil, 1},
		{"one colour", 2, 2, "xx/x.", nil, 2},
		// Only the vertical pairs are opposed: each x takes the o below it,
		// each o the x above it.
		{"xx over oo", 2, 2, "xx/oo", []string{".x/xo", "x./ox", "ox/.o", "xo/o."}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNew(t, tc.rows, tc.cols, tc.start)
			pos := g.Start()
			pieces := g.Pieces(pos, nil)
			m := games.NewMoveStats(true)
			succ := g.Expand(pos, pieces, nil, m, 1)
			want := slices.Clone(tc.succ)
			slices.Sort(want)
			if got := formatAll(g, succ); !slices.Equal(got, want) {
				t.Errorf("successors %v, want %v", got, want)
			}
			if m.Moves != uint64(len(want)) || m.Joins != 0 {
				t.Errorf("MoveStats: %d moves %d joins, want %d, 0", m.Moves, m.Joins, len(want))
			}
			if g.MaxTier() != tc.maxTier {
				t.Errorf("MaxTier = %d, want %d", g.MaxTier(), tc.maxTier)
			}
			for _, s := range succ {
				if g.Tier(s) != 1 {
					t.Errorf("successor %s in tier %d, want 1", g.Format(s), g.Tier(s))
				}
			}
		})
	}
}

func TestXO(t *testing.T) {
	g := mustNew(t, 1, 2, "xo")
	start := g.Start()
	pieces := g.Pieces(start, nil)
	if len(pieces) != 1 || !pieces[0].Live || pieces[0].Size != 2 || pieces[0].Mask != 3 {
		t.Fatalf("pieces of xo = %+v, want one live piece of 2 stones on squares 0 and 1", pieces)
	}
	succ := g.Expand(start, pieces, nil, games.NewMoveStats(false), 1)
	if len(succ) != 2 {
		t.Fatalf("%d successors, want 2", len(succ))
	}
	for _, s := range succ {
		ps := g.Pieces(s, nil)
		if len(ps) != 1 || ps[0].Live || ps[0].Size != 1 {
			t.Errorf("successor %s has pieces %+v, want one dead stone", g.Format(s), ps)
		}
		if df := g.DeadFree(s, ps); df != 0 {
			t.Errorf("dead-free of %s = %s, want the empty board", g.Format(s), g.Format(df))
		}
		if more := g.Expand(s, ps, nil, games.NewMoveStats(false), 1); len(more) != 0 {
			t.Errorf("successor %s has moves %v", g.Format(s), formatAll(g, more))
		}
	}
}

func TestMovedPieceByHand(t *testing.T) {
	// x o . x: a live piece of 2 stones and a dead one, 3 stones in all.
	// Its two moves are made in the piece of 2, on a board of 3 with two
	// pieces: both histograms hold 2 at 3*stride+2, and the mean fraction
	// is 2/3.
	g := mustNew(t, 1, 4, "xo.x")
	m := games.NewMoveStats(true)
	g.Expand(g.Start(), g.Pieces(g.Start(), nil), nil, m, 1)
	for name, h := range map[string][]uint64{"MovedPiece": m.MovedPiece, "MovedPieceSplit": m.MovedPieceSplit} {
		want := make([]uint64, len(h))
		want[3*games.MovedPieceStride+2] = 2
		if !slices.Equal(h, want) {
			t.Errorf("%s differs from {3*stride+2: 2}", name)
		}
		if f, ok := games.MeanFraction(h); !ok || f != 2.0/3 {
			t.Errorf("MeanFraction(%s) = %v, %v; want 2/3", name, f, ok)
		}
	}
}

func TestTranslateAndPicture(t *testing.T) {
	// The piece x o in the middle row of a 3x3 board: translated it is a
	// 1x2 box with Black at bit 0 and White at bit 1 of the high plane.
	g := mustNew(t, 3, 3, ".../.xo/...")
	ps := g.Pieces(g.Start(), nil)
	if len(ps) != 1 {
		t.Fatalf("pieces %+v", ps)
	}
	k := g.Translate(ps[0].Key)
	if want := games.MakePieceKey(1, 2, 1|2<<32); k != want {
		t.Errorf("Translate = %+v, want %+v", k, want)
	}
	if g.Picture(k) != "xo" || g.Size(k) != 2 {
		t.Errorf("Picture %q Size %d, want xo, 2", g.Picture(k), g.Size(k))
	}
	// An L of three stones: x . over o x, translated from the corner.
	g = mustNew(t, 3, 3, ".../.x./.ox")
	k = g.Translate(g.Pieces(g.Start(), nil)[0].Key)
	if g.Picture(k) != "x./ox" || g.Size(k) != 3 {
		t.Errorf("Picture %q Size %d, want x./ox, 3", g.Picture(k), g.Size(k))
	}
}

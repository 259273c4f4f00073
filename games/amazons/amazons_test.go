package amazons

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

func TestStandardStart(t *testing.T) {
	// White on (0,0); Black at the other end of a longest edge through it:
	// top-right when cols >= rows, else bottom-left.
	tests := []struct {
		rows, cols int
		want       string
	}{
		{1, 2, "ox"},
		{2, 1, "o/x"},
		{1, 5, "o...x"},
		{5, 1, "o/./././x"},
		{3, 3, "o.x/.../..."},
		{3, 4, "o..x/..../...."},
		{4, 3, "o../.../.../x.."},
		{2, 2, "ox/.."},
		{4, 8, "o......x/......../......../........"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			g := mustNew(t, tc.rows, tc.cols, "")
			if got := g.Format(g.Start()); got != tc.want {
				t.Errorf("start = %s, want %s", got, tc.want)
			}
			if g.Tier(g.Start()) != 0 || g.MaxTier() != tc.rows*tc.cols-2 {
				t.Errorf("start tier %d, MaxTier %d; want 0, %d", g.Tier(g.Start()), g.MaxTier(), tc.rows*tc.cols-2)
			}
		})
	}
}

func TestOneSquare(t *testing.T) {
	_, err := New(1, 1, "")
	if !errors.Is(err, games.ErrBadBoard) || !strings.Contains(err.Error(), "1x1") {
		t.Errorf("New(1, 1, standard): error %v, want ErrBadBoard naming 1x1", err)
	}
	g := mustNew(t, 1, 1, "x")
	if g.MaxTier() != 0 {
		t.Errorf("1x1 x: MaxTier %d, want 0", g.MaxTier())
	}
	if ps := g.Pieces(g.Start(), nil); len(ps) != 1 || ps[0].Live {
		t.Errorf("1x1 x: pieces %+v, want one dead region", ps)
	}
}

func TestLimits(t *testing.T) {
	for _, sh := range [][2]int{{3, 11}, {1, 33}, {33, 1}} {
		_, err := New(sh[0], sh[1], "")
		if !errors.Is(err, games.ErrBadBoard) || !strings.Contains(err.Error(), "32") {
			t.Errorf("New(%d, %d): error %v, want ErrBadBoard naming the limit 32", sh[0], sh[1], err)
		}
	}
	if _, err := New(4, 8, ""); err != nil {
		t.Errorf("New(4, 8): %v", err)
	}
}

func TestMovesByHand(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		start      string
		succ       []string
		edgeJoins  uint64
		maxTier    int
	}{
		// White steps to the middle and shoots back onto its old square;
		// Black likewise from the other end. Nothing else is free.
		{"o.x", 1, 3, "o.x", []string{"#ox", "ox#"}, 0, 1},
		// White goes down or diagonally; from (1,0) it shoots up (its old
		// square) or right, from (1,1) left or up-left; Black the mirror
		// image. 8 moves.
		{"2x2 standard", 2, 2, "", []string{
			"#x/o.", ".x/o#", // White to (1,0)
			"#x/.o", ".x/#o", // White to (1,1)
			"o#/.x", "o./#x", // Black to (1,1)
			"o#/x.", "o./x#", // Black to (1,0)
		}, 0, 2},
		// White's only move is the diagonal step to (1,1), out of its
		// edge-connected region {(0,0)}; it then shoots back to (0,0).
		{"corner step", 2, 2, "o#/#.", []string{"##/#o"}, 1, 1},
		{"walled in", 1, 3, "o#x", nil, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNew(t, tc.rows, tc.cols, tc.start)
			m := games.NewMoveStats(false)
			succ := g.Expand(g.Start(), g.Pieces(g.Start(), nil), nil, m, 1)
			var got []string
			for _, s := range succ {
				got = append(got, g.Format(s))
				if g.Tier(s) != 1 {
					t.Errorf("successor %s in tier %d, want 1", g.Format(s), g.Tier(s))
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.succ))
			if !slices.Equal(got, want) {
				t.Errorf("successors %v, want %v", got, want)
			}
			if m.Moves != uint64(len(want)) || m.Joins != 0 || m.EdgeRuleJoins != tc.edgeJoins {
				t.Errorf("MoveStats %+v, want %d moves, 0 joins, %d edge-rule joins", m, len(want), tc.edgeJoins)
			}
			if g.MaxTier() != tc.maxTier {
				t.Errorf("MaxTier = %d, want %d", g.MaxTier(), tc.maxTier)
			}
		})
	}
}

func TestOXAfterMove(t *testing.T) {
	// After either move of o.x the two amazons share a region with no
	// empty square: one dead region, and nothing for DeadFree to burn.
	g := mustNew(t, 1, 3, "o.x")
	ps := g.Pieces(g.Start(), nil)
	if len(ps) != 1 || !ps[0].Live || ps[0].Size != 3 {
		t.Fatalf("pieces of o.x = %+v, want one live region of 3", ps)
	}
	for _, s := range g.Expand(g.Start(), ps, nil, games.NewMoveStats(false), 1) {
		ps := g.Pieces(s, nil)
		if len(ps) != 1 || ps[0].Live || ps[0].Size != 2 {
			t.Errorf("%s: pieces %+v, want one dead region of 2", g.Format(s), ps)
		}
		if df := g.DeadFree(s, ps); df != s {
			t.Errorf("DeadFree(%s) = %s", g.Format(s), g.Format(df))
		}
	}
}

func TestPiecesByHand(t *testing.T) {
	tests := []struct {
		name, start string
		regions     int
		live        []bool // by lowest square
		deadFree    string
	}{
		// (0,1) and (1,2) touch at a corner, so x . and the right column
		// are one region: x at (0,0), empty (0,1), (1,2), (2,2). o at (2,0)
		// is alone.
		{"corner joins", "x.#/##./o#.", 2, []bool{true, false}, "x.#/##./o#."},
		// An empty pocket with no amazon is dead and burns.
		{"empty pocket", "x#./###/..#", 3, []bool{false, false, false}, "x##/###/###"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNew(t, 3, 3, tc.start)
			ps := g.Pieces(g.Start(), nil)
			var live []bool
			for _, p := range ps {
				live = append(live, p.Live)
			}
			if len(ps) != tc.regions || !slices.Equal(live, tc.live) {
				t.Errorf("pieces %+v, want %d with live %v", ps, tc.regions, tc.live)
			}
			if got := g.Format(g.DeadFree(g.Start(), ps)); got != tc.deadFree {
				t.Errorf("DeadFree = %s, want %s", got, tc.deadFree)
			}
		})
	}
}

func TestTranslatePicture(t *testing.T) {
	// The region o . in the top row of # o . / # # #: a 1x2 box, White at
	// cell 0 (bit 32), cell 1 empty.
	g := mustNew(t, 2, 3, "#o./###")
	ps := g.Pieces(g.Start(), nil)
	if len(ps) != 1 {
		t.Fatalf("pieces %+v", ps)
	}
	k := g.Translate(ps[0].Key)
	if want := games.MakePieceKey(1, 2, 1<<32); k != want {
		t.Errorf("Translate = %+v, want %+v", k, want)
	}
	if g.Picture(k) != "o." || g.Size(k) != 2 {
		t.Errorf("Picture %q, Size %d; want o., 2", g.Picture(k), g.Size(k))
	}
	// A diagonal region x at (0,0), . at (1,1): the box's other squares
	// are burnt.
	g = mustNew(t, 2, 2, "x#/#.")
	k = g.Translate(g.Pieces(g.Start(), nil)[0].Key)
	if g.Picture(k) != "x#/#." || g.Size(k) != 2 {
		t.Errorf("Picture %q, Size %d; want x#/#., 2", g.Picture(k), g.Size(k))
	}
	// Its classes: the orbit under the 8 symmetries is x#/#., #x/.#,
	// .#/#x and #./x#. The high plane (White and burnt squares) weighs
	// most: it is {1,2} (6) for x#/#. and .#/#x, {0,3} (9) for the other
	// two; of the first two, Black on bit 0 (low plane 7) beats Black on
	// bit 3 (low plane 14). The negative o#/#. has high plane 7, so the
	// negation class is x#/#. too, and the piece is not self-negative.
	sym, neg, self := g.Classes(k)
	want := games.MakePieceKey(2, 2, 1|6|6<<32)
	if sym != want || neg != want || self {
		t.Errorf("Classes = %+v, %+v, %v; want %+v, %+v, false", sym, neg, self, want, want)
	}
}

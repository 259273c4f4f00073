package domineering

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

func TestLimits(t *testing.T) {
	for _, sh := range [][2]int{{5, 13}, {1, 65}, {65, 1}, {9, 8}} {
		_, err := New(sh[0], sh[1], "")
		if !errors.Is(err, games.ErrBadBoard) || !strings.Contains(err.Error(), "64") {
			t.Errorf("New(%d, %d): error %v, want ErrBadBoard naming the limit 64", sh[0], sh[1], err)
		}
	}
	for _, sh := range [][2]int{{8, 8}, {1, 64}, {64, 1}, {4, 16}} {
		g, err := New(sh[0], sh[1], "")
		if err != nil {
			t.Errorf("New(%d, %d): %v", sh[0], sh[1], err)
			continue
		}
		if g.Start() != 0 || g.MaxTier() != 32 {
			t.Errorf("%dx%d: start %#x, MaxTier %d; want the empty board and 32", sh[0], sh[1], g.Start(), g.MaxTier())
		}
	}
}

func TestMovesByHand(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		start      string
		succ       []string
		maxTier    int
	}{
		// Two vertical dominoes (Left's) and two horizontal (Right's).
		{"2x2 empty", 2, 2, "", []string{"##/..", "#./#.", ".#/.#", "../##"}, 2},
		{"1x3", 1, 3, "", []string{"##.", ".##"}, 1},
		{"3x1", 3, 1, "", []string{"#/#/.", "./#/#"}, 1},
		{"1x1", 1, 1, "", nil, 0},
		// (0,0) covered: a vertical domino in column 1 or a horizontal one
		// in row 1; three empty squares make room for one domino.
		{"2x2 one covered", 2, 2, "#./..", []string{"##/.#", "#./##"}, 1},
		{"chequered", 2, 2, "#./.#", nil, 1},
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
			if m.Moves != uint64(len(want)) || m.Joins != 0 || m.MovedPiece != nil {
				t.Errorf("MoveStats %+v, want %d moves", m, len(want))
			}
			if g.Tier(g.Start()) != 0 || g.MaxTier() != tc.maxTier {
				t.Errorf("start tier %d, MaxTier %d; want 0, %d", g.Tier(g.Start()), g.MaxTier(), tc.maxTier)
			}
		})
	}
}

func TestPiecesByHand(t *testing.T) {
	tests := []struct {
		name     string
		start    string
		live     []bool // by lowest square
		deadFree string
	}{
		{"empty", "../..", []bool{true}, "../.."},
		{"two lone squares", "#./.#", []bool{false, false}, "##/##"},
		// Squares 0, 2 and 3 are one region, joined through square 2.
		{"an L", ".#/..", []bool{true}, ".#/.."},
		{"a lone square", "#./##", []bool{false}, "##/##"},
		{"full", "##/##", nil, "##/##"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNew(t, 2, 2, tc.start)
			ps := g.Pieces(g.Start(), nil)
			var live []bool
			for _, p := range ps {
				live = append(live, p.Live)
				if p.Key != p.Mask || p.Size != games.OnesCount(p.Mask) {
					t.Errorf("piece %+v: key must be the region, size its squares", p)
				}
			}
			if !slices.Equal(live, tc.live) {
				t.Errorf("live = %v, want %v", live, tc.live)
			}
			if got := g.Format(g.DeadFree(g.Start(), ps)); got != tc.deadFree {
				t.Errorf("DeadFree = %s, want %s", got, tc.deadFree)
			}
		})
	}
}

func TestTranslatePictureClasses(t *testing.T) {
	tests := []struct {
		name, start string
		rows, cols  int
		lo          uint64
		picture     string
		sym, neg    games.PieceKey
		self        bool
	}{
		// A vertical pair in column 1: a 2x1 box, both cells. Its negative
		// is the horizontal pair, a 1x2 box, which orders first.
		{"vertical domino", "#./#.", 2, 1, 3, "./.", games.MakePieceKey(2, 1, 3), games.MakePieceKey(1, 2, 3), false},
		// The 2x2 square is its own transpose.
		{"square", "../..", 2, 2, 15, "../..", games.MakePieceKey(2, 2, 15), games.MakePieceKey(2, 2, 15), true},
		// An L of three: squares (0,1), (1,0), (1,1) of the box (Lo 14).
		// The two flips give 13, 11, 7 (Lo of {0,2,3}, {0,1,3},
		// {0,1,2}); the least is 7. Transposed, {1,2,3} stays {1,2,3}.
		{"L tromino", "#./..", 2, 2, 14, "#./..", games.MakePieceKey(2, 2, 7), games.MakePieceKey(2, 2, 7), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNew(t, 2, 2, tc.start)
			ps := g.Pieces(g.Start(), nil)
			if len(ps) != 1 {
				t.Fatalf("pieces %+v, want one", ps)
			}
			k := g.Translate(ps[0].Key)
			if want := games.MakePieceKey(tc.rows, tc.cols, tc.lo); k != want {
				t.Fatalf("Translate = %+v, want %+v", k, want)
			}
			if got := g.Picture(k); got != tc.picture {
				t.Errorf("Picture = %q, want %q", got, tc.picture)
			}
			if g.Size(k) != games.OnesCount(tc.lo) {
				t.Errorf("Size = %d", g.Size(k))
			}
			sym, neg, self := g.Classes(k)
			if sym != tc.sym || neg != tc.neg || self != tc.self {
				t.Errorf("Classes = %+v, %+v, %v; want %+v, %+v, %v", sym, neg, self, tc.sym, tc.neg, tc.self)
			}
		})
	}
}

func TestFullBoard8x8(t *testing.T) {
	// On the 64-square board every square is a bit of the key: the empty
	// board has 2*7*8 = 112 placements, and a board with only the bottom
	// right pair empty has one.
	g := mustNew(t, 8, 8, "")
	if n := len(g.Expand(0, g.Pieces(0, nil), nil, games.NewMoveStats(false), 1)); n != 112 {
		t.Errorf("8x8 empty: %d moves, want 112", n)
	}
	pos := ^uint64(0) &^ (1<<62 | 1<<63)
	succ := g.Expand(pos, g.Pieces(pos, nil), nil, games.NewMoveStats(false), 1)
	if len(succ) != 1 || succ[0] != ^uint64(0) {
		t.Errorf("8x8 with squares 62, 63 empty: successors %#x, want [full board]", succ)
	}
}

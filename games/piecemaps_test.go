package games_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// TestCanonPieceTables checks the tables of CanonPiece against the images
// spread over 8 x 8 boards, on every live piece of random positions of
// each game's boards and on random keys of every box.
func TestCanonPieceTables(t *testing.T) {
	for _, c := range []struct{ game, board string }{
		{"clobber", "4x4"}, {"clobber", "4x5"}, {"clobber", "5x5"}, {"clobber", "3x8"}, {"clobber", "1x12"},
		{"domineering", "5x6"}, {"domineering", "6x6"}, {"domineering", "8x8"},
		{"amazons", "4x4"}, {"amazons", "4x5"},
	} {
		g, err := all.New(c.game, c.board, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, on := range []bool{true, false} {
			gr := games.StartGroup(g, on)
			rng := rand.New(rand.NewPCG(1, 2))
			b := g.Board()
			n := 0
			for rows := 1; rows <= b.Rows; rows++ {
				for cols := 1; cols <= b.Cols; cols++ {
					for range 200 {
						// Two planes of 32 bits, or one of 64 (Domineering).
						var lo uint64
						for s := range rows * cols {
							switch {
							case c.game == "domineering":
								lo |= uint64(rng.IntN(2)) << s
							case s < 32:
								// A square holds one colour at most.
								lo |= uint64(rng.IntN(3)) >> 1 << (32 * rng.IntN(2)) << s
							}
						}
						k := games.MakePieceKey(rows, cols, lo)
						if got, want := gr.CanonPiece(k), games.CanonPieceSpread(&gr, k); got != want {
							t.Fatalf("%s %s (symmetry %v): CanonPiece(%v) = %v, want %v", c.game, c.board, on, k, got, want)
						}
						n++
					}
				}
			}
		}
	}
}

// TestClassesBySwap checks ClassesBySwap against Classes on random pieces
// of every box up to 8 x 8, and PieceOrbit's tables against ApplyPiece
// under the groups of boards whose symmetries keep the colours (5x5) and
// swap them (4x4, 4x5).
func TestClassesBySwap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var groups []games.Group
	for _, board := range []string{"4x4", "4x5", "5x5"} {
		g, err := all.New("clobber", board, "")
		if err != nil {
			t.Fatal(err)
		}
		groups = append(groups, games.StartGroup(g, true))
	}
	for rows := 1; rows <= 8; rows++ {
		for cols := 1; cols <= 8; cols++ {
			for range 100 {
				var lo uint64
				for s := range min(rows*cols, 32) {
					lo |= uint64(rng.IntN(3)) >> 1 << (32 * rng.IntN(2)) << s
				}
				k := games.MakePieceKey(rows, cols, lo)
				s1, n1, self1 := games.ClassesBySwap(k)
				s2, n2, self2 := games.Classes(k, games.Symmetries[:], 2, games.SwapPlanes)
				if s1 != s2 || n1 != n2 || self1 != self2 {
					t.Fatalf("ClassesBySwap(%v) = %v %v %v, want %v %v %v", k, s1, n1, self1, s2, n2, self2)
				}
				for _, gr := range groups {
					checkPieceOrbit(t, &gr, k)
				}
			}
		}
	}
}

// checkPieceOrbit compares gr.PieceOrbit(k) with PieceOrbit as it was
// before the tables: each map's ApplyPiece, the first map to give a key
// naming it.
func checkPieceOrbit(t *testing.T, gr *games.Group, k games.PieceKey) {
	t.Helper()
	want := []games.Image{{Key: k}}
	for _, m := range games.StartGroupMaps(gr)[1:] {
		im := games.Image{Key: m.ApplyPiece(k), Negates: m.Negates}
		if !slices.ContainsFunc(want, func(w games.Image) bool { return w.Key == im.Key }) {
			want = append(want, im)
		}
	}
	slices.SortFunc(want, func(a, b games.Image) int { return a.Key.Compare(b.Key) })
	if got := gr.PieceOrbit(k, nil); !slices.Equal(got, want) {
		t.Fatalf("PieceOrbit(%v) = %v, want %v", k, got, want)
	}
}

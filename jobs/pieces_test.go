package jobs

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// readPiecesTable reads a pieces table part from the store.
func readPiecesTable(t *testing.T, st store.Store, b Blob) []schema.Piece {
	t.Helper()
	rows, err := schema.ReadPieces(bytes.NewReader(readStore(t, st, b.Name)))
	if err != nil {
		t.Fatalf("part %s: %v", b.Name, err)
	}
	return rows
}

func comparePieceRows(a, b schema.Piece) int {
	if a.KeyHi != b.KeyHi {
		return cmpKeys(a.KeyHi, b.KeyHi)
	}
	return cmpKeys(a.KeyLo, b.KeyLo)
}

// TestPiecesTableSorted runs censuses through the job kernels with and
// without the symmetry reduction, and with a budget small enough that the
// pieces of the orbits are spilled and merged: every part of the pieces
// table must be sorted by (key_hi, key_lo), as COLUMNS.md says, and the
// parts together must hold the same rows in both modes.
func TestPiecesTableSorted(t *testing.T) {
	tests := []struct {
		game, board string
		budget      int64
		reduce      int
		spills      bool // the tiny budget must make the piece job spill its images
	}{
		{"clobber", "3x4", 64 << 20, 2, false},
		{"clobber", "3x4", 1 << 20, 1, true},
		{"domineering", "4x4", 64 << 20, 3, false},
		{"amazons", "3x3", 64 << 20, 2, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%s-budget=%dMiB", tt.game, tt.board, tt.budget>>20), func(t *testing.T) {
			t.Parallel()
			// all holds every row of every part: a piece lands in the
			// bucket of its orbit's representative with the reduction, in
			// its own without it.
			var all [2][]schema.Piece
			for i, plain := range []bool{false, true} {
				st := newStore(t)
				spec := Spec{Run: "sorted", Game: tt.game, Board: tt.board, NoSymmetry: plain, MemBudget: tt.budget}
				c := runJobs(t, st, spec, func(int) int { return 2 }, tt.reduce, 2)
				for _, b := range c.pieceTables {
					rows := readPiecesTable(t, st, b)
					for r := 1; r < len(rows); r++ {
						if comparePieceRows(rows[r-1], rows[r]) >= 0 {
							t.Fatalf("no symmetry %v: part %s: row %d (%s) does not follow row %d (%s) in key order",
								plain, b.Name, r, rows[r].Picture, r-1, rows[r-1].Picture)
						}
					}
					all[i] = append(all[i], rows...)
				}
				if plain {
					continue
				}
				names, err := st.List(context.Background(), "")
				if err != nil {
					t.Fatal(err)
				}
				if slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "/pieces/images/") }) {
					t.Errorf("spilled images are left in the store after the piece jobs")
				}
				if tt.spills && c.imageRuns == 0 {
					t.Errorf("the piece jobs spilled no images: the merge of spilled runs went untested")
				}
			}
			for i := range all {
				slices.SortFunc(all[i], comparePieceRows)
			}
			if !reflect.DeepEqual(all[0], all[1]) {
				t.Errorf("the pieces table with the symmetry reduction (%d rows) differs from the one without (%d rows)", len(all[0]), len(all[1]))
			}
		})
	}
}

// TestNegatedClasses checks negatedClasses against classesOf for every
// negating piece of the orbits of the pieces met on random walks through
// the positions of each game, with the start's symmetries.
func TestNegatedClasses(t *testing.T) {
	boards := []struct{ game, board string }{
		{"clobber", "4x4"}, {"clobber", "4x5"}, {"clobber", "3x4"},
		{"domineering", "4x4"}, {"domineering", "5x5"},
		{"amazons", "3x4"}, {"amazons", "4x4"},
	}
	rng := rand.New(rand.NewPCG(5, 17))
	for _, b := range boards {
		t.Run(b.game+"/"+b.board, func(t *testing.T) {
			g, err := all.New(b.game, b.board, "")
			if err != nil {
				t.Fatal(err)
			}
			group := games.StartGroup(g, true)
			seen := map[games.PieceKey]bool{}
			negating := 0
			for walk := 0; walk < 30; walk++ {
				pos := g.Start()
				for {
					pieces := g.Pieces(pos, nil)
					for _, p := range pieces {
						rep := group.CanonPiece(g.Translate(p.Key))
						if !p.Live || seen[rep] {
							continue
						}
						seen[rep] = true
						plain := classesOf(g, rep)
						for _, im := range group.PieceOrbit(rep, nil) {
							if !im.Negates {
								continue
							}
							negating++
							if got, want := negatedClasses(g, plain, im.Key), classesOf(g, im.Key); got != want {
								t.Fatalf("piece %s of the orbit of %s: negatedClasses %+v, classesOf %+v", g.Picture(im.Key), g.Picture(rep), got, want)
							}
						}
					}
					succ := g.Expand(pos, pieces, nil, games.NewMoveStats(false), 1)
					if len(succ) == 0 {
						break
					}
					pos = succ[rng.IntN(len(succ))]
				}
			}
			if negating < 20 {
				t.Errorf("only %d negating pieces met among %d orbits", negating, len(seen))
			}
		})
	}
}

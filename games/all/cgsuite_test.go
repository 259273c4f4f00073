package all

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
)

// cgsuiteCharMaps are the CharMaps of CGSuite's rulesets (the n-th
// character is grid value n), copied from CGSuite's GenClobber.cgs,
// Domineering.cgs and Amazons.cgs.
var cgsuiteCharMaps = map[string]string{
	"clobber":     ".xo",
	"domineering": ".#",
	"amazons":     ".xo#",
}

// parseCGSuite reads a grid string as CGSuite's Grid.parse does (rows split
// at '|', all as long as the first, each character's index in the CharMap
// its value) and packs the grid into a piece key as COLUMNS.md lays it out.
func parseCGSuite(game, s string) (games.PieceKey, error) {
	charMap := cgsuiteCharMaps[game]
	rows := strings.Split(s, "|")
	cols := len(rows[0])
	var lo uint64
	for r, row := range rows {
		if len(row) != cols {
			return games.PieceKey{}, fmt.Errorf("%q: row %d is %d long, row 1 %d", s, r+1, len(row), cols)
		}
		for c := 0; c < cols; c++ {
			v := strings.IndexByte(charMap, row[c])
			if v < 0 {
				return games.PieceKey{}, fmt.Errorf("%q: %q is not in the CharMap %q", s, row[c], charMap)
			}
			bit := uint64(1) << (r*cols + c)
			switch {
			case game == "domineering" && v == 0: // an empty square of the region
				lo |= bit
			case game == "domineering": // covered
			case v == 1: // Left: a Black stone or amazon
				lo |= bit
			case v == 2: // Right: a White stone or amazon
				lo |= bit << 32
			case v == 3: // an Amazons arrow: burnt
				lo |= bit | bit<<32
			}
		}
	}
	return games.MakePieceKey(len(rows), cols, lo), nil
}

// TestCGSuiteKnownPieces checks the CGSuite strings of the live pieces of
// positions drawn by hand.
func TestCGSuiteKnownPieces(t *testing.T) {
	tests := []struct {
		game, board, start string
		want               []string // the live pieces, in any order
	}{
		{"clobber", "3x3", ".../.xo/...", []string{"xo"}},
		{"clobber", "3x3", ".../.x./.ox", []string{"x.|ox"}},
		// A ring around an empty square: the hole is empty for CGSuite too.
		{"clobber", "3x3", "xox/o.o/xox", []string{"xox|o.o|xox"}},
		// Two live pieces; the xx is dead.
		{"clobber", "3x4", "xo.o/...x/xx.o", []string{"xo", "o|x|o"}},
		{"domineering", "3x3", "#../#.#/###", []string{"..|.#"}},
		// The lone square (2,2) lies in the box of the ring but is another
		// region (a dead one): CGSuite must see it covered.
		{"domineering", "3x4", "..../.##./.#.#", []string{"....|.##.|.###"}},
		{"domineering", "2x4", "..#./##..", []string{"..", "#.|.."}},
		{"amazons", "2x2", "x#/#.", []string{"x#|#."}},
		{"amazons", "2x4", "x.#o/..#.", []string{"x.|..", "o|."}},
		// The inner amazon is a region of its own (dead, no empty square)
		// inside the box of the outer ring: CGSuite must see it burnt.
		{"amazons", "5x5", "x..../.###./.#o#./.###./.....", []string{"x....|.###.|.###.|.###.|....."}},
	}
	for _, tc := range tests {
		t.Run(tc.game+"/"+tc.start, func(t *testing.T) {
			g := mustNew(t, tc.game, tc.board, tc.start)
			var got []string
			for _, p := range g.Pieces(g.Start(), nil) {
				if p.Live {
					got = append(got, g.CGSuite(g.Translate(p.Key)))
				}
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("CGSuite strings %q, want %q", got, want)
			}
		})
	}
}

// TestCGSuiteParsesBack walks at random through positions of every game and
// checks that the CGSuite string of every live piece met reads back, with
// CGSuite's CharMap, as the same piece, and that the game's PieceDrawer
// appends the same picture and CGSuite string as Picture and CGSuite.
func TestCGSuiteParsesBack(t *testing.T) {
	boards := []struct{ game, board string }{
		{"clobber", "3x4"}, {"clobber", "4x4"}, {"clobber", "2x6"}, {"clobber", "5x5"},
		{"domineering", "4x4"}, {"domineering", "3x5"}, {"domineering", "5x6"},
		{"amazons", "3x4"}, {"amazons", "4x4"}, {"amazons", "4x5"},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, b := range boards {
		t.Run(b.game+"/"+b.board, func(t *testing.T) {
			g := mustNew(t, b.game, b.board, "")
			draw, ok := g.(games.PieceDrawer)
			if !ok {
				t.Fatalf("%T is no games.PieceDrawer", g)
			}
			checked := map[games.PieceKey]bool{}
			for walk := 0; walk < 40; walk++ {
				pos := g.Start()
				for {
					for _, p := range g.Pieces(pos, nil) {
						k := g.Translate(p.Key)
						if !p.Live || checked[k] {
							continue
						}
						checked[k] = true
						s := g.CGSuite(k)
						got, err := parseCGSuite(b.game, s)
						if err != nil {
							t.Fatalf("piece %s: %v", g.Picture(k), err)
						}
						if got != k {
							t.Fatalf("piece %s: CGSuite %q reads back as %+v, want %+v", g.Picture(k), s, got, k)
						}
						// The pieces table holds the picture alone: the
						// CGSuite string is it with '|' for '/'.
						if want := strings.ReplaceAll(g.Picture(k), "/", "|"); s != want {
							t.Fatalf("piece %s: CGSuite %q, want the picture with '|' for '/', %q", g.Picture(k), s, want)
						}
						prefix := []byte("row:")
						if got := draw.AppendPicture(prefix, k); string(got) != "row:"+g.Picture(k) {
							t.Fatalf("piece %s: AppendPicture appends %q to %q", g.Picture(k), got, prefix)
						}
					}
					succ := g.Expand(pos, g.Pieces(pos, nil), nil, games.NewMoveStats(false), 1)
					if len(succ) == 0 {
						break
					}
					pos = succ[rng.IntN(len(succ))]
				}
			}
			if len(checked) < 50 {
				t.Errorf("only %d distinct pieces met", len(checked))
			}
		})
	}
}

func TestCGSuiteRuleset(t *testing.T) {
	for _, name := range Names {
		r, err := CGSuiteRuleset(name)
		if err != nil || r != "game.grid."+strings.ToUpper(name[:1])+name[1:] {
			t.Errorf("CGSuiteRuleset(%q) = %q, %v", name, r, err)
		}
	}
	if _, err := CGSuiteRuleset("chess"); err == nil || !strings.Contains(err.Error(), `"chess"`) {
		t.Errorf("CGSuiteRuleset(chess) error %v, want one naming it", err)
	}
}

package all

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// TestOptions checks each player's moves against Expand on every position
// of small boards: Left's and Right's successors together are Expand's, and
// each side's moves are that side's (Black captures or moves and White
// loses a stone or does not move in Clobber and Amazons; a Left domino is
// vertical in Domineering).
func TestOptions(t *testing.T) {
	for _, tc := range []struct{ game, board string }{
		{"clobber", "3x3"}, {"clobber", "2x4"},
		{"domineering", "3x3"}, {"domineering", "2x4"},
		{"amazons", "2x3"}, {"amazons", "3x3"},
	} {
		t.Run(tc.game+"/"+tc.board, func(t *testing.T) {
			g := mustNew(t, tc.game, tc.board, "")
			mv, ok := g.(games.Mover)
			if !ok {
				t.Fatalf("%s is not a games.Mover", tc.game)
			}
			ms := games.NewMoveStats(false)
			seen := map[uint64]bool{g.Start(): true}
			queue := []uint64{g.Start()}
			var pieces []games.Piece
			for len(queue) > 0 {
				pos := queue[0]
				queue = queue[1:]
				pieces = g.Pieces(pos, pieces[:0])
				all := g.Expand(pos, pieces, nil, ms, 1)
				left := mv.Options(pos, true, nil)
				right := mv.Options(pos, false, nil)
				both := slices.Concat(left, right)
				slices.Sort(all)
				slices.Sort(both)
				if !slices.Equal(all, both) {
					t.Fatalf("%s: Options give %d successors, Expand %d", g.Format(pos), len(both), len(all))
				}
				for _, s := range left {
					if err := sideOf(tc.game, g.Board(), pos, s, true); err != nil {
						t.Fatalf("%s -> %s: %v", g.Format(pos), g.Format(s), err)
					}
				}
				for _, s := range right {
					if err := sideOf(tc.game, g.Board(), pos, s, false); err != nil {
						t.Fatalf("%s -> %s: %v", g.Format(pos), g.Format(s), err)
					}
				}
				for _, s := range all {
					if !seen[s] {
						seen[s] = true
						queue = append(queue, s)
					}
				}
			}
		})
	}
}

// sideOf checks that the move pos -> s was made by Left (left) or Right.
func sideOf(game string, b games.Board, pos, s uint64, left bool) error {
	switch game {
	case "clobber":
		// The mover keeps its count of stones; the other side loses one.
		mover, other := uint64(0xffffffff), uint64(0xffffffff)<<32
		if !left {
			mover, other = other, mover
		}
		if bits.OnesCount64(s&mover) != bits.OnesCount64(pos&mover) || bits.OnesCount64(s&other) != bits.OnesCount64(pos&other)-1 {
			return fmt.Errorf("not a capture by left=%v", left)
		}
	case "domineering":
		d := s &^ pos
		i := bits.TrailingZeros64(d)
		vertical := d == 1<<i|1<<(i+b.Cols)
		if vertical != left {
			return fmt.Errorf("domino %b is not the left=%v player's", d, left)
		}
	case "amazons":
		// Only the mover's amazon plane changes, apart from the arrow.
		amaz := func(p uint64) (black, white uint64) {
			lo, hi := p&0xffffffff, p>>32
			return lo &^ hi, hi &^ lo
		}
		pb, pw := amaz(pos)
		sb, sw := amaz(s)
		if left && pw != sw || !left && pb != sb {
			return fmt.Errorf("the amazons of left=%v's opponent moved", left)
		}
	}
	return nil
}

// TestPiecePosition checks that a translated piece, as a position of the
// game on its box, is that one live piece.
func TestPiecePosition(t *testing.T) {
	for _, tc := range []struct{ game, board string }{
		{"clobber", "3x3"}, {"domineering", "3x3"}, {"amazons", "2x3"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			g := mustNew(t, tc.game, tc.board, "")
			keys := map[games.PieceKey]bool{}
			seen := map[uint64]bool{g.Start(): true}
			queue := []uint64{g.Start()}
			ms := games.NewMoveStats(false)
			for len(queue) > 0 {
				pos := queue[0]
				queue = queue[1:]
				pieces := g.Pieces(pos, nil)
				for _, p := range pieces {
					if p.Live {
						keys[g.Translate(p.Key)] = true
					}
				}
				for _, s := range g.Expand(pos, pieces, nil, ms, 1) {
					if !seen[s] {
						seen[s] = true
						queue = append(queue, s)
					}
				}
			}
			for k := range keys {
				rows, cols := k.Dims()
				box := mustNew(t, tc.game, fmt.Sprintf("%dx%d", rows, cols), g.Picture(k))
				pos := box.(games.Mover).PiecePosition(k)
				if pos != box.Start() {
					t.Errorf("%s: position %x, the diagram's %x", g.Picture(k), pos, box.Start())
				}
				ps := box.Pieces(pos, nil)
				if len(ps) != 1 || !ps[0].Live || box.Translate(ps[0].Key) != k {
					t.Errorf("%s: pieces %+v", g.Picture(k), ps)
				}
			}
			if len(keys) == 0 {
				t.Fatal("no pieces")
			}
		})
	}
}

package all

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/internal/refsolve"
)

func TestNew(t *testing.T) {
	for _, name := range Names {
		t.Run(name, func(t *testing.T) {
			g, err := New(name, "3x4", "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Name() != name || g.Board().Rows != 3 || g.Board().Cols != 4 {
				t.Errorf("New(%q, 3x4) = %s on %s", name, g.Name(), g.Board())
			}
		})
	}
}

// newNoPanic turns a panic of New into an error, so that one bad case does
// not stop the other tests.
func newNoPanic(name, board, start string) (g games.Game, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("New(%q, %q, %q) panicked: %v", name, board, start, p)
		}
	}()
	return New(name, board, start)
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name               string
		game, board, start string
		sentinel           error
		wantInMessage      []string
	}{
		{"unknown game", "chess", "4x4", "", ErrUnknownGame, []string{`"chess"`, "clobber", "domineering", "amazons"}},
		{"empty game", "", "4x4", "", ErrUnknownGame, []string{`""`}},
		{"game in capitals", "Clobber", "4x4", "", ErrUnknownGame, []string{`"Clobber"`}},
		{"bad board", "clobber", "4x", "", games.ErrBadBoard, []string{`"4x"`}},
		{"board with a plus", "domineering", "+2x3", "", games.ErrBadBoard, []string{`"+2x3"`}},
		{"clobber 33 squares", "clobber", "3x11", "", games.ErrBadBoard, []string{"3x11", "33", "32"}},
		{"amazons 33 squares", "amazons", "1x33", "", games.ErrBadBoard, []string{"1x33", "33", "32"}},
		{"domineering 65 squares", "domineering", "5x13", "", games.ErrBadBoard, []string{"5x13", "65", "64"}},
		{"amazons 1x1 standard start", "amazons", "1x1", "", games.ErrBadBoard, []string{"1x1"}},
		{"clobber bad diagram", "clobber", "2x2", "xo/o#", games.ErrBadDiagram, []string{`'#'`}},
		{"domineering amazon", "domineering", "1x2", "x.", games.ErrBadDiagram, []string{`'x'`}},
		{"amazons row count", "amazons", "2x2", "x.", games.ErrBadDiagram, []string{`"x."`, "1 rows"}},
		// A huge board must be refused, not built or crashed on.
		{"board of 2^64 squares", "clobber", "4x4611686018427387904", "", games.ErrBadBoard, []string{"4611686018427387904"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := newNoPanic(tc.game, tc.board, tc.start)
			if err == nil {
				t.Fatalf("New(%q, %q, %q) = %s, nil; want an error", tc.game, tc.board, tc.start, g.Name())
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("error %q does not wrap %v", err, tc.sentinel)
			}
			for _, w := range tc.wantInMessage {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %s", err, w)
				}
			}
		})
	}
}

func TestNewLargestBoards(t *testing.T) {
	tests := []struct{ game, board string }{
		{"clobber", "4x8"},
		{"clobber", "1x32"},
		{"amazons", "8x4"},
		{"domineering", "8x8"},
		{"domineering", "1x64"},
		{"domineering", "64x1"},
		{"amazons", "1x1"}, // with a diagram below
	}
	for _, tc := range tests {
		t.Run(tc.game+"/"+tc.board, func(t *testing.T) {
			start := ""
			if tc.board == "1x1" {
				start = "x"
			}
			if _, err := New(tc.game, tc.board, start); err != nil {
				t.Errorf("New(%q, %q, %q): %v", tc.game, tc.board, start, err)
			}
		})
	}
}

// TestParseFormat reads every reachable position of small boards of each
// game back from its diagram (games.Parser), and reads a diagram that is
// not of the board as an error.
func TestParseFormat(t *testing.T) {
	for _, c := range [][2]string{{"clobber", "3x3"}, {"domineering", "3x4"}, {"amazons", "2x4"}} {
		t.Run(c[0]+"-"+c[1], func(t *testing.T) {
			g, err := New(c[0], c[1], "")
			if err != nil {
				t.Fatal(err)
			}
			p, ok := g.(games.Parser)
			if !ok {
				t.Fatalf("%s reads no diagram", c[0])
			}
			n := 0
			for _, tier := range refsolve.Reachable(g) {
				for _, pos := range tier {
					got, err := p.Parse(g.Format(pos))
					if err != nil || got != pos {
						t.Fatalf("%s read back as %#x, %v; want %#x", g.Format(pos), got, err, pos)
					}
					n++
				}
			}
			if _, err := p.Parse("x/o"); !errors.Is(err, games.ErrBadDiagram) {
				t.Errorf("a diagram of another board: %v", err)
			}
			t.Logf("%d positions read back", n)
		})
	}
}

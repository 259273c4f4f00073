package games_test

import (
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// FuzzParseBoard checks that ParseBoard never panics, that what it accepts
// has at least one row and one column, and that a board it accepts within
// 64 squares names itself in a form ParseBoard reads back the same.
func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{
		"4x4", "1x1", "8x8", "1x64", "64x1", "2x33", "0x4", "4x0", "-1x4",
		"+4x4", "4x+4", "04x004", "4x4x4", "x", "4", "", " 4x4", "4X4",
		"9223372036854775807x2", "99999999999999999999x1", "1_0x1", "0x10x1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rows, cols, err := games.ParseBoard(s)
		if err != nil {
			if rows != 0 || cols != 0 {
				t.Fatalf("ParseBoard(%q) = %d, %d with error %v", s, rows, cols, err)
			}
			return
		}
		if rows < 1 || cols < 1 {
			t.Fatalf("ParseBoard(%q) = %d, %d without an error", s, rows, cols)
		}
		b, err := games.NewBoard(rows, cols, 64)
		if err != nil {
			// Only a board over 64 squares may be refused.
			if rows <= 64 && cols <= 64 && rows*cols <= 64 {
				t.Fatalf("NewBoard(%d, %d, 64) of %q: %v", rows, cols, s, err)
			}
			return
		}
		if b.Squares() != rows*cols || b.Rows != rows || b.Cols != cols {
			t.Fatalf("NewBoard(%d, %d, 64) = %+v", rows, cols, b)
		}
		r2, c2, err := games.ParseBoard(b.String())
		if err != nil || r2 != rows || c2 != cols {
			t.Fatalf("ParseBoard(%q) of %q = %d, %d, %v; want %d, %d", b.String(), s, r2, c2, err, rows, cols)
		}
	})
}

// FuzzParseDiagram reads a diagram on the board its own shape suggests
// (rows separated by '/', as many columns as the first row): ParseDiagram
// never panics, and what it accepts has one cell per square that
// FormatDiagram draws back into the input.
func FuzzParseDiagram(f *testing.F) {
	for _, s := range []string{
		"xo/ox", "x", ".", "#", "xo.#/#.ox", "..../..../..../....", "xo/o", "xo/oxx",
		"ab/cd", "", "/", "x//x", "xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox/xoxoxoxo/oxoxoxox",
		"x\x00/.o", "é/..",
	} {
		f.Add(s)
	}
	const allowed = "xo.#"
	f.Fuzz(func(t *testing.T, s string) {
		rowStrs := strings.Split(s, "/")
		rows, cols := len(rowStrs), len(rowStrs[0])
		b, err := games.NewBoard(rows, cols, 64)
		if err != nil {
			return
		}
		cells, err := games.ParseDiagram(s, b, allowed)
		if err != nil {
			if cells != nil {
				t.Fatalf("ParseDiagram(%q) returned cells with error %v", s, err)
			}
			return
		}
		if len(cells) != b.Squares() {
			t.Fatalf("ParseDiagram(%q) on %s: %d cells, want %d", s, b, len(cells), b.Squares())
		}
		for i, c := range cells {
			if !strings.ContainsRune(allowed, rune(c)) {
				t.Fatalf("ParseDiagram(%q): cell %d is %q, not one of %q", s, i, c, allowed)
			}
		}
		if got := games.FormatDiagram(b.Rows, b.Cols, func(i int) byte { return cells[i] }); got != s {
			t.Fatalf("FormatDiagram(ParseDiagram(%q)) = %q", s, got)
		}
	})
}

// FuzzNew builds each game from an arbitrary board and start: all.New never
// panics, and the diagram of a game's start builds the same start again.
func FuzzNew(f *testing.F) {
	for _, c := range []struct {
		game         uint8
		board, start string
	}{
		{0, "4x4", ""}, {0, "2x3", "xo./.ox"}, {0, "1x1", "x"}, {0, "4x8", ""},
		{0, "4x9", ""}, {0, "2x2", "#o/x."},
		{1, "4x4", ""}, {1, "2x3", "#../.##"}, {1, "8x8", ""}, {1, "1x64", ""},
		{1, "3x3", "x../.../..."},
		{2, "4x4", ""}, {2, "1x1", ""}, {2, "1x1", "x"}, {2, "3x3", "x.#/.#./#.o"},
		{2, "5x6", ""}, {2, "2x2", "xx/oo"}, {3, "4x4", ""},
		{0, "0x4", ""}, {1, "4x4x", ""}, {2, "4x4", "xo"},
	} {
		f.Add(c.game, c.board, c.start)
	}
	f.Fuzz(func(t *testing.T, which uint8, board, start string) {
		names := append(append([]string(nil), all.Names...), "chess")
		name := names[int(which)%len(names)]
		g, err := all.New(name, board, start)
		if err != nil {
			if g != nil {
				t.Fatalf("all.New(%q, %q, %q) returned a game with error %v", name, board, start, err)
			}
			return
		}
		if g == nil {
			t.Fatalf("all.New(%q, %q, %q) = nil, nil", name, board, start)
		}
		if g.Name() != name {
			t.Fatalf("all.New(%q, %q, %q).Name() = %q", name, board, start, g.Name())
		}
		b := g.Board()
		rows, cols, _ := games.ParseBoard(board)
		if b.Rows != rows || b.Cols != cols {
			t.Fatalf("all.New(%q, %q, %q).Board() = %s", name, board, start, b)
		}
		d := g.Format(g.Start())
		if start != "" && d != start {
			t.Fatalf("all.New(%q, %q, %q): Format(Start()) = %q, want the start back", name, board, start, d)
		}
		g2, err := all.New(name, board, d)
		if err != nil {
			t.Fatalf("all.New(%q, %q, %q): Format(Start()) = %q does not parse: %v", name, board, start, d, err)
		}
		if g2.Start() != g.Start() {
			t.Fatalf("all.New(%q, %q, %q): start %#x; from its diagram %q, start %#x", name, board, start, g.Start(), d, g2.Start())
		}
	})
}

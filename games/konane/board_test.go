package konane

import (
	"slices"
	"testing"
)

func boardStrings(bs []Board) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.String())
	}
	slices.Sort(out)
	return out
}

// TestBoardOfOneRow checks the rectangle's rules against the row's: a
// board of one row, and of one column, has the moves of the row.
func TestBoardOfOneRow(t *testing.T) {
	for i := uint64(0); i < 729; i++ {
		r := FromIndex(6, i)
		b := MustParseBoard(r.String())
		col, err := NewBoard(6, 1)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 6; k++ {
			col = col.With(k, 0, r.At(k))
		}
		for _, left := range []bool{true, false} {
			var want []string
			for _, o := range r.Options(left, nil) {
				want = append(want, o.String())
			}
			slices.Sort(want)
			if got := boardStrings(b.Options(left, nil)); !slices.Equal(got, want) {
				t.Fatalf("%s (left %v): board options %q, row options %q", r, left, got, want)
			}
			var gotCol []string
			for _, o := range col.Options(left, nil) {
				s := []byte(o.String())
				gotCol = append(gotCol, string(slices.DeleteFunc(s, func(c byte) bool { return c == '/' })))
			}
			slices.Sort(gotCol)
			if !slices.Equal(gotCol, want) {
				t.Fatalf("%s (left %v): column options %q, row options %q", r, left, gotCol, want)
			}
		}
	}
}

func TestBoardOptions(t *testing.T) {
	for _, tc := range []struct {
		name, board string
		left, right []string
	}{
		// Black in the middle of four White stones with room all round
		// jumps any way; each White stone would land on another.
		{"four ways", "...../..o../.oxo./..o../.....",
			[]string{"..x../...../.o.o./..o../.....", "...../..o../x..o./..o../.....",
				"...../..o../.o..x/..o../.....", "...../..o../.o.o./...../..x.."},
			nil},
		// A double jump down, stopping after either jump.
		{"down twice", "x../o../.../o../...", []string{".../.../x../o../...", ".../.../.../.../x.."}, nil},
		// No turn at a corner: after jumping down, Black may not go on
		// to the right.
		{"no turning", "x../o.o/...", []string{".../..o/x.."}, nil},
		{"edge stops white", "..x/..o/...", []string{".../.../..x"}, nil},
		{"white jumps up with room", ".../..x/..o", nil, []string{"..o/.../..."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := MustParseBoard(tc.board)
			for _, side := range []struct {
				left bool
				want []string
			}{{true, tc.left}, {false, tc.right}} {
				want := slices.Clone(side.want)
				slices.Sort(want)
				if got := boardStrings(b.Options(side.left, nil)); !slices.Equal(got, want) {
					t.Errorf("left %v: got %q, want %q", side.left, got, want)
				}
			}
		})
	}
}

func TestOpenings(t *testing.T) {
	for _, tc := range []struct {
		rows, cols, want int
		// first is the first opening's board: Black empties the top-left
		// corner, White the square to its right.
		first string
	}{
		// 4x4: Black holds two corners and two of the four middle
		// squares; a corner has two White neighbours, a middle square
		// four: 2+2+4+4.
		{4, 4, 12, "..xo/oxox/xoxo/oxox"},
		// 5x5: Black holds the four corners (two neighbours each) and the
		// centre (four).
		{5, 5, 12, "..xox/oxoxo/xoxox/oxoxo/xoxox"},
		// 6x6: two corners and two of the four middle squares, as 4x4.
		{6, 6, 12, "..xoxo/oxoxox/xoxoxo/oxoxox/xoxoxo/oxoxox"},
	} {
		ops, err := Openings(tc.rows, tc.cols)
		if err != nil {
			t.Fatal(err)
		}
		if len(ops) != tc.want {
			t.Errorf("%dx%d: %d openings, want %d", tc.rows, tc.cols, len(ops), tc.want)
			continue
		}
		if got := ops[0].Board.String(); got != tc.first {
			t.Errorf("%dx%d: first opening %s, want %s", tc.rows, tc.cols, got, tc.first)
		}
		for _, o := range ops {
			if o.Board.Stones() != tc.rows*tc.cols-2 {
				t.Errorf("%dx%d: opening %v has %d stones", tc.rows, tc.cols, o, o.Board.Stones())
			}
			br, bc := o.BlackRemoves[0], o.BlackRemoves[1]
			wr, wc := o.WhiteRemoves[0], o.WhiteRemoves[1]
			if (br+bc)%2 != 0 || (wr+wc)%2 != 1 || abs(br-wr)+abs(bc-wc) != 1 {
				t.Errorf("%dx%d: opening %v", tc.rows, tc.cols, o)
			}
		}
	}
	if _, err := Openings(9, 9); err == nil {
		t.Error("openings of 9x9 (81 squares)")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

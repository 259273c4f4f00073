package games

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// picture maps the 2x3 rectangle "abc/def" through s using Map only.
func picture(s Symmetry, rows, cols int, cells string) string {
	nr, nc := s.Dims(rows, cols)
	out := make([][]byte, nr)
	for r := range out {
		out[r] = []byte(strings.Repeat("?", nc))
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			mr, mc := s.Map(r, c, rows, cols)
			out[mr][mc] = cells[r*cols+c]
		}
	}
	var rowsOut []string
	for _, r := range out {
		rowsOut = append(rowsOut, string(r))
	}
	return strings.Join(rowsOut, "/")
}

func TestSymmetryMapByHand(t *testing.T) {
	// The rectangle
	//   a b c
	//   d e f
	// drawn after each symmetry. The quarter turn is clockwise: the left
	// column d-a, read bottom to top, becomes the top row.
	tests := []struct {
		s    Symmetry
		want string
	}{
		{Identity, "abc/def"},
		{FlipRows, "def/abc"},
		{FlipCols, "cba/fed"},
		{HalfTurn, "fed/cba"},
		{Transpose, "ad/be/cf"},
		{QuarterTurn, "da/eb/fc"},
		{AntiTranspose, "fc/eb/da"},
		{ThreeQuarterTurn, "cf/be/ad"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := picture(tc.s, 2, 3, "abcdef"); got != tc.want {
				t.Errorf("symmetry %d: got %s, want %s", tc.s, got, tc.want)
			}
			if got, want := tc.s.Swaps(), strings.Count(tc.want, "/") == 2; got != want {
				t.Errorf("Swaps() = %v, want %v", got, want)
			}
		})
	}
}

// rects are boxes up to 8 x 8, mapped by word operations, and beyond, mapped
// square by square.
var rects = [][2]int{{1, 1}, {1, 4}, {4, 1}, {2, 3}, {3, 2}, {3, 3}, {4, 4}, {3, 5}, {5, 6}, {6, 5}, {7, 7}, {4, 8}, {8, 4}, {8, 8}, {1, 32}, {32, 1}, {2, 12}, {9, 7}}

func TestSymmetryMapIsBijection(t *testing.T) {
	for _, rc := range rects {
		rows, cols := rc[0], rc[1]
		for _, s := range Symmetries {
			nr, nc := s.Dims(rows, cols)
			if nr*nc != rows*cols {
				t.Fatalf("%dx%d symmetry %d: Dims %dx%d", rows, cols, s, nr, nc)
			}
			seen := map[[2]int]bool{}
			for r := 0; r < rows; r++ {
				for c := 0; c < cols; c++ {
					mr, mc := s.Map(r, c, rows, cols)
					if mr < 0 || mr >= nr || mc < 0 || mc >= nc {
						t.Fatalf("%dx%d symmetry %d: (%d,%d) -> (%d,%d) outside %dx%d", rows, cols, s, r, c, mr, mc, nr, nc)
					}
					if seen[[2]int{mr, mc}] {
						t.Fatalf("%dx%d symmetry %d: (%d,%d) hit twice", rows, cols, s, mr, mc)
					}
					seen[[2]int{mr, mc}] = true
				}
			}
		}
	}
}

func TestSymmetryApplyAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, rc := range rects {
		rows, cols := rc[0], rc[1]
		full := ^uint64(0) >> (64 - rows*cols)
		for _, s := range Symmetries {
			nr, nc := s.Dims(rows, cols)
			for i := 0; i < 50; i++ {
				plane := rng.Uint64() & full
				var want uint64
				for r := 0; r < rows; r++ {
					for c := 0; c < cols; c++ {
						if plane>>(r*cols+c)&1 != 0 {
							mr, mc := s.Map(r, c, rows, cols)
							want |= 1 << (mr*nc + mc)
						}
					}
				}
				if got := s.Apply(plane, rows, cols); got != want {
					t.Fatalf("%dx%d symmetry %d: Apply(%#x) = %#x, want %#x (new box %dx%d)", rows, cols, s, plane, got, want, nr, nc)
				}
			}
		}
	}
}

// compose returns the symmetry equal to "first a, then b" on a rows x cols
// rectangle, or false when none of list is.
func compose(a, b Symmetry, rows, cols int, list []Symmetry) (Symmetry, bool) {
	ar, ac := a.Dims(rows, cols)
	br, bc := b.Dims(ar, ac)
next:
	for _, s := range list {
		if sr, sc := s.Dims(rows, cols); sr != br || sc != bc {
			continue
		}
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				mr, mc := a.Map(r, c, rows, cols)
				mr, mc = b.Map(mr, mc, ar, ac)
				if sr, sc := s.Map(r, c, rows, cols); sr != mr || sc != mc {
					continue next
				}
			}
		}
		return s, true
	}
	return 0, false
}

func TestSymmetriesFormAGroup(t *testing.T) {
	tests := []struct {
		name  string
		group []Symmetry
	}{
		{"all 8", Symmetries[:]},
		{"the 4 that keep vertical vertical", Symmetries[:4]},
	}
	// 2x3 and 3x5 tell every symmetry apart and check the dimensions;
	// 3x3 checks square boards, where the swapping ones keep the shape.
	for _, tc := range tests {
		for _, rc := range [][2]int{{2, 3}, {3, 5}, {3, 3}} {
			rows, cols := rc[0], rc[1]
			t.Run(tc.name, func(t *testing.T) {
				for _, a := range tc.group {
					if _, ok := compose(a, Identity, rows, cols, []Symmetry{a}); !ok {
						t.Errorf("%dx%d: %d then identity is not %d", rows, cols, a, a)
					}
					hasInverse := false
					for _, b := range tc.group {
						if _, ok := compose(a, b, rows, cols, tc.group); !ok {
							t.Errorf("%dx%d: %d then %d is outside the group", rows, cols, a, b)
						}
						if _, ok := compose(a, b, rows, cols, []Symmetry{Identity}); ok {
							hasInverse = true
						}
					}
					if !hasInverse {
						t.Errorf("%dx%d: %d has no inverse in the group", rows, cols, a)
					}
				}
			})
		}
	}
	// The 8 are 8 different maps (on a rectangle with at least 2 rows and
	// 2 columns).
	for i, a := range Symmetries {
		for _, b := range Symmetries[i+1:] {
			if _, ok := compose(a, Identity, 3, 3, []Symmetry{b}); ok {
				t.Errorf("symmetries %d and %d are the same map on 3x3", a, b)
			}
		}
	}
	for _, s := range Symmetries[:4] {
		if s.Swaps() {
			t.Errorf("symmetry %d among the first four swaps rows and columns", s)
		}
	}
}

package games

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestParseBoard(t *testing.T) {
	good := []struct {
		in         string
		rows, cols int
	}{
		{"4x4", 4, 4},
		{"2x6", 2, 6},
		{"1x1", 1, 1},
		{"10x3", 10, 3},
		{"8x8", 8, 8},
	}
	for _, tc := range good {
		t.Run(tc.in, func(t *testing.T) {
			rows, cols, err := ParseBoard(tc.in)
			if err != nil || rows != tc.rows || cols != tc.cols {
				t.Fatalf("ParseBoard(%q) = %d, %d, %v; want %d, %d, nil", tc.in, rows, cols, err, tc.rows, tc.cols)
			}
		})
	}
	bad := []string{"0x4", "4x0", "4x", "x4", "x", "-1x3", "3x-1", "4x4x4", "+2x3", "2x+3", "", "4 x4", "4x 4", " 4x4", "4X4", "4*4", "four x4", "1.5x2"}
	for _, in := range bad {
		t.Run("bad/"+strconv.Quote(in), func(t *testing.T) {
			rows, cols, err := ParseBoard(in)
			if err == nil {
				t.Fatalf("ParseBoard(%q) = %d, %d, nil; want an error", in, rows, cols)
			}
			if !errors.Is(err, ErrBadBoard) {
				t.Errorf("ParseBoard(%q) error %v does not wrap ErrBadBoard", in, err)
			}
			if !strings.Contains(err.Error(), strconv.Quote(in)) {
				t.Errorf("ParseBoard(%q) error %q does not name the bad value", in, err)
			}
		})
	}
}

func TestNewBoard(t *testing.T) {
	tests := []struct {
		name             string
		rows, cols, max  int
		ok               bool
		wantInMessageErr string
	}{
		{"clobber 4x8 is 32 squares", 4, 8, 32, true, ""},
		{"clobber 1x32", 1, 32, 32, true, ""},
		{"clobber 3x11 is 33 squares", 3, 11, 32, false, "32"},
		{"clobber 1x33", 1, 33, 32, false, "32"},
		{"clobber 33x1", 33, 1, 32, false, "32"},
		{"domineering 8x8 is 64 squares", 8, 8, 64, true, ""},
		{"domineering 1x64", 1, 64, 64, true, ""},
		{"domineering 64x1", 64, 1, 64, true, ""},
		{"domineering 5x13 is 65 squares", 5, 13, 64, false, "64"},
		{"domineering 1x65", 1, 65, 64, false, "64"},
		{"no rows", 0, 4, 64, false, "0x4"},
		{"no columns", 4, 0, 64, false, "4x0"},
		{"negative rows", -1, 3, 64, false, "-1x3"},
		// 4 * 2^62 = 2^64 wraps to 0 in int arithmetic; the board is
		// still far over the limit and must be refused.
		{"product overflows to zero", 4, 1 << 62, 64, false, "limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := newBoardNoPanic(tc.rows, tc.cols, tc.max)
			if tc.ok {
				if err != nil {
					t.Fatalf("NewBoard(%d, %d, %d): %v", tc.rows, tc.cols, tc.max, err)
				}
				if b.Rows != tc.rows || b.Cols != tc.cols || b.Squares() != tc.rows*tc.cols {
					t.Errorf("NewBoard = %+v", b)
				}
				if got := OnesCount(b.Full); got != tc.rows*tc.cols {
					t.Errorf("Full has %d squares, want %d", got, tc.rows*tc.cols)
				}
				if want := fmt.Sprintf("%dx%d", tc.rows, tc.cols); b.String() != want {
					t.Errorf("String() = %q, want %q", b.String(), want)
				}
				return
			}
			if err == nil {
				t.Fatalf("NewBoard(%d, %d, %d) = %v, nil; want an error", tc.rows, tc.cols, tc.max, b)
			}
			if !errors.Is(err, ErrBadBoard) {
				t.Errorf("error %v does not wrap ErrBadBoard", err)
			}
			if !strings.Contains(err.Error(), tc.wantInMessageErr) {
				t.Errorf("error %q does not mention %q", err, tc.wantInMessageErr)
			}
		})
	}
}

// newBoardNoPanic turns a panic of NewBoard into an error, so that one bad
// case does not stop the other tests.
func newBoardNoPanic(rows, cols, max int) (b Board, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("NewBoard(%d, %d, %d) panicked: %v", rows, cols, max, p)
		}
	}()
	return NewBoard(rows, cols, max)
}

// shapes are the boards the geometry tests run on: thin ones, where a row
// or column wraps at once, and the full 64-bit 8x8.
var shapes = [][2]int{{1, 1}, {1, 2}, {2, 1}, {1, 7}, {7, 1}, {1, 32}, {32, 1}, {1, 64}, {64, 1}, {2, 3}, {3, 2}, {3, 5}, {4, 4}, {5, 6}, {4, 8}, {8, 8}, {7, 9}}

func mustBoard(t testing.TB, rows, cols int) Board {
	t.Helper()
	b, err := NewBoard(rows, cols, 64)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// randomMasks returns masks on b of several densities, and the full and
// empty masks.
func randomMasks(rng *rand.Rand, b Board, n int) []uint64 {
	out := []uint64{0, b.Full}
	for i := 0; i < n; i++ {
		m := rng.Uint64()
		switch i % 4 {
		case 1:
			m &= rng.Uint64() // sparse
		case 2:
			m |= rng.Uint64() // dense
		case 3:
			m &= rng.Uint64() & rng.Uint64() // very sparse
		}
		out = append(out, m&b.Full)
	}
	return out
}

// naiveShift moves every square of m by (dr, dc), dropping squares that
// leave the board, one square at a time.
func naiveShift(b Board, m uint64, dr, dc int) uint64 {
	var out uint64
	for r := 0; r < b.Rows; r++ {
		for c := 0; c < b.Cols; c++ {
			if m>>(r*b.Cols+c)&1 == 0 {
				continue
			}
			nr, nc := r+dr, c+dc
			if nr >= 0 && nr < b.Rows && nc >= 0 && nc < b.Cols {
				out |= 1 << (nr*b.Cols + nc)
			}
		}
	}
	return out
}

func TestShifts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range shapes {
		b := mustBoard(t, sh[0], sh[1])
		t.Run(b.String(), func(t *testing.T) {
			for _, m := range randomMasks(rng, b, 300) {
				checks := []struct {
					name      string
					got, want uint64
				}{
					{"East", b.East(m), naiveShift(b, m, 0, 1)},
					{"West", b.West(m), naiveShift(b, m, 0, -1)},
					{"South", b.South(m), naiveShift(b, m, 1, 0)},
					{"North", b.North(m), naiveShift(b, m, -1, 0)},
					{"Nbrs4", b.Nbrs4(m), naiveShift(b, m, 0, 1) | naiveShift(b, m, 0, -1) | naiveShift(b, m, 1, 0) | naiveShift(b, m, -1, 0)},
					{"Nbrs8", b.Nbrs8(m), naiveNbrs8(b, m)},
				}
				for _, c := range checks {
					if c.got != c.want {
						t.Fatalf("%s(%#x) = %#x, want %#x", c.name, m, c.got, c.want)
					}
				}
			}
		})
	}
}

func naiveNbrs8(b Board, m uint64) uint64 {
	var out uint64
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			out |= naiveShift(b, m, dr, dc)
		}
	}
	return out
}

// naiveFill is a breadth-first search over (r, c) from every square of
// seed inside within.
func naiveFill(b Board, seed, within uint64, king bool) uint64 {
	var queue []int
	seen := map[int]bool{}
	for i := 0; i < b.Squares(); i++ {
		if seed>>i&1 != 0 && within>>i&1 != 0 {
			queue = append(queue, i)
			seen[i] = true
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		r, c := i/b.Cols, i%b.Cols
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				if dr == 0 && dc == 0 || !king && dr != 0 && dc != 0 {
					continue
				}
				nr, nc := r+dr, c+dc
				if nr < 0 || nr >= b.Rows || nc < 0 || nc >= b.Cols {
					continue
				}
				j := nr*b.Cols + nc
				if within>>j&1 != 0 && !seen[j] {
					seen[j] = true
					queue = append(queue, j)
				}
			}
		}
	}
	var out uint64
	for i := range seen {
		out |= 1 << i
	}
	return out
}

func TestFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range shapes {
		b := mustBoard(t, sh[0], sh[1])
		t.Run(b.String(), func(t *testing.T) {
			for _, within := range randomMasks(rng, b, 100) {
				seeds := []uint64{0, within, within & -within, rng.Uint64() & b.Full}
				if within != 0 {
					// One random square of within, and one square outside it.
					bitsOf := []int{}
					for i := 0; i < b.Squares(); i++ {
						if within>>i&1 != 0 {
							bitsOf = append(bitsOf, i)
						}
					}
					seeds = append(seeds, 1<<bitsOf[rng.IntN(len(bitsOf))])
				}
				if out := b.Full &^ within; out != 0 {
					seeds = append(seeds, out&-out)
				}
				for _, seed := range seeds {
					if got, want := b.Fill4(seed, within), naiveFill(b, seed, within, false); got != want {
						t.Fatalf("Fill4(%#x, %#x) = %#x, want %#x", seed, within, got, want)
					}
					if got, want := b.Fill8(seed, within), naiveFill(b, seed, within, true); got != want {
						t.Fatalf("Fill8(%#x, %#x) = %#x, want %#x", seed, within, got, want)
					}
				}
			}
		})
	}
}

func TestFillHand(t *testing.T) {
	// 3x3 board, squares numbered
	//   0 1 2
	//   3 4 5
	//   6 7 8
	// within = {0, 4, 8} (the diagonal) and {2}: orthogonally every square
	// stands alone, king-wise the diagonal is one piece.
	b := mustBoard(t, 3, 3)
	within := uint64(1<<0 | 1<<4 | 1<<8 | 1<<2)
	tests := []struct {
		name      string
		got, want uint64
	}{
		{"Fill4 from 0", b.Fill4(1<<0, within), 1 << 0},
		{"Fill8 from 0", b.Fill8(1<<0, within), 1<<0 | 1<<4 | 1<<8 | 1<<2},
		{"Fill4 seed outside", b.Fill4(1<<1, within), 0},
		{"Fill8 seed outside", b.Fill8(1<<1, within), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %#x, want %#x", tc.got, tc.want)
			}
		})
	}
}

func TestCrop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sh := range shapes {
		b := mustBoard(t, sh[0], sh[1])
		t.Run(b.String(), func(t *testing.T) {
			for _, region := range randomMasks(rng, b, 200) {
				if region == 0 {
					continue
				}
				p1, p2 := rng.Uint64()&b.Full, region
				q1, q2 := p1, p2
				rows, cols := b.Crop(region, &q1, &q2)
				r0, r1, c0, c1 := b.Rows, -1, b.Cols, -1
				for i := 0; i < b.Squares(); i++ {
					if region>>i&1 != 0 {
						r, c := i/b.Cols, i%b.Cols
						r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
					}
				}
				if rows != r1-r0+1 || cols != c1-c0+1 {
					t.Fatalf("Crop(%#x) box %dx%d, want %dx%d", region, rows, cols, r1-r0+1, c1-c0+1)
				}
				for _, pl := range []struct{ in, got uint64 }{{p1, q1}, {p2, q2}} {
					var want uint64
					for r := r0; r <= r1; r++ {
						for c := c0; c <= c1; c++ {
							if pl.in>>(r*b.Cols+c)&1 != 0 {
								want |= 1 << ((r-r0)*cols + (c - c0))
							}
						}
					}
					if pl.got != want {
						t.Fatalf("Crop(%#x) of plane %#x = %#x, want %#x", region, pl.in, pl.got, want)
					}
				}
			}
		})
	}
}

func TestCropHand(t *testing.T) {
	// On 3x4, region {(1,1), (2,2)} has the 2x2 box from (1,1); the plane
	// {(0,0), (1,1), (2,1), (2,2)} cut to it is {(0,0), (1,0), (1,1)}.
	b := mustBoard(t, 3, 4)
	sq := func(r, c int) uint64 { return 1 << (r*4 + c) }
	region := sq(1, 1) | sq(2, 2)
	plane := sq(0, 0) | sq(1, 1) | sq(2, 1) | sq(2, 2)
	rows, cols := b.Crop(region, &plane)
	if rows != 2 || cols != 2 || plane != 1<<0|1<<2|1<<3 {
		t.Errorf("Crop = %dx%d %#b, want 2x2 %#b", rows, cols, plane, 1<<0|1<<2|1<<3)
	}
}

func TestLowBit(t *testing.T) {
	for _, i := range []int{0, 1, 31, 32, 63} {
		if got := LowBit(1<<i | 1<<63); got != i {
			t.Errorf("LowBit(1<<%d | 1<<63) = %d", i, got)
		}
	}
}

package games

import (
	"math/rand/v2"
	"testing"
)

func TestPieceKey(t *testing.T) {
	k := MakePieceKey(3, 5, 0xabc)
	if r, c := k.Dims(); r != 3 || c != 5 || k.Hi != 3<<8|5 || k.Lo != 0xabc {
		t.Errorf("MakePieceKey(3, 5, 0xabc) = %+v, Dims %d, %d", k, r, c)
	}
	tests := []struct {
		name string
		a, b PieceKey
		less bool
	}{
		{"smaller box first", MakePieceKey(1, 2, ^uint64(0)), MakePieceKey(2, 1, 0), true},
		{"same box, cells decide", MakePieceKey(2, 2, 1), MakePieceKey(2, 2, 2), true},
		{"equal", MakePieceKey(2, 2, 1), MakePieceKey(2, 2, 1), false},
		{"larger", MakePieceKey(2, 2, 3), MakePieceKey(2, 2, 2), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.Less(tc.b); got != tc.less {
				t.Errorf("%+v.Less(%+v) = %v", tc.a, tc.b, got)
			}
		})
	}
}

func TestSwapPlanes(t *testing.T) {
	k := PieceKey{Hi: 0x102, Lo: 0x1 | 0x2<<32}
	if got, want := SwapPlanes(k), (PieceKey{Hi: 0x102, Lo: 0x2 | 0x1<<32}); got != want {
		t.Errorf("SwapPlanes(%+v) = %+v, want %+v", k, got, want)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 1000; i++ {
		k := PieceKey{Hi: rng.Uint64(), Lo: rng.Uint64()}
		if got := SwapPlanes(SwapPlanes(k)); got != k {
			t.Fatalf("SwapPlanes twice of %+v = %+v", k, got)
		}
	}
}

func TestTransform(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, rc := range rects {
		rows, cols := rc[0], rc[1]
		n := rows * cols
		for _, s := range Symmetries {
			nr, nc := s.Dims(rows, cols)
			for i := 0; i < 20; i++ {
				if n <= 32 {
					lo, hi := rng.Uint64()>>(64-n), rng.Uint64()>>(64-n)
					got := Transform(MakePieceKey(rows, cols, lo|hi<<32), s, 2)
					want := MakePieceKey(nr, nc, s.Apply(lo, rows, cols)|s.Apply(hi, rows, cols)<<32)
					if got != want {
						t.Fatalf("%dx%d symmetry %d, two planes: got %+v, want %+v", rows, cols, s, got, want)
					}
				}
				plane := rng.Uint64() >> (64 - n)
				got := Transform(MakePieceKey(rows, cols, plane), s, 1)
				if want := MakePieceKey(nr, nc, s.Apply(plane, rows, cols)); got != want {
					t.Fatalf("%dx%d symmetry %d, one plane: got %+v, want %+v", rows, cols, s, got, want)
				}
				if s == Transpose {
					if back := Transform(got, Transpose, 1); back != MakePieceKey(rows, cols, plane) {
						t.Fatalf("%dx%d: transpose twice of %#x = %+v", rows, cols, plane, back)
					}
				}
			}
		}
	}
}

func TestClassesByHand(t *testing.T) {
	// Clobber packing: Black in the low plane, White in the high one, row
	// stride the box's width. The orbit of "xo" under all 8 symmetries is
	// xo, ox, x/o and o/x. The 1x2 boxes (Hi 0x102) order before the 2x1
	// ones (Hi 0x201); of "xo" (Lo 1 | 2<<32) and "ox" (Lo 2 | 1<<32),
	// "ox" is less. The colour swap maps the orbit to itself.
	xo := MakePieceKey(1, 2, 1|2<<32)
	ox := MakePieceKey(1, 2, 2|1<<32)
	// "xx" (Lo 3) and its negative "oo" (Lo 3<<32) are different classes;
	// the negation class is the lesser, "xx".
	xx := MakePieceKey(1, 2, 3)
	oo := MakePieceKey(1, 2, 3<<32)
	// "x./.o" (a 2x2 box with Black at (0,0), White at (1,1)) has the
	// orbit "x./.o" (Lo 1 | 8<<32), ".o/x." (4 | 2<<32), ".x/o." (2 | 4<<32)
	// and "o./.x" (8 | 1<<32); the high (White) plane weighs most, so
	// "o./.x" is the least. Its colour swap is "x./.o", in the orbit.
	diag := MakePieceKey(2, 2, 1|8<<32)
	tests := []struct {
		name      string
		k         PieceKey
		group     []Symmetry
		planes    int
		sym, neg  PieceKey
		selfNeg   bool
		negateFun func(PieceKey) PieceKey
	}{
		{"xo", xo, Symmetries[:], 2, ox, ox, true, SwapPlanes},
		{"ox", ox, Symmetries[:], 2, ox, ox, true, SwapPlanes},
		{"xx", xx, Symmetries[:], 2, xx, xx, false, SwapPlanes},
		{"oo", oo, Symmetries[:], 2, oo, xx, false, SwapPlanes},
		{"diagonal", diag, Symmetries[:], 2, MakePieceKey(2, 2, 8|1<<32), MakePieceKey(2, 2, 8|1<<32), true, SwapPlanes},
		// Domineering packing: one plane of the region's squares. A
		// vertical domino (2x1, Lo 3) has the horizontal one (1x2, Lo 3)
		// as its negative; under the 4 symmetries that keep vertical
		// vertical each is its own class, and the negation class is the
		// lesser box, 1x2.
		{"vertical domino", MakePieceKey(2, 1, 3), Symmetries[:4], 1, MakePieceKey(2, 1, 3), MakePieceKey(1, 2, 3), false, func(k PieceKey) PieceKey { return Transform(k, Transpose, 1) }},
		// The L tromino "..", ".#" (cells 0, 1, 2 of a 2x2 box: Lo 7)
		// under flips: Lo 7 (0,1,2), 11 (0,1,3), 13 (0,2,3), 14 (1,2,3);
		// least 7. Transposed it is itself.
		{"L tromino", MakePieceKey(2, 2, 7), Symmetries[:4], 1, MakePieceKey(2, 2, 7), MakePieceKey(2, 2, 7), true, func(k PieceKey) PieceKey { return Transform(k, Transpose, 1) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sym, neg, self := Classes(tc.k, tc.group, tc.planes, tc.negateFun)
			if sym != tc.sym || neg != tc.neg || self != tc.selfNeg {
				t.Errorf("Classes(%+v) = %+v, %+v, %v; want %+v, %+v, %v", tc.k, sym, neg, self, tc.sym, tc.neg, tc.selfNeg)
			}
		})
	}
}

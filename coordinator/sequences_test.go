package coordinator_test

import (
	"fmt"
	"testing"
)

// TestDomineeringStrips checks position counts of thin boards against
// closed forms: on 1xN the covered sets are the placements of
// non-overlapping dominoes, Fibonacci F(N+1); on 2xN every tileable covered
// set is counted by 2·3^(N-1).
func TestDomineeringStrips(t *testing.T) {
	fib := []uint64{1, 1}
	for len(fib) < 20 {
		fib = append(fib, fib[len(fib)-1]+fib[len(fib)-2])
	}
	for n := 1; n <= 12; n++ {
		t.Run(fmt.Sprintf("1x%d", n), func(t *testing.T) {
			s, _ := census(t, "domineering", fmt.Sprintf("1x%d", n), "", 0, 2)
			if s.Positions != fib[n] {
				t.Errorf("1x%d: %d positions, want F(%d) = %d", n, s.Positions, n+1, fib[n])
			}
		})
	}
	pow := uint64(2)
	for n := 1; n <= 8; n++ {
		want := pow
		t.Run(fmt.Sprintf("2x%d", n), func(t *testing.T) {
			s, _ := census(t, "domineering", fmt.Sprintf("2x%d", n), "", 0, 2)
			if s.Positions != want {
				t.Errorf("2x%d: %d positions, want 2·3^%d = %d", n, s.Positions, n-1, want)
			}
		})
		pow *= 3
	}
}

// TestDomineeringPolyominoes checks the distinct translated live regions of
// each size against the fixed polyominoes (OEIS A001168: 1, 2, 6, 19, 63,
// 216, ...) for the sizes at which every polyomino, the straight one
// included, fits the board.
func TestDomineeringPolyominoes(t *testing.T) {
	fixed := []uint64{0, 1, 2, 6, 19, 63, 216, 760}
	for _, b := range []struct{ rows, cols int }{{4, 4}, {4, 5}, {5, 5}} {
		t.Run(fmt.Sprintf("%dx%d", b.rows, b.cols), func(t *testing.T) {
			s, _ := census(t, "domineering", fmt.Sprintf("%dx%d", b.rows, b.cols), "", 0, 2)
			for k := 2; k <= min(b.rows, b.cols); k++ {
				if got := s.PiecesBySize[k]; got != fixed[k] {
					t.Errorf("regions of %d squares: %d, want the %d fixed polyominoes", k, got, fixed[k])
				}
			}
		})
	}
}

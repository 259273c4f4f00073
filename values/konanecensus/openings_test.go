package konanecensus

import (
	"context"
	"errors"
	"testing"

	"github.com/census-cgt/census/games/konane"
)

// TestOpenings4x4 solves the openings of 4x4 twice, by canonical values
// and by minimax, and checks that the two agree opening by opening and
// that openings that are images of each other under a symmetry of the
// square that keeps the colours have the same result.
func TestOpenings4x4(t *testing.T) {
	ctx := context.Background()
	byValues, err := CountOpenings(ctx, 4, 4, OpeningsOptions{Values: true})
	if err != nil {
		t.Fatal(err)
	}
	byMinimax, err := CountOpenings(ctx, 4, 4, OpeningsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if byValues.Openings != 12 || len(byValues.Results) != 12 || len(byMinimax.Results) != 12 {
		t.Fatalf("%d and %d results, want the 12 openings of 4x4", len(byValues.Results), len(byMinimax.Results))
	}
	for i, r := range byValues.Results {
		m := byMinimax.Results[i]
		if r.Board != m.Board || r.Outcome != m.Outcome || r.BlackWins != m.BlackWins {
			t.Errorf("opening %s: values %s (%s), minimax %s", r.Board, r.Value, r.Outcome, m.Outcome)
		}
		if r.Value == "" || m.Value != "" {
			t.Errorf("opening %s: value %q by values, %q by minimax", r.Board, r.Value, m.Value)
		}
	}
	if byValues.Method != "values" || byMinimax.Method != "minimax" {
		t.Errorf("methods %q, %q", byValues.Method, byMinimax.Method)
	}
	if byValues.Positions <= byMinimax.Positions {
		t.Errorf("values held %d positions, minimax %d turns: valuing reaches more", byValues.Positions, byMinimax.Positions)
	}
	checkBoardCensus(t, byValues)
	checkBoardCensus(t, byMinimax)
}

func TestOpenings5x5(t *testing.T) {
	c, err := CountOpenings(context.Background(), 5, 5, OpeningsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkBoardCensus(t, c)
	t.Logf("5x5: %d turns solved, outcomes %v", c.Positions, c.Outcomes)
}

// checkBoardCensus checks the counts and the symmetry of a board census.
func checkBoardCensus(t *testing.T, c *BoardCensus) {
	t.Helper()
	total, wins := 0, 0
	byBoard := map[string]OpeningResult{}
	for _, r := range c.Results {
		total++
		if r.BlackWins {
			wins++
		}
		if r.BlackWins != (r.Outcome == "L" || r.Outcome == "N") {
			t.Errorf("%s: outcome %s but black_wins %v", r.Board, r.Outcome, r.BlackWins)
		}
		byBoard[r.Board] = r
	}
	sum := 0
	for _, n := range c.Outcomes {
		sum += n
	}
	if sum != total || wins != c.BlackWins || total != c.Openings {
		t.Errorf("%s: outcomes add up to %d, %d results, %d openings, black wins %d (counted %d)", c.Board, sum, total, c.Openings, c.BlackWins, wins)
	}
	symmetric := 0
	for _, r := range c.Results {
		b := konane.MustParseBoard(r.Board)
		for s := 1; s < 8; s++ {
			img, ok := transform(b, s)
			if !ok {
				continue
			}
			if o, ok := byBoard[img.String()]; ok {
				symmetric++
				if o.Outcome != r.Outcome || o.Value != r.Value {
					t.Errorf("%s is %s %s but its image %s is %s %s", r.Board, r.Outcome, r.Value, o.Board, o.Outcome, o.Value)
				}
			}
		}
	}
	if symmetric == 0 {
		t.Errorf("%s: no opening is the image of another", c.Board)
	}
}

// transform is the image of the square board b under the symmetry s of
// the square (0 the identity; bit 0 a reflection in the main diagonal,
// bit 1 a left-right mirror, bit 2 an upside-down mirror). It fails on a
// board that is not square.
func transform(b konane.Board, s int) (konane.Board, bool) {
	n := b.Rows()
	if b.Cols() != n {
		return b, false
	}
	out, err := konane.NewBoard(n, n)
	if err != nil {
		return b, false
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			rr, cc := r, c
			if s&1 != 0 {
				rr, cc = cc, rr
			}
			if s&2 != 0 {
				cc = n - 1 - cc
			}
			if s&4 != 0 {
				rr = n - 1 - rr
			}
			out = out.With(rr, cc, b.At(r, c))
		}
	}
	return out, true
}

func TestOpeningsCap(t *testing.T) {
	_, err := CountOpenings(context.Background(), 4, 4, OpeningsOptions{Values: true, MaxPositions: 100})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("values with a cap of 100 positions: %v", err)
	}
	_, err = CountOpenings(context.Background(), 4, 4, OpeningsOptions{MaxPositions: 100})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("minimax with a cap of 100 positions: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CountOpenings(ctx, 4, 4, OpeningsOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := CountOpenings(context.Background(), 9, 9, OpeningsOptions{}); err == nil {
		t.Error("9x9 (81 squares) accepted")
	}
}

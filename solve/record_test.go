package solve

import "testing"

func TestRecordOutcome(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Record
		want Outcome
	}{
		{"no moves at all", Record{0, 0}, P},
		{"Left moves and wins, Right has none", Record{1, 0}, L},
		{"Right moves and wins, Left has none", Record{0, 1}, R},
		{"both win moving first", Record{3, 5}, N},
		{"both lose moving first", Record{2, 4}, P},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Outcome(); got != tc.want {
				t.Errorf("%+v.Outcome() = %v, want %v", tc.r, got, tc.want)
			}
			if got, want := tc.r.Negate().Outcome(), tc.want.Negate(); got != want {
				t.Errorf("%+v.Negate().Outcome() = %v, want %v", tc.r, got, want)
			}
		})
	}
}

func TestSide(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []uint8
		want uint8
	}{
		{"no option: lost at once", nil, 0},
		{"an option leaving no move wins in one", []uint8{3, 0, 5}, 1},
		{"the fastest win", []uint8{5, 4, 2, 7}, 3},
		{"every option won by the opponent: the slowest loss", []uint8{1, 5, 3}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Side
			for _, r := range tc.opts {
				s.Add(r)
			}
			if got := s.Remoteness(); got != tc.want {
				t.Errorf("Remoteness() = %d, want %d", got, tc.want)
			}
			if Wins(s.Remoteness()) != (s.win != 0) {
				t.Errorf("parity of %d disagrees with a win", s.Remoteness())
			}
		})
	}
}

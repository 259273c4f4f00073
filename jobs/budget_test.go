package jobs

import "testing"

// TestBudgetShares checks that the shares of every kind of job add up to
// the whole budget, so that a job's buffers together never plan for more
// memory than it was given.
func TestBudgetShares(t *testing.T) {
	tests := []struct {
		name string
		sum  share
	}{
		{"tier", tierBudget(false).sum()},
		{"tier with positions", tierBudget(true).sum()},
		{"piece", pieceBudget().sum()},
		{"class", classBudget().sum()},
		{"compact", compactBudget().sum()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.sum != sixtyFourths {
				t.Errorf("shares add up to %d/64 of the budget, want 64/64", tc.sum)
			}
		})
	}
	// In bytes: the shares of a budget never add up to more than it.
	for _, budget := range []int64{1 << 20, 1<<20 + 63, 256 << 20, 3_000_000_007} {
		s := tierBudget(true)
		total := s.Successors.of(budget) + s.DeadFree.of(budget) + s.InPlace.of(budget) + s.Pieces.of(budget) +
			s.ReadBuffers.of(budget) + s.PositionRows.of(budget) + s.PositionImages.of(budget)
		if total > budget || budget-total >= sixtyFourths {
			t.Errorf("budget %d: shares of %d bytes", budget, total)
		}
	}
}

package schema

// Solved is what the solve stage adds to summary.json: the start's outcome
// class and the positions by class (L, R, N, P; see schema/COLUMNS.md),
// each counted as the plain enumeration counts positions.
type Solved struct {
	StartOutcome string            `json:"start_outcome"`
	Outcomes     map[string]uint64 `json:"outcomes"`
	// OutcomesByTier are the positions of each tier by class, tier 0
	// first.
	OutcomesByTier []map[string]uint64 `json:"outcomes_by_tier"`
}

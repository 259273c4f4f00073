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
	// StartRemoteness is the start's remoteness (moves to the end with
	// best play) with each player to move.
	StartRemoteness *Remoteness `json:"start_remoteness,omitempty"`
	// Tablebase describes the tablebase the solve left in the outputs
	// (TablebaseDir); nil in a run solved before the solve kept one.
	Tablebase *TablebaseSummary `json:"tablebase,omitempty"`
}

// Remoteness is a position's remoteness with Left, and with Right, to
// move.
type Remoteness struct {
	LeftFirst  int `json:"left_first"`
	RightFirst int `json:"right_first"`
}

// TablebaseSummary is the size of a tablebase: its files, their bytes,
// the stored positions they hold and the bytes a stored position.
type TablebaseSummary struct {
	Files          int     `json:"files"`
	Bytes          int64   `json:"bytes"`
	Stored         uint64  `json:"stored"`
	BytesPerStored float64 `json:"bytes_per_stored"`
}

// HasTablebase reports whether s is a solved run's and the solve left a
// tablebase: a run solved before it kept one is solved again to gain it.
func (s *Solved) HasTablebase() bool { return s != nil && s.Tablebase != nil }

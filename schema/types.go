package schema

// Version is the version of the output tables. It changes whenever a column
// is added, removed or changes meaning. Version 2 added the pieces column
// cgsuite; the summary and tiers tables are the same in versions 1 and 2.
// Version 3 added the pieces' value columns (outcome, value, value_capped,
// value_nodes, cost); the other tables are the same in versions 2 and 3.
// Version 4 dropped the pieces column cgsuite, the picture with '|' for
// '/'; the other tables are the same in versions 3 and 4, and a reader of
// version 4 reads a pieces file of version 2 or 3 without it.
// A solved run's tiers table has the columns outcome_l, outcome_r,
// outcome_n and outcome_p after the others; they are absent from every
// other run's, so the census's outputs do not change when nothing is
// solved, and readers of version 3 take a tiers file with or without them.
const Version = 4

// Summary is one census run in numbers: the keys of summary.json and the one
// row of summary.parquet. Optional fields are nil for games they do not apply
// to (EdgeRuleJoins is Amazons only; the moved-piece fractions are Clobber
// only) and are then left out of summary.json.
type Summary struct {
	SchemaVersion int    `json:"schema_version"`
	Game          string `json:"game"`
	Board         string `json:"board"`
	// Start is the start position as a board diagram (rows separated by '/').
	Start string `json:"start"`

	Positions uint64 `json:"positions"`
	Moves     uint64 `json:"moves"`
	Tiers     int    `json:"tiers"`

	PositionsByTier []uint64 `json:"positions_by_tier"`
	SplitByTier     []uint64 `json:"split_by_tier"`

	SplitPositions               uint64         `json:"split_positions"`
	SplitShare                   float64        `json:"split_share"`
	MeanLivePiecesWhenSplit      float64        `json:"mean_live_pieces_when_split"`
	PositionsWithDead            uint64         `json:"positions_with_dead"`
	DeadShare                    float64        `json:"dead_share"`
	DeadFreeBoards               uint64         `json:"dead_free_boards"`
	PiecesInPlace                uint64         `json:"pieces_in_place"`
	PiecesTranslated             uint64         `json:"pieces_translated"`
	PiecesSymmetric              uint64         `json:"pieces_symmetric"`
	PiecesNegation               uint64         `json:"pieces_negation"`
	SelfNegativeSymmetric        uint64         `json:"self_negative_symmetric"`
	PiecesBySize                 map[int]uint64 `json:"pieces_by_size"`
	Joins                        uint64         `json:"joins"`
	EdgeRuleJoins                *uint64        `json:"edge_rule_joins,omitempty"`
	MovedPieceFraction           *float64       `json:"moved_piece_fraction,omitempty"`
	MovedPieceFractionAfterSplit *float64       `json:"moved_piece_fraction_after_split,omitempty"`

	// Stages says where the run's time went (summary.json only); nil in
	// the summaries of censuses before it was kept.
	Stages *Stages `json:"stages,omitempty"`

	// Values holds the counts of the values stage (summary.json only);
	// nil until that stage has run.
	*Values
	// Solved holds the outcomes of the solve stage (summary.json only);
	// nil until that stage has run.
	*Solved
}

// Tier is one row of tiers.parquet: the counts of one tier of a run.
type Tier struct {
	Game      string
	Board     string
	Tier      int32
	Positions uint64
	// Moves counts the moves made from the positions of this tier.
	Moves uint64
	// Split counts positions with two or more live pieces.
	Split uint64
	// LivePiecesWhenSplit is the sum of live pieces over the split positions.
	LivePiecesWhenSplit uint64
	// WithDead counts positions holding at least one dead piece.
	WithDead uint64
	Joins    uint64
	// EdgeRuleJoins is zero for games other than Amazons.
	EdgeRuleJoins uint64
	// Outcomes are the tier's positions by outcome class, nil until the
	// solve stage has run. Every row of one file has them or none has.
	Outcomes *TierOutcomes
}

// TierOutcomes are a tier's positions by outcome class (see COLUMNS.md),
// counted as the plain enumeration counts positions: they add up to the
// tier's Positions.
type TierOutcomes struct {
	L, R, N, P uint64
}

// Piece is one row of the pieces table: one distinct translated live piece.
// A piece key is 128 bits (KeyHi, KeyLo); see COLUMNS.md for its layout.
type Piece struct {
	Game  string
	Board string
	KeyHi uint64
	KeyLo uint64
	// Rows and Cols are the height and width of the piece's bounding box.
	Rows int32
	Cols int32
	// Size is stones for Clobber, squares of the piece otherwise.
	Size int32
	// Picture is the piece in the spec's characters, rows separated by '/'
	// (its CGSuite grid string is the same with '|' for '/').
	Picture string
	// SymmetricHi/Lo is the key of the piece's class under the game's
	// symmetries: the least key over the class.
	SymmetricHi uint64
	SymmetricLo uint64
	// NegationHi/Lo is the key of its class under symmetries and negation.
	NegationHi uint64
	NegationLo uint64
	// SelfNegative is true when the symmetric class equals its own negative.
	SelfNegative bool
	// Positions counts the positions the piece occurs in.
	Positions uint64
	// FirstTier is the least tier of a position it occurs in.
	FirstTier int32

	// PieceValue holds the value columns; they are null in the file when
	// Valued is false.
	PieceValue
}

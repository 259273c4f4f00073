package games

// Dense is a game whose tiers can be numbered densely: every arrangement
// of a tier's material has a rank, and a position's predecessors (the
// positions of the tier before that have it among their successors) can
// be listed. A census of such a game can find a tier from the one before
// it backwards: an arrangement is reachable when one of its predecessors
// is.
type Dense interface {
	// DenseTiers reports whether the numbering covers the game's start;
	// the other methods are for such a game only.
	DenseTiers() bool
	// TierSpace is the number of arrangements of tier t, ranked from 0.
	TierSpace(t int) uint64
	// Rank is the rank of pos in its tier.
	Rank(pos uint64) uint64
	// Arrangements calls f with every arrangement of tier t, in the order
	// of their ranks, until f returns false.
	Arrangements(t int, f func(pos uint64) bool)
	// AnyPredecessor calls reached with the predecessors of pos in turn,
	// and reports true at the first for which reached does; false when
	// none does.
	AnyPredecessor(pos uint64, reached func(pred uint64) bool) bool
}

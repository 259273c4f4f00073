package games

// Listed is a game whose reachable positions of a tier can be listed
// outright, without the tiers before it: Domineering, where a set of
// covered squares is reachable exactly when dominoes tile what the start
// left empty of it. A census of such a game finds each tier on its own:
// no successor is sent from one tier to the next.
type Listed interface {
	// ListedTiers reports whether the listing covers the game's start;
	// the other methods are for such a game only.
	ListedTiers() bool
	// TierSize is the number of reachable positions of tier t (every
	// one, not one an orbit of the symmetries).
	TierSize(t int) uint64
	// ListTier calls f with every reachable position of tier t that lies
	// in part `part` of `parts` (0 <= part < parts), until f returns
	// false. The parts of one parts count split the tier: each of its
	// positions is in exactly one of them, and they are about the same
	// size when the tier is much larger than parts.
	ListTier(t, part, parts int, f func(pos uint64) bool)
}

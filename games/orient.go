package games

// CanonSign is Canon of key together with whether the map that takes key to
// its representative negates (see KeyMap.Negates): exchanges the players,
// by the colour swap or, for Domineering, by a transpose. The solve needs
// it because a position and its negative have their outcomes with Left and
// Right exchanged. When several maps take key to the representative, the
// representative is fixed by a map that negates and one that does not, so
// it is its own negative and the answer does not matter (its outcome is N
// or P either way); CanonSign then reports false.
func (gr *Group) CanonSign(key uint64) (canon uint64, negated bool) {
	b := gr.bases(key)
	canon = key
	for _, m := range gr.maps[1:] {
		t := image(&b, m)
		switch {
		case t < canon:
			canon, negated = t, m.Negates
		case t == canon && !m.Negates:
			negated = false
		}
	}
	return canon, negated
}

// Negates reports whether some map of the group exchanges the players.
// Then the maps that do not form a subgroup of half its size, and a
// position that no map exchanging the players fixes has half its orbit in
// each coset: half its images are its negatives.
func (gr *Group) Negates() bool {
	for _, m := range gr.maps {
		if m.Negates {
			return true
		}
	}
	return false
}

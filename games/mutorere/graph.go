package mutorere

// A state is an arrangement and the player to move, numbered
// 2·Rank(arrangement) + mover: the two states of an arrangement are
// neighbours, Black to move first. The methods below make a Rules the
// explicit state graph retrograde analysis works on (retro.Graph).

// NumStates is twice NumArrangements.
func (r *Rules) NumStates() uint64 { return 2 * r.NumArrangements() }

// Index numbers the state (a, mover).
func (r *Rules) Index(a Arrangement, mover Colour) uint64 {
	return 2*r.Rank(a) + uint64(mover)
}

// State is the arrangement and mover of state s; it inverts Index.
func (r *Rules) State(s uint64) (Arrangement, Colour) {
	return r.Unrank(s / 2), Colour(s % 2)
}

// StartState is the start with Black to move.
func (r *Rules) StartState() uint64 { return r.Index(r.Start(), Black) }

// Successors appends to dst the state after each legal move from s, one per
// move, in the order of Moves.
func (r *Rules) Successors(s uint64, dst []uint64) []uint64 {
	a, c := r.State(s)
	var buf [MaxPoints]Arrangement
	for _, b := range r.Moves(a, c, buf[:0]) {
		dst = append(dst, r.Index(b, c.Other()))
	}
	return dst
}

// Predecessors appends to dst every state with a move to s, one per move.
func (r *Rules) Predecessors(s uint64, dst []uint64) []uint64 {
	a, c := r.State(s)
	prev := c.Other()
	var buf [MaxPoints]Arrangement
	for _, b := range r.Unmoves(a, prev, buf[:0]) {
		dst = append(dst, r.Index(b, prev))
	}
	return dst
}

// Describe draws state s: its arrangement as String draws it, and the
// mover, "B" or "W".
func (r *Rules) Describe(s uint64) (arrangement, mover string) {
	a, c := r.State(s)
	return r.String(a), c.String()
}

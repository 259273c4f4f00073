package play

// Solver is an exact, memoised whole-board solver of an acyclic game: the
// outcome of a state is Win when some move leads to a state lost for the
// opponent, else Loss. It suits the small boards players are measured on
// (every reachable state fits in memory); it is not safe for concurrent
// use.
type Solver struct {
	rules Rules
	memo  map[State]Verdict
	// bufs holds one move buffer per depth of the recursion.
	bufs [][]State
}

// NewSolver returns a solver over rules, which must not be loopy.
func NewSolver(rules Rules) *Solver {
	return &Solver{rules: rules, memo: make(map[State]Verdict)}
}

// Outcome is the verdict of s for the player to move.
func (sv *Solver) Outcome(s State) Verdict { return sv.solve(s, 0) }

// States is the number of states solved so far.
func (sv *Solver) States() int { return len(sv.memo) }

func (sv *Solver) solve(s State, depth int) Verdict {
	if v, ok := sv.memo[s]; ok {
		return v
	}
	if depth == len(sv.bufs) {
		sv.bufs = append(sv.bufs, nil)
	}
	moves := sv.rules.Moves(s, sv.bufs[depth][:0])
	sv.bufs[depth] = moves
	v := Loss
	for _, t := range moves {
		// The search stops at the first move that wins: the outcome needs
		// no more.
		if sv.solve(t, depth+1) == Loss {
			v = Win
			break
		}
	}
	sv.memo[s] = v
	return v
}

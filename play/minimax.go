package play

import (
	"fmt"
	"math/rand/v2"
)

// Minimax searches Depth moves ahead and scores every position at the
// horizon with a fresh uniform random number in [0, 1), for its side; it
// knows only the rule of the end: a position whose mover cannot move is
// lost for that mover (score 0 for it, 1 for the opponent), at the horizon
// or before. It plays the move of greatest minimax score, uniformly among
// equal ones (ties happen only between scores of ended games). Depth 0
// would score the moves themselves at random: that is Random.
//
// The search is alpha-beta: the leaves it cuts off are independent of
// everything it looks at, so drawing only the leaves it visits chooses
// each move with the same probabilities as scoring every leaf.
type Minimax struct {
	Rules Rules
	Depth int
	// MaxLeaves bounds the uniform leaves of a tree whose choice
	// probabilities Dist computes exactly (see exact.go).
	MaxLeaves int
	bufs      [][]State
	order     []int
	tree      tree
}

// DefaultMaxLeaves keeps one exact choice under a few million steps of
// arithmetic: quadrature with about MaxLeaves/2 points over a tree of a
// few times MaxLeaves nodes.
const DefaultMaxLeaves = 1024

// NewMinimax returns the depth-d player over rules.
func NewMinimax(rules Rules, d int) *Minimax {
	return &Minimax{Rules: rules, Depth: d, MaxLeaves: DefaultMaxLeaves}
}

func (m *Minimax) String() string { return fmt.Sprintf("minimax-random:%d", m.Depth) }

// Choose searches the tree below s, drawing leaf scores from rng.
func (m *Minimax) Choose(s State, moves []State, rng *rand.Rand) int {
	// Trying the moves in a random order and keeping the first of the
	// greatest score breaks ties uniformly.
	m.order = m.order[:0]
	for i := range moves {
		m.order = append(m.order, i)
	}
	rng.Shuffle(len(m.order), func(i, j int) { m.order[i], m.order[j] = m.order[j], m.order[i] })
	best, bestV := m.order[0], -1.0
	for _, i := range m.order {
		v := 1 - m.negamax(moves[i], m.Depth-1, 1-1, 1-bestV, 0, rng)
		if v > bestV {
			best, bestV = i, v
			if v >= 1 {
				break // an immediate win: nothing scores higher
			}
		}
	}
	return best
}

// negamax is the score of s for its mover, searched depth more moves
// within the window (alpha, beta): outside it the result is only a bound
// on the same side.
func (m *Minimax) negamax(s State, depth int, alpha, beta float64, ply int, rng *rand.Rand) float64 {
	if ply == len(m.bufs) {
		m.bufs = append(m.bufs, nil)
	}
	moves := m.Rules.Moves(s, m.bufs[ply][:0])
	m.bufs[ply] = moves
	if len(moves) == 0 {
		return 0
	}
	if depth == 0 {
		return rng.Float64()
	}
	best := -1.0
	for _, t := range moves {
		v := 1 - m.negamax(t, depth-1, 1-beta, 1-max(alpha, best), ply+1, rng)
		if v > best {
			best = v
			if best >= beta {
				break
			}
		}
	}
	return best
}

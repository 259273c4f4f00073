package play

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Player chooses moves.
type Player interface {
	// String names the player as the command line spells it.
	String() string
	// Choose returns the index in moves (the successors of s, at least one)
	// of the move to make, drawing any randomness from rng.
	Choose(s State, moves []State, rng *rand.Rand) int
	// Dist sets p[i] (len(p) == len(moves)) to the probability that Choose
	// picks moves[i], and reports false when it cannot compute them
	// exactly within its budget.
	Dist(s State, moves []State, p []float64) bool
}

// MaxDepth is the deepest minimax the command line offers.
const MaxDepth = 4

// Spec names a player as the command line does: random, perfect or
// minimax-random:D.
type Spec struct {
	Kind  string
	Depth int
}

// ParseSpec parses a player's name; the error names s.
func ParseSpec(s string) (Spec, error) {
	switch s {
	case "random", "perfect":
		return Spec{Kind: s}, nil
	}
	if d, ok := strings.CutPrefix(s, "minimax-random:"); ok {
		n, err := strconv.Atoi(d)
		if err == nil && n >= 0 && n <= MaxDepth && d[0] != '+' {
			return Spec{Kind: "minimax-random", Depth: n}, nil
		}
	}
	return Spec{}, fmt.Errorf("player %q: want random, perfect or minimax-random:D with D from 0 to %d", s, MaxDepth)
}

// String is the name ParseSpec reads.
func (sp Spec) String() string {
	if sp.Kind == "minimax-random" {
		return fmt.Sprintf("minimax-random:%d", sp.Depth)
	}
	return sp.Kind
}

// New builds the player over rules; the perfect player reads oracle.
func (sp Spec) New(rules Rules, oracle Oracle) Player {
	switch sp.Kind {
	case "perfect":
		return &Perfect{Oracle: oracle}
	case "minimax-random":
		if sp.Depth > 0 {
			return NewMinimax(rules, sp.Depth)
		}
	}
	return Random{}
}

// Random picks uniformly among the moves.
type Random struct{}

func (Random) String() string { return "random" }

func (Random) Choose(_ State, moves []State, rng *rand.Rand) int { return rng.IntN(len(moves)) }

func (Random) Dist(_ State, moves []State, p []float64) bool {
	for i := range p {
		p[i] = 1 / float64(len(moves))
	}
	return true
}

// Perfect plays a winning move when it has one, uniformly among them; else
// a drawing move, uniformly among them; else any move, uniformly. When the
// oracle is a Remoter it keeps only the fastest wins and, in a lost state,
// the slowest losses, as a perfect player of a loopy game must.
type Perfect struct {
	Oracle Oracle
	best   []int
}

func (*Perfect) String() string { return "perfect" }

// choices sets pl.best to the indices of the moves the player chooses
// among.
func (pl *Perfect) choices(moves []State) []int {
	pl.best = pl.best[:0]
	rem, _ := pl.Oracle.(Remoter)
	// A successor lost for the opponent is a win; drawn is a draw.
	want, bestRem := Win, 0
	for i, t := range moves {
		v := pl.Oracle.Outcome(t)
		mine := Win - v // the mover's verdict through t
		r := 0
		if rem != nil && mine != Draw {
			r = rem.Remoteness(t)
			if mine == Win {
				r = -r // fewer is better when winning
			}
		}
		switch {
		case len(pl.best) == 0 || mine > want || mine == want && r > bestRem:
			pl.best = append(pl.best[:0], i)
			want, bestRem = mine, r
		case mine == want && r == bestRem:
			pl.best = append(pl.best, i)
		}
	}
	if rem == nil && want == Loss {
		// Every move loses; without remoteness they are all alike.
		pl.best = pl.best[:0]
		for i := range moves {
			pl.best = append(pl.best, i)
		}
	}
	return pl.best
}

func (pl *Perfect) Choose(_ State, moves []State, rng *rand.Rand) int {
	b := pl.choices(moves)
	if len(b) == 1 {
		return b[0]
	}
	return b[rng.IntN(len(b))]
}

func (pl *Perfect) Dist(_ State, moves []State, p []float64) bool {
	clear(p)
	b := pl.choices(moves)
	for _, i := range b {
		p[i] = 1 / float64(len(b))
	}
	return true
}

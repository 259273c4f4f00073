package play

import (
	"context"
	"fmt"

	"github.com/census-cgt/census/games/mutorere"
	"github.com/census-cgt/census/retro"
)

// Mutorere is Mū tōrere as Rules, with its retrograde solution as the
// Oracle. A State's Pos is the state number of mutorere.Rules, which holds
// the mover; Left is Black.
type Mutorere struct {
	Rules  *mutorere.Rules
	result *retro.Result
	buf    []uint64
}

// NewMutorere solves the star's states by retrograde analysis.
func NewMutorere(ctx context.Context, r *mutorere.Rules) (*Mutorere, error) {
	res, err := retro.Solve(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("solve mutorere: %w", err)
	}
	return &Mutorere{Rules: r, result: res}, nil
}

// Start is the start state, Black to move. Black moves first in Mū tōrere,
// so a match's seats with Right moving first start from the same
// arrangement with White to move.
func (m *Mutorere) Start() uint64 { return m.Rules.StartState() }

// Moves appends the successors of s.
func (m *Mutorere) Moves(s State, dst []State) []State {
	m.buf = m.Rules.Successors(m.pos(s), m.buf[:0])
	for _, t := range m.buf {
		dst = append(dst, State{Pos: t, Left: !s.Left})
	}
	return dst
}

// pos is the state number of s with the mover s says.
func (m *Mutorere) pos(s State) uint64 {
	mover := uint64(mutorere.White)
	if s.Left {
		mover = uint64(mutorere.Black)
	}
	return s.Pos&^1 | mover
}

// Loopy is true: counters slide back and forth.
func (m *Mutorere) Loopy() bool { return true }

// Outcome is the retrograde verdict of s.
func (m *Mutorere) Outcome(s State) Verdict {
	switch m.result.Verdict[m.pos(s)] {
	case retro.Win:
		return Win
	case retro.Loss:
		return Loss
	}
	return Draw
}

// Remoteness is the retrograde remoteness of s.
func (m *Mutorere) Remoteness(s State) int { return int(m.result.Remoteness[m.pos(s)]) }

// Package play pits players against each other on solved boards: the
// uniform random player, minimax to a fixed depth over uniform random leaf
// scores, and the perfect player, who reads the outcome of every position
// from an exact oracle. A match either sums every branch of play exactly
// (Exact) or samples seeded games (Sample); each says which it did.
//
// The players follow the census rules of the games: normal play, the
// player who cannot move loses. Left is Black (x) in Clobber and Amazons,
// the vertical player in Domineering, and Black in Mū tōrere.
package play

import "github.com/census-cgt/census/games"

// State is a position with the player to move.
type State struct {
	// Pos is the position in the game's packing (for Mū tōrere, its state
	// number, which holds the mover too).
	Pos uint64
	// Left is true when Left is to move.
	Left bool
}

// Rules lists the moves of the player to move. Moves must be pure and
// list the moves in the same order every time, so that seeded play is
// reproducible.
type Rules interface {
	// Moves appends to dst the state after each legal move from s; in
	// each the other player is to move.
	Moves(s State, dst []State) []State
	// Loopy reports whether positions can recur, so that play may never
	// end.
	Loopy() bool
}

// GameRules are the rules of a tiered census game.
type GameRules struct {
	Game games.Mover
	buf  []uint64
}

// NewGameRules returns the rules of g.
func NewGameRules(g games.Mover) *GameRules { return &GameRules{Game: g} }

// Moves appends the successors of s by the mover's options. It reuses a
// buffer, so a GameRules serves one goroutine.
func (r *GameRules) Moves(s State, dst []State) []State {
	r.buf = r.Game.Options(s.Pos, s.Left, r.buf[:0])
	for _, p := range r.buf {
		dst = append(dst, State{Pos: p, Left: !s.Left})
	}
	return dst
}

// Loopy is false: every move of a census game takes a tier.
func (r *GameRules) Loopy() bool { return false }

// Verdict is the outcome of a state for the player to move.
type Verdict int8

const (
	Loss Verdict = iota
	Draw
	Win
)

// String is "L", "D" or "W".
func (v Verdict) String() string { return [...]string{"L", "D", "W"}[v] }

// Oracle knows the outcome of every state with best play from both sides.
// The in-memory Solver is one; a solved census can be another.
type Oracle interface {
	Outcome(s State) Verdict
}

// Remoter is an Oracle that also knows how many moves the game lasts with
// best play (the winner hurrying, the loser holding out). The perfect
// player needs it in loopy games, where a winning move that does not
// bring the end nearer can let the game go round for ever.
type Remoter interface {
	Oracle
	Remoteness(s State) int
}

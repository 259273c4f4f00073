package probe

import (
	"fmt"

	"github.com/census-cgt/census/solve"
)

// Player is the player to move: Left (Black, x, in Clobber and Amazons;
// vertical in Domineering) or Right.
type Player uint8

// The players; Both asks for both.
const (
	Both Player = iota
	Left
	Right
)

// String is the player's name as the CLI and the API spell it: "left",
// "right" ("" for Both).
func (p Player) String() string {
	switch p {
	case Left:
		return "left"
	case Right:
		return "right"
	}
	return ""
}

// Other is the opponent of p (Both for Both).
func (p Player) Other() Player {
	switch p {
	case Left:
		return Right
	case Right:
		return Left
	}
	return Both
}

// ParsePlayer reads "left" or "right"; "" is Both.
func ParsePlayer(s string) (Player, error) {
	switch s {
	case "left":
		return Left, nil
	case "right":
		return Right, nil
	case "":
		return Both, nil
	}
	return Both, fmt.Errorf("player to move %q: want left or right", s)
}

// Result is a position's result for the player to move: "win" or "loss",
// and the remoteness (moves to the end with best play).
type Result struct {
	Result     string `json:"result"`
	Remoteness int    `json:"remoteness"`
}

// resultOf is the result for the player to move at remoteness r.
func resultOf(r uint8) Result {
	if solve.Wins(r) {
		return Result{Result: "win", Remoteness: int(r)}
	}
	return Result{Result: "loss", Remoteness: int(r)}
}

// Move is one legal move and what it leads to.
type Move struct {
	// Move is the move in the game's notation (see Notation).
	Move string `json:"move"`
	// Player is the player who makes it.
	Player string `json:"player"`
	// Squares are the squares it touches, by index r*COLS+c, in the
	// order a player picks them: Clobber the stone and the stone it
	// captures; Domineering the domino's two squares; Amazons the amazon,
	// its destination and the arrow's square.
	Squares []int `json:"squares"`
	// Diagram is the position after the move.
	Diagram string `json:"diagram"`
	// Result is "win" when the move wins for the player who makes it
	// (the opponent, to move after it, loses), else "loss".
	Result string `json:"result"`
	// Remoteness is the remoteness of the position after the move, with
	// the opponent to move: the moves left after this one.
	Remoteness int `json:"remoteness"`
	// next is the position after the move.
	next uint64
}

// Piece is one live piece of a valued run's position and its value.
type Piece struct {
	// Picture draws the piece translated to its corner, rows separated
	// by '/'.
	Picture string `json:"picture"`
	// Value is its canonical form in CGSuite's notation, "" when the
	// run's values do not hold it (capped, missing or not valued: Note
	// says which).
	Value   string `json:"value"`
	Outcome string `json:"outcome,omitempty"`
	Note    string `json:"note,omitempty"`
}

// Answer is everything the tablebase says of one position: `census probe
// --json` prints one a line, and the HTTP API answers with one.
type Answer struct {
	Diagram string `json:"diagram"`
	Game    string `json:"game"`
	Board   string `json:"board"`
	// Tier is the number of moves from the start to the position.
	Tier int `json:"tier"`
	// Outcome is the class: L, R, N or P.
	Outcome string `json:"outcome"`
	// LeftFirst and RightFirst are the results with Left, and with Right,
	// to move.
	LeftFirst  Result `json:"left_first"`
	RightFirst Result `json:"right_first"`
	// ToMove is the player asked for, "" when both were.
	ToMove string `json:"to_move,omitempty"`
	// Moves lists each player's legal moves (the one asked for, or both),
	// keyed "left" and "right", best first: winning moves by least
	// remoteness, then losing moves by greatest.
	Moves map[string][]Move `json:"moves,omitempty"`
	// BestLine is, for each such player, the line of best play to the end
	// of the game: that player's best move, the opponent's best reply,
	// and so on.
	BestLine map[string][]Move `json:"best_line,omitempty"`
	// Pieces and Value, in a valued run only: each live piece's value and
	// their sum ("" when some piece has none).
	Pieces []Piece `json:"pieces,omitempty"`
	Value  *string `json:"value,omitempty"`
	Error  string  `json:"error,omitempty"`
	record solve.Record
}

// Record is the answer's position's record.
func (a *Answer) Record() solve.Record { return a.record }

// RunInfo describes a solved run that a Table serves.
type RunInfo struct {
	// Name is the run's directory name, GAME-BOARD: the run's name in
	// the API's paths.
	Name  string `json:"name"`
	Game  string `json:"game"`
	Board string `json:"board"`
	Rows  int    `json:"rows"`
	Cols  int    `json:"cols"`
	// Start is the start position's diagram.
	Start string `json:"start"`
	// Positions counts the positions reachable from the start; Stored
	// the representatives the tablebase holds (one an orbit of the
	// start's symmetries).
	Positions uint64 `json:"positions"`
	Stored    uint64 `json:"stored"`
	Tiers     int    `json:"tiers"`
	// StartOutcome is the start's class.
	StartOutcome string `json:"start_outcome"`
	// Valued says whether the run's pieces were valued (census values),
	// so that answers give each piece's value.
	Valued bool `json:"valued"`
}

package games

// Mover is a Game that can list one player's moves, as valuing pieces needs
// (Expand lists both players' moves without saying whose they are). Left is
// Black (x) in Clobber and Amazons and the vertical player in Domineering;
// Right is White (o) and the horizontal player.
//
// Like Game's, its methods are pure and safe for concurrent use, and
// Options allocates only when dst lacks capacity.
type Mover interface {
	Game
	// Options appends to dst the successor of every move of Left in pos
	// when left is true, else of every move of Right.
	Options(pos uint64, left bool, dst []uint64) []uint64
	// PiecePosition is the translated piece k as a position of this game
	// on a board of k's bounding box.
	PiecePosition(k PieceKey) uint64
}

// Parser is a Game that reads a position of its own board from a board
// diagram in the spec's characters, failing with an error that wraps
// ErrBadDiagram and names what is wrong.
type Parser interface {
	Parse(diagram string) (uint64, error)
}

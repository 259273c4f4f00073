// Package games defines what census needs of a game: the Game interface,
// boards and their geometry, pieces and piece keys, the board symmetries
// and canonical keys (Group), and the position kernel a tier job calls for
// every position (Kernel, Visit; kernel.go), with the plain kernel built
// from Game and Group calls that the games' own kernels are checked
// against. The rules and the own kernels live in one package per game
// (clobber, domineering, amazons; konane and mutorere for the two older
// games); what two games share (PlaneDiagrams, PlaneTranslator, DeltaSwap)
// is here.
package games

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
)

// Game is the rules of one game on one board from one start position.
//
// Positions are packed into a uint64 key whose layout belongs to the game.
// Every method is pure and safe for concurrent use; the methods that take a
// dst slice append to it and allocate only when it lacks capacity.
type Game interface {
	// Name is the game's name as the CLI spells it, e.g. "clobber".
	Name() string
	// Board is the board the game is played on.
	Board() Board
	// Start is the start position.
	Start() uint64
	// Tier is the number of moves made from the start to reach pos.
	Tier(pos uint64) int
	// MaxTier bounds the tier of every position from above.
	MaxTier() int
	// Pieces appends the pieces of pos, live and dead, to dst.
	Pieces(pos uint64, dst []Piece) []Piece
	// DeadFree is pos with every dead piece deleted. pieces must be the
	// pieces of pos.
	DeadFree(pos uint64, pieces []Piece) uint64
	// Expand appends every successor of pos (one per legal move of either
	// player) to dst and adds the per-move measures to m, each counted
	// weight times (the positions pos stands for). pieces must be the
	// pieces of pos.
	Expand(pos uint64, pieces []Piece, dst []uint64, m *MoveStats, weight uint64) []uint64
	// KeyMaps lists the symmetries of the rules on this board as maps of
	// position keys, the identity first.
	KeyMaps() []*KeyMap
	// Translate is the piece with the in-place key k shifted to the top-left
	// corner of its bounding box.
	Translate(k uint64) PieceKey
	// Classes returns the keys of the symmetric class and the negation class
	// of the translated piece k (each the least key over its class), and
	// whether the symmetric class equals its own negative.
	Classes(k PieceKey) (sym, neg PieceKey, selfNegative bool)
	// Size is the size the census counts a translated piece by: stones for
	// Clobber, squares of the piece otherwise.
	Size(k PieceKey) int
	// Picture draws a translated piece in the spec's characters.
	Picture(k PieceKey) string
	// CGSuite draws a translated piece as a CGSuite grid string, in the
	// characters of the game's CGSuite ruleset (see FormatCGSuite).
	CGSuite(k PieceKey) string
	// Format draws a position as a board diagram.
	Format(pos uint64) string
}

// PieceDrawer is a Game that also draws translated pieces into a
// caller's buffer: AppendPicture appends Picture(k) to dst, not allocating
// when dst has room, for the writers of a row per piece.
type PieceDrawer interface {
	AppendPicture(dst []byte, k PieceKey) []byte
}

// Piece is one independent piece of a position.
type Piece struct {
	// Mask holds the squares of the piece.
	Mask uint64
	// Key is the piece at its place on the board, in the game's packing.
	Key uint64
	// Size is stones (Clobber) or squares of the piece.
	Size int
	// Live is false for a dead piece (the game 0).
	Live bool
}

// MoveStats accumulates the per-move measures of a set of positions.
type MoveStats struct {
	Moves         uint64
	Joins         uint64
	EdgeRuleJoins uint64
	// MovedPiece counts moves by the stones on the board (n) and the stones
	// in the piece the move is made in (k), at index n*Stride+k; nil for games
	// that do not measure it. MovedPieceSplit counts only moves from
	// positions that hold two or more pieces.
	MovedPiece, MovedPieceSplit []uint64
}

// MoveCounter is a Game that adds the per-move measures of a position to
// MoveStats without listing its successors: CountMoves(pos, pieces, m,
// weight) adds exactly what Expand(pos, pieces, dst, m, weight) adds. A
// census whose tiers send no successors (listed or backward tiers) counts
// the moves of each position with it.
type MoveCounter interface {
	CountMoves(pos uint64, pieces []Piece, m *MoveStats, weight uint64)
}

// MovedPieceStride is the row length of MoveStats.MovedPiece.
const MovedPieceStride = 65

// NewMoveStats returns empty MoveStats; withMovedPiece allocates the
// moved-piece histograms.
func NewMoveStats(withMovedPiece bool) *MoveStats {
	m := &MoveStats{}
	if withMovedPiece {
		m.MovedPiece = make([]uint64, MovedPieceStride*MovedPieceStride)
		m.MovedPieceSplit = make([]uint64, MovedPieceStride*MovedPieceStride)
	}
	return m
}

// Add adds o to m.
func (m *MoveStats) Add(o *MoveStats) {
	m.Moves += o.Moves
	m.Joins += o.Joins
	m.EdgeRuleJoins += o.EdgeRuleJoins
	if o.MovedPiece != nil && m.MovedPiece == nil {
		m.MovedPiece = make([]uint64, len(o.MovedPiece))
		m.MovedPieceSplit = make([]uint64, len(o.MovedPieceSplit))
	}
	for i, v := range o.MovedPiece {
		m.MovedPiece[i] += v
	}
	for i, v := range o.MovedPieceSplit {
		m.MovedPieceSplit[i] += v
	}
}

// MeanFraction is the mean of k/n over a moved-piece histogram, and false
// when it holds no moves.
func MeanFraction(h []uint64) (float64, bool) {
	var sum float64
	var count uint64
	for n := 1; n < MovedPieceStride && n*MovedPieceStride < len(h); n++ {
		for k := 0; k <= n; k++ {
			c := h[n*MovedPieceStride+k]
			sum += float64(c) * float64(k) / float64(n)
			count += c
		}
	}
	if count == 0 {
		return 0, false
	}
	return sum / float64(count), true
}

// PieceKey is a translated piece: its bounding box in Hi (rows<<8 | cols)
// and its cells in Lo, in the game's packing with row stride cols. Keys
// order by Hi, then Lo.
type PieceKey struct{ Hi, Lo uint64 }

// Less reports whether k orders before o.
func (k PieceKey) Less(o PieceKey) bool {
	return k.Hi < o.Hi || k.Hi == o.Hi && k.Lo < o.Lo
}

// Compare orders k and o as Less does: -1 if k orders before o, 1 if
// after, 0 if they are equal. It is what slices.SortFunc takes, as
// games.PieceKey.Compare.
func (k PieceKey) Compare(o PieceKey) int {
	if k.Hi != o.Hi {
		return cmp.Compare(k.Hi, o.Hi)
	}
	return cmp.Compare(k.Lo, o.Lo)
}

// Dims returns the rows and columns of the piece's bounding box.
func (k PieceKey) Dims() (rows, cols int) { return int(k.Hi >> 8), int(k.Hi & 0xff) }

// MakePieceKey packs a bounding box and cells.
func MakePieceKey(rows, cols int, cells uint64) PieceKey {
	return PieceKey{Hi: uint64(rows)<<8 | uint64(cols), Lo: cells}
}

// Sentinel errors of board and diagram parsing.
var (
	ErrBadBoard   = errors.New("bad board")
	ErrBadDiagram = errors.New("bad start diagram")
)

// OnesCount is the number of set bits of m.
func OnesCount(m uint64) int { return bits.OnesCount64(m) }

// Errorf wraps a sentinel error with a message naming the bad value.
func errorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
}

package fragment

import (
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/census-cgt/census/games"
)

const (
	magic        = "CNSF"
	trailerMagic = "FSNC"
	version      = 1
	// trailerLen is the bytes of the trailer: the checksum and the magic.
	trailerLen = 8
)

// Kind says what records a fragment holds.
type Kind uint8

// The fragment kinds.
const (
	KindPositions  Kind = 1 + iota // uint64 position keys
	KindDeadFree                   // uint64 dead-free board keys
	KindInPlace                    // uint64 in-place piece keys
	KindPieces                     // translated pieces with occurrence counts (Piece)
	KindClassPairs                 // (negation, symmetric) class pairs, as census wrote them before KindClasses: read, never written
	KindPieceRows                  // pieces with their counts and classes (PieceRow)
	KindClasses                    // symmetric classes named by their negation classes (Class)
)

func (k Kind) String() string {
	switch k {
	case KindPositions:
		return "positions"
	case KindDeadFree:
		return "deadfree"
	case KindInPlace:
		return "inplace"
	case KindPieces:
		return "pieces"
	case KindClasses:
		return "classes"
	case KindClassPairs:
		return "classpairs"
	case KindPieceRows:
		return "piecerows"
	}
	return fmt.Sprintf("kind%d", uint8(k))
}

// ErrCorrupt marks a fragment that fails its checks: a bad header, a
// checksum mismatch, a truncation, keys out of order. Retrying cannot help.
var ErrCorrupt = errors.New("corrupt fragment")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header identifies what a fragment holds.
type Header struct {
	Kind  Kind
	Game  string // at most 255 bytes
	Rows  int    // 0..255
	Cols  int    // 0..255
	Tier  int    // stored as a uint32 and read back as an int32
	Count uint64 // records
}

// Piece is a translated piece with the number of positions it occurs in
// and the least tier it occurs in.
type Piece struct {
	Key       games.PieceKey
	Positions uint64
	FirstTier int32
}

// Class is a symmetric class named by its negation class. A negation
// class is a symmetric class and its negative's, named by the lesser of
// their least keys (games.Classes), so the symmetric class is either the
// one whose key names the negation class or, when Other, the other one: a
// bit tells the two apart. Records sort by Neg, then Other.
type Class struct {
	Neg          games.PieceKey
	Other        bool
	SelfNegative bool
}

// PieceRow is a translated piece with what its row of the pieces table
// needs beyond the piece itself: its counts and its classes.
type PieceRow struct {
	Piece
	Sym, Neg     games.PieceKey
	SelfNegative bool
}

// Info is what a Writer reports of the fragment it wrote.
type Info struct {
	Size int64  // bytes, header to trailer
	Sum  uint32 // the crc32c the trailer holds: of the header and payload
}

package jobs

import (
	"io"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
)

// The fragments that jobs read and write are codec/fragment's: this file
// gives its types their names in job messages and kernels, and makes its
// writers return the Blob that names what they wrote.

// Kind says what records a fragment holds; KindKept and KindTable name
// blobs that are not fragments.
type Kind = fragment.Kind

// The fragment kinds.
const (
	KindPositions  = fragment.KindPositions
	KindDeadFree   = fragment.KindDeadFree
	KindInPlace    = fragment.KindInPlace
	KindPieces     = fragment.KindPieces
	kindClassPairs = fragment.KindClassPairs
	KindPieceRows  = fragment.KindPieceRows
	KindClasses    = fragment.KindClasses
)

// Header identifies what a fragment holds.
type Header = fragment.Header

// PieceRecord is a translated piece with the number of positions it occurs
// in and the least tier it occurs in.
type PieceRecord = fragment.Piece

// ClassRecord is a symmetric class named by its negation class.
type ClassRecord = fragment.Class

// ErrCorrupt marks an input that fails its checks: a fragment that fails
// its own (it is fragment.ErrCorrupt), or one that does not match its job,
// a kept blob or tablebase shard that fails theirs, a position out of its
// tier or shard. Retrying cannot help.
var ErrCorrupt = fragment.ErrCorrupt

// pieceClasses are the classes of one translated piece, as its row of the
// pieces table names them.
type pieceClasses struct {
	Sym, Neg     games.PieceKey
	SelfNegative bool
}

// record is the class record of the piece's symmetric class.
func (c pieceClasses) record() ClassRecord {
	return ClassRecord{Neg: c.Neg, Other: c.Sym != c.Neg, SelfNegative: c.SelfNegative}
}

// writeFragment writes one fragment of h.Count records, those encode
// writes, to w and returns the blob section it makes (without a name or
// offset).
func writeFragment(w io.Writer, h Header, encode func(*fragment.Writer) error) (Blob, error) {
	info, err := fragment.Write(w, h, encode)
	if err != nil {
		return Blob{}, err
	}
	return Blob{Kind: h.Kind, Size: info.Size, Sum: info.Sum, Count: h.Count}, nil
}

// asBlob makes a writer of a fragment of records return the blob section
// it makes.
func asBlob[T any](write func(io.Writer, Header, []T) (fragment.Info, error)) func(io.Writer, Header, []T) (Blob, error) {
	return func(w io.Writer, h Header, recs []T) (Blob, error) {
		info, err := write(w, h, recs)
		if err != nil {
			return Blob{}, err
		}
		return Blob{Kind: h.Kind, Size: info.Size, Sum: info.Sum, Count: uint64(len(recs))}, nil
	}
}

// The writers of one fragment of sorted unique records: keys, pieces,
// classes and piece rows.
var (
	writeKeys      = asBlob(fragment.WriteKeys)
	writePieces    = asBlob(fragment.WritePieces)
	writeClasses   = asBlob(fragment.WriteClasses)
	writePieceRows = asBlob(fragment.WritePieceRows)
)

package schema

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
)

// ReadPieces reads a whole pieces file into memory, rows in file order. The
// result is never nil. It is meant for tests and small runs; it returns an
// error wrapping ErrWrongTable when the file holds another table or schema
// version, and an error when the file is not Parquet or cannot be read.
func ReadPieces(r parquet.ReaderAtSeeker) ([]Piece, error) {
	rows, err := readPieces(r)
	if err != nil {
		return nil, fmt.Errorf("read pieces: %w", err)
	}
	return rows, nil
}

func readPieces(r parquet.ReaderAtSeeker) ([]Piece, error) {
	return readAll(r, scanPieces)
}

// ScanPiecesFile reads the pieces file at path row by row, calling fn with
// each row in file order; it holds one record batch at a time, so a part of
// any size is read in bounded memory. It stops at fn's first error and
// returns it. It fails like ReadPieces, and when the file cannot be opened.
func ScanPiecesFile(path string, fn func(Piece) error) error {
	return scanFile(path, TablePieces, scanPieces, fn)
}

func scanPieces(r parquet.ReaderAtSeeker, fn func(Piece) error) error {
	var in interner
	return readTable(r, TablePieces, func(rec arrow.RecordBatch) error {
		var (
			game      = rec.Column(pGame).(*array.String)
			board     = rec.Column(pBoard).(*array.String)
			picture   = rec.Column(pPicture).(*array.String)
			selfNeg   = rec.Column(pSelfNegative).(*array.Boolean)
			u64s      = func(c int) []uint64 { return rec.Column(c).(*array.Uint64).Uint64Values() }
			i32s      = func(c int) []int32 { return rec.Column(c).(*array.Int32).Int32Values() }
			keyHi     = u64s(pKeyHi)
			keyLo     = u64s(pKeyLo)
			symHi     = u64s(pSymmetricHi)
			symLo     = u64s(pSymmetricLo)
			negHi     = u64s(pNegationHi)
			negLo     = u64s(pNegationLo)
			positions = u64s(pPositions)
			rows32    = i32s(pRows)
			cols      = i32s(pCols)
			size      = i32s(pSize)
			firstTier = i32s(pFirstTier)
			value     = newPieceValueColumns(rec)
		)
		for i := 0; i < int(rec.NumRows()); i++ {
			err := fn(Piece{
				Game:         in.get(game.Value(i)),
				Board:        in.get(board.Value(i)),
				KeyHi:        keyHi[i],
				KeyLo:        keyLo[i],
				Rows:         rows32[i],
				Cols:         cols[i],
				Size:         size[i],
				Picture:      strings.Clone(picture.Value(i)),
				SymmetricHi:  symHi[i],
				SymmetricLo:  symLo[i],
				NegationHi:   negHi[i],
				NegationLo:   negLo[i],
				SelfNegative: selfNeg.Value(i),
				Positions:    positions[i],
				FirstTier:    firstTier[i],
				PieceValue:   value.at(i),
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// ReadPiecesFile reads the pieces file at path. It fails like ReadPieces,
// and when the file cannot be opened.
func ReadPiecesFile(path string) ([]Piece, error) {
	return readFile(path, TablePieces, readPieces)
}

package schema

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
)

// PieceWriter streams rows of the pieces table into one Parquet file (a
// pieces/part-*.parquet). It buffers DefaultBatchRows rows in an Arrow record
// batch, hands full batches to the Parquet writer, and cuts row groups of
// DefaultRowGroupRows rows, so memory stays bounded by one batch plus the
// encoded pages of one row group (about 110 MB live heap at the defaults),
// however many rows are written. Callers should write
// rows sorted by (KeyHi, KeyLo): the key columns are delta-encoded and
// compress best sorted. A PieceWriter is not safe for concurrent use.
type PieceWriter struct {
	bw *batchWriter

	game, board, picture, cgsuite            *array.StringBuilder
	keyHi, keyLo, symHi, symLo, negHi, negLo *array.Uint64Builder
	positions                                *array.Uint64Builder
	rows, cols, size, firstTier              *array.Int32Builder
	selfNeg                                  *array.BooleanBuilder
	value                                    pieceValueBuilders
}

// NewPieceWriter starts a pieces file on w. Close must be called to finish
// the file. It returns an error when the Parquet writer cannot start.
func NewPieceWriter(w io.Writer) (*PieceWriter, error) {
	pw, err := newPieceWriter(w, defaultOptions)
	if err != nil {
		return nil, fmt.Errorf("start pieces: %w", err)
	}
	return pw, nil
}

// NewPieceWriterRows is NewPieceWriter with row groups of at most
// rowGroupRows rows: the writer holds about one row group in memory (some
// 100 bytes a row), so a job with a small memory budget asks for small
// groups.
func NewPieceWriterRows(w io.Writer, rowGroupRows int64) (*PieceWriter, error) {
	pw, err := newPieceWriter(w, rowGroupOptions(rowGroupRows))
	if err != nil {
		return nil, fmt.Errorf("start pieces: %w", err)
	}
	return pw, nil
}

func newPieceWriter(w io.Writer, o writeOptions) (*PieceWriter, error) {
	bw, err := newBatchWriter(TablePieces, piecesSchema, w, o, ColKeyHi, ColKeyLo)
	if err != nil {
		return nil, err
	}
	b := bw.b
	return &PieceWriter{
		bw:        bw,
		game:      b.Field(pGame).(*array.StringBuilder),
		board:     b.Field(pBoard).(*array.StringBuilder),
		picture:   b.Field(pPicture).(*array.StringBuilder),
		cgsuite:   b.Field(pCGSuite).(*array.StringBuilder),
		keyHi:     b.Field(pKeyHi).(*array.Uint64Builder),
		keyLo:     b.Field(pKeyLo).(*array.Uint64Builder),
		symHi:     b.Field(pSymmetricHi).(*array.Uint64Builder),
		symLo:     b.Field(pSymmetricLo).(*array.Uint64Builder),
		negHi:     b.Field(pNegationHi).(*array.Uint64Builder),
		negLo:     b.Field(pNegationLo).(*array.Uint64Builder),
		positions: b.Field(pPositions).(*array.Uint64Builder),
		rows:      b.Field(pRows).(*array.Int32Builder),
		cols:      b.Field(pCols).(*array.Int32Builder),
		size:      b.Field(pSize).(*array.Int32Builder),
		firstTier: b.Field(pFirstTier).(*array.Int32Builder),
		selfNeg:   b.Field(pSelfNegative).(*array.BooleanBuilder),
		value:     newPieceValueBuilders(b),
	}, nil
}

// Write appends one row. It returns an error when a full batch cannot be
// written, or after Close or an earlier error; the file is then unusable.
func (pw *PieceWriter) Write(p Piece) error {
	if pw.bw.err != nil {
		return pw.bw.err
	}
	pw.game.Append(p.Game)
	pw.board.Append(p.Board)
	pw.keyHi.Append(p.KeyHi)
	pw.keyLo.Append(p.KeyLo)
	pw.rows.Append(p.Rows)
	pw.cols.Append(p.Cols)
	pw.size.Append(p.Size)
	pw.picture.Append(p.Picture)
	pw.cgsuite.Append(p.CGSuite)
	pw.symHi.Append(p.SymmetricHi)
	pw.symLo.Append(p.SymmetricLo)
	pw.negHi.Append(p.NegationHi)
	pw.negLo.Append(p.NegationLo)
	pw.selfNeg.Append(p.SelfNegative)
	pw.positions.Append(p.Positions)
	pw.firstTier.Append(p.FirstTier)
	pw.value.append(p.PieceValue)
	return pw.bw.rowDone()
}

// Close writes the rows still buffered and the file footer. It does not
// close the underlying writer. It returns an error when writing fails, or
// when the PieceWriter had already failed or been closed.
func (pw *PieceWriter) Close() error {
	return pw.bw.close()
}

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
	rows := []Piece{}
	err := scanPieces(r, func(p Piece) error {
		rows = append(rows, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// ScanPiecesFile reads the pieces file at path row by row, calling fn with
// each row in file order; it holds one record batch at a time, so a part of
// any size is read in bounded memory. It stops at fn's first error and
// returns it. It fails like ReadPieces, and when the file cannot be opened.
func ScanPiecesFile(path string, fn func(Piece) error) error {
	_, err := readFile(path, TablePieces, func(r parquet.ReaderAtSeeker) (struct{}, error) {
		return struct{}{}, scanPieces(r, fn)
	})
	return err
}

func scanPieces(r parquet.ReaderAtSeeker, fn func(Piece) error) error {
	var in interner
	return readTable(r, TablePieces, func(rec arrow.RecordBatch) error {
		var (
			game      = rec.Column(pGame).(*array.String)
			board     = rec.Column(pBoard).(*array.String)
			picture   = rec.Column(pPicture).(*array.String)
			cgsuite   = rec.Column(pCGSuite).(*array.String)
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
				CGSuite:      strings.Clone(cgsuite.Value(i)),
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

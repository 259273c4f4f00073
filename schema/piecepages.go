package schema

import (
	"errors"
	"fmt"
	"io"

	pqschema "github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/census-cgt/census/codec/parquetpages"
)

// UnvaluedPieceWriter streams rows without values (the census's rows,
// before any values stage) into one pieces file. It writes the file
// PieceWriter writes, but for the cut of the data pages (the same schema,
// metadata, encodings, compression and statistics), at a fraction of its
// cost: it hands each row's columns to a parquetpages.Writer, which
// encodes them straight into the data page of each column (PLAIN,
// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY or dictionary indices, as
// piecesProps says, which it reads), with their statistics, and writes
// pages, row groups and footer. The value columns are null in every row:
// a valued row is refused. Callers should write rows sorted by (KeyHi,
// KeyLo). An UnvaluedPieceWriter is not safe for concurrent use.
type UnvaluedPieceWriter struct {
	pages *parquetpages.Writer
	cols  []parquetpages.Column // the pages' columns, in schema order
	err   error
}

// NewUnvaluedPieceWriter starts a pieces file on w with row groups of at
// most rowGroupRows rows (at least 1,024, at most DefaultRowGroupRows),
// its pages compressed with codec: the writer holds about one row group,
// compressed (some 20 bytes a row with zstd), and a page of each column.
// Close must be called to finish the file.
func NewUnvaluedPieceWriter(w io.Writer, rowGroupRows int64, codec Codec) (*UnvaluedPieceWriter, error) {
	o := rowGroupOptions(rowGroupRows)
	pw, err := newUnvaluedPieceWriter(w, o.rowGroupRows, codec)
	if err != nil {
		return nil, fmt.Errorf("start pieces: %w", err)
	}
	return pw, nil
}

func newUnvaluedPieceWriter(w io.Writer, rowGroupRows int64, codec Codec) (*UnvaluedPieceWriter, error) {
	if rowGroupRows <= 0 {
		return nil, fmt.Errorf("bad row group size %d", rowGroupRows)
	}
	if _, err := ParseCodec(string(codec)); err != nil {
		return nil, err
	}
	props := piecesProps(writeOptions{batchRows: 1, rowGroupRows: rowGroupRows, codec: codec})
	root, err := piecesParquetRoot(props)
	if err != nil {
		return nil, err
	}
	pages, err := parquetpages.NewWriter(w, pqschema.NewSchema(root), props, piecesFileMetadata())
	if err != nil {
		return nil, err
	}
	return &UnvaluedPieceWriter{pages: pages, cols: pages.Columns()}, nil
}

// DrainPieceWriterBuffers drops the buffers that finished
// UnvaluedPieceWriters left for the next ones: a process that turns to
// other work calls it so that they do not stay in its memory.
func DrainPieceWriterBuffers() { parquetpages.DrainBuffers() }

// pNumFields is the number of columns of the pieces table.
const pNumFields = pCost + 1

// errValued is returned for a row with values.
var errValued = errors.New("a row with values: this writer writes rows without values")

// Write appends one row, which must have no values. It returns an error
// when a page or row group cannot be written, or after Close or an
// earlier error; the file is then unusable.
func (pw *UnvaluedPieceWriter) Write(p Piece) error {
	if err := pw.check(&p); err != nil {
		return err
	}
	pw.cols[pPicture].AddString(p.Picture)
	return pw.write(&p)
}

// WriteDrawn is Write of the row p with the picture given as bytes
// (p.Picture is not read), which it copies: a caller that draws it into a
// buffer of its own writes rows without making a string a row.
func (pw *UnvaluedPieceWriter) WriteDrawn(p *Piece, picture []byte) error {
	if err := pw.check(p); err != nil {
		return err
	}
	pw.cols[pPicture].AddBytes(picture)
	return pw.write(p)
}

// check returns the error that stops the row p from being written: an
// earlier error, or values in p.
func (pw *UnvaluedPieceWriter) check(p *Piece) error {
	if pw.err != nil {
		return pw.err
	}
	if p.Valued {
		pw.fail(fmt.Errorf("write %s: %w", TablePieces, errValued))
		return pw.err
	}
	return nil
}

// write adds the columns of the row p but its picture, which the caller
// has added, and ends the row.
func (pw *UnvaluedPieceWriter) write(p *Piece) error {
	c := pw.cols[:pNumFields]
	c[pGame].AddString(p.Game)
	c[pBoard].AddString(p.Board)
	c[pKeyHi].AddInt64(int64(p.KeyHi))
	c[pKeyLo].AddInt64(int64(p.KeyLo))
	c[pRows].AddInt32(p.Rows)
	c[pCols].AddInt32(p.Cols)
	c[pSize].AddInt32(p.Size)
	c[pSymmetricHi].AddInt64(int64(p.SymmetricHi))
	c[pSymmetricLo].AddInt64(int64(p.SymmetricLo))
	c[pNegationHi].AddInt64(int64(p.NegationHi))
	c[pNegationLo].AddInt64(int64(p.NegationLo))
	c[pSelfNegative].AddBool(p.SelfNegative)
	c[pPositions].AddInt64(int64(p.Positions))
	c[pFirstTier].AddInt32(p.FirstTier)
	for i := pOutcome; i <= pCost; i++ {
		c[i].AddNull()
	}
	if err := pw.pages.EndRow(); err != nil {
		pw.fail(fmt.Errorf("write %s: %w", TablePieces, err))
		return pw.err
	}
	return nil
}

// Close writes the rows of the last row group and the file footer. It
// does not close the underlying writer. It returns an error when writing
// fails, or when the writer had already failed or been closed.
func (pw *UnvaluedPieceWriter) Close() error {
	if pw.err != nil {
		return pw.err
	}
	err := pw.pages.Close()
	pw.cols = nil
	if err != nil {
		pw.err = fmt.Errorf("close %s: %w", TablePieces, err)
		return pw.err
	}
	pw.err = errClosed
	return nil
}

// fail records the writer's first error, after which every call returns
// it, and lets go of its buffers.
func (pw *UnvaluedPieceWriter) fail(err error) {
	pw.err = err
	pw.cols = nil
	pw.pages.Abort()
}

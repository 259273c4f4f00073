package schema

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pqschema "github.com/apache/arrow-go/v18/parquet/schema"
)

// PieceWriter streams rows of the pieces table into one Parquet file (a
// pieces/part-*.parquet). It keeps DefaultBatchRows rows as plain slices,
// one a column, hands each full batch to Parquet's column chunk writers
// column by column, and cuts row groups of DefaultRowGroupRows rows, so
// memory stays bounded by one batch plus the encoded pages of one row
// group, however many rows are written. Going through no Arrow builder
// and no Arrow-to-Parquet conversion, it spends its time on encoding and
// compression; the file is the one pqarrow would write from the same rows
// (same Parquet schema, metadata, encodings, statistics and row groups).
// Callers should write rows sorted by (KeyHi, KeyLo): the key columns are
// delta-encoded and compress best sorted. A PieceWriter is not safe for
// concurrent use.
type PieceWriter struct {
	fw   *file.Writer
	rg   file.BufferedRowGroupWriter
	opts writeOptions
	// rgRows counts the rows handed to the current row group.
	rgRows int64
	cols   pieceColumns
	err    error // first error; every later call returns it
}

// pieceColumns is a batch of rows of the pieces table, column by column.
// The strings of a batch sit back to back in text; a string column holds
// the end of each of its strings there, its start being where the string
// before it in text ended, so that a batch costs no allocation once the
// slices have grown.
type pieceColumns struct {
	n    int
	text []byte
	// game, board, picture are spans of text.
	game, board, picture        []span
	keyHi, keyLo, symHi, symLo  []int64
	negHi, negLo, positions     []int64
	rows, cols, size, firstTier []int32
	selfNeg                     []bool
	// valueDef holds the definition level of the value columns of every
	// row (they are null together); the value slices hold the rows that
	// have values.
	valueDef      []int16
	outcome, vstr []span
	capped        []bool
	nodes         []int32
	cost          []int64
	// byteArrays is scratch for handing a string column to its writer.
	byteArrays []parquet.ByteArray
}

// span is a string of a batch: text[start:end].
type span struct{ start, end int32 }

// NewPieceWriter starts a pieces file on w. Close must be called to finish
// the file. It returns an error when the Parquet writer cannot start.
func NewPieceWriter(w io.Writer) (*PieceWriter, error) {
	pw, err := newPieceWriter(w, defaultOptions)
	if err != nil {
		return nil, fmt.Errorf("start pieces: %w", err)
	}
	return pw, nil
}

// pieceBatchRows is the most rows a PieceWriter buffers before it hands
// them to the column writers: some 2 MB of columns, which stay in the
// caches from one batch to the next, where a batch of DefaultBatchRows
// rows (some 16 MB) was fresh memory, grown and first touched, in every
// job.
const pieceBatchRows = 8 << 10

func newPieceWriter(w io.Writer, o writeOptions) (*PieceWriter, error) {
	o.batchRows = min(o.batchRows, pieceBatchRows)
	if o.batchRows <= 0 || o.rowGroupRows <= 0 {
		return nil, fmt.Errorf("bad sizes: batch %d rows, row group %d rows", o.batchRows, o.rowGroupRows)
	}
	props := piecesProps(o)
	root, err := piecesParquetRoot(props)
	if err != nil {
		return nil, err
	}
	fw, err := file.NewParquetWriterWithError(w, root, file.WithWriterProps(props), file.WithWriteMetadata(piecesFileMetadata()))
	if err != nil {
		return nil, fmt.Errorf("start parquet writer: %w", err)
	}
	return &PieceWriter{fw: fw, opts: o}, nil
}

// piecesParquetRoot is the Parquet schema of the pieces table: the one
// pqarrow derives from the Arrow schema, so that a reader, pqarrow's
// included, finds the same physical and logical types whichever writer
// wrote the file.
func piecesParquetRoot(props *parquet.WriterProperties) (*pqschema.GroupNode, error) {
	sc, err := pqarrow.ToParquet(piecesSchema, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, fmt.Errorf("derive parquet schema: %w", err)
	}
	return sc.Root(), nil
}

// piecesFileMetadata is the key-value metadata of a pieces file: the Arrow
// schema's metadata (table name and version), as pqarrow writes it. Like
// pqarrow with its default properties, the writer stores no serialized
// Arrow schema: readers take the types from the Parquet schema.
func piecesFileMetadata() metadata.KeyValueMetadata {
	md := piecesSchema.Metadata()
	kv := make(metadata.KeyValueMetadata, 0, md.Len())
	for i, k := range md.Keys() {
		kv.Append(k, md.Values()[i])
	}
	return kv
}

// Write appends one row. It returns an error when a full batch cannot be
// written, or after Close or an earlier error; the file is then unusable.
func (pw *PieceWriter) Write(p Piece) error {
	if pw.err != nil {
		return pw.err
	}
	c := &pw.cols
	c.game = c.appendString(c.game, p.Game)
	c.board = c.appendString(c.board, p.Board)
	c.picture = c.appendString(c.picture, p.Picture)
	c.keyHi = append(c.keyHi, int64(p.KeyHi))
	c.keyLo = append(c.keyLo, int64(p.KeyLo))
	c.rows = append(c.rows, p.Rows)
	c.cols = append(c.cols, p.Cols)
	c.size = append(c.size, p.Size)
	c.symHi = append(c.symHi, int64(p.SymmetricHi))
	c.symLo = append(c.symLo, int64(p.SymmetricLo))
	c.negHi = append(c.negHi, int64(p.NegationHi))
	c.negLo = append(c.negLo, int64(p.NegationLo))
	c.selfNeg = append(c.selfNeg, p.SelfNegative)
	c.positions = append(c.positions, int64(p.Positions))
	c.firstTier = append(c.firstTier, p.FirstTier)
	c.appendValue(p.PieceValue)
	c.n++
	if c.n >= pw.opts.batchRows || pw.rgRows+int64(c.n) >= pw.opts.rowGroupRows {
		return pw.flush()
	}
	return nil
}

// appendString adds s to the batch's text and its span to col. A string
// equal to the one before it in col (the game and board of every row)
// shares its bytes.
func (c *pieceColumns) appendString(col []span, s string) []span {
	if n := len(col); n > 0 {
		last := col[n-1]
		if int(last.end-last.start) == len(s) && string(c.text[last.start:last.end]) == s {
			return append(col, last)
		}
	}
	start := int32(len(c.text))
	c.text = append(c.text, s...)
	return append(col, span{start, int32(len(c.text))})
}

// appendValue adds the value columns of a row: a definition level, and
// the values when there are some.
func (c *pieceColumns) appendValue(v PieceValue) {
	if !v.Valued {
		c.valueDef = append(c.valueDef, 0)
		return
	}
	c.valueDef = append(c.valueDef, 1)
	c.outcome = c.appendString(c.outcome, v.Outcome)
	c.vstr = c.appendString(c.vstr, v.Value)
	c.capped = append(c.capped, v.ValueCapped)
	c.nodes = append(c.nodes, v.ValueNodes)
	c.cost = append(c.cost, int64(v.Cost))
}

// reset empties the batch, keeping its slices.
func (c *pieceColumns) reset() {
	b := c.byteArrays
	*c = pieceColumns{
		text: c.text[:0], game: c.game[:0], board: c.board[:0], picture: c.picture[:0],
		keyHi: c.keyHi[:0], keyLo: c.keyLo[:0], symHi: c.symHi[:0], symLo: c.symLo[:0],
		negHi: c.negHi[:0], negLo: c.negLo[:0], positions: c.positions[:0],
		rows: c.rows[:0], cols: c.cols[:0], size: c.size[:0], firstTier: c.firstTier[:0],
		selfNeg: c.selfNeg[:0], valueDef: c.valueDef[:0], outcome: c.outcome[:0], vstr: c.vstr[:0],
		capped: c.capped[:0], nodes: c.nodes[:0], cost: c.cost[:0],
	}
	c.byteArrays = b
}

// flush hands the batch to the column writers of the current row group,
// starting one when there is none, and closes the row group once it holds
// opts.rowGroupRows rows.
func (pw *PieceWriter) flush() error {
	if pw.cols.n == 0 {
		return nil
	}
	if err := pw.writeBatch(); err != nil {
		pw.err = fmt.Errorf("write %s: %w", TablePieces, err)
		return pw.err
	}
	pw.rgRows += int64(pw.cols.n)
	pw.cols.reset()
	if pw.rgRows >= pw.opts.rowGroupRows {
		if err := pw.rg.Close(); err != nil {
			pw.err = fmt.Errorf("write %s: close row group: %w", TablePieces, err)
			return pw.err
		}
		pw.rg, pw.rgRows = nil, 0
	}
	return nil
}

// writeBatch writes every column of the batch, in schema order.
func (pw *PieceWriter) writeBatch() error {
	if pw.rg == nil {
		rg, err := pw.fw.AppendBufferedRowGroupChecked()
		if err != nil {
			return fmt.Errorf("start row group: %w", err)
		}
		pw.rg = rg
	}
	c := &pw.cols
	// The value columns are null together: one set of levels serves them.
	def := c.valueDef
	for i := range piecesSchema.NumFields() {
		cw, err := pw.rg.Column(i)
		if err != nil {
			return fmt.Errorf("column %d: %w", i, err)
		}
		switch i {
		case pGame:
			err = c.writeStrings(cw, c.game, nil)
		case pBoard:
			err = c.writeStrings(cw, c.board, nil)
		case pKeyHi:
			err = writeValues(cw, c.keyHi, nil)
		case pKeyLo:
			err = writeValues(cw, c.keyLo, nil)
		case pRows:
			err = writeValues(cw, c.rows, nil)
		case pCols:
			err = writeValues(cw, c.cols, nil)
		case pSize:
			err = writeValues(cw, c.size, nil)
		case pPicture:
			err = c.writeStrings(cw, c.picture, nil)
		case pSymmetricHi:
			err = writeValues(cw, c.symHi, nil)
		case pSymmetricLo:
			err = writeValues(cw, c.symLo, nil)
		case pNegationHi:
			err = writeValues(cw, c.negHi, nil)
		case pNegationLo:
			err = writeValues(cw, c.negLo, nil)
		case pSelfNegative:
			err = writeValues(cw, c.selfNeg, nil)
		case pPositions:
			err = writeValues(cw, c.positions, nil)
		case pFirstTier:
			err = writeValues(cw, c.firstTier, nil)
		case pOutcome:
			err = c.writeStrings(cw, c.outcome, def)
		case pValue:
			err = c.writeStrings(cw, c.vstr, def)
		case pValueCapped:
			err = writeValues(cw, c.capped, def)
		case pValueNodes:
			err = writeValues(cw, c.nodes, def)
		case pCost:
			err = writeValues(cw, c.cost, def)
		default:
			err = fmt.Errorf("no writer for column %d", i)
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", piecesSchema.Field(i).Name, err)
		}
	}
	return nil
}

// writeStrings writes a string column: its spans of the batch's text, with
// the definition levels def of a nullable column.
func (c *pieceColumns) writeStrings(cw file.ColumnChunkWriter, col []span, def []int16) error {
	b := c.byteArrays[:0]
	for _, s := range col {
		b = append(b, c.text[s.start:s.end:s.end])
	}
	c.byteArrays = b
	return writeValues(cw, b, def)
}

// valueWriter is a column chunk writer of values of type T: the Int32,
// Int64, Boolean and ByteArray writers of package file. The uint64
// columns are INT64 annotated unsigned, so their bits go as int64.
type valueWriter[T any] interface {
	WriteBatch(values []T, defLevels, repLevels []int16) (int64, error)
}

// writeValues writes vals, with the definition levels def of a nullable
// column, through cw, which must take values of type T.
func writeValues[T any](cw file.ColumnChunkWriter, vals []T, def []int16) error {
	w, ok := cw.(valueWriter[T])
	if !ok {
		return fmt.Errorf("writer %T does not take %T", cw, vals)
	}
	_, err := w.WriteBatch(vals, def, nil)
	return err
}

// Close writes the rows still buffered and the file footer. It does not
// close the underlying writer. It returns an error when writing fails, or
// when the PieceWriter had already failed or been closed.
func (pw *PieceWriter) Close() error {
	if pw.err != nil {
		return pw.err
	}
	ferr := pw.flush()
	var cerr error
	if pw.rg != nil && ferr == nil {
		cerr = pw.rg.Close()
	}
	if cerr == nil && ferr == nil {
		cerr = pw.fw.Close()
	}
	pw.err = errClosed
	if ferr != nil {
		return ferr
	}
	if cerr != nil {
		return fmt.Errorf("close %s: %w", TablePieces, cerr)
	}
	return nil
}

package schema

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
)

// TablePositions is the name of the positions table under MetaTable.
const TablePositions = "positions"

// ColKey is the positions table's key column, written with
// DELTA_BINARY_PACKED and no dictionary.
const ColKey = "key"

// Position is one row of the positions table: one position of a run. Its
// tier is not a column: it is the tier=NN directory the file lies in.
type Position struct {
	// Key is the position as the engine packs it; see COLUMNS.md.
	Key uint64
	// LivePieces and DeadPieces count the position's pieces.
	LivePieces int32
	DeadPieces int32
	// Picture is the board diagram, rows separated by '/'.
	Picture string
}

// Column indexes of the positions table, in schema order.
const (
	posKey = iota
	posLivePieces
	posDeadPieces
	posPicture
)

var positionsSchema = arrow.NewSchema([]arrow.Field{
	posKey:        req(ColKey, tU64),
	posLivePieces: req("live_pieces", tI32),
	posDeadPieces: req("dead_pieces", tI32),
	posPicture:    req(ColPicture, tStr),
}, tableMetadata(TablePositions))

// PositionsSchema returns the Arrow schema of the
// positions/tier=NN/part-*.parquet files, with the table name and Version
// in its metadata. The schema is shared: do not modify it. It never fails.
func PositionsSchema() *arrow.Schema { return positionsSchema }

// PositionWriter streams rows of the positions table into one Parquet file
// (a positions/tier=NN/part-*.parquet). Like PieceWriter it buffers a
// batch of rows (here an Arrow record batch) and cuts row groups of a bounded number of rows, so
// memory stays bounded however many rows are written. Callers write rows
// sorted by Key: the key column is delta-encoded. A PositionWriter is not
// safe for concurrent use.
type PositionWriter struct {
	bw *batchWriter

	key        *array.Uint64Builder
	live, dead *array.Int32Builder
	picture    *array.StringBuilder
}

// NewPositionWriter starts a positions file on w with row groups of at most
// rowGroupRows rows (at least 1024, at most DefaultRowGroupRows): the writer
// holds about one row group in memory, some 40 bytes a row. Close must be
// called to finish the file. It returns an error when the Parquet writer
// cannot start.
func NewPositionWriter(w io.Writer, rowGroupRows int64) (*PositionWriter, error) {
	pw, err := newPositionWriter(w, rowGroupOptions(rowGroupRows))
	if err != nil {
		return nil, fmt.Errorf("start positions: %w", err)
	}
	return pw, nil
}

func newPositionWriter(w io.Writer, o writeOptions) (*PositionWriter, error) {
	bw, err := newBatchWriter(TablePositions, positionsSchema, w, o, ColKey)
	if err != nil {
		return nil, err
	}
	b := bw.b
	return &PositionWriter{
		bw:      bw,
		key:     b.Field(posKey).(*array.Uint64Builder),
		live:    b.Field(posLivePieces).(*array.Int32Builder),
		dead:    b.Field(posDeadPieces).(*array.Int32Builder),
		picture: b.Field(posPicture).(*array.StringBuilder),
	}, nil
}

// Write appends one row. It returns an error when a full batch cannot be
// written, or after Close or an earlier error; the file is then unusable.
func (pw *PositionWriter) Write(p Position) error {
	if pw.bw.err != nil {
		return pw.bw.err
	}
	pw.key.Append(p.Key)
	pw.live.Append(p.LivePieces)
	pw.dead.Append(p.DeadPieces)
	pw.picture.Append(p.Picture)
	return pw.bw.rowDone()
}

// Close writes the rows still buffered and the file footer. It does not
// close the underlying writer. It returns an error when writing fails, or
// when the PositionWriter had already failed or been closed.
func (pw *PositionWriter) Close() error {
	return pw.bw.close()
}

// ReadPositions reads a whole positions file into memory, rows in file
// order. The result is never nil. It is meant for tests and small runs; it
// returns an error wrapping ErrWrongTable when the file holds another table
// or schema version, and an error when the file is not Parquet or cannot
// be read.
func ReadPositions(r parquet.ReaderAtSeeker) ([]Position, error) {
	rows, err := readPositions(r)
	if err != nil {
		return nil, fmt.Errorf("read positions: %w", err)
	}
	return rows, nil
}

func readPositions(r parquet.ReaderAtSeeker) ([]Position, error) {
	rows := []Position{}
	err := readTable(r, TablePositions, func(rec arrow.RecordBatch) error {
		var (
			key     = rec.Column(posKey).(*array.Uint64).Uint64Values()
			live    = rec.Column(posLivePieces).(*array.Int32).Int32Values()
			dead    = rec.Column(posDeadPieces).(*array.Int32).Int32Values()
			picture = rec.Column(posPicture).(*array.String)
		)
		for i := range key {
			rows = append(rows, Position{
				Key:        key[i],
				LivePieces: live[i],
				DeadPieces: dead[i],
				Picture:    strings.Clone(picture.Value(i)),
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// ReadPositionsFile reads the positions file at path. It fails like
// ReadPositions, and when the file cannot be opened.
func ReadPositionsFile(path string) ([]Position, error) {
	return readFile(path, TablePositions, readPositions)
}

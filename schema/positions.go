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
	// Outcome is the position's outcome class, "L", "R", "N" or "P",
	// in the file of a solved run; empty in a run not solved, whose files
	// have no outcome column.
	Outcome string
	// RemotenessLeftFirst and RemotenessRightFirst are the position's
	// remoteness with Left, and with Right, to move, in the file of a
	// solved run (0 in a file solved before the solve kept remoteness,
	// which has no such columns).
	RemotenessLeftFirst, RemotenessRightFirst int32
}

// Column indexes of the positions table, in schema order.
const (
	posKey = iota
	posLivePieces
	posDeadPieces
	posPicture
	// The outcome and remoteness columns, only in a solved run's file.
	posOutcome
	posRemotenessLeft
	posRemotenessRight
)

var positionsSchema = arrow.NewSchema([]arrow.Field{
	posKey:        req(ColKey, tU64),
	posLivePieces: req("live_pieces", tI32),
	posDeadPieces: req("dead_pieces", tI32),
	posPicture:    req(ColPicture, tStr),
}, tableMetadata(TablePositions))

// ColOutcome is the outcome class column of the pieces table and of a
// solved run's positions table.
const ColOutcome = "outcome"

// The remoteness columns of a solved run's positions table.
const (
	ColRemotenessLeftFirst  = "remoteness_left_first"
	ColRemotenessRightFirst = "remoteness_right_first"
)

// positionsSolvedSchema is positionsSchema with the outcome and
// remoteness columns after the others: the positions table of a solved
// run.
var positionsSolvedSchema = arrow.NewSchema(append(positionsSchema.Fields(),
	req(ColOutcome, tStr),
	req(ColRemotenessLeftFirst, tI32),
	req(ColRemotenessRightFirst, tI32),
), tableMetadata(TablePositions))

// PositionsSchema returns the Arrow schema of the
// positions/tier=NN/part-*.parquet files, with the table name and Version
// in its metadata. The schema is shared: do not modify it. It never fails.
func PositionsSchema() *arrow.Schema { return positionsSchema }

// PositionsSolvedSchema returns the Arrow schema of a solved run's
// positions files: PositionsSchema's columns, then outcome. The schema is
// shared: do not modify it. It never fails.
func PositionsSolvedSchema() *arrow.Schema { return positionsSolvedSchema }

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
	// outcome and the remoteness columns are nil unless the file is a
	// solved run's.
	outcome                         *array.StringBuilder
	remotenessLeft, remotenessRight *array.Int32Builder
}

// NewPositionWriter starts a positions file on w with row groups of at most
// rowGroupRows rows (at least 1024, at most DefaultRowGroupRows): the writer
// holds about one row group in memory, some 40 bytes a row. Close must be
// called to finish the file. It returns an error when the Parquet writer
// cannot start.
func NewPositionWriter(w io.Writer, rowGroupRows int64) (*PositionWriter, error) {
	return startPositionWriter(w, positionsSchema, rowGroupRows)
}

// NewSolvedPositionWriter is NewPositionWriter for a solved run's file,
// which has the outcome column: every row written must have an Outcome.
func NewSolvedPositionWriter(w io.Writer, rowGroupRows int64) (*PositionWriter, error) {
	return startPositionWriter(w, positionsSolvedSchema, rowGroupRows)
}

func startPositionWriter(w io.Writer, sc *arrow.Schema, rowGroupRows int64) (*PositionWriter, error) {
	pw, err := newPositionWriter(w, sc, rowGroupOptions(rowGroupRows))
	if err != nil {
		return nil, fmt.Errorf("start positions: %w", err)
	}
	return pw, nil
}

func newPositionWriter(w io.Writer, sc *arrow.Schema, o writeOptions) (*PositionWriter, error) {
	bw, err := newBatchWriter(TablePositions, sc, w, o, ColKey)
	if err != nil {
		return nil, err
	}
	b := bw.b
	pw := &PositionWriter{
		bw:      bw,
		key:     b.Field(posKey).(*array.Uint64Builder),
		live:    b.Field(posLivePieces).(*array.Int32Builder),
		dead:    b.Field(posDeadPieces).(*array.Int32Builder),
		picture: b.Field(posPicture).(*array.StringBuilder),
	}
	if sc == positionsSolvedSchema {
		pw.outcome = b.Field(posOutcome).(*array.StringBuilder)
		pw.remotenessLeft = b.Field(posRemotenessLeft).(*array.Int32Builder)
		pw.remotenessRight = b.Field(posRemotenessRight).(*array.Int32Builder)
	}
	return pw, nil
}

// Write appends one row. It returns an error when a full batch cannot be
// written, or after Close or an earlier error; the file is then unusable.
// It also fails, writing nothing, when the row's Outcome does not fit the
// file: one of "L", "R", "N", "P" in a solved run's file, empty in
// another.
func (pw *PositionWriter) Write(p Position) error {
	if pw.bw.err != nil {
		return pw.bw.err
	}
	switch {
	case pw.outcome != nil && !isOutcome(p.Outcome):
		return fmt.Errorf("write positions: position %d has outcome %q, want L, R, N or P", p.Key, p.Outcome)
	case pw.outcome == nil && p.Outcome != "":
		return fmt.Errorf("write positions: position %d has outcome %q in a file without outcomes", p.Key, p.Outcome)
	}
	pw.key.Append(p.Key)
	pw.live.Append(p.LivePieces)
	pw.dead.Append(p.DeadPieces)
	pw.picture.Append(p.Picture)
	if pw.outcome != nil {
		pw.outcome.Append(p.Outcome)
		pw.remotenessLeft.Append(p.RemotenessLeftFirst)
		pw.remotenessRight.Append(p.RemotenessRightFirst)
	}
	return pw.bw.rowDone()
}

// Close writes the rows still buffered and the file footer. It does not
// close the underlying writer. It returns an error when writing fails, or
// when the PositionWriter had already failed or been closed.
func (pw *PositionWriter) Close() error {
	return pw.bw.close()
}

// ReadPositions reads a whole positions file into memory, rows in file
// order, each with its Outcome when the file is a solved run's. The result
// is never nil. It is meant for tests and small runs; it
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
	return readAll(r, scanPositions)
}

// ScanPositionsFile reads the positions file at path row by row, calling
// fn with each row in file order; it holds one record batch at a time, so
// a part of any size is read in bounded memory. A solved run's file gives
// each row its Outcome. It stops at fn's first error and returns it. It
// fails like ReadPositions, and when the file cannot be opened.
func ScanPositionsFile(path string, fn func(Position) error) error {
	return scanFile(path, TablePositions, scanPositions, fn)
}

func scanPositions(r parquet.ReaderAtSeeker, fn func(Position) error) error {
	return readTable(r, TablePositions, func(rec arrow.RecordBatch) error {
		var (
			key     = rec.Column(posKey).(*array.Uint64).Uint64Values()
			live    = rec.Column(posLivePieces).(*array.Int32).Int32Values()
			dead    = rec.Column(posDeadPieces).(*array.Int32).Int32Values()
			picture = rec.Column(posPicture).(*array.String)
			outcome *array.String
			remL    []int32
			remR    []int32
		)
		if rec.NumCols() > posOutcome {
			outcome = rec.Column(posOutcome).(*array.String)
		}
		if rec.NumCols() > posRemotenessRight {
			remL = rec.Column(posRemotenessLeft).(*array.Int32).Int32Values()
			remR = rec.Column(posRemotenessRight).(*array.Int32).Int32Values()
		}
		for i := range key {
			p := Position{
				Key:        key[i],
				LivePieces: live[i],
				DeadPieces: dead[i],
				Picture:    strings.Clone(picture.Value(i)),
			}
			if outcome != nil {
				p.Outcome = outcomeString(outcome.Value(i))
			}
			if remL != nil {
				p.RemotenessLeftFirst, p.RemotenessRightFirst = remL[i], remR[i]
			}
			if err := fn(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// ReadPositionsFile reads the positions file at path. It fails like
// ReadPositions, and when the file cannot be opened.
func ReadPositionsFile(path string) ([]Position, error) {
	return readFile(path, TablePositions, readPositions)
}

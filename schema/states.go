package schema

import (
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TableStates is the name of the states table under MetaTable: states.parquet
// of a loopy game (Mū tōrere), one row per state, solved by retrograde
// analysis.
const TableStates = "states"

// ColState is the states table's key column, written with
// DELTA_BINARY_PACKED and no dictionary.
const ColState = "state"

// StateRow is one row of the states table: one state of a loopy game, an
// arrangement of the counters and the player to move.
type StateRow struct {
	// State is the state's number: 2·(the arrangement's rank) + mover
	// (0 Black, 1 White). Rows are written in order of State.
	State uint64
	// Arrangement draws the counters: for Mū tōrere the points in order
	// round the circle, then the centre; 'B', 'W', '.' for the empty place.
	Arrangement string
	// Mover is "B" or "W": who is to move.
	Mover string
	// Verdict is the outcome for the mover with best play: "W", "L" or "D".
	Verdict string
	// Remoteness is the number of moves to the end with best play (the
	// winner's fastest win, the loser's slowest loss); nil when drawn.
	Remoteness *int32
	// Reachable is true when play from the start can reach the state.
	Reachable bool
	// FirstReached is the number of moves from the start on a shortest
	// path to the state; nil when it is not reachable.
	FirstReached *int32
	// LegalMoves counts the mover's legal moves.
	LegalMoves int32
	// LosingMoves counts those after which the opponent, to move, wins.
	LosingMoves int32
}

// Column indexes of the states table, in schema order.
const (
	stState = iota
	stArrangement
	stMover
	stVerdict
	stRemoteness
	stReachable
	stFirstReached
	stLegalMoves
	stLosingMoves
)

var statesSchema = arrow.NewSchema([]arrow.Field{
	stState:        req(ColState, tU64),
	stArrangement:  req("arrangement", tStr),
	stMover:        req("mover", tStr),
	stVerdict:      req("verdict", tStr),
	stRemoteness:   opt("remoteness", tI32),
	stReachable:    req("reachable", tBool),
	stFirstReached: opt("first_reached", tI32),
	stLegalMoves:   req("legal_moves", tI32),
	stLosingMoves:  req("losing_moves", tI32),
}, tableMetadata(TableStates))

// StatesSchema returns the Arrow schema of states.parquet, with the table
// name and Version in its metadata. The schema is shared: do not modify it.
// It never fails.
func StatesSchema() *arrow.Schema { return statesSchema }

// StateWriter streams rows of the states table into one Parquet file. Like
// PositionWriter it buffers one record batch and cuts row groups of a
// bounded number of rows, so memory stays bounded however many states a
// star has. Callers write rows in order of State: the column is
// delta-encoded. A StateWriter is not safe for concurrent use.
type StateWriter struct {
	bw *batchWriter

	state                     *array.Uint64Builder
	arrangement, mover, verdt *array.StringBuilder
	remoteness, firstReached  *array.Int32Builder
	reachable                 *array.BooleanBuilder
	legal, losing             *array.Int32Builder
}

// NewStateWriter starts a states file on w. Close must be called to finish
// the file. It returns an error when the Parquet writer cannot start.
func NewStateWriter(w io.Writer) (*StateWriter, error) {
	sw, err := newStateWriter(w, defaultOptions)
	if err != nil {
		return nil, fmt.Errorf("start states: %w", err)
	}
	return sw, nil
}

func newStateWriter(w io.Writer, o writeOptions) (*StateWriter, error) {
	bw, err := newBatchWriter(TableStates, statesSchema, w, o, ColState)
	if err != nil {
		return nil, err
	}
	b := bw.b
	return &StateWriter{
		bw:           bw,
		state:        b.Field(stState).(*array.Uint64Builder),
		arrangement:  b.Field(stArrangement).(*array.StringBuilder),
		mover:        b.Field(stMover).(*array.StringBuilder),
		verdt:        b.Field(stVerdict).(*array.StringBuilder),
		remoteness:   b.Field(stRemoteness).(*array.Int32Builder),
		reachable:    b.Field(stReachable).(*array.BooleanBuilder),
		firstReached: b.Field(stFirstReached).(*array.Int32Builder),
		legal:        b.Field(stLegalMoves).(*array.Int32Builder),
		losing:       b.Field(stLosingMoves).(*array.Int32Builder),
	}, nil
}

func appendOpt(b *array.Int32Builder, v *int32) {
	if v == nil {
		b.AppendNull()
		return
	}
	b.Append(*v)
}

// Write appends one row. It returns an error when a full batch cannot be
// written, or after Close or an earlier error; the file is then unusable.
func (sw *StateWriter) Write(s StateRow) error {
	if sw.bw.err != nil {
		return sw.bw.err
	}
	sw.state.Append(s.State)
	sw.arrangement.Append(s.Arrangement)
	sw.mover.Append(s.Mover)
	sw.verdt.Append(s.Verdict)
	appendOpt(sw.remoteness, s.Remoteness)
	sw.reachable.Append(s.Reachable)
	appendOpt(sw.firstReached, s.FirstReached)
	sw.legal.Append(s.LegalMoves)
	sw.losing.Append(s.LosingMoves)
	return sw.bw.rowDone()
}

// Close writes the rows still buffered and the file footer. It does not
// close the underlying writer. It returns an error when writing fails, or
// when the StateWriter had already failed or been closed.
func (sw *StateWriter) Close() error {
	return sw.bw.close()
}

// ReadStates reads a whole states file into memory, rows in file order. The
// result is never nil. It returns an error wrapping ErrWrongTable when the
// file holds another table or schema version, and an error when the file is
// not Parquet or cannot be read.
func ReadStates(r parquet.ReaderAtSeeker) ([]StateRow, error) {
	rows, err := readStates(r)
	if err != nil {
		return nil, fmt.Errorf("read states: %w", err)
	}
	return rows, nil
}

// ReadStatesFile reads the states file at path. It fails like ReadStates,
// and when the file cannot be opened.
func ReadStatesFile(path string) ([]StateRow, error) {
	return readFile(path, TableStates, readStates)
}

func optValue(a *array.Int32, i int) *int32 {
	if a.IsNull(i) {
		return nil
	}
	v := a.Value(i)
	return &v
}

func readStates(r parquet.ReaderAtSeeker) ([]StateRow, error) {
	rows := []StateRow{}
	err := readTable(r, TableStates, func(rec arrow.RecordBatch) error {
		var (
			state        = rec.Column(stState).(*array.Uint64).Uint64Values()
			arrangement  = rec.Column(stArrangement).(*array.String)
			mover        = rec.Column(stMover).(*array.String)
			verdict      = rec.Column(stVerdict).(*array.String)
			remoteness   = rec.Column(stRemoteness).(*array.Int32)
			reachable    = rec.Column(stReachable).(*array.Boolean)
			firstReached = rec.Column(stFirstReached).(*array.Int32)
			legal        = rec.Column(stLegalMoves).(*array.Int32).Int32Values()
			losing       = rec.Column(stLosingMoves).(*array.Int32).Int32Values()
		)
		for i := range state {
			rows = append(rows, StateRow{
				State:        state[i],
				Arrangement:  strings.Clone(arrangement.Value(i)),
				Mover:        strings.Clone(mover.Value(i)),
				Verdict:      strings.Clone(verdict.Value(i)),
				Remoteness:   optValue(remoteness, i),
				Reachable:    reachable.Value(i),
				FirstReached: optValue(firstReached, i),
				LegalMoves:   legal[i],
				LosingMoves:  losing[i],
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// CountStatesFile checks that the file at path holds the states table
// and returns its number of rows from the footer, without reading the
// rows: a report needs the count of a star of any size. It fails like
// ReadStatesFile.
func CountStatesFile(path string) (int64, error) {
	return readFile(path, TableStates, countStates)
}

func countStates(r parquet.ReaderAtSeeker) (int64, error) {
	pf, err := file.NewParquetReader(r)
	if err != nil {
		return 0, fmt.Errorf("open parquet: %w", err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return 0, fmt.Errorf("open arrow reader: %w", err)
	}
	sc, err := fr.Schema()
	if err != nil {
		return 0, fmt.Errorf("read arrow schema: %w", err)
	}
	if err := checkTable(pf, sc, TableStates); err != nil {
		return 0, err
	}
	return pf.NumRows(), nil
}

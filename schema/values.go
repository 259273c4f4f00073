package schema

import (
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ColValue is the pieces table's canonical form column.
const ColValue = "value"

// MaxValueString is the longest value string the pieces table holds, in
// bytes. CGSuite's notation writes a follower once per path to it, so the
// string of a canonical form of a thousand nodes can take hundreds of
// kilobytes (245,870 bytes for one piece of Clobber 4x4); a longer string is
// left out (value empty, value_capped true, value_nodes still set).
const MaxValueString = 4096

// PieceValue is the value of a piece as the pieces table holds it: the
// columns outcome, value, value_capped, value_nodes and cost, null in rows
// whose run has not been through the values stage (Valued false).
type PieceValue struct {
	Valued bool
	// Outcome is the outcome class: "L", "R", "N" or "P".
	Outcome string
	// Value is the canonical form in CGSuite's notation, empty when
	// ValueCapped.
	Value string
	// ValueCapped is true when the canonical form is over the node cap or
	// its string over MaxValueString bytes.
	ValueCapped bool
	// ValueNodes is the size of the canonical form (the form and all its
	// followers), 0 when the form is over the node cap.
	ValueNodes int32
	// Cost is the number of distinct positions one move away from the
	// piece (either player) that its valuation decomposed and summed.
	Cost uint64
}

// Values is what the values stage adds to summary.json.
type Values struct {
	// OutcomesTranslated counts the distinct translated live pieces by
	// outcome class, keys L, R, N, P.
	OutcomesTranslated map[string]uint64 `json:"outcomes_translated"`
	// OutcomesSymmetric counts their symmetric classes by outcome class.
	OutcomesSymmetric map[string]uint64 `json:"outcomes_symmetric"`
	// DistinctValues counts the distinct canonical forms among the pieces
	// whose form is within the node cap.
	DistinctValues uint64 `json:"distinct_values"`
	// ValuesCapped counts the translated pieces whose value is capped.
	ValuesCapped uint64 `json:"values_capped"`
	// Levels is what valuing cost, a piece size at a time, smallest
	// first.
	Levels []ValueLevel `json:"levels,omitempty"`
	// MaxSize is set when the stage valued only the pieces of up to
	// MaxSize (census values --max-size) and larger ones exist: their
	// rows keep null value columns, PiecesNotValued counts them, and
	// every count above covers the valued pieces only. Both are 0 (and
	// absent from summary.json) when every piece is valued.
	MaxSize         int    `json:"values_max_size,omitempty"`
	PiecesNotValued uint64 `json:"pieces_not_valued,omitempty"`
}

// Partial tells whether some pieces were left without a value.
func (v *Values) Partial() bool { return v != nil && v.MaxSize > 0 }

// LeftUnvalued tells whether a piece of size stones or squares is one a
// partial stage left without a value: larger than MaxSize. Any other piece
// of a valued run has a value.
func (v *Values) LeftUnvalued(size int) bool { return v.Partial() && size > v.MaxSize }

// ValueLevel is the cost of valuing the pieces of one size: its jobs' time,
// and the sizes of the forms they found.
type ValueLevel struct {
	// Size is the piece size (stones for Clobber, squares for Domineering
	// and Amazons).
	Size int `json:"size"`
	// Pieces counts the distinct translated pieces of the size.
	Pieces uint64 `json:"pieces"`
	// Jobs counts the level's value jobs.
	Jobs int `json:"jobs"`
	// WallS is the wall time from the level's first job published to its
	// last done, in the invocation that finished it (a resumed level's
	// jobs done before count in CPUS and JobWallS, not here). A later
	// invocation that finds the level finished, resuming the stage or
	// extending a partial one, keeps that invocation's WallS.
	WallS float64 `json:"wall_s"`
	// CPUS and JobWallS add up the CPU and the wall time of the level's
	// jobs, as the workers that ran them measured them; LoadS is the part
	// of JobWallS each job spent loading the values of the smaller sizes.
	CPUS     float64 `json:"cpu_s"`
	JobWallS float64 `json:"job_wall_s"`
	LoadS    float64 `json:"load_s"`
	// Capped counts the level's pieces whose value is capped.
	Capped uint64 `json:"capped"`
	// MeanNodes and MaxNodes are the mean and the largest size (value_nodes)
	// of the canonical forms of its pieces within the node cap.
	MeanNodes float64 `json:"mean_nodes"`
	MaxNodes  int32   `json:"max_nodes"`
}

// pieceValueColumns reads the value columns of a record batch.
type pieceValueColumns struct {
	outcome, value *array.String
	capped         *array.Boolean
	nodes          *array.Int32
	cost           *array.Uint64
}

// newPieceValueColumns reads the value columns of rec; a record of a
// version 2 file has none, and its rows read as not Valued.
func newPieceValueColumns(rec arrow.RecordBatch) pieceValueColumns {
	if rec.NumCols() <= pOutcome {
		return pieceValueColumns{}
	}
	return pieceValueColumns{
		outcome: rec.Column(pOutcome).(*array.String),
		value:   rec.Column(pValue).(*array.String),
		capped:  rec.Column(pValueCapped).(*array.Boolean),
		nodes:   rec.Column(pValueNodes).(*array.Int32),
		cost:    rec.Column(pCost).(*array.Uint64),
	}
}

func (c pieceValueColumns) at(i int) PieceValue {
	if c.outcome == nil || c.outcome.IsNull(i) {
		return PieceValue{}
	}
	return PieceValue{
		Valued:      true,
		Outcome:     outcomeString(c.outcome.Value(i)),
		Value:       strings.Clone(c.value.Value(i)),
		ValueCapped: c.capped.Value(i),
		ValueNodes:  c.nodes.Value(i),
		Cost:        c.cost.Value(i),
	}
}

// outcomeClasses are the four outcome classes as the tables spell them.
var outcomeClasses = []string{"L", "R", "N", "P"}

// outcomeString returns s, shared when it is one of the four classes.
func outcomeString(s string) string {
	if i := slices.Index(outcomeClasses, s); i >= 0 {
		return outcomeClasses[i]
	}
	return strings.Clone(s)
}

// isOutcome tells whether s is one of the four classes.
func isOutcome(s string) bool { return slices.Contains(outcomeClasses, s) }

// piecesSchemaV3 is the pieces table of version 3: today's columns with
// the CGSuite string after the picture. piecesSchemaV2 is version 3's
// without the value columns, which come last.
var (
	piecesSchemaV3 = arrow.NewSchema(slices.Insert(slices.Clone(piecesSchema.Fields()), pPicture+1, req(colCGSuite, tStr)), tableMetadata(TablePieces))
	piecesSchemaV2 = arrow.NewSchema(piecesSchemaV3.Fields()[:pOutcome+1], tableMetadata(TablePieces))
)

// schemaForVersion is schemaFor of the columns a file of version v holds.
func schemaForVersion(table string, v int) *arrow.Schema {
	if table == TablePieces {
		switch v {
		case 2:
			return piecesSchemaV2
		case 3:
			return piecesSchemaV3
		}
	}
	return schemaFor(table)
}

// readColumns are the columns of a file of table, whose schema is sc, that
// its reader reads: nil for all of them; for a pieces file of version 2 or
// 3, all but the CGSuite string, so that the records read have today's
// columns in today's order (less the value columns of version 2).
func readColumns(table string, sc *arrow.Schema) []int {
	if table != TablePieces {
		return nil
	}
	cg := sc.FieldIndices(colCGSuite)
	if len(cg) == 0 {
		return nil
	}
	var cols []int
	for i := range sc.NumFields() {
		if i != cg[0] {
			cols = append(cols, i)
		}
	}
	return cols
}

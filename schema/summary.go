package schema

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
)

// WriteSummary writes s as summary.parquet, one row, to w. A zero
// s.SchemaVersion is written as Version. It returns an error, and leaves w
// holding a partial file, when s.SchemaVersion is another version, when
// Tiers or a PiecesBySize key does not fit an int32, or when writing fails.
// Wrap it in WriteFileAtomic to write a file.
func WriteSummary(w io.Writer, s Summary) error {
	if err := writeSummary(w, s, defaultOptions); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	return nil
}

func writeSummary(w io.Writer, s Summary, o writeOptions) error {
	rec, err := summaryRecord(s)
	if err != nil {
		return err
	}
	defer rec.Release()
	return writeTable(w, rec, o)
}

func fitsInt32(v int) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }

// summaryRecord builds the one-row record batch of s.
func summaryRecord(s Summary) (arrow.RecordBatch, error) {
	switch {
	case s.SchemaVersion == 0:
		s.SchemaVersion = Version
	case s.SchemaVersion != Version:
		return nil, fmt.Errorf("schema version %d, this build writes %d", s.SchemaVersion, Version)
	}
	if !fitsInt32(s.Tiers) {
		return nil, fmt.Errorf("tiers %d does not fit int32", s.Tiers)
	}
	sizes := make([]int, 0, len(s.PiecesBySize))
	for size := range s.PiecesBySize {
		if !fitsInt32(size) {
			return nil, fmt.Errorf("pieces_by_size key %d does not fit int32", size)
		}
		sizes = append(sizes, size)
	}
	slices.Sort(sizes)

	b := array.NewRecordBuilder(memory.DefaultAllocator, summarySchema)
	defer b.Release()
	u := func(i int, v uint64) { b.Field(i).(*array.Uint64Builder).Append(v) }
	f := func(i int, v float64) { b.Field(i).(*array.Float64Builder).Append(v) }
	str := func(i int, v string) { b.Field(i).(*array.StringBuilder).Append(v) }
	list := func(i int, vs []uint64) {
		lb := b.Field(i).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Uint64Builder).AppendValues(vs, nil)
	}

	b.Field(sSchemaVersion).(*array.Int32Builder).Append(int32(s.SchemaVersion))
	str(sGame, s.Game)
	str(sBoard, s.Board)
	str(sStart, s.Start)
	u(sPositions, s.Positions)
	u(sMoves, s.Moves)
	b.Field(sTiers).(*array.Int32Builder).Append(int32(s.Tiers))
	list(sPositionsByTier, s.PositionsByTier)
	list(sSplitByTier, s.SplitByTier)
	u(sSplitPositions, s.SplitPositions)
	f(sSplitShare, s.SplitShare)
	f(sMeanLivePiecesWhenSplit, s.MeanLivePiecesWhenSplit)
	u(sPositionsWithDead, s.PositionsWithDead)
	f(sDeadShare, s.DeadShare)
	u(sDeadFreeBoards, s.DeadFreeBoards)
	u(sPiecesInPlace, s.PiecesInPlace)
	u(sPiecesTranslated, s.PiecesTranslated)
	u(sPiecesSymmetric, s.PiecesSymmetric)
	u(sPiecesNegation, s.PiecesNegation)
	u(sSelfNegativeSymmetric, s.SelfNegativeSymmetric)

	mb := b.Field(sPiecesBySize).(*array.MapBuilder)
	mb.Append(true)
	kb := mb.KeyBuilder().(*array.Int32Builder)
	ib := mb.ItemBuilder().(*array.Uint64Builder)
	for _, size := range sizes {
		kb.Append(int32(size))
		ib.Append(s.PiecesBySize[size])
	}

	u(sJoins, s.Joins)
	if s.EdgeRuleJoins != nil {
		u(sEdgeRuleJoins, *s.EdgeRuleJoins)
	} else {
		b.Field(sEdgeRuleJoins).AppendNull()
	}
	optF := func(i int, p *float64) {
		if p == nil {
			b.Field(i).AppendNull()
			return
		}
		f(i, *p)
	}
	optF(sMovedPieceFraction, s.MovedPieceFraction)
	optF(sMovedPieceFractionAfterSplit, s.MovedPieceFractionAfterSplit)
	return b.NewRecordBatch(), nil
}

// ReadSummary reads a summary.parquet file. The slices and the map of the
// result are never nil. It returns an error wrapping ErrWrongTable when the
// file holds another table or schema version, and an error when the file is
// not Parquet, cannot be read or does not hold exactly one row.
func ReadSummary(r parquet.ReaderAtSeeker) (Summary, error) {
	s, err := readSummary(r)
	if err != nil {
		return Summary{}, fmt.Errorf("read summary: %w", err)
	}
	return s, nil
}

func readSummary(r parquet.ReaderAtSeeker) (Summary, error) {
	var (
		s Summary
		n int64
	)
	err := readTable(r, TableSummary, func(rec arrow.RecordBatch) error {
		if n += rec.NumRows(); n > 1 || rec.NumRows() == 0 {
			return nil
		}
		s = summaryFromRecord(rec)
		return nil
	})
	if err == nil && n != 1 {
		err = fmt.Errorf("summary has %d rows, want 1", n)
	}
	if err != nil {
		return Summary{}, err
	}
	return s, nil
}

// summaryFromRecord decodes row 0 of a record batch of the summary schema.
func summaryFromRecord(rec arrow.RecordBatch) Summary {
	u := func(i int) uint64 { return rec.Column(i).(*array.Uint64).Value(0) }
	f := func(i int) float64 { return rec.Column(i).(*array.Float64).Value(0) }
	str := func(i int) string { return strings.Clone(rec.Column(i).(*array.String).Value(0)) }
	list := func(i int) []uint64 {
		l := rec.Column(i).(*array.List)
		start, end := l.ValueOffsets(0)
		vals := l.ListValues().(*array.Uint64).Uint64Values()
		out := make([]uint64, end-start)
		copy(out, vals[start:end])
		return out
	}
	optF := func(i int) *float64 {
		if rec.Column(i).IsNull(0) {
			return nil
		}
		v := f(i)
		return &v
	}

	s := Summary{
		SchemaVersion:           int(rec.Column(sSchemaVersion).(*array.Int32).Value(0)),
		Game:                    str(sGame),
		Board:                   str(sBoard),
		Start:                   str(sStart),
		Positions:               u(sPositions),
		Moves:                   u(sMoves),
		Tiers:                   int(rec.Column(sTiers).(*array.Int32).Value(0)),
		PositionsByTier:         list(sPositionsByTier),
		SplitByTier:             list(sSplitByTier),
		SplitPositions:          u(sSplitPositions),
		SplitShare:              f(sSplitShare),
		MeanLivePiecesWhenSplit: f(sMeanLivePiecesWhenSplit),
		PositionsWithDead:       u(sPositionsWithDead),
		DeadShare:               f(sDeadShare),
		DeadFreeBoards:          u(sDeadFreeBoards),
		PiecesInPlace:           u(sPiecesInPlace),
		PiecesTranslated:        u(sPiecesTranslated),
		PiecesSymmetric:         u(sPiecesSymmetric),
		PiecesNegation:          u(sPiecesNegation),
		SelfNegativeSymmetric:   u(sSelfNegativeSymmetric),
		PiecesBySize:            map[int]uint64{},
		Joins:                   u(sJoins),
	}

	m := rec.Column(sPiecesBySize).(*array.Map)
	start, end := m.ValueOffsets(0)
	keys := m.Keys().(*array.Int32)
	items := m.Items().(*array.Uint64)
	for j := int(start); j < int(end); j++ {
		s.PiecesBySize[int(keys.Value(j))] = items.Value(j)
	}

	if !rec.Column(sEdgeRuleJoins).IsNull(0) {
		v := u(sEdgeRuleJoins)
		s.EdgeRuleJoins = &v
	}
	s.MovedPieceFraction = optF(sMovedPieceFraction)
	s.MovedPieceFractionAfterSplit = optF(sMovedPieceFractionAfterSplit)
	return s
}

// ReadSummaryFile reads the summary.parquet file at path. It fails like
// ReadSummary, and when the file cannot be opened.
func ReadSummaryFile(path string) (Summary, error) {
	return readFile(path, TableSummary, readSummary)
}

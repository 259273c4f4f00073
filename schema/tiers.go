package schema

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
)

// WriteTiers writes rows as tiers.parquet to w, in the order given (callers
// write them by tier). An empty rows writes a valid file with no rows. When
// the rows have Outcomes the file has the outcome columns; rows must then
// all have them, and each row's classes must add up to its positions. It
// returns an error, and leaves w holding a partial file, when they do not or
// writing fails. Wrap it in WriteFileAtomic to write a file.
func WriteTiers(w io.Writer, rows []Tier) error {
	if err := writeTiers(w, rows, defaultOptions); err != nil {
		return fmt.Errorf("write tiers: %w", err)
	}
	return nil
}

func writeTiers(w io.Writer, rows []Tier, o writeOptions) error {
	solved := len(rows) > 0 && rows[0].Outcomes != nil
	for _, r := range rows {
		switch {
		case (r.Outcomes != nil) != solved:
			return fmt.Errorf("tiers %d and %d: outcomes on some rows only", rows[0].Tier, r.Tier)
		case solved && r.Outcomes.L+r.Outcomes.R+r.Outcomes.N+r.Outcomes.P != r.Positions:
			return fmt.Errorf("tier %d: outcomes of %d positions, the tier has %d", r.Tier, r.Outcomes.L+r.Outcomes.R+r.Outcomes.N+r.Outcomes.P, r.Positions)
		}
	}
	sc := tiersSchema
	if solved {
		sc = tiersSolvedSchema
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	b.Reserve(len(rows))
	var (
		game  = b.Field(tGame).(*array.StringBuilder)
		board = b.Field(tBoard).(*array.StringBuilder)
		tier  = b.Field(tTier).(*array.Int32Builder)
		u     = func(i int) *array.Uint64Builder { return b.Field(i).(*array.Uint64Builder) }
	)
	for _, r := range rows {
		game.Append(r.Game)
		board.Append(r.Board)
		tier.Append(r.Tier)
		u(tPositions).Append(r.Positions)
		u(tMoves).Append(r.Moves)
		u(tSplit).Append(r.Split)
		u(tLivePiecesWhenSplit).Append(r.LivePiecesWhenSplit)
		u(tWithDead).Append(r.WithDead)
		u(tJoins).Append(r.Joins)
		u(tEdgeRuleJoins).Append(r.EdgeRuleJoins)
		if solved {
			u(tOutcomeL).Append(r.Outcomes.L)
			u(tOutcomeR).Append(r.Outcomes.R)
			u(tOutcomeN).Append(r.Outcomes.N)
			u(tOutcomeP).Append(r.Outcomes.P)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return writeTable(w, rec, o)
}

// ReadTiers reads a tiers.parquet file, rows in file order. The result is
// never nil. It returns an error wrapping ErrWrongTable when the file holds
// another table or schema version, and an error when the file is not
// Parquet or cannot be read.
func ReadTiers(r parquet.ReaderAtSeeker) ([]Tier, error) {
	rows, err := readTiers(r)
	if err != nil {
		return nil, fmt.Errorf("read tiers: %w", err)
	}
	return rows, nil
}

func readTiers(r parquet.ReaderAtSeeker) ([]Tier, error) {
	rows := []Tier{}
	var in interner
	err := readTable(r, TableTiers, func(rec arrow.RecordBatch) error {
		solved := rec.NumCols() > tOutcomeL
		var (
			game  = rec.Column(tGame).(*array.String)
			board = rec.Column(tBoard).(*array.String)
			tier  = rec.Column(tTier).(*array.Int32)
			u     = func(c, i int) uint64 { return rec.Column(c).(*array.Uint64).Value(i) }
		)
		for i := 0; i < int(rec.NumRows()); i++ {
			rows = append(rows, Tier{
				Game:                in.get(game.Value(i)),
				Board:               in.get(board.Value(i)),
				Tier:                tier.Value(i),
				Positions:           u(tPositions, i),
				Moves:               u(tMoves, i),
				Split:               u(tSplit, i),
				LivePiecesWhenSplit: u(tLivePiecesWhenSplit, i),
				WithDead:            u(tWithDead, i),
				Joins:               u(tJoins, i),
				EdgeRuleJoins:       u(tEdgeRuleJoins, i),
			})
			if solved {
				rows[len(rows)-1].Outcomes = &TierOutcomes{
					L: u(tOutcomeL, i), R: u(tOutcomeR, i), N: u(tOutcomeN, i), P: u(tOutcomeP, i),
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// ReadTiersFile reads the tiers.parquet file at path. It fails like
// ReadTiers, and when the file cannot be opened.
func ReadTiersFile(path string) ([]Tier, error) {
	return readFile(path, TableTiers, readTiers)
}

// interner copies strings out of Arrow buffers, sharing the copy of a value
// that repeats (game and board repeat on every row).
type interner struct {
	last [2]string
}

func (in *interner) get(s string) string {
	for _, l := range in.last {
		if l == s {
			return l
		}
	}
	c := string([]byte(s))
	in.last[1], in.last[0] = in.last[0], c
	return c
}

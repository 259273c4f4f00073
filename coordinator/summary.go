package coordinator

import (
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
)

func tierRow(g games.Game, t int, s jobs.TierStats) schema.Tier {
	return schema.Tier{
		Game: g.Name(), Board: g.Board().String(), Tier: int32(t),
		Positions: s.Positions, Moves: s.Moves, Split: s.Split,
		LivePiecesWhenSplit: s.LiveWhenSplit, WithDead: s.WithDead,
		Joins: s.Joins, EdgeRuleJoins: s.EdgeRuleJoins,
	}
}

// summarize puts the counts of a finished run into its summary.
func summarize(g games.Game, tiers []schema.Tier, total jobs.TierStats, pieces jobs.PieceResult, classes jobs.ClassResult) schema.Summary {
	s := schema.Summary{
		SchemaVersion:         schema.Version,
		Game:                  g.Name(),
		Board:                 g.Board().String(),
		Start:                 g.Format(g.Start()),
		Positions:             total.Positions,
		Moves:                 total.Moves,
		Tiers:                 len(tiers),
		SplitPositions:        total.Split,
		PositionsWithDead:     total.WithDead,
		DeadFreeBoards:        pieces.DeadFree,
		PiecesInPlace:         pieces.InPlace,
		PiecesTranslated:      pieces.Translated,
		PiecesSymmetric:       classes.Symmetric,
		PiecesNegation:        classes.Negation,
		SelfNegativeSymmetric: classes.SelfNegative,
		PiecesBySize:          pieces.BySize,
		Joins:                 total.Joins,
	}
	for _, t := range tiers {
		s.PositionsByTier = append(s.PositionsByTier, t.Positions)
		s.SplitByTier = append(s.SplitByTier, t.Split)
	}
	s.SplitShare = ratio(total.Split, total.Positions)
	s.MeanLivePiecesWhenSplit = ratio(total.LiveWhenSplit, total.Split)
	s.DeadShare = ratio(total.WithDead, total.Positions)
	switch g.Name() {
	case "amazons":
		e := total.EdgeRuleJoins
		s.EdgeRuleJoins = &e
	case "clobber":
		if f, ok := games.MeanFraction(jobs.DenseHist(total.MovedPiece)); ok {
			s.MovedPieceFraction = &f
		}
		if f, ok := games.MeanFraction(jobs.DenseHist(total.MovedPieceSplit)); ok {
			s.MovedPieceFractionAfterSplit = &f
		}
	}
	return s
}

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

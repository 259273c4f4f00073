package schema

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// Table names as stored under MetaTable in every file's key-value metadata.
const (
	TableSummary = "summary"
	TableTiers   = "tiers"
	TablePieces  = "pieces"
)

// Keys of the Parquet key-value metadata written into every output file.
const (
	// MetaSchemaVersion holds Version in decimal.
	MetaSchemaVersion = "schema_version"
	// MetaTable holds the table name: TableSummary, TableTiers, TablePieces
	// or TablePositions.
	MetaTable = "census_table"
)

// Column indexes of the summary table, in schema order.
const (
	sSchemaVersion = iota
	sGame
	sBoard
	sStart
	sPositions
	sMoves
	sTiers
	sPositionsByTier
	sSplitByTier
	sSplitPositions
	sSplitShare
	sMeanLivePiecesWhenSplit
	sPositionsWithDead
	sDeadShare
	sDeadFreeBoards
	sPiecesInPlace
	sPiecesTranslated
	sPiecesSymmetric
	sPiecesNegation
	sSelfNegativeSymmetric
	sPiecesBySize
	sJoins
	sEdgeRuleJoins
	sMovedPieceFraction
	sMovedPieceFractionAfterSplit
)

// Column indexes of the tiers table, in schema order.
const (
	tGame = iota
	tBoard
	tTier
	tPositions
	tMoves
	tSplit
	tLivePiecesWhenSplit
	tWithDead
	tJoins
	tEdgeRuleJoins
	// The outcome columns, only in a solved run's file.
	tOutcomeL
	tOutcomeR
	tOutcomeN
	tOutcomeP
)

// Column indexes of the pieces table, in schema order.
const (
	pGame = iota
	pBoard
	pKeyHi
	pKeyLo
	pRows
	pCols
	pSize
	pPicture
	pSymmetricHi
	pSymmetricLo
	pNegationHi
	pNegationLo
	pSelfNegative
	pPositions
	pFirstTier
	// The value columns, null until the values stage fills them.
	pOutcome
	pValue
	pValueCapped
	pValueNodes
	pCost
)

// Names of the pieces table's key columns, the ones written with
// DELTA_BINARY_PACKED and no dictionary.
const (
	ColKeyHi = "key_hi"
	ColKeyLo = "key_lo"
)

var (
	tU64  = arrow.PrimitiveTypes.Uint64
	tI32  = arrow.PrimitiveTypes.Int32
	tF64  = arrow.PrimitiveTypes.Float64
	tStr  = arrow.BinaryTypes.String
	tBool = arrow.FixedWidthTypes.Boolean
)

// req is a non-nullable field; opt a nullable one.
func req(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t}
}

func opt(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}

// u64List is list<uint64> with non-null elements. The element is named
// "element" as in the Parquet LIST layout, so that the type read back from a
// file is the type written.
var u64List = arrow.ListOfField(arrow.Field{Name: "element", Type: tU64})

// sizeMap is map<int32, uint64> with a non-null value.
var sizeMap = arrow.MapOfFields(
	arrow.Field{Name: "key", Type: tI32},
	arrow.Field{Name: "value", Type: tU64},
)

func tableMetadata(table string) *arrow.Metadata {
	md := arrow.NewMetadata(
		[]string{MetaSchemaVersion, MetaTable},
		[]string{strconv.Itoa(Version), table},
	)
	return &md
}

var summarySchema = arrow.NewSchema([]arrow.Field{
	sSchemaVersion:                req("schema_version", tI32),
	sGame:                         req("game", tStr),
	sBoard:                        req("board", tStr),
	sStart:                        req("start", tStr),
	sPositions:                    req("positions", tU64),
	sMoves:                        req("moves", tU64),
	sTiers:                        req("tiers", tI32),
	sPositionsByTier:              req("positions_by_tier", u64List),
	sSplitByTier:                  req("split_by_tier", u64List),
	sSplitPositions:               req("split_positions", tU64),
	sSplitShare:                   req("split_share", tF64),
	sMeanLivePiecesWhenSplit:      req("mean_live_pieces_when_split", tF64),
	sPositionsWithDead:            req("positions_with_dead", tU64),
	sDeadShare:                    req("dead_share", tF64),
	sDeadFreeBoards:               req("dead_free_boards", tU64),
	sPiecesInPlace:                req("pieces_in_place", tU64),
	sPiecesTranslated:             req("pieces_translated", tU64),
	sPiecesSymmetric:              req("pieces_symmetric", tU64),
	sPiecesNegation:               req("pieces_negation", tU64),
	sSelfNegativeSymmetric:        req("self_negative_symmetric", tU64),
	sPiecesBySize:                 req("pieces_by_size", sizeMap),
	sJoins:                        req("joins", tU64),
	sEdgeRuleJoins:                opt("edge_rule_joins", tU64),
	sMovedPieceFraction:           opt("moved_piece_fraction", tF64),
	sMovedPieceFractionAfterSplit: opt("moved_piece_fraction_after_split", tF64),
}, tableMetadata(TableSummary))

var tiersSchema = arrow.NewSchema([]arrow.Field{
	tGame:                req("game", tStr),
	tBoard:               req("board", tStr),
	tTier:                req("tier", tI32),
	tPositions:           req("positions", tU64),
	tMoves:               req("moves", tU64),
	tSplit:               req("split", tU64),
	tLivePiecesWhenSplit: req("live_pieces_when_split", tU64),
	tWithDead:            req("with_dead", tU64),
	tJoins:               req("joins", tU64),
	tEdgeRuleJoins:       req("edge_rule_joins", tU64),
}, tableMetadata(TableTiers))

// tiersSolvedSchema is tiersSchema with the outcome columns after the
// others: the tiers table of a solved run.
var tiersSolvedSchema = arrow.NewSchema(append(tiersSchema.Fields(),
	req("outcome_l", tU64),
	req("outcome_r", tU64),
	req("outcome_n", tU64),
	req("outcome_p", tU64),
), tableMetadata(TableTiers))

var piecesSchema = arrow.NewSchema([]arrow.Field{
	pGame:         req("game", tStr),
	pBoard:        req("board", tStr),
	pKeyHi:        req(ColKeyHi, tU64),
	pKeyLo:        req(ColKeyLo, tU64),
	pRows:         req("rows", tI32),
	pCols:         req("cols", tI32),
	pSize:         req("size", tI32),
	pPicture:      req(ColPicture, tStr),
	pSymmetricHi:  req("symmetric_hi", tU64),
	pSymmetricLo:  req("symmetric_lo", tU64),
	pNegationHi:   req("negation_hi", tU64),
	pNegationLo:   req("negation_lo", tU64),
	pSelfNegative: req("self_negative", tBool),
	pPositions:    req("positions", tU64),
	pFirstTier:    req("first_tier", tI32),
	pOutcome:      opt(ColOutcome, tStr),
	pValue:        opt(ColValue, tStr),
	pValueCapped:  opt("value_capped", tBool),
	pValueNodes:   opt("value_nodes", tI32),
	pCost:         opt("cost", tU64),
}, tableMetadata(TablePieces))

// SummarySchema returns the Arrow schema of summary.parquet, with the table
// name and Version in its metadata. The schema is shared: do not modify it.
// It never fails.
func SummarySchema() *arrow.Schema { return summarySchema }

// TiersSchema returns the Arrow schema of tiers.parquet, with the table name
// and Version in its metadata. The schema is shared: do not modify it. It
// never fails.
func TiersSchema() *arrow.Schema { return tiersSchema }

// TiersSolvedSchema returns the Arrow schema of a solved run's
// tiers.parquet: TiersSchema's columns, then outcome_l, outcome_r,
// outcome_n and outcome_p. The schema is shared: do not modify it. It never
// fails.
func TiersSolvedSchema() *arrow.Schema { return tiersSolvedSchema }

// PiecesSchema returns the Arrow schema of the pieces/part-*.parquet files,
// with the table name and Version in its metadata. The schema is shared: do
// not modify it. It never fails.
func PiecesSchema() *arrow.Schema { return piecesSchema }

// readVersions lists, for each table, the schema versions whose files this
// build reads: those in which the table's columns are the ones of Version.
// Results computed under an earlier version stay readable as long as their
// table did not change.
var readVersions = map[string][]int{
	TableSummary:   {1, 2, 3, Version},
	TableTiers:     {1, 2, 3, Version},
	TablePieces:    {2, 3, Version},
	TablePositions: {2, 3, Version},
	TableStates:    {2, 3, Version},
}

// solvedSchemas are the schemas of the tables the solve stage rewrites
// with outcome columns after the others, in the same version.
var solvedSchemas = map[string]*arrow.Schema{
	TableTiers:     tiersSolvedSchema,
	TablePositions: positionsSolvedSchema,
}

// schemaFor returns the schema of a table name, or nil for an unknown one.
func schemaFor(table string) *arrow.Schema {
	switch table {
	case TableSummary:
		return summarySchema
	case TableTiers:
		return tiersSchema
	case TablePieces:
		return piecesSchema
	case TablePositions:
		return positionsSchema
	case TableStates:
		return statesSchema
	}
	return nil
}

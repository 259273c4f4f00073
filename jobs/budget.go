package jobs

// A job's memory budget (Spec.MemBudget) is split here, and only here, into
// named shares, one set per kind of job. Each share is a whole number of
// sixty-fourths of the budget, and the shares of one kind of job add up to
// exactly 64 of them (budget_test.go checks it), so a job never plans for
// more memory than it was given. The shares bound the buffers a job holds
// in records; a buffer in records is its share over the bytes a record
// takes (the record sizes below).

// Bytes a buffered record takes, for turning a share into a count.
const (
	// keyBytes is a uint64 key and its radix-sort scratch slot.
	keyBytes = 16
	// pieceRecordBytes is a PieceRecord; it is sorted in place.
	pieceRecordBytes = 32
	// classRecordBytes is a ClassRecord; it is sorted in place.
	classRecordBytes = 24
	// imageBytes is a piece of an orbit gathered by a piece job (an
	// image); it is sorted in place. orbitRowBytes is what the pieces of
	// one orbit share.
	imageBytes    = 24
	orbitRowBytes = 80
	// pieceRowBytes is a row of the pieces table held in a row group.
	pieceRowBytes = 100
	// positionRowBytes is a row of the positions table held in a row group.
	positionRowBytes = 40
)

// sixtyFourths is the unit of a share.
const sixtyFourths = 64

// share is part of a budget: n sixty-fourths of it.
type share int64

// of is the bytes of the share of budget.
func (s share) of(budget int64) int64 { return budget / sixtyFourths * int64(s) }

// records is how many records of size bytes the share of budget holds.
func (s share) records(budget int64, size int64) int { return int(s.of(budget) / size) }

// tierShares split a tier job's budget.
type tierShares struct {
	// Successors buffers the positions of the next tier, by shard.
	Successors share
	// DeadFree, InPlace and Pieces buffer the piece keys and records sent
	// on to the reduce shards.
	DeadFree, InPlace, Pieces share
	// ReadBuffers are the read buffers of the input fragments, shared by
	// all of them while they are merged; the merge of the positions
	// table's spilled runs, after the inputs are read, reuses them.
	ReadBuffers share
	// PositionRows is the row group of the positions table, and
	// PositionImages the images of the representatives gathered for it;
	// both are zero, and their sixty-fourths go to Successors, when the job
	// writes no positions table.
	PositionRows, PositionImages share
}

// tierBudget is the split of a tier job's budget, with or without the
// positions table.
func tierBudget(positions bool) tierShares {
	s := tierShares{
		Successors: 42,
		DeadFree:   6, InPlace: 6, Pieces: 6,
		ReadBuffers: 4,
	}
	if positions {
		s.Successors -= 8
		s.PositionRows, s.PositionImages = 4, 4
	}
	return s
}

func (s tierShares) sum() share {
	return s.Successors + s.DeadFree + s.InPlace + s.Pieces + s.ReadBuffers + s.PositionRows + s.PositionImages
}

// pieceShares split a piece job's budget.
type pieceShares struct {
	// ReadBuffers are the read buffers of the fragments being merged: the
	// dead-free keys, then the in-place keys, then the piece records,
	// then the spilled runs of images.
	ReadBuffers share
	// Images gathers the pieces of every orbit and what each orbit's
	// pieces share, sorted into key order before they become rows.
	Images share
	// Rows is the row group of the pieces table.
	Rows share
	// Classes buffers the class records sent on to the class shards.
	Classes share
}

// pieceBudget is the split of a piece job's budget.
func pieceBudget() pieceShares {
	return pieceShares{ReadBuffers: 8, Images: 16, Rows: 16, Classes: 24}
}

func (s pieceShares) sum() share { return s.ReadBuffers + s.Images + s.Rows + s.Classes }

// classShares split a class job's budget: it only merges.
type classShares struct {
	ReadBuffers share
}

func classBudget() classShares { return classShares{ReadBuffers: sixtyFourths} }

func (s classShares) sum() share { return s.ReadBuffers }

// compactShares split a compaction's budget: it merges, and holds what it
// writes in memory until it knows the count its fragment's header needs.
type compactShares struct {
	// ReadBuffers are the read buffers of the fragments and runs merged.
	ReadBuffers share
	// Output holds the encoded records of one kind; a compaction whose
	// records outgrow it merges them twice instead (runCompact).
	Output share
}

func compactBudget() compactShares { return compactShares{ReadBuffers: 16, Output: 48} }

func (s compactShares) sum() share { return s.ReadBuffers + s.Output }

// ShardPositions is how many positions a tier shard should hold for a job
// of budget bytes: as many keys as the whole budget holds. The coordinator
// sizes its shards with it.
func ShardPositions(budget int64) uint64 { return uint64(max(budget/keyBytes, 1<<16)) }

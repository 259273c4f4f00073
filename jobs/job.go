// Package jobs is the unit of work of census: the job specs as they travel
// between coordinator and workers (Job, one field set for each kind; the
// kinds are listed once, in kinds.go), and what running each reads and
// writes in the store. Every job is a pure function of its inputs and writes
// its outputs atomically under names that depend only on the job
// (blobnames.go), so running a job twice gives the same outputs.
//
// A census is a search one tier at a time. A tier job (tier t, shard s)
// finds the unique positions of (t, s), measures each position through the
// game's kernel (games.Kernel), and writes its piece keys bucketed by
// reduce shard; how it finds its positions is the run's tier strategy:
//   - forward: it merges its incoming sorted fragments and writes its
//     successors as sorted fragments bucketed by the shard of tier t+1
//     that owns them (tier.go);
//   - backward, for a game with dense tiers (games.Dense): it tests every
//     arrangement of its shard for a reachable predecessor among all of
//     tier t-1's positions, and writes the positions it stored;
//   - listed, for a game whose tiers can be listed outright (games.Listed):
//     its shard is a part of the listing; it reads no inputs and writes no
//     successors.
//
// Compaction jobs, run beside a later tier, fold the piece fragments of
// each reduce shard into one run of distinct records (compact.go). After
// the last tier, piece jobs deduplicate the piece keys of each reduce shard
// and write the pieces table, and class jobs count the symmetric and
// negation classes (reduce.go). On a finished run, value jobs value the
// pieces one level (size) at a time (values.go), and solve jobs solve the
// kept positions one tier at a time from the last, each writing the
// tablebase shard of its positions (solve.go, keep.go).
package jobs

import "errors"

// ErrInvalid marks a job that can never succeed as specified.
var ErrInvalid = errors.New("invalid job")

// Spec is what every job of a run shares.
type Spec struct {
	Run   string `json:"run"`
	Game  string `json:"game"`
	Board string `json:"board"`
	// Start is a board diagram, or empty for the game's standard start.
	Start string `json:"start,omitempty"`
	// Store locates the run's blobs: a directory, or an s3:// URL. A
	// worker may map it to its own mount of the same store.
	Store string `json:"store"`
	// NoSymmetry turns off the symmetry reduction: every position is
	// stored, not one per orbit of the start's symmetries.
	NoSymmetry bool `json:"no_symmetry,omitempty"`
	// Positions asks every tier job to write its positions as a part of
	// the positions table.
	Positions bool `json:"positions,omitempty"`
	// Keep asks every tier job to keep its positions for the solve stage
	// (keep.go).
	Keep bool `json:"keep,omitempty"`
	// MemBudget is the bytes a job may hold in record buffers before it
	// spills them to the store, split into named shares (budget.go).
	MemBudget int64 `json:"mem_budget"`
	// PiecesCodec compresses the pages of the pieces table (a
	// schema.Codec's name; empty is zstd).
	PiecesCodec string `json:"pieces_codec,omitempty"`
	// Backward finds each tier from the one before it backwards, for a
	// game with dense tiers (games.Dense): a tier job tests every
	// arrangement of its shard for a reachable predecessor, its inputs
	// are all of the previous tier's positions, and it writes the
	// positions it stored (tier.go, backward).
	Backward bool `json:"backward,omitempty"`
	// Listed finds each tier on its own, for a game whose reachable
	// positions of a tier can be listed outright (games.Listed): a tier
	// job reads no inputs and writes no successors; its shard is a part
	// of the listing, not a range of hashes (tier.go, listed).
	Listed bool `json:"listed,omitempty"`
}

// budget is the memory budget of a job, at least 1MiB.
func (s *Spec) budget() int64 { return max(s.MemBudget, 1<<20) }

// Job is one unit of work: exactly one of its fields is set.
type Job struct {
	Tier  *TierJob  `json:"tier,omitempty"`
	Piece *PieceJob `json:"piece,omitempty"`
	Class *ClassJob `json:"class,omitempty"`
	Value *ValueJob `json:"value,omitempty"`
	// Compact folds piece fragments; it runs beside the next tier's jobs.
	Compact *CompactJob `json:"compact,omitempty"`
	// Solve solves a tier shard from the next tier's outcomes (solve.go).
	Solve *SolveJob `json:"solve,omitempty"`
}

// Result is what a job reports: the field of the job's kind is set.
type Result struct {
	Tier    *TierResult    `json:"tier,omitempty"`
	Piece   *PieceResult   `json:"piece,omitempty"`
	Class   *ClassResult   `json:"class,omitempty"`
	Value   *ValueResult   `json:"value,omitempty"`
	Compact *CompactResult `json:"compact,omitempty"`
	Solve   *SolveResult   `json:"solve,omitempty"`
	// Cost is what running the job took, as the one that ran it measured
	// it; nil in the records of a census before it was kept.
	Cost *Cost `json:"cost,omitempty"`
}

// Cost is the time a job took: its wall time, and the CPU time (user and
// system) of the thread that ran it (see host/cpuclock), in
// nanoseconds.
type Cost struct {
	WallNS int64 `json:"wall_ns"`
	CPUNS  int64 `json:"cpu_ns"`
}

// ID names a job within its run, e.g. "tier-0003-shard-00012".
func (j Job) ID() string {
	if t := j.task(); t != nil {
		return t.id()
	}
	return "empty"
}

// Key names a job within its run in a form that NATS subjects and KV keys
// accept, with tokens a wildcard can select: "tier.0003.00012",
// "piece.00003", "class.00003", "compact.0003.00002".
func (j Job) Key() string {
	if t := j.task(); t != nil {
		return t.key()
	}
	return "empty"
}

// Consumes returns the blobs this job reads fragments of: a tier shard's
// position fragments, a bucket's piece fragments and runs (compact and
// piece jobs) and a class shard's class fragments. A blob holds the
// fragments of several buckets, which the jobs of one batch read; no job
// of a later batch reads it, so once every job of the batch that reads it
// has a done-record (a later delivery of a job finds the record and
// skips), it can be deleted. Value jobs read tables that later levels
// read too: none.
func (j Job) Consumes() []Blob {
	if t := j.task(); t != nil {
		return t.consumes()
	}
	return nil
}

// Spec returns the run spec of the job, or nil for an empty job.
func (j Job) Spec() *Spec {
	if t := j.task(); t != nil {
		return t.spec()
	}
	return nil
}

// TierJob measures and expands the positions of one shard of one tier.
type TierJob struct {
	Spec
	Tier  int `json:"tier"`
	Shard int `json:"shard"`
	// Shards is the number of shards of this tier, NextShards of the next.
	Shards       int `json:"shards"`
	NextShards   int `json:"next_shards"`
	ReduceShards int `json:"reduce_shards"`
	// Inputs are the position fragments of this shard; in a backward
	// run, those of every shard of the previous tier.
	Inputs []Blob `json:"inputs"`
}

// TierResult is what a tier job found and wrote.
type TierResult struct {
	Tier  int       `json:"tier"`
	Shard int       `json:"shard"`
	Stats TierStats `json:"stats"`
	// Next are position fragments of the next tier, Bucket naming the
	// shard; in a backward run, the positions the job stored, which every
	// job of the next tier reads.
	Next []Blob `json:"next"`
	// Pieces are dead-free, in-place and piece fragments, Bucket naming the
	// reduce shard.
	Pieces []Blob `json:"pieces"`
	// Table is the positions table part, Bucket naming the shard and Count
	// its rows; absent unless the spec asks for positions and the shard
	// holds some.
	Table *Blob `json:"table,omitempty"`
	// Kept is the shard's kept positions, Count of them; absent unless the
	// spec keeps positions and the shard holds some.
	Kept *Blob `json:"kept,omitempty"`
}

// TierStats are the per-position and per-move counts of a set of positions.
type TierStats struct {
	// Positions counts positions; Stored counts the representatives stored
	// for them, one per orbit of the start's symmetries.
	Positions     uint64 `json:"positions"`
	Stored        uint64 `json:"stored"`
	Moves         uint64 `json:"moves"`
	Split         uint64 `json:"split"`
	LiveWhenSplit uint64 `json:"live_when_split"`
	WithDead      uint64 `json:"with_dead"`
	Joins         uint64 `json:"joins"`
	EdgeRuleJoins uint64 `json:"edge_rule_joins"`
	// MovedPiece and MovedPieceSplit are sparse moved-piece histograms:
	// moves by stones on the board and stones in the moved piece.
	MovedPiece      []HistEntry `json:"moved_piece,omitempty"`
	MovedPieceSplit []HistEntry `json:"moved_piece_split,omitempty"`
}

// HistEntry counts the moves made in a piece of K stones on a board of N.
type HistEntry struct {
	N     int    `json:"n"`
	K     int    `json:"k"`
	Count uint64 `json:"count"`
}

// Add adds o to s.
func (s *TierStats) Add(o TierStats) {
	s.Positions += o.Positions
	s.Stored += o.Stored
	s.Moves += o.Moves
	s.Split += o.Split
	s.LiveWhenSplit += o.LiveWhenSplit
	s.WithDead += o.WithDead
	s.Joins += o.Joins
	s.EdgeRuleJoins += o.EdgeRuleJoins
	s.MovedPiece = addHist(s.MovedPiece, o.MovedPiece)
	s.MovedPieceSplit = addHist(s.MovedPieceSplit, o.MovedPieceSplit)
}

func addHist(a, b []HistEntry) []HistEntry {
	for _, e := range b {
		found := false
		for i := range a {
			if a[i].N == e.N && a[i].K == e.K {
				a[i].Count += e.Count
				found = true
				break
			}
		}
		if !found {
			a = append(a, e)
		}
	}
	return a
}

// PieceJob deduplicates the piece keys of one reduce shard.
type PieceJob struct {
	Spec
	Bucket      int    `json:"bucket"`
	ClassShards int    `json:"class_shards"`
	Inputs      []Blob `json:"inputs"`
}

// PieceResult counts the distinct keys of one reduce shard at the first
// levels, and names the pieces table part and class fragments it wrote.
type PieceResult struct {
	Bucket     int            `json:"bucket"`
	DeadFree   uint64         `json:"dead_free"`
	InPlace    uint64         `json:"in_place"`
	Translated uint64         `json:"translated"`
	BySize     map[int]uint64 `json:"by_size"`
	// Table is the pieces table part, absent when the shard has no pieces.
	Table   *Blob  `json:"table,omitempty"`
	Classes []Blob `json:"classes"`
	// ImageRuns counts the sorted runs of pieces the job spilled to the
	// store to sort them (and deleted once its table was written).
	ImageRuns int `json:"image_runs,omitempty"`
}

// ClassJob counts the symmetric and negation classes of one class shard.
type ClassJob struct {
	Spec
	Bucket int    `json:"bucket"`
	Inputs []Blob `json:"inputs"`
}

// ClassResult counts the classes of one class shard.
type ClassResult struct {
	Bucket       int    `json:"bucket"`
	Symmetric    uint64 `json:"symmetric"`
	Negation     uint64 `json:"negation"`
	SelfNegative uint64 `json:"self_negative"`
}

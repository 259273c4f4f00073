package coordinator

import (
	"time"

	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/schema"
)

// Config is one run of the census to coordinate, in the parts that its
// steps read: the census it computes (Census), what it runs with, as
// every stage does (Env), how its tiers and reductions are split and
// placed (Tuning), where its outputs go (Outputs), the free space it
// checks for (SpaceCheck) and, under Start, how it holds the run
// (LeaseOptions). Their fields are Config's own.
type Config struct {
	Census
	Env
	Tuning
	Outputs
	SpaceCheck
	LeaseOptions
	// Progress, when set, is told of every finished batch.
	Progress func(Progress)
	// deletes runs a census's deletes in the background; nil deletes at
	// once.
	deletes *deleter
}

// Census is what a run computes, and so its outputs: its run ID
// (Config.ID) and its plan follow from it, and a run resumed or named
// again must ask for the same.
type Census struct {
	Game, Board string
	// Start is a board diagram, or empty for the standard start.
	Start string
	// Shards forces the number of shards of every tier and reduction; zero
	// chooses them from the sizes seen so far.
	Shards int
	// NoSymmetry stores every position instead of one per orbit of the
	// start's symmetries (the counts are the same; it is slower).
	NoSymmetry bool
	// Positions writes the positions table: every position of the run,
	// under positions/tier=NN/ in the outputs.
	Positions bool
	// Keep keeps every tier's positions, for the solve stage, under
	// kept/ in the outputs (solve.go).
	Keep bool
	// PiecesCodec compresses the pieces table's pages; zero is zstd.
	PiecesCodec schema.Codec
}

// plan is the part of a run's plan that c fixes.
func (c Census) plan() Plan {
	return Plan{Game: c.Game, Board: c.Board, Start: c.Start, Shards: c.Shards, NoSymmetry: c.NoSymmetry, Positions: c.Positions,
		Keep: c.Keep, PiecesCodec: piecesCodecName(c.PiecesCodec)}
}

// Tuning is how a run splits its work into jobs and where they run,
// which leaves its outputs as they are: the options its tiers and
// reductions read.
type Tuning struct {
	// Parallelism is how many jobs can run at once; automatic sharding
	// makes at least twice as many shards for large tiers.
	Parallelism int
	// MemBudget is the bytes one job may hold in record buffers.
	MemBudget int64
	// Forward finds every tier from the successors of the one before,
	// also for a game whose tiers a run finds backwards or lists by
	// default (see chooseTierWay).
	Forward bool
	// CompactMin is the bytes of piece fragments written since the last
	// compaction below which the run does not compact them (see
	// compactions); zero means DefaultCompactMin. A resumed run keeps the
	// value it started with.
	CompactMin uint64
	// InProcessBelow runs a tier whose jobs' inputs hold fewer records
	// than this each, on average, in the coordinator's own process,
	// Parallelism jobs at once, without a barrier on the workers (see
	// inProcess), unless Shards set more than one shard a tier; zero runs
	// every job on the workers. The piece reduction runs there too when
	// its jobs' inputs hold fewer than pieceInProcessScale times as many
	// records each, unless Shards is set.
	// DefaultInProcessBelow suits a coordinator that shares its machine
	// with its workers.
	InProcessBelow uint64
}

// Outputs is where a run's outputs land and how its tables get there.
type Outputs struct {
	// Out is the directory the outputs land in (OutputDir of the run).
	Out string
	// Version is written into run.json.
	Version string
	// TablesToOut moves each pieces table part into Out as its piece job
	// finishes, and out of the store, rather than copying the parts at
	// the end: the store then holds the parts of the running jobs only.
	// For a run no coordinator on another machine can take over (census
	// run): one that did would find the parts in neither its Out nor the
	// store.
	TablesToOut bool
}

// SpaceCheck is the free space a run looks for before each stage.
type SpaceCheck struct {
	// SpaceDirs are the directories that hold the run's working data (a
	// directory store's root, the NATS server's store). Before each tier
	// and before the reductions the run stops with a *NoSpaceError when
	// one of them has less free space than the stage is estimated to
	// write (see spaceBudget). A store with a root directory (a
	// directory store) has its root checked as well.
	SpaceDirs []string
	// NoSpaceCheck checks no directory's free space: for filesystems that
	// do not report it truthfully. A full disk then stops the run when a
	// write fails, as it does when another process fills it.
	NoSpaceCheck bool
}

// LeaseOptions are how Start holds its run against other coordinators.
type LeaseOptions struct {
	// LeaseTTL is how long Start's hold on the run outlasts its last
	// renewal; zero means DefaultLeaseTTL.
	LeaseTTL time.Duration
	// NoWait makes Start fail with ErrRunHeld, rather than wait, when
	// another coordinator holds the run.
	NoWait bool
	// OnHeld, when set, is told once who holds the run when Start has to
	// wait for it.
	OnHeld func(holder runstate.Lease)
}

// DefaultInProcessBelow is a Config.InProcessBelow: jobs the size of the
// tiers that automatic sharding leaves in one shard (minShardPositions),
// which take milliseconds.
const DefaultInProcessBelow = minShardPositions

// pieceInProcessScale is how many more records a piece job's inputs may
// hold than a tier job's for it to run in the coordinator: a record of a
// piece job costs about half what a tier's position does (Clobber 4x4:
// 0.75 us against 1.3 us).
const pieceInProcessScale = 2

// DefaultCompactMin is the default Config.CompactMin.
const DefaultCompactMin = 4 << 20

// minShardPositions is the size below which a tier is not split for
// parallelism alone.
const minShardPositions = 50_000

// Package coordinator plans a census run and decides what runs next: it
// publishes each tier's jobs, waits for them, sizes the next tier, runs the
// piece and class reductions, and assembles the output tables.
package coordinator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// Executor runs a batch of jobs and returns their results in the same
// order. It fails when any job fails. done, when not nil, is told of each
// job's result as it comes in (results replayed from an earlier start of
// the run included), one at a time, before Execute returns; an error from
// it fails the batch.
type Executor interface {
	Execute(ctx context.Context, batch []jobs.Job, done func(i int, r jobs.Result) error) ([]jobs.Result, error)
}

// Config is one run to coordinate.
type Config struct {
	Game, Board string
	// Start is a board diagram, or empty for the standard start.
	Start string
	// Run names the run; every blob of the run lives under it.
	Run string
	// Shards forces the number of shards of every tier and reduction; zero
	// chooses them from the sizes seen so far.
	Shards int
	// Parallelism is how many jobs can run at once; automatic sharding
	// makes at least twice as many shards for large tiers.
	Parallelism int
	// MemBudget is the bytes one job may hold in record buffers.
	MemBudget int64
	Store     store.Store
	// StoreURL locates Store for the workers.
	StoreURL string
	// KV is the run's bucket: its plan, tier plans, status and the
	// workers' done-records.
	KV   jetstream.KeyValue
	Exec Executor
	Log  *slog.Logger
	// Progress, when set, is told of every finished batch.
	Progress func(Progress)
	// Out is the directory the outputs land in (OutputDir of the run).
	Out string
	// Version is written into run.json.
	Version string
	// KeepBlobs keeps the run's fragments in the store after it finishes.
	KeepBlobs bool
	// Metrics, when set, show the run's progress.
	Metrics *Metrics
	// NoSymmetry stores every position instead of one per orbit of the
	// start's symmetries (the counts are the same; it is slower).
	NoSymmetry bool
	// Positions writes the positions table: every position of the run,
	// under positions/tier=NN/ in the outputs.
	Positions bool
	// Keep keeps every tier's positions, for the solve stage, under
	// kept/ in the outputs (solve.go).
	Keep bool
	// AckWait is how long a job may go without a heartbeat before it is
	// delivered to another worker, set on the workers' consumer; zero
	// means broker.DefaultAckWait.
	AckWait time.Duration
	// LeaseTTL is how long Start's hold on the run outlasts its last
	// renewal; zero means DefaultLeaseTTL.
	LeaseTTL time.Duration
	// NoWait makes Start fail with ErrRunHeld, rather than wait, when
	// another coordinator holds the run.
	NoWait bool
	// OnHeld, when set, is told once who holds the run when Start has to
	// wait for it.
	OnHeld func(holder runstate.Lease)
	// TablesToOut moves each pieces table part into Out as its piece job
	// finishes, and out of the store, rather than copying the parts at
	// the end: the store then holds the parts of the running jobs only.
	// For a run no coordinator on another machine can take over (census
	// run): one that did would find the parts in neither its Out nor the
	// store.
	TablesToOut bool
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
	// CompactMin is the bytes of piece fragments written since the last
	// compaction below which the run does not compact them (see
	// compactions); zero means DefaultCompactMin. A resumed run keeps the
	// value it started with.
	CompactMin uint64
}

// DefaultCompactMin is the default Config.CompactMin.
const DefaultCompactMin = 4 << 20

// minShardPositions is the size below which a tier is not split for
// parallelism alone.
const minShardPositions = 50_000

// Result is a finished run: its summary, tiers and pieces table parts.
type Result struct {
	Summary schema.Summary
	Tiers   []schema.Tier
	// Tables are the pieces table parts in the store, by reduce shard.
	Tables []jobs.Blob
	// Positions are the positions table parts in the store, by tier, each
	// by shard (the blob's Bucket); nil unless the run was asked for them.
	Positions [][]jobs.Blob
	// Compactions are the compactions of the piece fragments, in order.
	Compactions []Compaction
	// Kept are the kept positions in the store, by tier; nil unless the
	// run keeps them.
	Kept []KeptTier
}

// Run runs the census, writes its outputs into cfg.Out and returns its
// result. Run state lives in cfg.KV: a Run of the same run ID continues
// where an earlier one stopped.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	g, err := all.New(cfg.Game, cfg.Board, cfg.Start)
	if err != nil {
		return nil, err
	}
	st := state{b: runstate.New(nil, cfg.KV)}
	reduceShards := cfg.Shards
	if reduceShards == 0 {
		reduceShards = reduceShardsFor(g.Board().Squares(), cfg.Parallelism)
	}
	plan, resumed, err := st.plan(ctx, cfg.Run, Plan{Game: cfg.Game, Board: cfg.Board, Start: cfg.Start,
		Shards: cfg.Shards, ReduceShards: reduceShards, MemBudget: cfg.MemBudget, Store: cfg.StoreURL, NoSymmetry: cfg.NoSymmetry, Positions: cfg.Positions, Keep: cfg.Keep,
		CompactMin: cmp.Or(cfg.CompactMin, DefaultCompactMin)})
	if err != nil {
		return nil, err
	}
	if resumed {
		cfg.Log.Info("resuming run", "run", cfg.Run)
		if err := st.clearFailures(ctx); err != nil {
			return nil, fmt.Errorf("clear failed jobs: %w", err)
		}
	}
	reduceShards = plan.ReduceShards
	spec := jobs.Spec{Run: cfg.Run, Game: cfg.Game, Board: cfg.Board, Start: cfg.Start, Store: plan.Store,
		MemBudget: plan.MemBudget, NoSymmetry: plan.NoSymmetry, Positions: plan.Positions, Keep: plan.Keep}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	tr := newTracker(ctx, cfg, st, g.MaxTier(), cfg.Metrics.forRun(cfg.Run, g.Name(), g.Board().String(), g.MaxTier()))
	tr.stop = stop
	if n, ok := cfg.Exec.(*NATS); ok {
		n.Waiting = tr.jobs
	}
	res, err := run(ctx, cfg, g, spec, st, reduceShards, plan.CompactMin, tr)
	if err == nil {
		tr.stage(runstate.StageOutputs, res.Summary.Tiers, res.Summary.Positions)
		if spec.Keep {
			err = writeKept(ctx, &cfg, res, spec)
		}
		if err == nil {
			err = WriteOutputs(ctx, cfg.Store, res, cfg.Run, cfg.Version, cfg.Out)
		}
	}
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, broker.ErrStoreFull) {
		err = cause
	}
	if err == nil && !cfg.KeepBlobs {
		if derr := cfg.Store.DeletePrefix(ctx, jobs.RunPrefix(cfg.Run)); derr != nil {
			cfg.Log.Warn("delete the run's fragments", "err", derr)
		}
	}
	tr.finish(err)
	return res, err
}

func run(ctx context.Context, cfg Config, g games.Game, spec jobs.Spec, st state, reduceShards int, compactMin uint64, tr *tracker) (*Result, error) {
	tr.stage(runstate.StageTier, 0, 0)
	shards := cfg.shards(1)
	space := newSpaceBudget(cfg.spaceDirs())
	if tp, found, err := st.tierPlan(ctx, 0); err != nil {
		return nil, err
	} else if found {
		shards = tp.Shards
	} else if err := space.checkProjection(cfg.Game, g.Board().Rows, g.Board().Cols, cfg.Start); err != nil {
		return nil, err
	}
	startBlob, err := jobs.WriteStart(ctx, cfg.Store, spec, shards)
	if err != nil {
		return nil, fmt.Errorf("write start: %w", err)
	}
	inputs := make([][]jobs.Blob, shards)
	inputs[startBlob.Bucket] = []jobs.Blob{startBlob}
	branching := float64(startMoves(g))

	var total jobs.TierStats
	var tiers []schema.Tier
	pieces := newCompactions(spec, reduceShards, compactMin)
	var positions [][]jobs.Blob
	var keptTiers []KeptTier
	for t := 0; ; t++ {
		// The successor records routed to this tier bound its size.
		var incoming uint64
		for _, in := range inputs {
			for _, b := range in {
				incoming += b.Count
			}
		}
		nextShards := cfg.shards(uint64(float64(incoming) * max(branching, 1)))
		if tp, found, err := st.tierPlan(ctx, t); err != nil {
			return nil, err
		} else if found && tp.Shards == shards {
			nextShards = tp.NextShards
		} else if err := st.putTierPlan(ctx, t, TierPlan{Shards: shards, NextShards: nextShards}); err != nil {
			return nil, err
		}
		batch := make([]jobs.Job, shards)
		for s := range batch {
			batch[s] = jobs.Job{Tier: &jobs.TierJob{Spec: spec, Tier: t, Shard: s, Shards: shards,
				NextShards: nextShards, ReduceShards: reduceShards, Inputs: inputs[s]}}
		}
		// The piece fragments of the tiers before, when due, are compacted
		// while this tier's jobs run. They go first: a compaction is one
		// long job per reduce bucket, which at the end of the batch would
		// keep it waiting.
		compact := pieces.due(t)
		batch = append(compact, batch...)
		if err := checkRoom(ctx, st, space, batch, func() error { return space.checkTier(t, incoming, pieces.compacting(compact)) }); err != nil {
			return nil, err
		}
		results, err := cfg.Exec.Execute(ctx, batch, cfg.forget(ctx, batch, nil))
		if err != nil {
			return nil, fmt.Errorf("tier %d: %w", t, err)
		}
		compacted, results := results[:len(compact)], results[len(compact):]
		var stats jobs.TierStats
		var parts []jobs.Blob
		var written uint64
		next := make([][]jobs.Blob, nextShards)
		kept := KeptTier{Shards: shards}
		for _, r := range results {
			tr := r.Tier
			kept.add(tr.Kept)
			stats.Add(tr.Stats)
			for _, b := range tr.Next {
				next[b.Bucket] = append(next[b.Bucket], b)
			}
			written += blobBytes(tr.Next) + blobBytes(tr.Pieces)
			if tr.Table != nil {
				parts = append(parts, *tr.Table)
				written += uint64(tr.Table.Size)
			}
		}
		space.learn(incoming, written)
		if err := pieces.done(ctx, cfg, t, results, compacted); err != nil {
			return nil, err
		}
		if stats.Positions == 0 {
			break
		}
		if spec.Positions {
			var rows uint64
			for _, b := range parts {
				rows += b.Count
			}
			if rows != stats.Positions {
				return nil, fmt.Errorf("tier %d: positions table parts hold %d rows for %d positions", t, rows, stats.Positions)
			}
			positions = append(positions, parts)
		}
		total.Add(stats)
		tiers = append(tiers, tierRow(g, t, stats))
		if spec.Keep {
			keptTiers = append(keptTiers, kept)
		}
		cfg.Log.Info("tier done", "tier", t, "positions", stats.Positions, "stored", stats.Stored, "moves", stats.Moves, "shards", shards)
		tr.stage(runstate.StageTier, t+1, total.Positions)
		branching = float64(stats.Moves) / float64(stats.Positions)
		// Tier t is done for good: its position fragments are read by no
		// job again, even after a restart (which replays done-records).
		// forget deleted them as their last readers finished; this sweeps
		// what a failed delete, or a job's own leftovers, left under it.
		if !cfg.KeepBlobs {
			if err := cfg.Store.DeletePrefix(ctx, jobs.TierPrefix(cfg.Run, t)); err != nil {
				cfg.Log.Warn("delete the fragments of a finished tier", "tier", t, "err", err)
			}
		}
		inputs, shards = next, nextShards
		// What the store holds now: the next tier's inputs, every piece
		// record so far and the positions parts.
		inUse := blobBytes(pieces.blobs())
		for _, in := range inputs {
			inUse += blobBytes(in)
		}
		for _, ps := range positions {
			inUse += blobBytes(ps)
		}
		tr.storeBytes(inUse)
	}

	tr.stage(runstate.StagePieces, len(tiers), total.Positions)
	room := func(batch []jobs.Job) error {
		return checkRoom(ctx, st, space, batch, func() error {
			return space.check("the piece reduction", pieceReductionBytes(pieces.blobs(), games.StartGroup(g, !spec.NoSymmetry).Size()))
		})
	}
	counts, classes, tables, err := reduce(ctx, cfg, spec, reduceShards, pieces.blobs(), room, func() {
		tr.stage(runstate.StageClasses, len(tiers), total.Positions)
	})
	if err != nil {
		return nil, err
	}
	sum := summarize(g, tiers, total, counts, classes)
	return &Result{Summary: sum, Tiers: tiers, Tables: tables, Positions: positions, Compactions: pieces.made, Kept: keptTiers}, nil
}

// reduce runs the piece jobs, once room accepts their batch, then, after
// telling classesBegin, the class jobs, and adds up what they counted.
func reduce(ctx context.Context, cfg Config, spec jobs.Spec, reduceShards int, pieceBlobs []jobs.Blob, room func([]jobs.Job) error, classesBegin func()) (jobs.PieceResult, jobs.ClassResult, []jobs.Blob, error) {
	var pieces jobs.PieceResult
	var classes jobs.ClassResult
	byBucket := make([][]jobs.Blob, reduceShards)
	for _, b := range pieceBlobs {
		byBucket[b.Bucket] = append(byBucket[b.Bucket], b)
	}
	classShards := reduceShards
	batch := make([]jobs.Job, reduceShards)
	for r := range batch {
		batch[r] = jobs.Job{Piece: &jobs.PieceJob{Spec: spec, Bucket: r, ClassShards: classShards, Inputs: byBucket[r]}}
	}
	if err := room(batch); err != nil {
		return pieces, classes, nil, err
	}
	// With TablesToOut the pieces table's parts land in the outputs as
	// their jobs finish, and leave the store.
	if err := beginOutputs(cfg.Out); err != nil {
		return pieces, classes, nil, err
	}
	results, err := cfg.Exec.Execute(ctx, batch, cfg.forget(ctx, batch, func(r jobs.Result) error {
		if !cfg.TablesToOut || r.Piece == nil || r.Piece.Table == nil {
			return nil
		}
		if err := placeTable(ctx, cfg.Store, *r.Piece.Table, cfg.Out); err != nil {
			return err
		}
		cfg.deleteBlobs(ctx, "a pieces table part in the outputs", r.Piece.Table.Name)
		return nil
	}))
	if err != nil {
		return pieces, classes, nil, fmt.Errorf("pieces: %w", err)
	}
	pieces.BySize = map[int]uint64{}
	var tables []jobs.Blob
	classInputs := make([][]jobs.Blob, classShards)
	for _, r := range results {
		pr := r.Piece
		pieces.DeadFree += pr.DeadFree
		pieces.InPlace += pr.InPlace
		pieces.Translated += pr.Translated
		for size, n := range pr.BySize {
			pieces.BySize[size] += n
		}
		if pr.Table != nil {
			tables = append(tables, *pr.Table)
		}
		for _, b := range pr.Classes {
			classInputs[b.Bucket] = append(classInputs[b.Bucket], b)
		}
	}
	classesBegin()
	batch = make([]jobs.Job, classShards)
	for c := range batch {
		batch[c] = jobs.Job{Class: &jobs.ClassJob{Spec: spec, Bucket: c, Inputs: classInputs[c]}}
	}
	if results, err = cfg.Exec.Execute(ctx, batch, cfg.forget(ctx, batch, nil)); err != nil {
		return pieces, classes, nil, fmt.Errorf("classes: %w", err)
	}
	for _, r := range results {
		classes.Symmetric += r.Class.Symmetric
		classes.Negation += r.Class.Negation
		classes.SelfNegative += r.Class.SelfNegative
	}
	return pieces, classes, tables, nil
}

// forget is the done function of batch: it calls then (when not nil) with
// a finished job's result, and deletes each blob the batch's jobs consume
// once every job reading a part of it is done. No job reads it again: a
// resumed run replays the jobs' done-records. The store so holds the
// inputs of the jobs still to finish rather than of the whole batch. A
// blob a failed delete leaves behind is only wasted space, deleted with
// the run's prefix at its end.
func (cfg *Config) forget(ctx context.Context, batch []jobs.Job, then func(jobs.Result) error) func(int, jobs.Result) error {
	// One blob holds the fragments of every bucket of a job's output: it
	// goes when the last of its readers is done.
	readers := map[string]int{}
	names := make([][]string, len(batch))
	for i, j := range batch {
		for _, b := range j.Consumes() {
			if !slices.Contains(names[i], b.Name) {
				names[i] = append(names[i], b.Name)
				readers[b.Name]++
			}
		}
	}
	return func(i int, r jobs.Result) error {
		if then != nil {
			if err := then(r); err != nil {
				return err
			}
		}
		var unread []string
		for _, n := range names[i] {
			if readers[n]--; readers[n] == 0 {
				unread = append(unread, n)
			}
		}
		names[i] = nil // a result told twice counts once
		cfg.deleteBlobs(ctx, "the inputs of "+batch[i].ID(), unread...)
		return nil
	}
}

// deleteBlobs deletes the named blobs from the store unless the run keeps
// them.
func (cfg *Config) deleteBlobs(ctx context.Context, what string, names ...string) {
	if cfg.KeepBlobs || len(names) == 0 {
		return
	}
	if err := cfg.Store.Delete(ctx, names...); err != nil {
		cfg.Log.Warn("delete "+what, "err", err)
	}
}

// reduceShardsFor is the number of reduce shards of a run on a board of
// squares squares with parallelism jobs at once. Every tier sends its
// piece keys to the same reduce shards, so their number is fixed before
// the first tier, from the board's size. A reduce job streams its inputs,
// so its memory does not grow with the run, but its part of the pieces
// table and of the class records sits in the store until the job is done:
// with parallelism jobs at once, parallelism parts of the reduce shards'
// share each. Twice parallelism shards keep the small boards' fixed costs
// low; from 20 squares (Clobber 4x5's 220 MB of pieces table) twice as
// many halve those parts, and from 25 (5x5's 19 GB) twice as many again.
func reduceShardsFor(squares, parallelism int) int {
	n := 2 * max(parallelism, 1)
	switch {
	case squares >= 25:
		n *= 4
	case squares >= 20:
		n *= 2
	}
	return n
}

// shards is the number of shards for a tier of about est positions.
func (cfg *Config) shards(est uint64) int {
	if cfg.Shards > 0 {
		return cfg.Shards
	}
	perShard := jobs.ShardPositions(cfg.MemBudget)
	n := int((est + perShard - 1) / perShard)
	if est >= minShardPositions {
		n = max(n, 2*cfg.Parallelism)
	}
	return min(max(n, 1), maxShards)
}

const maxShards = 4096

func startMoves(g games.Game) int {
	m := games.NewMoveStats(false)
	g.Expand(g.Start(), g.Pieces(g.Start(), nil), nil, m, 1)
	return int(m.Moves)
}

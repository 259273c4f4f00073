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
	"sync"
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
	// deletes runs a census's deletes in the background; nil deletes at
	// once.
	deletes *deleter
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
	// PiecesCodec compresses the pieces table's pages; zero is zstd.
	PiecesCodec schema.Codec
	// Forward finds every tier from the successors of the one before,
	// also for a game whose tiers a run finds backwards or lists by
	// default (see backwardTiers and listedTiers).
	Forward bool
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
	// Backward says that the run found its tiers backwards
	// (jobs.Spec.Backward).
	Backward bool
	// Listed says that the run listed its tiers (jobs.Spec.Listed).
	Listed bool
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
		CompactMin: cmp.Or(cfg.CompactMin, DefaultCompactMin), PiecesCodec: piecesCodecName(cfg.PiecesCodec),
		Backward: backwardTiers(g, cfg), Listed: listedTiers(g, cfg)})
	if err != nil {
		return nil, err
	}
	if resumed {
		cfg.Log.Info("resuming run", "run", cfg.Run)
		if err := st.clearFailures(ctx); err != nil {
			return nil, fmt.Errorf("clear failed jobs: %w", err)
		}
	}
	spec := jobs.Spec{Run: cfg.Run, Game: cfg.Game, Board: cfg.Board, Start: cfg.Start, Store: plan.Store,
		MemBudget: plan.MemBudget, NoSymmetry: plan.NoSymmetry, Positions: plan.Positions, Keep: plan.Keep, PiecesCodec: plan.PiecesCodec,
		Backward: plan.Backward, Listed: plan.Listed}
	asked := ctx
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	cfg.deletes = &deleter{}
	defer cfg.deletes.wait()
	tr := newTracker(ctx, cfg, st, g.MaxTier(), cfg.Metrics.forRun(cfg.Run, g.Name(), g.Board().String(), g.MaxTier(), cfg.Keep))
	tr.stop = stop
	if n, ok := cfg.Exec.(*NATS); ok {
		n.Waiting = tr.jobs
		n.Fresh = !resumed
	}
	c := &census{cfg: cfg, g: g, spec: spec, st: st, resumed: resumed, reduceShards: plan.ReduceShards, tr: tr,
		space: newSpaceBudget(cfg.spaceDirs()), pieces: newCompactions(spec, plan.ReduceShards, plan.CompactMin),
		later: &unrecorded{st: cfg.Store, state: st, deletes: cfg.deletes}}
	res, err := c.run(ctx)
	err = c.record(asked, err)
	if err == nil {
		tr.status.Stages = c.clock.stages()
		tr.stage(runstate.StageOutputs, res.Summary.Tiers, res.Summary.Positions)
		if spec.Keep {
			err = writeKept(ctx, &cfg, res, spec)
		}
		if err == nil {
			err = c.writeOutputs(ctx, res)
			tr.status.Stages = res.Summary.Stages
		}
	}
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, broker.ErrStoreFull) {
		err = cause
	}
	cfg.deletes.wait()
	if err == nil && !cfg.KeepBlobs {
		if derr := cfg.Store.DeletePrefix(ctx, jobs.RunPrefix(cfg.Run)); derr != nil {
			cfg.Log.Warn("delete the run's fragments", "err", derr)
		}
	}
	tr.finish(err)
	return res, err
}

// census is one run of the census as its coordinator goes through it: the
// tiers, one batch each, then the piece and class reductions. Its methods
// are the steps.
type census struct {
	cfg          Config
	g            games.Game
	spec         jobs.Spec
	st           state
	resumed      bool
	reduceShards int
	tr           *tracker
	space        *spaceBudget
	pieces       *compactions
	clock        stageClock
	// placed holds the names of the pieces table parts this process
	// checked and put in the outputs (Config.TablesToOut), which
	// writeOutputs need not read again.
	placed sync.Map

	// The tier loop's state: the next tier's input fragments by shard,
	// its shards and the moves per position of the tier before.
	inputs    [][]jobs.Blob
	shards    int
	branching float64
	total     jobs.TierStats
	tiers     []schema.Tier
	positions [][]jobs.Blob
	// kept: the blobs of each tier's kept positions, when the run
	// keeps them for a solve.
	kept []KeptTier
	// later holds the jobs the coordinator ran itself until their
	// done-records are stored.
	later *unrecorded
}

// record ends the census's run of its tiers and reductions, which ended
// with err, by storing the done-records of the jobs the coordinator ran
// itself that wait for them: the outputs come after, and a run stopped
// (asked, the context Run was given, is done) keeps the jobs it finished.
// After any other error it forgets them, and the deletes they held: the
// run's bucket may be another coordinator's by then, which would run them
// again from their inputs.
func (c *census) record(asked context.Context, err error) error {
	switch {
	case err == nil:
		return c.later.flush(asked)
	case asked.Err() != nil:
		ctx, cancel := context.WithTimeout(context.WithoutCancel(asked), recordTimeout)
		defer cancel()
		if ferr := c.later.flush(ctx); ferr != nil {
			c.cfg.Log.Warn("record the jobs done in the coordinator before the stop; a resumed run runs them again", "err", ferr)
			c.later.drop()
		}
	default:
		c.later.drop()
	}
	return err
}

// recordTimeout bounds a stopped run's flush of its unrecorded jobs.
const recordTimeout = 10 * time.Second

// run runs the tiers and the reductions and returns the run's result.
func (c *census) run(ctx context.Context) (*Result, error) {
	c.clock.begin()
	c.tr.stage(runstate.StageTier, 0, 0)
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	prepared := make(chan struct{})
	go func() {
		defer close(prepared)
		c.prepareTiers(ctx)
	}()
	defer func() { <-prepared }()
	for t := 0; ; t++ {
		more, err := c.tier(ctx, t)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
	}
	c.clock.tiersDone()
	counts, classes, tables, err := c.reduce(ctx)
	if err != nil {
		return nil, err
	}
	sum := summarize(c.g, c.tiers, c.total, counts, classes)
	return &Result{Summary: sum, Tiers: c.tiers, Tables: tables, Positions: c.positions, Compactions: c.pieces.made, Kept: c.kept, Backward: c.spec.Backward, Listed: c.spec.Listed}, nil
}

// prepareTiers makes ready the places of every tier's blobs, the
// successors and the piece fragments (store.Prepare), in the order the
// tiers come, beside the first tiers' jobs: on a directory store a tier's
// first job would otherwise wait for their directories (Clobber 4x4's 17
// tiers: 31 directories, 11 ms on ext4 here, most of it in the single
// jobs of the smallest tiers). A place not ready yet, or one that could
// not be made, is made by the job that writes there.
func (c *census) prepareTiers(ctx context.Context) {
	for t := 0; t <= c.g.MaxTier() && ctx.Err() == nil; t++ {
		if err := store.Prepare(ctx, c.cfg.Store, jobs.PieceTierPrefix(c.cfg.Run, t), jobs.TierPrefix(c.cfg.Run, t+1)); err != nil {
			c.cfg.Log.Debug("prepare the places of a tier's blobs", "tier", t, "err", err)
			return
		}
	}
}

// start writes the start position, the input of tier 0, checking first
// that a fresh run of a board with a published census fits.
func (c *census) start(ctx context.Context) error {
	c.shards = c.cfg.shards(1)
	if tp, found, err := c.tierPlan(ctx, 0); err != nil {
		return err
	} else if found {
		c.shards = tp.Shards
	} else if err := c.space.checkProjection(c.cfg.Game, c.g.Board().Rows, c.g.Board().Cols, c.cfg.Start); err != nil {
		return err
	}
	startBlob, err := jobs.WriteStart(ctx, c.cfg.Store, c.spec, c.shards)
	if err != nil {
		return fmt.Errorf("write start: %w", err)
	}
	c.inputs = make([][]jobs.Blob, c.shards)
	c.inputs[startBlob.Bucket] = []jobs.Blob{startBlob}
	c.branching = float64(startMoves(c.g))
	return nil
}

// tierPlan reads the plan of tier t, which only a resumed run can have.
func (c *census) tierPlan(ctx context.Context, t int) (TierPlan, bool, error) {
	if !c.resumed {
		return TierPlan{}, false, nil
	}
	return c.st.tierPlan(ctx, t)
}

// tier runs tier t's batch, with the compactions due beside it, and takes
// in its results; false when the tier was empty: the tiers are done.
func (c *census) tier(ctx context.Context, t int) (bool, error) {
	// The successor records routed to this tier bound its size; a
	// backward tier's every shard reads the whole previous tier, and the
	// numbering of the next tier's arrangements bounds its size.
	var incoming uint64
	for _, in := range c.inputs {
		for _, b := range in {
			incoming += b.Count
		}
		if c.spec.Backward {
			break
		}
	}
	nextShards := c.cfg.shards(uint64(float64(incoming) * max(c.branching, 1)))
	if c.spec.Listed {
		// A listed tier reads nothing: the listing's count of its
		// positions, one an orbit, sizes it, and the next tier's.
		incoming = c.listedSize(t)
		nextShards = c.cfg.shards(c.listedSize(t + 1))
	}
	if c.spec.Backward {
		var space uint64
		if t+1 <= c.g.MaxTier() {
			gr := games.StartGroup(c.g, !c.spec.NoSymmetry)
			space = c.g.(games.Dense).TierSpace(t+1) / uint64(gr.Size())
		}
		nextShards = c.cfg.shards(space)
	}
	tp, found, err := c.tierPlan(ctx, t)
	if err != nil {
		return false, err
	}
	if found && tp.Shards == c.shards {
		nextShards = tp.NextShards
	} else {
		tp = TierPlan{Shards: c.shards, NextShards: nextShards}
		if err := c.st.putTierPlan(ctx, t, tp); err != nil {
			return false, err
		}
	}
	batch := make([]jobs.Job, c.shards)
	for s := range batch {
		batch[s] = jobs.Job{Tier: &jobs.TierJob{Spec: c.spec, Tier: t, Shard: s, Shards: c.shards,
			NextShards: nextShards, ReduceShards: c.reduceShards}}
		if !c.spec.Listed {
			batch[s].Tier.Inputs = c.inputs[s]
		}
	}
	// The piece fragments of the tiers before, when due, are compacted
	// while this tier's jobs run. They go first: a compaction is one
	// long job per reduce bucket, which at the end of the batch would
	// keep it waiting.
	compact := c.pieces.due(t)
	batch = append(compact, batch...)
	if err := c.checkRoom(ctx, batch, func() error { return c.space.checkTier(t, incoming, c.pieces.compacting(compact)) }); err != nil {
		return false, err
	}
	// Shards the user set are theirs to spread over the workers.
	// A backward tier's inputs are read by every job of the tier, where
	// the coordinator's own jobs are recorded in groups that count on one
	// reader a blob (unrecorded): its jobs go to the workers.
	exec, err := c.executor(ctx, len(compact) == 0 && (c.cfg.Shards == 0 || c.shards == 1) && incoming < c.cfg.InProcessBelow*uint64(c.shards) && !c.spec.Backward)
	if err != nil {
		return false, err
	}
	began := time.Now()
	var compacted time.Time
	results, err := exec.Execute(ctx, batch, c.cfg.forget(ctx, batch, func(r jobs.Result) error {
		if r.Compact != nil {
			compacted = time.Now()
		}
		return nil
	}))
	if err != nil {
		return false, fmt.Errorf("tier %d: %w", t, err)
	}
	compactions, results := results[:len(compact)], results[len(compact):]
	c.clock.add(&c.clock.s.Compactions, compactions)
	c.clock.add(&c.clock.s.Tiers, results)
	if x, ok := exec.(*inProcess); ok {
		c.clock.s.Tiers.InCoordinator += x.ran
	}
	var compactWall float64
	if len(compact) > 0 {
		compactWall = compacted.Sub(began).Seconds()
	}
	// A tier that an earlier start finished counts the wall time it took
	// then, which its plan kept, rather than the moments its done-records
	// took to replay.
	if tp.WallS > 0 {
		compactWall = tp.CompactWallS
	}
	c.clock.s.Compactions.WallSeconds += compactWall
	if took := c.clock.tierDone(tp.WallS); tp.WallS == 0 && took >= keepTierWall {
		tp.WallS, tp.CompactWallS = took.Seconds(), compactWall
		if err := c.st.putTierPlan(ctx, t, tp); err != nil {
			return false, err
		}
	}
	return c.tierDone(ctx, t, nextShards, incoming, results, compactions)
}

// keepTierWall is the wall time from which a finished tier keeps it in its
// plan, for a later start of the run to report: a shorter tier is not
// worth a write to the run's bucket, and replays in about as long.
const keepTierWall = time.Second

// tierDone takes in the results of tier t's batch: the next tier's
// inputs, the counts, the piece fragments and the positions table parts;
// false when the tier was empty.
func (c *census) tierDone(ctx context.Context, t, nextShards int, incoming uint64, results, compacted []jobs.Result) (bool, error) {
	var stats jobs.TierStats
	var parts []jobs.Blob
	var written uint64
	next := make([][]jobs.Blob, nextShards)
	kept := KeptTier{Shards: c.shards}
	for _, r := range results {
		tr := r.Tier
		kept.add(tr.Kept)
		stats.Add(tr.Stats)
		for _, b := range tr.Next {
			if c.spec.Backward {
				// Every shard of the next tier reads them all.
				for s := range next {
					next[s] = append(next[s], b)
				}
				continue
			}
			next[b.Bucket] = append(next[b.Bucket], b)
		}
		written += blobBytes(tr.Next) + blobBytes(tr.Pieces)
		if tr.Kept != nil {
			// Kept positions stay until the run ends: the tiers to come
			// write theirs too.
			written += uint64(tr.Kept.Size)
		}
		if tr.Table != nil {
			parts = append(parts, *tr.Table)
			written += uint64(tr.Table.Size)
		}
	}
	c.space.learn(incoming, written)
	if err := c.pieces.done(ctx, c.cfg, t, results, compacted); err != nil {
		return false, err
	}
	if stats.Positions == 0 {
		return false, nil
	}
	if c.spec.Positions {
		var rows uint64
		for _, b := range parts {
			rows += b.Count
		}
		if rows != stats.Positions {
			return false, fmt.Errorf("tier %d: positions table parts hold %d rows for %d positions", t, rows, stats.Positions)
		}
		c.positions = append(c.positions, parts)
	}
	c.total.Add(stats)
	c.tiers = append(c.tiers, tierRow(c.g, t, stats))
	if c.spec.Keep {
		c.kept = append(c.kept, kept)
	}
	c.cfg.Log.Info("tier done", "tier", t, "positions", stats.Positions, "stored", stats.Stored, "moves", stats.Moves, "shards", c.shards)
	c.branching = float64(stats.Moves) / float64(stats.Positions)
	// Tier t is done for good: its position fragments are read by no
	// job again, even after a restart (which replays done-records).
	// forget deleted them as their last readers finished; this sweeps
	// what a failed delete, or a job's own leftovers, left under it.
	if !c.cfg.KeepBlobs {
		c.cfg.deletes.do(func() {
			if err := c.cfg.Store.DeletePrefix(ctx, jobs.TierPrefix(c.cfg.Run, t)); err != nil {
				c.cfg.Log.Warn("delete the fragments of a finished tier", "tier", t, "err", err)
			}
		})
	}
	c.inputs, c.shards = next, nextShards
	// What the store holds now: the next tier's inputs, every piece
	// record so far and the positions parts.
	inUse := blobBytes(c.pieces.blobs())
	for _, in := range c.inputs {
		inUse += blobBytes(in)
	}
	for _, ps := range c.positions {
		inUse += blobBytes(ps)
	}
	c.tr.tierDone(t+1, c.total.Positions, inUse, c.clock.stages(), c.clock.credit)
	return true, nil
}

// executor is the executor of a batch: the coordinator itself for a
// small one (see inProcess), else the workers, once the jobs the
// coordinator ran are recorded.
func (c *census) executor(ctx context.Context, small bool) (Executor, error) {
	if !small {
		return c.cfg.Exec, c.later.flush(ctx)
	}
	return &inProcess{st: c.cfg.Store, run: c.cfg.Run, state: c.st, resumed: c.resumed, log: c.cfg.Log, workers: c.cfg.Exec,
		parallel: c.cfg.Parallelism, later: c.later}, nil
}

// checkRoom runs check before a batch that no earlier start of the run
// has begun. A check that finds too little room while deletes are still
// running is made again once they are done: they may free what it lacks.
func (c *census) checkRoom(ctx context.Context, batch []jobs.Job, check func() error) error {
	return checkRoom(ctx, c.st, c.resumed, c.space, batch, func() error {
		err := check()
		if errors.Is(err, ErrNoSpace) {
			if ferr := c.later.flush(ctx); ferr != nil {
				return ferr
			}
			if c.cfg.deletes.pending() {
				c.cfg.deletes.wait()
				err = check()
			}
		}
		return err
	})
}

// reduce runs the piece reduction, then the class reduction.
func (c *census) reduce(ctx context.Context) (jobs.PieceResult, jobs.ClassResult, []jobs.Blob, error) {
	c.tr.stage(runstate.StagePieces, len(c.tiers), c.total.Positions)
	room := func(batch []jobs.Job) error {
		return c.checkRoom(ctx, batch, func() error {
			group := games.StartGroup(c.g, !c.spec.NoSymmetry)
			return c.space.check("the piece reduction", pieceReductionBytes(c.pieces.blobs(), group.Size(), len(batch), c.cfg.Parallelism, schema.Codec(c.spec.PiecesCodec)))
		})
	}
	// A reduction as small as the tiers that run here runs here too:
	// its jobs take tens of milliseconds, and a batch on the workers
	// costs about ten more before its first job starts, for each of its
	// two batches.
	blobs := c.pieces.blobs()
	var records uint64
	for _, b := range blobs {
		records += b.Count
	}
	exec, err := c.executor(ctx, c.cfg.Shards == 0 && records < pieceInProcessScale*c.cfg.InProcessBelow*uint64(c.reduceShards))
	if err != nil {
		return jobs.PieceResult{}, jobs.ClassResult{}, nil, err
	}
	c.cfg.Log.Debug("piece reduction", "records", records, "shards", c.reduceShards, "in_coordinator", exec != c.cfg.Exec)
	return reduce(ctx, c.cfg, exec, c.spec, c.reduceShards, blobs, room, &c.clock, &c.placed, func() {
		c.tr.status.Stages = c.clock.stages()
		c.tr.stage(runstate.StageClasses, len(c.tiers), c.total.Positions)
	})
}

// writeOutputs writes the outputs, recording the time it took in the
// summary before summary.json is written.
func (c *census) writeOutputs(ctx context.Context, res *Result) error {
	return c.clock.outputs(func(done func()) error {
		return writeOutputs(ctx, c.cfg.Store, res, c.cfg.Run, c.cfg.Version, c.cfg.Out, &c.placed, func() {
			done()
			res.Summary.Stages = c.clock.stages()
		})
	})
}

// reduce runs the piece jobs, once room accepts their batch, then, after
// telling classesBegin, the class jobs, and adds up what they counted and
// what they cost into clock. With cfg.TablesToOut it puts each pieces
// table part in the outputs as its job finishes, and adds its name to
// placed.
func reduce(ctx context.Context, cfg Config, exec Executor, spec jobs.Spec, reduceShards int, pieceBlobs []jobs.Blob, room func([]jobs.Job) error, clock *stageClock, placed *sync.Map, classesBegin func()) (jobs.PieceResult, jobs.ClassResult, []jobs.Blob, error) {
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
	began := time.Now()
	ran := func() int { return 0 }
	var later *unrecorded
	if x, ok := exec.(*inProcess); ok {
		ran = func() int { n := x.ran; x.ran = 0; return n }
		later = x.later
	}
	results, err := exec.Execute(ctx, batch, cfg.forget(ctx, batch, func(r jobs.Result) error {
		if !cfg.TablesToOut || r.Piece == nil || r.Piece.Table == nil {
			return nil
		}
		// A part goes to the outputs synced, its job recorded.
		if err := later.flush(ctx); err != nil {
			return err
		}
		if err := placeTable(ctx, cfg.Store, *r.Piece.Table, cfg.Out, true); err != nil {
			return err
		}
		placed.Store(r.Piece.Table.Name, true)
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
	clock.add(&clock.s.Pieces, results)
	clock.s.Pieces.InCoordinator += ran()
	clock.s.Pieces.WallSeconds = time.Since(began).Seconds()
	classesBegin()
	began = time.Now()
	batch = make([]jobs.Job, classShards)
	for c := range batch {
		batch[c] = jobs.Job{Class: &jobs.ClassJob{Spec: spec, Bucket: c, Inputs: classInputs[c]}}
	}
	if results, err = exec.Execute(ctx, batch, cfg.forget(ctx, batch, nil)); err != nil {
		return pieces, classes, nil, fmt.Errorf("classes: %w", err)
	}
	clock.add(&clock.s.Classes, results)
	clock.s.Classes.InCoordinator += ran()
	clock.s.Classes.WallSeconds = time.Since(began).Seconds()
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
	cfg.deletes.do(func() {
		if err := cfg.Store.Delete(ctx, names...); err != nil {
			cfg.Log.Warn("delete "+what, "err", err)
		}
	})
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

// shards is the number of shards for a tier of about est positions. A
// tier split for parallelism has a multiple of cfg.Parallelism shards, the
// largest not above what its size asks for (and at least twice the
// parallelism): its jobs, of about the same size, then run in whole waves
// that keep every slot busy to the end, where a wave of one job more would
// leave the other slots waiting for it (Domineering 6x6's 7 and 11 shards
// on 2 cores left one core idle for 2.5 and 1.8 s). Its shards then hold
// up to half as many positions more than ShardPositions says, which their
// jobs' spills keep within the memory budget; fewer, larger jobs also cost
// less CPU (Domineering 6x6: 3% less than before, 6% less than rounding
// up).
func (cfg *Config) shards(est uint64) int {
	if cfg.Shards > 0 {
		return cfg.Shards
	}
	perShard := jobs.ShardPositions(cfg.MemBudget)
	n := int((est + perShard - 1) / perShard)
	if est >= minShardPositions {
		n = max(n, 2*cfg.Parallelism)
		if p := cfg.Parallelism; p > 1 {
			n = n / p * p
		}
	}
	return min(max(n, 1), maxShards)
}

const maxShards = 4096

// backwardTiers says whether a new run finds its tiers backwards
// (jobs.Spec.Backward): for a game whose tiers can be numbered densely from
// its start (Amazons with one amazon a side), where a tier's arrangements
// are nearly all reachable and testing each for a reachable predecessor
// costs a fraction of sending on every successor
// (docs/history/performance-rounds.md, "The backward tiers of a dense
// board"), unless the run goes forward (forwardOnly). So does a board
// whose largest tier's bitmap, which every job of the next tier holds,
// would take more than a quarter of a job's memory budget (Amazons 4x5's
// takes 2.3 MB, 5x5's 101 MB, 5x6's 4.4 GB).
func backwardTiers(g games.Game, cfg Config) bool {
	d, ok := g.(games.Dense)
	if !ok || !d.DenseTiers() || forwardOnly(cfg) {
		return false
	}
	for t := 0; t <= g.MaxTier(); t++ {
		if int64(d.TierSpace(t)/8) > cfg.MemBudget/4 {
			return false
		}
	}
	return true
}

// listedTiers says whether a new run lists its tiers (jobs.Spec.Listed):
// for a game whose reachable positions of a tier can be listed outright
// (Domineering, whose reachable positions are the sets dominoes tile),
// where listing a tier costs a fraction of sending on every successor of
// the tier before (docs/history/performance-rounds.md, "Domineering's tiers
// listed outright"), unless the run goes forward (forwardOnly).
func listedTiers(g games.Game, cfg Config) bool {
	l, ok := g.(games.Listed)
	return ok && !forwardOnly(cfg) && l.ListedTiers()
}

// forwardOnly says whether a run finds every tier forwards, whatever its
// game allows: the positions table and the kept positions want a tier's
// positions as the forward tiers find them, in their shards by key, and
// Forward asks for it.
func forwardOnly(cfg Config) bool { return cfg.Forward || cfg.Positions || cfg.Keep }

// listedSize is about the number of positions a listed run stores in
// tier t: the tier's reachable positions over the order of the start's
// symmetry group.
func (c *census) listedSize(t int) uint64 {
	if t > c.g.MaxTier() {
		return 0
	}
	gr := games.StartGroup(c.g, !c.spec.NoSymmetry)
	return c.g.(games.Listed).TierSize(t) / uint64(gr.Size())
}

func startMoves(g games.Game) int {
	m := games.NewMoveStats(false)
	g.Expand(g.Start(), g.Pieces(g.Start(), nil), nil, m, 1)
	return int(m.Moves)
}

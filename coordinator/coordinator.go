// Package coordinator plans a census run and decides what runs next: it
// publishes each tier's jobs, waits for their done-records (the barrier,
// executor.go), sizes the next tier, runs the compactions beside the tiers
// and the piece and class reductions after them, and writes the outputs
// (output.go). The same loop runs the stages after a census: the values
// stage (values.go) and the solve stage with its tablebase (solve.go).
//
// Every stage starts the same way (stage.go): an Env (run ID, store, the
// run's bucket, the executor, log, metrics) set up over NATS by onNATS,
// and, for a stage on a finished run, its output directory checked once
// by CheckStageDir. A census finds its tiers one of three ways (tierway.go:
// forwards, backwards or listed), chosen once when the run starts and read
// back from its plan when it resumes. The coordinator holds the run's lease
// (lease.go), rides out NATS elections and outages (retry.go), and resumes a
// run stopped midway from the done-records in its bucket (start.go).
package coordinator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

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
	cfg.withLog()
	g, err := all.New(cfg.Game, cfg.Board, cfg.Start)
	if err != nil {
		return nil, err
	}
	st := state{b: runstate.New(nil, cfg.KV)}
	plan, resumed, err := planRun(ctx, cfg, g, st)
	if err != nil {
		return nil, err
	}
	asked := ctx
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	cfg.deletes = &deleter{}
	defer cfg.deletes.wait()
	c := newCensusStage(ctx, cfg, g, st, plan, resumed)
	c.tr.stop = stop
	res, err := c.run(ctx)
	err = c.record(asked, err)
	if err == nil {
		err = c.outputs(ctx, res)
	}
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, broker.ErrStoreFull) {
		err = cause
	}
	c.finish(ctx, err)
	return res, err
}

// planRun stores in st the plan of a new run of g under cfg, with the way
// it finds its tiers, or reads the plan of the run it resumes (true),
// whose failed jobs then get another chance.
func planRun(ctx context.Context, cfg Config, g games.Game, st state) (Plan, bool, error) {
	want := cfg.Census.plan()
	want.ReduceShards = cmp.Or(cfg.Shards, reduceShardsFor(g.Board().Squares(), cfg.Parallelism))
	want.MemBudget, want.Store, want.CompactMin = cfg.MemBudget, cfg.StoreURL, cmp.Or(cfg.CompactMin, DefaultCompactMin)
	want.Backward, want.Listed = chooseTierWay(g, cfg).planned()
	plan, resumed, err := st.plan(ctx, cfg.Run, want)
	if err != nil || !resumed {
		return plan, resumed, err
	}
	cfg.Log.Info("resuming run", "run", cfg.Run)
	if err := st.clearFailures(ctx); err != nil {
		return plan, resumed, fmt.Errorf("clear failed jobs: %w", err)
	}
	return plan, resumed, nil
}

// newCensusStage is the census of g under cfg, whose bucket st holds the
// plan (resumed: of an earlier start).
func newCensusStage(ctx context.Context, cfg Config, g games.Game, st state, plan Plan, resumed bool) *censusStage {
	spec := jobs.Spec{Run: cfg.Run, Game: cfg.Game, Board: cfg.Board, Start: cfg.Start, Store: plan.Store,
		MemBudget: plan.MemBudget, NoSymmetry: plan.NoSymmetry, Positions: plan.Positions, Keep: plan.Keep, PiecesCodec: plan.PiecesCodec,
		Backward: plan.Backward, Listed: plan.Listed}
	tr := newTracker(ctx, cfg, st, g.MaxTier(), cfg.Metrics.forRun(cfg.Run, g.Name(), g.Board().String(), g.MaxTier(), cfg.Keep))
	if n, ok := cfg.Exec.(*NATS); ok {
		n.Waiting = tr.jobs
		n.Fresh = !resumed
	}
	return &censusStage{cfg: cfg, g: g, spec: spec, way: plannedTierWay(g, plan), st: st, resumed: resumed, reduceShards: plan.ReduceShards, tr: tr,
		space: newSpaceBudget(cfg.spaceDirs()), pieces: newCompactions(spec, plan.ReduceShards, plan.CompactMin),
		later: &unrecorded{st: cfg.Store, state: st, deletes: cfg.deletes}}
}

// outputs writes the outputs of the census's result res: its kept
// positions, when it keeps them, then its tables.
func (c *censusStage) outputs(ctx context.Context, res *Result) error {
	c.tr.status.Stages = c.clock.stages()
	c.tr.stage(runstate.StageOutputs, res.Summary.Tiers, res.Summary.Positions)
	if c.spec.Keep {
		if err := writeKept(ctx, &c.cfg, res, c.spec); err != nil {
			return err
		}
	}
	err := c.writeOutputs(ctx, res)
	c.tr.status.Stages = res.Summary.Stages
	return err
}

// finish ends the census, which ended with err: once its deletes are
// done, a census that finished deletes its fragments unless it keeps
// them, and its status says how it ended.
func (c *censusStage) finish(ctx context.Context, err error) {
	c.cfg.deletes.wait()
	if err == nil && !c.cfg.KeepBlobs {
		if derr := c.cfg.Store.DeletePrefix(ctx, jobs.RunPrefix(c.cfg.Run)); derr != nil {
			c.cfg.Log.Warn("delete the run's fragments", "err", derr)
		}
	}
	c.tr.finish(err)
}

// censusStage is one run of the census as its coordinator goes through
// it: the tiers, one batch each, then the piece and class reductions. Its
// methods are the steps.
type censusStage struct {
	cfg  Config
	g    games.Game
	spec jobs.Spec
	// way is how the run finds its tiers, as its plan says.
	way          tierWay
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
func (c *censusStage) record(asked context.Context, err error) error {
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
func (c *censusStage) run(ctx context.Context) (*Result, error) {
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
	res := &Result{Summary: sum, Tiers: c.tiers, Tables: tables, Positions: c.positions, Compactions: c.pieces.made, Kept: c.kept}
	res.Backward, res.Listed = c.way.planned()
	return res, nil
}

// prepareTiers makes ready the places of every tier's blobs, the
// successors and the piece fragments (store.Prepare), in the order the
// tiers come, beside the first tiers' jobs: on a directory store a tier's
// first job would otherwise wait for their directories (Clobber 4x4's 17
// tiers: 31 directories, 11 ms on ext4 here, most of it in the single
// jobs of the smallest tiers). A place not ready yet, or one that could
// not be made, is made by the job that writes there.
func (c *censusStage) prepareTiers(ctx context.Context) {
	for t := 0; t <= c.g.MaxTier() && ctx.Err() == nil; t++ {
		if err := store.Prepare(ctx, c.cfg.Store, jobs.PieceTierPrefix(c.cfg.Run, t), jobs.TierPrefix(c.cfg.Run, t+1)); err != nil {
			c.cfg.Log.Debug("prepare the places of a tier's blobs", "tier", t, "err", err)
			return
		}
	}
}

// start writes the start position, the input of tier 0, checking first
// that a fresh run of a board with a published census fits.
func (c *censusStage) start(ctx context.Context) error {
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
func (c *censusStage) tierPlan(ctx context.Context, t int) (TierPlan, bool, error) {
	if !c.resumed {
		return TierPlan{}, false, nil
	}
	return c.st.tierPlan(ctx, t)
}

// tier runs tier t's batch, with the compactions due beside it, and takes
// in its results; false when the tier was empty: the tiers are done.
func (c *censusStage) tier(ctx context.Context, t int) (bool, error) {
	incoming, next := c.way.sizes(t, c.inputs, c.branching)
	tp, err := c.planTier(ctx, t, c.cfg.shards(next))
	if err != nil {
		return false, err
	}
	// The piece fragments of the tiers before, when due, are compacted
	// while this tier's jobs run. They go first: a compaction is one
	// long job per reduce bucket, which at the end of the batch would
	// keep it waiting.
	compact := c.pieces.due(t)
	batch := append(compact, c.tierJobs(t, tp.NextShards)...)
	if err := c.checkRoom(ctx, batch, func() error { return c.space.checkTier(t, incoming, c.pieces.compacting(compact)) }); err != nil {
		return false, err
	}
	results, compacted, compactWall, err := c.runTier(ctx, t, batch, len(compact), incoming)
	if err != nil {
		return false, err
	}
	if err := c.tierTime(ctx, t, tp, compactWall); err != nil {
		return false, err
	}
	return c.tierDone(ctx, t, tp.NextShards, incoming, results, compacted)
}

// planTier returns the plan of tier t: the one an earlier start of the
// run stored for its shards, or else a new one, stored, with nextShards
// shards for the next tier.
func (c *censusStage) planTier(ctx context.Context, t, nextShards int) (TierPlan, error) {
	tp, found, err := c.tierPlan(ctx, t)
	if err != nil || (found && tp.Shards == c.shards) {
		return tp, err
	}
	tp = TierPlan{Shards: c.shards, NextShards: nextShards}
	return tp, c.st.putTierPlan(ctx, t, tp)
}

// tierJobs are the jobs of tier t, one a shard, each with what it reads
// of the tier's inputs.
func (c *censusStage) tierJobs(t, nextShards int) []jobs.Job {
	batch := make([]jobs.Job, c.shards)
	for s := range batch {
		batch[s] = jobs.Job{Tier: &jobs.TierJob{Spec: c.spec, Tier: t, Shard: s, Shards: c.shards,
			NextShards: nextShards, ReduceShards: c.reduceShards, Inputs: c.way.shardInputs(c.inputs, s)}}
	}
	return batch
}

// runTier runs the batch of tier t, whose inputs hold incoming records
// and whose first compactions jobs compact the piece fragments, and
// returns the results of the tier's jobs and of the compactions, and the
// wall time the compactions took. The clock counts their jobs.
func (c *censusStage) runTier(ctx context.Context, t int, batch []jobs.Job, compactions int, incoming uint64) (tier, compacted []jobs.Result, compactWall float64, err error) {
	// Shards the user set are theirs to spread over the workers.
	exec, err := c.executor(ctx, compactions == 0 && (c.cfg.Shards == 0 || c.shards == 1) && incoming < c.cfg.InProcessBelow*uint64(c.shards) && c.way.inCoordinator())
	if err != nil {
		return nil, nil, 0, err
	}
	began := time.Now()
	var compactedAt time.Time
	results, err := exec.Execute(ctx, batch, c.cfg.forget(ctx, batch, func(r jobs.Result) error {
		if r.Compact != nil {
			compactedAt = time.Now()
		}
		return nil
	}))
	if err != nil {
		return nil, nil, 0, fmt.Errorf("tier %d: %w", t, err)
	}
	compacted, tier = results[:compactions], results[compactions:]
	c.clock.add(&c.clock.s.Compactions, compacted)
	c.clock.add(&c.clock.s.Tiers, tier)
	if x, ok := exec.(*inProcess); ok {
		c.clock.s.Tiers.InCoordinator += x.ran
	}
	if compactions > 0 {
		compactWall = compactedAt.Sub(began).Seconds()
	}
	return tier, compacted, compactWall, nil
}

// tierTime ends tier t on the clock, with the compactions beside it,
// which took compactWall. A tier that an earlier start finished counts
// the wall time it took then, which its plan tp kept, rather than the
// moments its done-records took to replay; a tier that took keepTierWall
// or more keeps its time in its plan.
func (c *censusStage) tierTime(ctx context.Context, t int, tp TierPlan, compactWall float64) error {
	if tp.WallS > 0 {
		compactWall = tp.CompactWallS
	}
	c.clock.s.Compactions.WallSeconds += compactWall
	if took := c.clock.tierDone(tp.WallS); tp.WallS == 0 && took >= keepTierWall {
		tp.WallS, tp.CompactWallS = took.Seconds(), compactWall
		return c.st.putTierPlan(ctx, t, tp)
	}
	return nil
}

// keepTierWall is the wall time from which a finished tier keeps it in its
// plan, for a later start of the run to report: a shorter tier is not
// worth a write to the run's bucket, and replays in about as long.
const keepTierWall = time.Second

// tierOutput is what the jobs of a tier wrote, added up.
type tierOutput struct {
	stats jobs.TierStats
	// next are the next tier's inputs by shard, parts the positions table
	// parts, kept the kept positions.
	next  [][]jobs.Blob
	parts []jobs.Blob
	kept  KeptTier
	// written is the bytes the jobs wrote to the store.
	written uint64
}

// tierOutput adds up the results of the jobs of a tier whose next tier
// has nextShards shards.
func (c *censusStage) tierOutput(results []jobs.Result, nextShards int) tierOutput {
	out := tierOutput{next: make([][]jobs.Blob, nextShards), kept: KeptTier{Shards: c.shards}}
	for _, r := range results {
		tr := r.Tier
		out.kept.add(tr.Kept)
		out.stats.Add(tr.Stats)
		for _, b := range tr.Next {
			c.way.route(out.next, b)
		}
		out.written += blobBytes(tr.Next) + blobBytes(tr.Pieces)
		if tr.Kept != nil {
			// Kept positions stay until the run ends: the tiers to come
			// write theirs too.
			out.written += uint64(tr.Kept.Size)
		}
		if tr.Table != nil {
			out.parts = append(out.parts, *tr.Table)
			out.written += uint64(tr.Table.Size)
		}
	}
	return out
}

// tierDone takes in the results of tier t's batch: the next tier's
// inputs, the counts, the piece fragments and the positions table parts;
// false when the tier was empty.
func (c *censusStage) tierDone(ctx context.Context, t, nextShards int, incoming uint64, results, compacted []jobs.Result) (bool, error) {
	out := c.tierOutput(results, nextShards)
	c.space.learn(incoming, out.written)
	if err := c.pieces.done(ctx, c.cfg, t, results, compacted); err != nil {
		return false, err
	}
	stats := out.stats
	if stats.Positions == 0 {
		return false, nil
	}
	if c.spec.Positions {
		if rows := blobRecords(out.parts); rows != stats.Positions {
			return false, fmt.Errorf("tier %d: positions table parts hold %d rows for %d positions", t, rows, stats.Positions)
		}
		c.positions = append(c.positions, out.parts)
	}
	c.total.Add(stats)
	c.tiers = append(c.tiers, tierRow(c.g, t, stats))
	if c.spec.Keep {
		c.kept = append(c.kept, out.kept)
	}
	c.cfg.Log.Info("tier done", "tier", t, "positions", stats.Positions, "stored", stats.Stored, "moves", stats.Moves, "shards", c.shards)
	c.branching = float64(stats.Moves) / float64(stats.Positions)
	c.sweepTier(ctx, t)
	c.inputs, c.shards = out.next, nextShards
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

// sweepTier deletes what is left of tier t's position fragments, unless
// the run keeps its blobs. Tier t is done for good: its position
// fragments are read by no job again, even after a restart (which
// replays done-records). forget deleted them as their last readers
// finished; this sweeps what a failed delete, or a job's own leftovers,
// left under it.
func (c *censusStage) sweepTier(ctx context.Context, t int) {
	if c.cfg.KeepBlobs {
		return
	}
	c.cfg.deletes.do(func() {
		if err := c.cfg.Store.DeletePrefix(ctx, jobs.TierPrefix(c.cfg.Run, t)); err != nil {
			c.cfg.Log.Warn("delete the fragments of a finished tier", "tier", t, "err", err)
		}
	})
}

// executor is the executor of a batch: the coordinator itself for a
// small one (see inProcess), else the workers, once the jobs the
// coordinator ran are recorded.
func (c *censusStage) executor(ctx context.Context, small bool) (Executor, error) {
	if !small {
		return c.cfg.Exec, c.later.flush(ctx)
	}
	return &inProcess{st: c.cfg.Store, run: c.cfg.Run, state: c.st, resumed: c.resumed, log: c.cfg.Log, workers: c.cfg.Exec,
		parallel: c.cfg.Parallelism, later: c.later}, nil
}

// checkRoom runs check before a batch that no earlier start of the run
// has begun. A check that finds too little room while deletes are still
// running is made again once they are done: they may free what it lacks.
func (c *censusStage) checkRoom(ctx context.Context, batch []jobs.Job, check func() error) error {
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

// reduce runs the piece reduction, then the class reduction, and returns
// what they counted and the pieces table parts.
func (c *censusStage) reduce(ctx context.Context) (jobs.PieceResult, jobs.ClassResult, []jobs.Blob, error) {
	c.tr.stage(runstate.StagePieces, len(c.tiers), c.total.Positions)
	// A reduction as small as the tiers that run here runs here too:
	// its jobs take tens of milliseconds, and a batch on the workers
	// costs about ten more before its first job starts, for each of its
	// two batches.
	blobs := c.pieces.blobs()
	records := blobRecords(blobs)
	exec, err := c.executor(ctx, c.cfg.Shards == 0 && records < pieceInProcessScale*c.cfg.InProcessBelow*uint64(c.reduceShards))
	if err != nil {
		return jobs.PieceResult{}, jobs.ClassResult{}, nil, err
	}
	c.cfg.Log.Debug("piece reduction", "records", records, "shards", c.reduceShards, "in_coordinator", exec != c.cfg.Exec)
	pieces, tables, classInputs, err := c.reducePieces(ctx, exec, blobs)
	if err != nil {
		return pieces, jobs.ClassResult{}, nil, err
	}
	c.tr.status.Stages = c.clock.stages()
	c.tr.stage(runstate.StageClasses, len(c.tiers), c.total.Positions)
	classes, err := c.reduceClasses(ctx, exec, classInputs)
	if err != nil {
		return pieces, classes, nil, err
	}
	return pieces, classes, tables, nil
}

// reducePieces runs the piece jobs on exec over the piece fragments
// blobs, once there is room for them, and returns what they counted, the
// pieces table parts and the class jobs' inputs by class shard; the clock
// counts what they cost.
func (c *censusStage) reducePieces(ctx context.Context, exec Executor, blobs []jobs.Blob) (jobs.PieceResult, []jobs.Blob, [][]jobs.Blob, error) {
	byBucket := make([][]jobs.Blob, c.reduceShards)
	for _, b := range blobs {
		byBucket[b.Bucket] = append(byBucket[b.Bucket], b)
	}
	batch := make([]jobs.Job, c.reduceShards)
	for r := range batch {
		batch[r] = jobs.Job{Piece: &jobs.PieceJob{Spec: c.spec, Bucket: r, ClassShards: c.reduceShards, Inputs: byBucket[r]}}
	}
	err := c.checkRoom(ctx, batch, func() error {
		group := games.StartGroup(c.g, !c.spec.NoSymmetry)
		return c.space.check("the piece reduction", pieceReductionBytes(c.pieces.blobs(), group.Size(), len(batch), c.cfg.Parallelism, schema.Codec(c.spec.PiecesCodec)))
	})
	if err != nil {
		return jobs.PieceResult{}, nil, nil, err
	}
	// With TablesToOut the pieces table's parts land in the outputs as
	// their jobs finish, and leave the store.
	if err := beginOutputs(c.cfg.Out); err != nil {
		return jobs.PieceResult{}, nil, nil, err
	}
	began := time.Now()
	results, err := exec.Execute(ctx, batch, c.cfg.forget(ctx, batch, c.tableToOut(ctx, exec)))
	if err != nil {
		return jobs.PieceResult{}, nil, nil, fmt.Errorf("pieces: %w", err)
	}
	pieces, tables, classInputs := pieceResults(results, c.reduceShards)
	c.clock.add(&c.clock.s.Pieces, results)
	c.clock.s.Pieces.InCoordinator += ranHere(exec)
	c.clock.s.Pieces.WallSeconds = time.Since(began).Seconds()
	return pieces, tables, classInputs, nil
}

// tableToOut is what a piece job run on exec does once done: with
// Config.TablesToOut its pieces table part goes to the outputs, synced,
// once its job is recorded, leaves the store, and its name goes into
// placed.
func (c *censusStage) tableToOut(ctx context.Context, exec Executor) func(jobs.Result) error {
	var later *unrecorded
	if x, ok := exec.(*inProcess); ok {
		later = x.later
	}
	return func(r jobs.Result) error {
		if !c.cfg.TablesToOut || r.Piece == nil || r.Piece.Table == nil {
			return nil
		}
		if err := later.flush(ctx); err != nil {
			return err
		}
		if err := placeTable(ctx, c.cfg.Store, *r.Piece.Table, c.cfg.Out, true); err != nil {
			return err
		}
		c.placed.Store(r.Piece.Table.Name, true)
		c.cfg.deleteBlobs(ctx, "a pieces table part in the outputs", r.Piece.Table.Name)
		return nil
	}
}

// pieceResults adds up the results of the piece jobs: what they counted,
// the pieces table parts, and the class jobs' inputs by class shard, of
// which there are classShards.
func pieceResults(results []jobs.Result, classShards int) (jobs.PieceResult, []jobs.Blob, [][]jobs.Blob) {
	pieces := jobs.PieceResult{BySize: map[int]uint64{}}
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
	return pieces, tables, classInputs
}

// reduceClasses runs the class jobs on exec, one a class shard of inputs,
// and returns what they counted; the clock counts what they cost.
func (c *censusStage) reduceClasses(ctx context.Context, exec Executor, inputs [][]jobs.Blob) (jobs.ClassResult, error) {
	var classes jobs.ClassResult
	began := time.Now()
	batch := make([]jobs.Job, len(inputs))
	for i := range batch {
		batch[i] = jobs.Job{Class: &jobs.ClassJob{Spec: c.spec, Bucket: i, Inputs: inputs[i]}}
	}
	results, err := exec.Execute(ctx, batch, c.cfg.forget(ctx, batch, nil))
	if err != nil {
		return classes, fmt.Errorf("classes: %w", err)
	}
	c.clock.add(&c.clock.s.Classes, results)
	c.clock.s.Classes.InCoordinator += ranHere(exec)
	c.clock.s.Classes.WallSeconds = time.Since(began).Seconds()
	for _, r := range results {
		classes.Symmetric += r.Class.Symmetric
		classes.Negation += r.Class.Negation
		classes.SelfNegative += r.Class.SelfNegative
	}
	return classes, nil
}

// ranHere is how many jobs exec ran in the coordinator's process since
// the last time it was asked: none unless exec is the coordinator.
func ranHere(exec Executor) int {
	x, ok := exec.(*inProcess)
	if !ok {
		return 0
	}
	n := x.ran
	x.ran = 0
	return n
}

// writeOutputs writes the outputs, recording the time it took in the
// summary before summary.json is written.
func (c *censusStage) writeOutputs(ctx context.Context, res *Result) error {
	return c.clock.outputs(func(done func()) error {
		return writeOutputs(ctx, c.cfg.Store, res, c.cfg.Run, c.cfg.Version, c.cfg.Out, &c.placed, func() {
			done()
			res.Summary.Stages = c.clock.stages()
		})
	})
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

func startMoves(g games.Game) int {
	m := games.NewMoveStats(false)
	g.Expand(g.Start(), g.Pieces(g.Start(), nil), nil, m, 1)
	return int(m.Moves)
}

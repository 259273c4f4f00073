package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/worker"
)

func absPath(p string) (string, error) { return filepath.Abs(p) }

// coordinatorFlags are the flags of census coordinator.
type coordinatorFlags struct {
	nf                             natsFlags
	out, store, start, run, resume string
	memBudget, metrics             string
	shards, jobs                   int
	quiet, keepData, noWait        bool
	plain, positions, noSpaceCheck bool
	// piecesCodec names the pieces table's codec; codec is it, checked
	// (or the resumed run's).
	piecesCodec string
	codec       schema.Codec
	// solve keeps the positions and runs the solve stage on the workers
	// after the census; keep only keeps them.
	solve, keep bool
	// given holds the flags of planFlags set on the command line, with
	// their values as given.
	given map[string]string
}

// planFlags are the flags whose values a run's plan fixes when it starts:
// a run resumed with --resume keeps its plan's, so that one of them given
// with another value is a usage error rather than ignored.
var planFlags = []string{"start", "shards", "store", "run", "no-symmetry", "positions", "pieces-codec"}

func coordinatorCmd() *cobra.Command {
	var f coordinatorFlags
	c := &cobra.Command{
		Use:   "coordinator [GAME BOARD]",
		Short: "Coordinate a census on a cluster: publish jobs to NATS, wait for workers, write outputs",
		Long: `Coordinate a census of GAME on BOARD over an external NATS server: the
coordinator publishes each tier's jobs to JetStream, waits for workers
('census worker') to finish them, sizes the next tier, runs the reductions
and writes the outputs under OUT/GAME-BOARD/. Run state lives in NATS: the
same command (or --resume RUN) started again after a crash continues where
it stopped.

With --solve the run keeps its positions and, once the census is done, the
workers solve it tier by tier, as census run --solve does: summary.json,
tiers.parquet and the positions table gain the outcome classes. The kept
positions are copied into the store for the workers.`,
		Example: `  census coordinator --nats nats://10.0.0.1:4222 --store /shared/census clobber 4x5 --out results
  census coordinator --nats nats://10.0.0.1:4222 --store /shared/census clobber 4x4 --solve --out results
  census coordinator --nats nats://10.0.0.1:4222 --resume clobber-4x5-811c9dc5 --out results`,
		RunE: func(c *cobra.Command, args []string) error {
			f.given = map[string]string{}
			for _, name := range planFlags {
				if fl := c.Flags().Lookup(name); fl != nil && fl.Changed {
					f.given[name] = fl.Value.String()
				}
			}
			return coordinate(c.Context(), f, args)
		},
	}
	fl := c.Flags()
	f.nf.register(fl)
	fl.StringVar(&f.out, "out", "census-out", "directory the outputs land in, under GAME-BOARD/")
	fl.StringVar(&f.store, "store", "", "where fragments live: a directory every worker sees, or s3://bucket/prefix")
	fl.StringVar(&f.start, "start", "", "start position as a board diagram (default the standard start)")
	fl.StringVar(&f.run, "run", "", "run ID (default derived from game, board, start and shards)")
	fl.StringVar(&f.resume, "resume", "", "continue the run with this ID, with the plan it was started with (game, board, start, shards, store, symmetry, positions, pieces codec); a plan flag given with another value is an error")
	fl.IntVar(&f.shards, "shards", 0, "shards per tier and per reduction (0 chooses from the tier sizes)")
	registerJobs(fl, &f.jobs, 8, "jobs the workers run at once in all; automatic sharding makes at least twice as many shards for large tiers", "parallelism")
	registerMemBudget(fl, &f.memBudget, "")
	registerPiecesCodec(fl, &f.piecesCodec)
	fl.BoolVar(&f.noWait, "no-wait", false, "exit with code 2 instead of waiting when another coordinator holds the run")
	fl.BoolVar(&f.noSpaceCheck, "no-space-check", false, spaceCheckHelp)
	fl.BoolVar(&f.quiet, "quiet", false, "print no progress")
	fl.BoolVar(&f.keepData, "keep-data", false, "keep the run's fragments in the store after it finishes")
	registerMetricsFlag(fl, &f.metrics)
	fl.BoolVar(&f.plain, "no-symmetry", false, "store every position rather than one per orbit of the start's symmetries (same counts, slower)")
	fl.BoolVar(&f.positions, "positions", false, "also write every position to OUT/GAME-BOARD/positions/tier=NN/part-*.parquet (key, pieces, picture)")
	fl.BoolVar(&f.solve, "solve", false, "keep every tier's positions, then find the outcome class of every position with jobs on the workers, as census run --solve does (with --resume, the run must have kept them)")
	fl.BoolVar(&f.keep, "keep-positions", false, "keep every tier's positions under OUT/GAME-BOARD/kept/ (about 2 bytes a stored position) for census solve")
	return c
}

// clusterRun is one census coordinator command: a census over an external
// NATS server, then its solve stage when asked for. Its methods are the
// steps.
type clusterRun struct {
	f      coordinatorFlags
	conn   *broker.Conn
	game   string
	board  string
	budget int64
	url    string
	st     store.Store
	outDir string
}

// coordinate runs census coordinator with flags f on args.
func coordinate(ctx context.Context, f coordinatorFlags, args []string) error {
	if err := checkJobs(f.jobs); err != nil {
		return err
	}
	_, budget, err := memBudget(f.memBudget, 1)
	if err != nil {
		return usageError{err}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	conn, err := f.nf.connect(ctx, "census-coordinator")
	if err != nil {
		return usageError{err}
	}
	defer conn.Close()
	r := &clusterRun{f: f, conn: conn, budget: budget}
	if err := r.plan(ctx, args); err != nil {
		return err
	}
	ms, err := startMetrics(r.f.metrics)
	if err != nil {
		return err
	}
	defer ms.stop()
	var cm *coordinator.Metrics
	if ms != nil {
		cm = coordinator.NewMetrics(ms.Registry)
	}
	prog := newProgress(os.Stderr, r.f.quiet, nil)
	defer prog.done()
	cfg := r.config(cm, prog)
	if r.f.solve {
		if m, ok := coordinator.KeptOutputs(cfg); ok {
			// The census is done and in the outputs: only its solve is
			// left, which resumes from its bucket.
			s, err := finishedCensus(r.f.quiet, r.outDir, m)
			if err != nil || s.Solved.HasTablebase() {
				return err
			}
			return r.solve(ctx, cm)
		}
	}
	res, err := r.census(ctx, cfg)
	var finished *coordinator.FinishedError
	if errors.As(err, &finished) {
		// Nothing left to do: the census is done, and solved if the
		// coordinator that finished it was asked to.
		fmt.Fprintf(os.Stderr, "census: %v\n", err)
		return nil
	}
	if err != nil {
		return err
	}
	prog.finish(res, r.outDir)
	if r.f.solve {
		return r.solve(ctx, cm)
	}
	return nil
}

// plan settles what to run from the flags, or from the stored plan with
// --resume, and checks the store and the output directory. Every bad value
// is a usage error naming it.
func (r *clusterRun) plan(ctx context.Context, args []string) error {
	f := &r.f
	switch {
	case f.resume != "" && len(args) == 0:
		plan, err := coordinator.LoadPlan(ctx, r.conn, f.resume)
		if err != nil {
			return usageError{err}
		}
		if (f.solve || f.keep) && !plan.Keep {
			return usagef("--resume %s: the run did not keep its positions, which --solve and --keep-positions need; start a new run with --solve", f.resume)
		}
		if err := f.checkResumed(plan); err != nil {
			return err
		}
		r.game, r.board = plan.Game, plan.Board
		f.start, f.shards, f.store, f.run, f.plain, f.positions, f.keep = plan.Start, plan.Shards, plan.Store, f.resume, plan.NoSymmetry, plan.Positions, plan.Keep
		f.piecesCodec = plan.PiecesCodec
	case f.resume == "" && len(args) == 2:
		r.game, r.board = args[0], args[1]
	default:
		return usagef("census coordinator wants GAME and BOARD, or --resume RUN alone; got %q", args)
	}
	g, err := all.New(r.game, r.board, f.start)
	if err != nil {
		return usageError{err}
	}
	if f.codec, err = piecesCodec(f.piecesCodec); err != nil {
		return err
	}
	if f.store == "" {
		return usagef("--store: give the directory (shared by all workers) or s3://bucket/prefix where fragments live")
	}
	if r.url, r.st, err = openStoreFlag(ctx, f.store); err != nil {
		return err
	}
	if err := checkWritable(f.out); err != nil {
		return usagef("--out %s: %v", f.out, err)
	}
	if f.run != "" {
		if err := broker.CheckRun(f.run); err != nil {
			return usageError{err}
		}
	}
	r.outDir = coordinator.OutputDir(f.out, g.Name(), g.Board().String())
	return nil
}

// checkResumed fails with a usage error naming the first flag of
// planFlags given with a value other than the resumed run's plan holds.
func (f *coordinatorFlags) checkResumed(p coordinator.Plan) error {
	for _, name := range planFlags {
		given, ok := f.given[name]
		if !ok {
			continue
		}
		var same bool
		var planned string
		switch name {
		case "start":
			same, planned = sameStart(p.Game, p.Board, f.start, p.Start), p.Start
			if planned == "" {
				planned = "(the standard start)"
			}
		case "shards":
			same, planned = f.shards == p.Shards, fmt.Sprint(p.Shards)
		case "store":
			u, err := storeURL(f.store)
			same, planned = err == nil && u == p.Store, p.Store
		case "run":
			same, planned = f.run == f.resume, f.resume
		case "no-symmetry":
			same, planned = f.plain == p.NoSymmetry, fmt.Sprint(p.NoSymmetry)
		case "positions":
			same, planned = f.positions == p.Positions, fmt.Sprint(p.Positions)
		case "pieces-codec":
			c, err := schema.ParseCodec(f.piecesCodec)
			was, _ := schema.ParseCodec(p.PiecesCodec)
			same, planned = err == nil && c == was, string(was)
		}
		if !same {
			return usagef("--resume %s: --%s %s differs from the run's plan (%s), which a resumed run keeps: drop --%s, or start a new run",
				f.resume, name, given, planned, name)
		}
	}
	return nil
}

// sameStart reports whether the start diagrams a and b give game on board
// the same start position.
func sameStart(game, board, a, b string) bool {
	ga, err := all.New(game, board, a)
	if err != nil {
		return false
	}
	gb, err := all.New(game, board, b)
	return err == nil && ga.Start() == gb.Start()
}

// config is the census's coordinator configuration, with its metrics cm
// and its progress shown by prog.
func (r *clusterRun) config(cm *coordinator.Metrics, prog *progress) coordinator.Config {
	f := r.f
	return coordinator.Config{
		Census: coordinator.Census{Game: r.game, Board: r.board, Start: f.start, Shards: f.shards,
			NoSymmetry: f.plain, Positions: f.positions, Keep: f.solve || f.keep, PiecesCodec: f.codec},
		Env: coordinator.Env{Run: f.run, Store: r.st, StoreURL: r.url, Log: newLogger(f.quiet), Metrics: cm,
			KeepBlobs: f.keepData, AckWait: ackWait()},
		Tuning:     coordinator.Tuning{Parallelism: f.jobs, MemBudget: r.budget},
		Outputs:    coordinator.Outputs{Out: r.outDir, Version: version},
		SpaceCheck: coordinator.SpaceCheck{NoSpaceCheck: f.noSpaceCheck},
		LeaseOptions: coordinator.LeaseOptions{NoWait: f.noWait, OnHeld: func(l runstate.Lease) {
			fmt.Fprintf(os.Stderr, "census: run held by coordinator %s since %s; waiting (it is free at most %s after that coordinator stops)\n",
				l.Holder(), l.Since.Local().Format(time.DateTime), l.TTL+time.Second)
		}},
		Progress: prog.update,
	}
}

// census runs the census of cfg on the workers and writes its outputs.
func (r *clusterRun) census(ctx context.Context, cfg coordinator.Config) (*coordinator.Result, error) {
	res, err := coordinator.Start(ctx, cfg, r.conn)
	var finished *coordinator.FinishedError
	switch {
	case errors.As(err, &finished):
		return nil, err
	case errors.Is(err, coordinator.ErrRunClash) || errors.Is(err, coordinator.ErrRunHeld):
		return nil, usageError{err}
	case err != nil:
		return nil, fmt.Errorf("census %s %s: %w", r.game, r.board, err)
	}
	return res, nil
}

// solve runs the solve stage of the finished census in the output
// directory with jobs on the workers: the kept positions go into the
// store, where the workers read them, and the outcome tables come out of
// it. Started again, the stage resumes from its bucket. Its metrics go to
// cm when not nil.
func (r *clusterRun) solve(ctx context.Context, cm *coordinator.Metrics) error {
	d, err := coordinator.CheckStageDir(r.outDir, coordinator.SolveStage)
	if err != nil {
		return fmt.Errorf("solve %s: %w", r.outDir, err)
	}
	began := time.Now()
	prog := newProgress(os.Stderr, r.f.quiet, nil)
	solved, err := coordinator.StartSolve(ctx, coordinator.SolveConfig{
		Env: coordinator.Env{Store: r.st, StoreURL: r.url, Log: newLogger(r.f.quiet), Metrics: cm, KeepBlobs: r.f.keepData, AckWait: ackWait()},
		Dir: d, CopyKept: true, MemBudget: r.budget, Progress: prog.updateSolve,
	}, r.conn)
	prog.done()
	if err != nil {
		return fmt.Errorf("solve %s: %w", r.outDir, err)
	}
	reportSolved(r.f.quiet, r.outDir, began, solved)
	return nil
}

func workerCmd() *cobra.Command {
	var nf natsFlags
	var storeFlag, metricsAddr string
	var jobs int
	var quiet bool
	c := &cobra.Command{
		Use:   "worker",
		Short: "Run census jobs from NATS until stopped",
		Long: `Pull census jobs from the NATS JetStream work queue, one at a time per slot,
and run them, for any number of runs. On SIGINT or SIGTERM a running job is
handed back unfinished, for another worker to take.`,
		Example: `  census worker --nats nats://10.0.0.1:4222 --jobs 4
  census worker --nats nats://10.0.0.1:4222 --store /mnt/census   # the shared directory is mounted elsewhere here`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkJobs(jobs); err != nil {
				return err
			}
			// A worker's jobs carry their budget; it sets no limit of its own.
			tuneCollector(0)
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			conn, err := nf.connect(ctx, "census-worker")
			if err != nil {
				return usageError{err}
			}
			defer conn.Close()
			log := newLogger(quiet)
			ms, err := startMetrics(metricsAddr)
			if err != nil {
				return err
			}
			defer ms.stop()
			var wm *worker.Metrics
			if ms != nil {
				wm = worker.NewMetrics(ms.Registry)
			}
			w, err := worker.New(ctx, worker.Config{
				Conn: conn, Jobs: jobs, Log: log, Metrics: wm, AckWait: ackWait(), RetryDelay: retryDelay(),
				OpenStore: func(ctx context.Context, url string) (st store.Store, err error) {
					if storeFlag != "" {
						url = storeFlag
					}
					return openStore(ctx, url)
				},
			})
			if err != nil {
				return err
			}
			log.Info("worker running", "nats", broker.Redact(nf.url), "jobs", jobs)
			w.Run(ctx)
			return nil
		},
	}
	fl := c.Flags()
	nf.register(fl)
	fl.StringVar(&storeFlag, "store", "", "the store as this machine sees it, when it differs from the coordinator's (a directory or s3://bucket/prefix)")
	registerJobs(fl, &jobs, runtime.NumCPU(), "jobs to run at once")
	registerMetricsFlag(fl, &metricsAddr)
	fl.BoolVar(&quiet, "quiet", false, "log errors only")
	return c
}

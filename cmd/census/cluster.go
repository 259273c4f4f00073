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
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/worker"
)

func absPath(p string) (string, error) { return filepath.Abs(p) }

func coordinatorCmd() *cobra.Command {
	var nf natsFlags
	var out, storeFlag, start, run, resume, memFlag string
	var shards, jobs int
	var quiet, keep, plain, positions, noWait, noSpaceCheck bool
	var metricsAddr string
	c := &cobra.Command{
		Use:   "coordinator [GAME BOARD]",
		Short: "Coordinate a census on a cluster: publish jobs to NATS, wait for workers, write outputs",
		Long: `Coordinate a census of GAME on BOARD over an external NATS server: the
coordinator publishes each tier's jobs to JetStream, waits for workers
('census worker') to finish them, sizes the next tier, runs the reductions
and writes the outputs under OUT/GAME-BOARD/. Run state lives in NATS: the
same command (or --resume RUN) started again after a crash continues where
it stopped.`,
		Example: `  census coordinator --nats nats://10.0.0.1:4222 --store /shared/census clobber 4x5 --out results
  census coordinator --nats nats://10.0.0.1:4222 --resume clobber-4x5-811c9dc5 --out results`,
		RunE: func(c *cobra.Command, args []string) error {
			if jobs < 1 {
				return usagef("--jobs %d: want at least 1", jobs)
			}
			_, budget, err := memBudget(memFlag, 1)
			if err != nil {
				return usageError{err}
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			conn, err := nf.connect(ctx, "census-coordinator")
			if err != nil {
				return usageError{err}
			}
			defer conn.Close()
			var game, board string
			switch {
			case resume != "" && len(args) == 0:
				plan, err := coordinator.LoadPlan(ctx, conn, resume)
				if err != nil {
					return usageError{err}
				}
				game, board, start, shards, storeFlag, run, plain, positions = plan.Game, plan.Board, plan.Start, plan.Shards, plan.Store, resume, plan.NoSymmetry, plan.Positions
			case resume == "" && len(args) == 2:
				game, board = args[0], args[1]
			default:
				return usagef("census coordinator wants GAME and BOARD, or --resume RUN alone; got %q", args)
			}
			g, err := all.New(game, board, start)
			if err != nil {
				return usageError{err}
			}
			if storeFlag == "" {
				return usagef("--store: give the directory (shared by all workers) or s3://bucket/prefix where fragments live")
			}
			url, err := storeURL(storeFlag)
			if err != nil {
				return usageError{err}
			}
			st, err := openStore(ctx, url)
			if err != nil {
				return usagef("--store %s: %v", storeFlag, err)
			}
			if err := checkWritable(out); err != nil {
				return usagef("--out %s: %v", out, err)
			}
			if run != "" {
				if err := broker.CheckRun(run); err != nil {
					return usageError{err}
				}
			}
			outDir := coordinator.OutputDir(out, g.Name(), g.Board().String())
			ms, err := startMetrics(metricsAddr)
			if err != nil {
				return err
			}
			defer ms.stop()
			var cm *coordinator.Metrics
			if ms != nil {
				cm = coordinator.NewMetrics(ms.Registry)
			}
			prog := newProgress(os.Stderr, quiet, g)
			defer prog.done()
			res, err := coordinator.Start(ctx, coordinator.Config{
				Game: game, Board: board, Start: start, Run: run,
				Shards: shards, Parallelism: jobs, MemBudget: budget, AckWait: ackWait(),
				NoWait: noWait, OnHeld: func(l runstate.Lease) {
					fmt.Fprintf(os.Stderr, "census: run held by coordinator %s since %s; waiting (it is free at most %s after that coordinator stops)\n",
						l.Holder(), l.Since.Local().Format(time.DateTime), l.TTL+time.Second)
				},
				Store: st, StoreURL: url, Out: outDir, Version: version,
				Log: newLogger(quiet), Progress: prog.update, KeepBlobs: keep, Metrics: cm, NoSymmetry: plain, Positions: positions,
				NoSpaceCheck: noSpaceCheck,
			}, conn)
			var finished *coordinator.FinishedError
			if errors.As(err, &finished) {
				// Nothing left to do: the census is done.
				fmt.Fprintf(os.Stderr, "census: %v\n", err)
				return nil
			}
			if errors.Is(err, coordinator.ErrRunClash) || errors.Is(err, coordinator.ErrRunHeld) {
				return usageError{err}
			}
			if err != nil {
				return fmt.Errorf("census %s %s: %w", game, board, err)
			}
			prog.finish(res, outDir)
			return nil
		},
	}
	fl := c.Flags()
	nf.register(fl)
	fl.StringVar(&out, "out", "census-out", "directory the outputs land in, under GAME-BOARD/")
	fl.StringVar(&storeFlag, "store", "", "where fragments live: a directory every worker sees, or s3://bucket/prefix")
	fl.StringVar(&start, "start", "", "start position as a board diagram (default the standard start)")
	fl.StringVar(&run, "run", "", "run ID (default derived from game, board, start and shards)")
	fl.StringVar(&resume, "resume", "", "continue the run with this ID, with the game, board and store it was started with")
	fl.IntVar(&shards, "shards", 0, "shards per tier and per reduction (0 chooses from the tier sizes)")
	registerJobs(fl, &jobs, 8, "jobs the workers run at once in all; automatic sharding makes at least twice as many shards for large tiers", "parallelism")
	registerMemBudget(fl, &memFlag)
	fl.BoolVar(&noWait, "no-wait", false, "exit with code 2 instead of waiting when another coordinator holds the run")
	fl.BoolVar(&noSpaceCheck, "no-space-check", false, spaceCheckHelp)
	fl.BoolVar(&quiet, "quiet", false, "print no progress")
	fl.BoolVar(&keep, "keep-data", false, "keep the run's fragments in the store after it finishes")
	registerMetricsFlag(fl, &metricsAddr)
	fl.BoolVar(&plain, "no-symmetry", false, "store every position rather than one per orbit of the start's symmetries (same counts, slower)")
	fl.BoolVar(&positions, "positions", false, "also write every position to OUT/GAME-BOARD/positions/tier=NN/part-*.parquet (key, pieces, picture)")
	return c
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
			if jobs < 1 {
				return usagef("--jobs %d: want at least 1", jobs)
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

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/internal/embedded"
)

type runFlags struct {
	out       string
	data      string
	keepData  bool
	run       string
	store     string
	metrics   string
	profile   string
	heapProf  string
	trace     string
	plain     bool
	positions bool
	jobs      int
	shards    int
	start     string
	json      bool
	quiet     bool
	memBudget string
	// noSpaceCheck skips the free-space estimate before each stage.
	noSpaceCheck bool
	// values runs the values stage after the census (cmd/census/values.go).
	values     bool
	valuesOpts valuesFlags
	// solve keeps the positions and runs the solve stage after the census
	// (cmd/census/solve.go); keep only keeps them.
	solve, keep bool
}

func runCmd() *cobra.Command {
	var f runFlags
	var kf konaneFlags
	var mf *mutorereFlags
	c := &cobra.Command{
		Use:   "run GAME BOARD",
		Short: "Run a complete census of a game on a board",
		Long: `Run a complete census of GAME (clobber, domineering, amazons) on BOARD (ROWSxCOLS,
rows first, e.g. 4x4) and write the results under OUT/GAME-BOARD/:
summary.json, summary.parquet, tiers.parquet, pieces/part-*.parquet, and
run.json last, which marks the outputs complete. With --positions it also
writes every position, one directory per tier: positions/tier=NN/part-*.parquet.`,
		Example: `  census run clobber 4x4
  census run domineering 4x4 --out results --json
  census run amazons 3x4 --start 'o..x/..../....'`,
		Args: exactArgs(2, "GAME and BOARD"),
		RunE: func(c *cobra.Command, args []string) error {
			if f.solve && (args[0] == mutorereGame || isKonaneRun(args[0], kf)) {
				return usagef("--solve: %s is not solved tier by tier (mutorere is loopy, see docs/retrograde.md); --solve is for clobber, domineering and amazons", args[0])
			}
			if ok, err := dispatchMutorere(c, f, mf, args); ok {
				return err
			}
			if isKonaneRun(args[0], kf) {
				kf.values = f.values
				return runKonane(c.Context(), f, kf, args[0], args[1])
			}
			return runCensus(c.Context(), f, args[0], args[1])
		},
	}
	mf = addMutorereFlags(c)
	fl := c.Flags()
	fl.StringVar(&f.out, "out", "census-out", "directory the outputs land in, under GAME-BOARD/")
	fl.StringVar(&f.data, "data", "", "directory for the embedded NATS store and the working fragments (default OUT/.census-data); the same command resumes from it")
	fl.BoolVar(&f.keepData, "keep-data", false, "keep the working data after the run")
	registerMetricsFlag(fl, &f.metrics)
	fl.BoolVar(&f.plain, "no-symmetry", false, "store every position rather than one per orbit of the start's symmetries (same counts, slower; for comparison)")
	fl.BoolVar(&f.positions, "positions", false, "also write every position to OUT/GAME-BOARD/positions/tier=NN/part-*.parquet (key, pieces, picture)")
	fl.StringVar(&f.profile, "cpuprofile", "", "write a CPU profile of the run to this file")
	fl.StringVar(&f.trace, "trace", "", "write an execution trace of the run (go tool trace) to this file")
	fl.StringVar(&f.heapProf, "memprofile", "", "write a heap profile of the run, taken when its heap is largest, to this file")
	fl.StringVar(&f.store, "store", "", "where fragments live: s3://bucket/prefix or a directory (default DATA/blobs)")
	fl.StringVar(&f.run, "run", "", "run ID (default derived from game, board, start and shards, so the same command resumes)")
	registerJobs(fl, &f.jobs, runtime.NumCPU(), "jobs to run at once", "workers")
	fl.IntVar(&f.shards, "shards", 0, "shards per tier and per reduction (0 chooses from the tier sizes)")
	fl.StringVar(&f.start, "start", "", "start position as a board diagram, rows separated by '/' (default the game's standard start)")
	fl.BoolVar(&f.json, "json", false, "print summary.json on standard output")
	fl.BoolVar(&f.quiet, "quiet", false, "print no progress")
	fl.BoolVar(&f.noSpaceCheck, "no-space-check", false, spaceCheckHelp)
	registerMemBudget(fl, &f.memBudget)
	fl.BoolVar(&f.values, "values", false, "then value every distinct live piece, as census values OUT/GAME-BOARD does (its working data in DATA/values; interrupted there, the same command runs the census again and resumes the values)")
	addValuesFlags(fl.IntVar, &f.valuesOpts)
	fl.BoolVar(&f.solve, "solve", false, "keep every tier's positions, then find the outcome class of every position, as census solve OUT/GAME-BOARD does (its working data in DATA/solve)")
	fl.BoolVar(&f.keep, "keep-positions", false, "keep every tier's positions under OUT/GAME-BOARD/kept/ (about 2 bytes a stored position) for census solve")
	addKonaneFlags(c, &kf)
	return c
}

func runCensus(ctx context.Context, f runFlags, gameName, board string) error {
	g, err := all.New(gameName, board, f.start)
	if err != nil {
		return usageError{err}
	}
	if f.jobs < 1 {
		return usagef("--jobs %d: want at least 1", f.jobs)
	}
	if f.shards < 0 || f.shards > 4096 {
		return usagef("--shards %d: want 0 (automatic) to 4096", f.shards)
	}
	if err := checkValuesFlags(f.valuesOpts); err != nil {
		return err
	}
	total, budget, err := memBudget(f.memBudget, f.jobs)
	if err != nil {
		return usageError{err}
	}
	tuneCollector(total)
	outDir := coordinator.OutputDir(f.out, g.Name(), g.Board().String())
	if err := checkWritable(f.out); err != nil {
		return usagef("--out %s: %v", f.out, err)
	}
	dataDir := f.data
	if dataDir == "" {
		dataDir = filepath.Join(f.out, ".census-data")
	}
	if err := checkWritable(dataDir); err != nil {
		return usagef("--data %s: %v", dataDir, err)
	}
	if f.run != "" {
		if err := broker.CheckRun(f.run); err != nil {
			return usagef("--run: %v", err)
		}
	}

	var storeURLFlag string
	if f.store != "" {
		if storeURLFlag, err = storeURL(f.store); err != nil {
			return usageError{err}
		}
		if _, err := openStore(ctx, storeURLFlag); err != nil {
			return usagef("--store %s: %v", f.store, err)
		}
	}

	if f.profile != "" {
		stopProfile, err := startProfile(f.profile)
		if err != nil {
			return usagef("--cpuprofile %s: %v", f.profile, err)
		}
		defer stopProfile()
	}
	if f.trace != "" {
		stopTrace, err := startTrace(f.trace)
		if err != nil {
			return usagef("--trace %s: %v", f.trace, err)
		}
		defer stopTrace()
	}
	if f.heapProf != "" {
		stopHeap, err := startHeapProfile(f.heapProf)
		if err != nil {
			return usagef("--memprofile %s: %v", f.heapProf, err)
		}
		defer stopHeap()
	}
	ms, err := startMetrics(f.metrics)
	if err != nil {
		return err
	}
	defer ms.stop()

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := newProgress(os.Stderr, f.quiet, g)
	defer prog.done()
	res, err := embedded.Run(ctx, embedded.Options{
		Game: gameName, Board: board, Start: f.start, Run: f.run,
		Out: outDir, Data: dataDir, Workers: f.jobs, Shards: f.shards, AckWait: ackWait(), RetryDelay: retryDelay(),
		StoreURL: storeURLFlag, OpenStore: openStore, KeepData: f.keepData, Registry: ms.registerer(), NoSymmetry: f.plain, Positions: f.positions, Keep: f.solve || f.keep, NoSpaceCheck: f.noSpaceCheck,
		MemBudget: budget, Version: version, Log: newLogger(f.quiet), Progress: prog.update,
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted; run the same command again to resume from %s", dataDir)
		}
		if errors.Is(err, coordinator.ErrRunClash) {
			return usageError{err}
		}
		return fmt.Errorf("census %s %s: %w", gameName, board, err)
	}
	if f.values {
		tuneValuesCollector(total)
		vo := f.valuesOpts
		vo.data, vo.keepData, vo.workers, vo.quiet = filepath.Join(dataDir, "values"), f.keepData, f.jobs, f.quiet
		if res.Summary.Values, err = valueDir(ctx, vo, outDir); err != nil {
			return err
		}
	}
	if f.solve {
		so := solveFlags{data: filepath.Join(dataDir, "solve"), keepData: f.keepData, workers: f.jobs, memBudget: f.memBudget, quiet: f.quiet}
		if res.Summary.Solved, err = solveDir(ctx, so, outDir); err != nil {
			return err
		}
	}
	if !f.keepData {
		if err := embedded.Clean(dataDir); err != nil {
			return err
		}
	}
	prog.finish(res, outDir)
	if f.json {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res.Summary)
	}
	return nil
}

// checkWritable creates dir if needed and checks a file can be made in it.
// It leaves no trace: directories it had to create are removed again.
func checkWritable(dir string) error {
	top := dir // the outermost directory that does not exist yet
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if _, err := os.Stat(p); err == nil {
			break
		}
		top = p
		if filepath.Dir(p) == p {
			break
		}
	}
	_, statErr := os.Stat(dir)
	created := statErr != nil
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if created {
		defer os.RemoveAll(top)
	}
	f, err := os.CreateTemp(dir, ".census-probe-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

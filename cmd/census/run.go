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
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/schema"
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
	// piecesCodec names the pieces table's codec; codec is it, checked.
	piecesCodec string
	codec       schema.Codec
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
	registerMemBudget(fl, &f.memBudget, "; its heap may grow to twice that (its soft memory limit) for the buffers it keeps between jobs")
	registerPiecesCodec(fl, &f.piecesCodec)
	fl.BoolVar(&f.values, "values", false, "then value every distinct live piece, as census values OUT/GAME-BOARD does (its working data in DATA/values; interrupted there, the same command runs the census again and resumes the values)")
	addValuesFlags(fl.IntVar, &f.valuesOpts)
	fl.BoolVar(&f.solve, "solve", false, "keep every tier's positions, then find the outcome class of every position, as census solve OUT/GAME-BOARD does (its working data in DATA/solve)")
	fl.BoolVar(&f.keep, "keep-positions", false, "keep every tier's positions under OUT/GAME-BOARD/kept/ (about 2 bytes a stored position) for census solve")
	addKonaneFlags(c, &kf)
	return c
}

// censusRun is one census run command: the census in this process, then
// the stages asked for. Its methods are the steps.
type censusRun struct {
	f           runFlags
	game, board string
	outDir      string
	dataDir     string
	storeURL    string
	budget      int64
	metrics     *embedded.Metrics
	prog        *progress
}

func runCensus(ctx context.Context, f runFlags, gameName, board string) error {
	r := &censusRun{f: f, game: gameName, board: board}
	if err := r.check(ctx); err != nil {
		return err
	}
	stopProfiles, err := r.startProfiles()
	if err != nil {
		return err
	}
	defer stopProfiles()
	ms, err := startMetrics(f.metrics)
	if err != nil {
		return err
	}
	defer ms.stop()
	r.metrics = embedded.NewMetrics(ms.registerer())

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	r.prog = newProgress(os.Stderr, f.quiet, nil)
	defer r.prog.done()
	res, solved, err := r.census(ctx)
	if err != nil {
		return err
	}
	if err := r.stages(ctx, res, solved); err != nil {
		return err
	}
	if !f.keepData {
		if err := embedded.Clean(r.dataDir); err != nil {
			return err
		}
	}
	r.prog.finish(res, r.outDir)
	if f.json {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res.Summary)
	}
	return nil
}

// check settles the directories, the store and the memory budget from the
// flags; every bad value is a usage error naming it.
func (r *censusRun) check(ctx context.Context) error {
	f := r.f
	g, err := all.New(r.game, r.board, f.start)
	if err != nil {
		return usageError{err}
	}
	if err := checkJobs(f.jobs); err != nil {
		return err
	}
	if f.shards < 0 || f.shards > 4096 {
		return usagef("--shards %d: want 0 (automatic) to 4096", f.shards)
	}
	if err := checkValuesFlags(f.valuesOpts); err != nil {
		return err
	}
	if r.f.codec, err = piecesCodec(f.piecesCodec); err != nil {
		return err
	}
	total, budget, err := memBudget(f.memBudget, f.jobs)
	if err != nil {
		return usageError{err}
	}
	r.budget = budget
	tuneCollector(censusMemoryLimit(total))
	r.outDir = coordinator.OutputDir(f.out, g.Name(), g.Board().String())
	if err := checkWritable(f.out); err != nil {
		return usagef("--out %s: %v", f.out, err)
	}
	r.dataDir = f.data
	if r.dataDir == "" {
		r.dataDir = filepath.Join(f.out, ".census-data")
	}
	if err := checkWritable(r.dataDir); err != nil {
		return usagef("--data %s: %v", r.dataDir, err)
	}
	if f.run != "" {
		if err := broker.CheckRun(f.run); err != nil {
			return usagef("--run: %v", err)
		}
	}
	if f.store != "" {
		if r.storeURL, _, err = openStoreFlag(ctx, f.store); err != nil {
			return err
		}
	}
	return nil
}

// startProfiles starts the profiles the flags ask for and returns what
// stops them all.
func (r *censusRun) startProfiles() (func(), error) {
	var stops []func()
	stopAll := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	for _, p := range []struct {
		flag, path string
		start      func(string) (func(), error)
	}{
		{"--cpuprofile", r.f.profile, startProfile},
		{"--trace", r.f.trace, startTrace},
		{"--memprofile", r.f.heapProf, startHeapProfile},
	} {
		if p.path == "" {
			continue
		}
		stop, err := p.start(p.path)
		if err != nil {
			stopAll()
			return nil, usagef("%s %s: %v", p.flag, p.path, err)
		}
		stops = append(stops, stop)
	}
	return stopAll, nil
}

// census runs the census and returns its result. A run to be solved
// whose finished census, with its kept positions, is in the outputs
// already (the same command run again after it finished, or after it was
// stopped in its solve) goes on to the solve without running it again:
// its result is read from the outputs, and solved tells whether they are
// solved already.
func (r *censusRun) census(ctx context.Context) (res *coordinator.Result, solved bool, err error) {
	f := r.f
	o := embedded.Options{
		Game: r.game, Board: r.board, Start: f.start, Run: f.run,
		Out: r.outDir, Data: r.dataDir, Workers: f.jobs, Shards: f.shards, AckWait: ackWait(), RetryDelay: retryDelay(),
		StoreURL: r.storeURL, OpenStore: openStore, KeepData: f.keepData, Metrics: r.metrics, NoSymmetry: f.plain, Positions: f.positions, Keep: f.solve || f.keep, NoSpaceCheck: f.noSpaceCheck,
		MemBudget: r.budget, Version: version, Log: newLogger(f.quiet), Progress: r.prog.update, PiecesCodec: f.codec,
	}
	if f.solve {
		if m, ok := o.KeptOutputs(); ok {
			return r.finished(m)
		}
	}
	res, err = embedded.Run(ctx, o)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, false, fmt.Errorf("interrupted; run the same command again to resume from %s", r.dataDir)
		}
		if errors.Is(err, coordinator.ErrRunClash) {
			return nil, false, usageError{err}
		}
		return nil, false, fmt.Errorf("census %s %s: %w", r.game, r.board, err)
	}
	return res, false, nil
}

// finished is the result of the census of run m, finished in the
// outputs, read from its summary.json; solved tells whether the outputs
// are solved already.
func (r *censusRun) finished(m schema.Manifest) (*coordinator.Result, bool, error) {
	s, err := finishedCensus(r.f.quiet, r.outDir, m)
	if err != nil {
		return nil, false, err
	}
	return &coordinator.Result{Summary: s}, s.Solved.HasTablebase(), nil
}

// stages runs the values stage and the solve stage of the census res
// when the flags ask for them; a run solved already is not solved again.
func (r *censusRun) stages(ctx context.Context, res *coordinator.Result, solved bool) error {
	f := r.f
	var err error
	if f.values {
		tuneValuesCollector(r.budget * int64(f.jobs))
		vo := f.valuesOpts
		vo.data, vo.keepData, vo.workers, vo.quiet = filepath.Join(r.dataDir, "values"), f.keepData, f.jobs, f.quiet
		if res.Summary.Values, err = valueDir(ctx, vo, r.outDir); err != nil {
			return err
		}
	}
	if f.solve && !solved {
		so := solveFlags{data: filepath.Join(r.dataDir, "solve"), keepData: f.keepData, workers: f.jobs, memBudget: f.memBudget, quiet: f.quiet}
		if res.Summary.Solved, err = solveDir(ctx, so, r.outDir, r.metrics); err != nil {
			return err
		}
	}
	return nil
}

// checkWritable creates dir if needed and checks a file can be made in it.
// It leaves no trace: directories it had to create are removed again, one
// at a time and only when empty, so that a check running at the same time
// on the same directory (two coordinators started at once) keeps what it
// made; a probe whose directory such a check removed is made again.
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
	for attempt := 1; ; attempt++ {
		f, err := probeWritable(dir)
		// A concurrent check removing what it made, as this one made it,
		// fails it with "does not exist" or "exists": again.
		if (errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrExist)) && attempt < 10 {
			continue
		}
		if err != nil {
			return err
		}
		f.Close()
		err = os.Remove(f.Name())
		if created {
			removeEmptyDirs(dir, top)
		}
		return err
	}
}

// probeWritable makes dir, if need be, and a file in it.
func probeWritable(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return os.CreateTemp(dir, ".census-probe-*")
}

// removeEmptyDirs removes dir and then its parents up to top, stopping at
// the first that cannot be removed (one not empty, or gone).
func removeEmptyDirs(dir, top string) {
	top = filepath.Clean(top)
	for p := filepath.Clean(dir); os.Remove(p) == nil && p != top; p = filepath.Dir(p) {
	}
}

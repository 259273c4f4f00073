package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/schema"
)

// defaultSolveData is census solve's --data under DIR.
const defaultSolveData = ".census-solve"

type solveFlags struct {
	data      string
	keepData  bool
	workers   int
	memBudget string
	metrics   string
	json      bool
	quiet     bool
}

func solveCmd() *cobra.Command {
	var f solveFlags
	c := &cobra.Command{
		Use:   "solve DIR",
		Short: "Solve every position of a finished census run and keep its tablebase",
		Long: `Find the outcome class of every position of the finished census run in DIR
(OUT/GAME-BOARD, the directory that holds run.json; not OUT), which must have
kept its positions: census run GAME BOARD --solve keeps them and solves at
once. The tiers are solved backwards, the last first, as jobs on an
embedded NATS server: for each player to move a position's remoteness
(the moves to the end with best play: the winner ends as fast as it can,
the loser lasts as long as it can; odd when the mover wins) follows from
its options' in the next tier, and so its class (L: Left wins whoever
starts, R: Right wins whoever starts, N: the player to move wins, P: the
player to move loses).

summary.json gains start_outcome, start_remoteness, outcomes (positions by
class, counted as the census counts positions), outcomes_by_tier and
tablebase (see schema/COLUMNS.md); DIR/tablebase/ holds every stored
position's remoteness for census probe and census serve. A run solved
before the solve kept a tablebase is solved again to gain one.

Interrupted, the same command resumes from --data. A DIR that is no
finished run, a run that did not keep its positions, or a game this stage
cannot solve is refused (exit 2) and left untouched.`,
		Example: `  census run clobber 3x5 --solve --out results
  census run clobber 4x4 --keep-positions --out results
  census solve results/clobber-4x4`,
		Args: exactArgs(1, "DIR"),
		RunE: func(c *cobra.Command, args []string) error {
			return runSolve(c.Context(), f, args[0])
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.data, "data", "", "directory for the embedded NATS store (default DIR/.census-solve); the same command resumes from it")
	fl.BoolVar(&f.keepData, "keep-data", false, "keep the working data (and the outcome tables, under DIR) after the stage")
	registerJobs(fl, &f.workers, runtime.NumCPU(), "solve jobs to run at once")
	registerMemBudget(fl, &f.memBudget, "")
	registerMetricsFlag(fl, &f.metrics)
	fl.BoolVar(&f.json, "json", false, "print summary.json on standard output")
	fl.BoolVar(&f.quiet, "quiet", false, "print no progress")
	return c
}

func runSolve(ctx context.Context, f solveFlags, dir string) error {
	c := stageCmd{stage: coordinator.SolveStage, dir: dir, data: &f.data, defaultData: defaultSolveData, jobs: f.workers, json: f.json}
	return c.run(ctx, func(ctx context.Context) error {
		ms, err := startMetrics(f.metrics)
		if err != nil {
			return err
		}
		defer ms.stop()
		_, err = solveDir(ctx, f, dir, embedded.NewMetrics(ms.registerer()))
		return err
	})
}

// solveDir runs the solve stage of dir with its NATS data in f.data, its
// metrics in metrics when not nil, and removes the data once it is done
// unless f.keepData.
func solveDir(ctx context.Context, f solveFlags, dir string, metrics *embedded.Metrics) (*schema.Solved, error) {
	_, budget, err := memBudget(f.memBudget, f.workers)
	if err != nil {
		return nil, usageError{err}
	}
	began := time.Now()
	prog := newProgress(os.Stderr, f.quiet, nil)
	solved, err := embedded.RunSolve(ctx, embedded.SolveOptions{
		Dir: dir, Data: f.data, Workers: f.workers, MemBudget: budget, KeepData: f.keepData,
		Log: newLogger(f.quiet), Progress: prog.updateSolve, Metrics: metrics,
	})
	prog.done()
	if err := stageEnd(err, coordinator.SolveStage, "solve "+dir, f.data, f.keepData); err != nil {
		return nil, err
	}
	reportSolved(f.quiet, dir, began, solved)
	return solved, nil
}

// finishedCensus reads the summary of the finished census of run m in
// dir, whose solve is all that is left to do, and says so on standard
// error unless quiet: that the solve comes next, or that dir is solved
// already.
func finishedCensus(quiet bool, dir string, m schema.Manifest) (schema.Summary, error) {
	s, err := schema.ReadSummaryJSON(dir)
	if err != nil {
		return s, err
	}
	if !quiet {
		next := "going on to the solve"
		if s.Solved.HasTablebase() {
			next = "solved already"
		}
		fmt.Fprintf(os.Stderr, "census: %s holds the finished census of run %s, with its kept positions: %s\n", dir, m.Run, next)
	}
	return s, nil
}

// reportSolved says on standard error, unless quiet, that the solve stage
// begun at began solved dir, and what it found.
func reportSolved(quiet bool, dir string, began time.Time, solved *schema.Solved) {
	if !quiet {
		fmt.Fprintf(os.Stderr, "solved %s in %s: start %s, positions by class %v\n", dir, time.Since(began).Round(time.Millisecond), solved.StartOutcome, solved.Outcomes)
	}
}

// updateSolve shows the progress of a solve stage.
func (p *progress) updateSolve(sp coordinator.SolveProgress) {
	p.show(fmt.Sprintf("solve tier %d", sp.Tier), fmt.Sprintf("solve: tier %d, %d of %d tiers, %d of %d stored positions",
		sp.Tier, sp.TiersDone, sp.Tiers, sp.Positions, sp.Stored), func(width int) string {
		return drawBar(float64(sp.Positions)/float64(max(sp.Stored, 1)), width)
	})
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/store"
)

type runFlags struct {
	out       string
	data      string
	keepData  bool
	workers   int
	shards    int
	start     string
	json      bool
	quiet     bool
	memBudget string
}

func runCmd() *cobra.Command {
	var f runFlags
	c := &cobra.Command{
		Use:   "run GAME BOARD",
		Short: "Run a complete census of a game on a board",
		Long: `Run a complete census of GAME (clobber, domineering, amazons) on BOARD (ROWSxCOLS,
rows first, e.g. 4x4) and write the results under OUT/GAME-BOARD/:
summary.json, summary.parquet, tiers.parquet, pieces/part-*.parquet, and
run.json last, which marks the outputs complete.`,
		Example: `  census run clobber 4x4
  census run domineering 4x4 --out results --json
  census run amazons 3x4 --start 'o..x/..../....'`,
		Args: exactArgs(2, "GAME and BOARD"),
		RunE: func(c *cobra.Command, args []string) error {
			return runCensus(c.Context(), f, args[0], args[1])
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.out, "out", "census-out", "directory the outputs land in, under GAME-BOARD/")
	fl.StringVar(&f.data, "data", "", "directory for the run's working fragments (default OUT/.census-data)")
	fl.BoolVar(&f.keepData, "keep-data", false, "keep the working fragments after the run")
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), "jobs to run at once")
	fl.IntVar(&f.shards, "shards", 0, "shards per tier and per reduction (0 chooses from the tier sizes)")
	fl.StringVar(&f.start, "start", "", "start position as a board diagram, rows separated by '/' (default the game's standard start)")
	fl.BoolVar(&f.json, "json", false, "print summary.json on standard output")
	fl.BoolVar(&f.quiet, "quiet", false, "print no progress")
	fl.StringVar(&f.memBudget, "mem-budget", "", "memory one job may hold in buffers, e.g. 256MiB (default a share of physical memory)")
	return c
}

func runCensus(ctx context.Context, f runFlags, gameName, board string) error {
	g, err := all.New(gameName, board, f.start)
	if err != nil {
		return usageError{err}
	}
	if f.workers < 1 {
		return usagef("--workers %d: want at least 1", f.workers)
	}
	if f.shards < 0 || f.shards > 4096 {
		return usagef("--shards %d: want 0 (automatic) to 4096", f.shards)
	}
	budget, err := memBudget(f.memBudget, f.workers)
	if err != nil {
		return usageError{err}
	}
	outDir := coordinator.OutputDir(f.out, g.Name(), g.Board().String())
	if err := checkWritable(f.out); err != nil {
		return usagef("--out %s: %v", f.out, err)
	}
	dataDir := f.data
	if dataDir == "" {
		dataDir = filepath.Join(f.out, ".census-data")
	}
	st, err := store.NewDir(dataDir)
	if err != nil {
		return usagef("--data %s: %v", dataDir, err)
	}
	run := runID(g, f.start, f.shards)

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := newProgress(os.Stderr, f.quiet, g)
	defer prog.done()
	log := slog.New(slog.DiscardHandler)
	res, err := coordinator.Run(ctx, coordinator.Config{
		Game: gameName, Board: board, Start: f.start, Run: run,
		Shards: f.shards, Parallelism: f.workers, MemBudget: budget,
		Store: st, Exec: &coordinator.Local{Store: st, Workers: f.workers},
		Log: log, Progress: prog.update,
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted; nothing was written to %s", outDir)
		}
		return fmt.Errorf("census %s %s: %w", gameName, board, err)
	}
	if err := coordinator.WriteOutputs(ctx, st, res, run, version, outDir); err != nil {
		return err
	}
	if !f.keepData {
		if err := st.DeletePrefix(ctx, run+"/"); err != nil {
			return err
		}
		os.Remove(dataDir) // only if empty
	}
	prog.finish(res, outDir)
	if f.json {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res.Summary)
	}
	return nil
}

// runID names a run by what determines its outputs, so the same command
// names the same run.
func runID(g games.Game, start string, shards int) string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s|%d", start, shards)
	return fmt.Sprintf("%s-%s-%08x", g.Name(), g.Board(), h.Sum32())
}

// checkWritable creates dir if needed and checks a file can be made in it.
func checkWritable(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".census-probe-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

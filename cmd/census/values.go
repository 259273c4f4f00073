package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values"
)

// defaultValuesData is census values' --data under DIR.
const defaultValuesData = ".census-values"

type valuesFlags struct {
	data        string
	keepData    bool
	workers     int
	cap         int
	shardPieces int
	maxSize     int
	json        bool
	quiet       bool
	memBudget   string
}

func valuesCmd() *cobra.Command {
	var f valuesFlags
	c := &cobra.Command{
		Use:   "values DIR",
		Short: "Value every distinct live piece of a finished census run",
		Long: `Value every distinct live piece of the finished census run in DIR, the
directory census run wrote its outputs to (OUT/GAME-BOARD, the one that holds
run.json; not OUT). Pieces are valued bottom-up by size (stones for Clobber,
empty squares for Domineering and Amazons) as jobs on an embedded NATS server,
each job valuing a shard of one size from the values of the smaller ones.

Every row of DIR/pieces/part-*.parquet gains outcome (L, R, N, P), value (the
canonical form in CGSuite's notation, empty with value_capped true when its
form has more than --cap nodes or its string more than 4096 bytes),
value_nodes and cost; summary.json gains outcomes_translated,
outcomes_symmetric, distinct_values and values_capped (see schema/COLUMNS.md).

With --max-size N only the pieces of up to N stones or squares are valued:
the rows of larger pieces keep their value columns null, summary.json says
values_max_size N and counts the valued pieces only, with pieces_not_valued
the rest. Such a partial run keeps its working data in --data whatever
--keep-data says, and census values DIR later, with the same --data and
without --max-size (or with a larger one), extends it: the sizes already
valued are not valued again.

Interrupted, the same command resumes from --data. A DIR without run.json or
written by another schema version is refused (exit 2) and left untouched.`,
		Example: `  census run clobber 4x4 --out results
  census values results/clobber-4x4
  census values results/domineering-6x6 --max-size 20
  census values results/domineering-6x6`,
		Args: exactArgs(1, "DIR"),
		RunE: func(c *cobra.Command, args []string) error {
			return runValues(c.Context(), f, args[0])
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.data, "data", "", "directory for the embedded NATS store and the value tables (default DIR/.census-values); the same command resumes from it")
	fl.BoolVar(&f.keepData, "keep-data", false, "keep the working data after the stage (a partial stage, --max-size, keeps it anyway)")
	addValuesFlags(fl.IntVar, &f)
	registerJobs(fl, &f.workers, runtime.NumCPU(), "value jobs to run at once")
	fl.StringVar(&f.memBudget, "mem-budget", "", valuesMemUsage)
	fl.BoolVar(&f.json, "json", false, "print summary.json on standard output")
	fl.BoolVar(&f.quiet, "quiet", false, "print no progress")
	return c
}

// addValuesFlags registers the flags census values shares with census run.
func addValuesFlags(intVar func(*int, string, int, string), f *valuesFlags) {
	intVar(&f.cap, "cap", values.DefaultCap, "nodes of the largest canonical form kept; a larger one is capped, its outcome still exact")
	intVar(&f.shardPieces, "shard-pieces", coordinator.DefaultShardPieces, "pieces valued by one value job")
	intVar(&f.maxSize, "max-size", 0, "value only the pieces of up to this many stones (Clobber) or squares, leaving larger ones null for a later census values to extend (0: every size)")
}

func runValues(ctx context.Context, f valuesFlags, dir string) error {
	if err := checkValuesFlags(f); err != nil {
		return err
	}
	c := stageCmd{stage: coordinator.ValuesStage, dir: dir, data: &f.data, defaultData: defaultValuesData, jobs: f.workers, json: f.json}
	return c.run(ctx, func(ctx context.Context) error {
		total, _, err := memBudget(f.memBudget, f.workers)
		if err != nil {
			return usageError{err}
		}
		tuneValuesCollector(total)
		_, err = valueDir(ctx, f, dir)
		return err
	})
}

// valuesMemUsage says what --mem-budget means to census values.
const valuesMemUsage = "memory one value job may hold, e.g. 2GiB: the process's soft memory limit is --jobs times this, near which the collector works harder rather than let the heap grow (default a quarter of physical memory shared by the --jobs jobs, at most 2GiB a job)"

// tuneValuesCollector sets the collector of a process about to value
// pieces: Go's default target (a value job's heap is canonical forms full of
// pointers, which a collection scans, so the census's gcPercent would cost
// CPU) unless GOGC says otherwise, and a soft memory limit of limit bytes.
// Two value jobs at once each hold the values of every smaller piece (3.6
// GB between them at Clobber 4x5's sizes 14 and 15), and without a limit
// the collector lets the heap grow to twice that before it collects;
// docs/history/performance-rounds.md, "Clobber 4x5 valued".
func tuneValuesCollector(limit int64) {
	stopJobsCollector()
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
	if limit > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(limit)
	}
}

func checkValuesFlags(f valuesFlags) error {
	if f.cap < 1 {
		return usagef("--cap %d: want at least 1", f.cap)
	}
	if f.shardPieces < 1 {
		return usagef("--shard-pieces %d: want at least 1", f.shardPieces)
	}
	if f.maxSize < 0 {
		return usagef("--max-size %d: want 0 (every size) or a piece size", f.maxSize)
	}
	return nil
}

// valueDir runs the values stage of dir with its data in f.data, and
// removes the data once it is done unless f.keepData or the stage is
// partial (f.maxSize), whose data a later stage extends.
func valueDir(ctx context.Context, f valuesFlags, dir string) (*schema.Values, error) {
	began := time.Now()
	prog := newProgress(os.Stderr, f.quiet, nil)
	vals, err := embedded.RunValues(ctx, embedded.ValuesOptions{
		Dir: dir, Data: f.data, Workers: f.workers, Cap: f.cap, ShardPieces: f.shardPieces,
		KeepData: f.keepData, MaxSize: f.maxSize, Log: newLogger(f.quiet), Progress: prog.updateValues,
	})
	prog.done()
	if errors.Is(err, coordinator.ErrValuesClash) {
		return nil, usagef("values of %s: %v (run again with the same --cap and --shard-pieces, or remove %s to start afresh)", dir, err, f.data)
	}
	if err := stageEnd(err, coordinator.ValuesStage, "values of "+dir, f.data, f.keepData || (err == nil && vals.Partial())); err != nil {
		return nil, err
	}
	if !f.quiet {
		counts := *vals
		counts.Levels = nil
		data, _ := json.Marshal(counts)
		fmt.Fprintf(os.Stderr, "values of %s in %s: %s\n", dir, time.Since(began).Round(time.Millisecond), data)
		writeLevels(os.Stderr, vals.Levels)
		if vals.Partial() {
			writePartial(os.Stderr, vals, dir, f.data)
		}
	}
	return vals, nil
}

// writePartial says what a partial stage left without a value, and how to
// extend it from the data it kept.
func writePartial(w io.Writer, vals *schema.Values, dir, data string) {
	unit := sizeUnit("")
	if m, err := schema.ReadManifest(dir); err == nil {
		unit = sizeUnit(m.Game)
	}
	extend := "census values " + dir
	if data != filepath.Join(dir, defaultValuesData) {
		extend += " --data " + data
	}
	fmt.Fprintf(w, "partial: pieces of up to %d %s valued, %d larger pieces not valued; the working data stays in %s, and %s values the rest\n",
		vals.MaxSize, unit, vals.PiecesNotValued, data, extend)
}

// sizeUnit is what the size of a piece of game counts: stones for
// Clobber, squares otherwise.
func sizeUnit(game string) string {
	if game == "clobber" {
		return "stones"
	}
	return "squares"
}

// writeLevels prints what valuing cost by piece size, as summary.json's
// levels hold it.
func writeLevels(w io.Writer, levels []schema.ValueLevel) {
	if len(levels) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "size\tpieces\tjobs\twall s\tpieces/s\tCPU s\tload s\tcapped\tmean nodes\tmax nodes\t")
	for _, l := range levels {
		rate := 0.0
		if l.WallS > 0 {
			rate = float64(l.Pieces) / l.WallS
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.1f\t%.0f\t%.1f\t%.1f\t%d\t%.1f\t%d\t\n",
			l.Size, l.Pieces, l.Jobs, l.WallS, rate, l.CPUS, l.LoadS, l.Capped, l.MeanNodes, l.MaxNodes)
	}
	tw.Flush()
}

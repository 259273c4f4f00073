package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/report"
)

func reportCmd() *cobra.Command {
	var png bool
	c := &cobra.Command{
		Use:   "report DIR",
		Short: "Write an HTML report with charts of the census runs under a directory",
		Long: `Write DIR/report.html: one self-contained page (inline SVG charts, the font
embedded, no network needed) for every census run under DIR. A run is a
directory holding summary.json and tiers.parquet, as census run writes under
OUT/GAME-BOARD/, or summary.json and states.parquet for the census of a
loopy game (census run mutorere N); DIR itself may be one. Runs are ordered
by game, then board size.

For each run the page shows the start position, its numbers, and charts of
positions by tier, the share of split positions by tier, distinct live
pieces by size, the identification ladder with the factor between each
level, and, for Amazons, the edge-rule joins by tier. A run through the
values stage (census values) whose directory holds its pieces files adds
two charts from them: outcomes-by-size, the share of each size's distinct
translated live pieces in each outcome class (L, R, N, P), and
value-cost-by-size, the mean and greatest cost of valuing a piece of each
size. A solved run (census solve) adds outcomes-by-tier, the share of each
tier's positions in each outcome class. When DIR holds several
runs it adds a comparison table and the same charts with one line per run.
A Mū tōrere run shows its counts (arrangements, states, verdicts, the states
reachable from the start) and one chart, random-player: the chance that a
random player facing a perfect one has lost within k of its own moves, k =
1 to 100, as Black and as White.

With --png every chart is also written as a PNG file under DIR/report/:
RUN-CHART.png for a run's charts and all-CHART.png for the overlays, where
RUN is GAME-BOARD (with -2, -3 ... when runs share it) and CHART is one of
positions, split-share, pieces-by-size, ladder, edge-rule-joins,
outcomes-by-size, value-cost-by-size, outcomes-by-tier, random-player.`,
		Example: `  census run clobber 4x4 --out runs && census report runs
  census report results --png`,
		Args: exactArgs(1, "DIR"),
		RunE: func(c *cobra.Command, args []string) error {
			return writeReport(c, args[0], png)
		},
	}
	c.Flags().BoolVar(&png, "png", false, "also write every chart as a PNG file under DIR/report/")
	return c
}

func writeReport(c *cobra.Command, dir string, png bool) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return usagef("report %s: no such directory", dir)
	case err != nil:
		return usagef("report %s: %v", dir, err)
	case !fi.IsDir():
		return usagef("report %s: not a directory", dir)
	}
	out, err := report.Write(dir, report.Options{PNG: png, Version: version})
	if errors.Is(err, report.ErrNoRuns) {
		return usagef("report %s: no census run under it (no summary.json)", dir)
	}
	if err != nil {
		return fmt.Errorf("report %s: %w", dir, err)
	}
	fmt.Fprintf(c.OutOrStdout(), "wrote %s: %d run(s)", out.HTML, len(out.Runs))
	if png {
		fmt.Fprintf(c.OutOrStdout(), ", %d PNG file(s) under %s", len(out.PNGs), filepath.Join(dir, report.PNGDir))
	}
	fmt.Fprintln(c.OutOrStdout())
	return nil
}

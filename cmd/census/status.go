package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/runstate"
)

func statusCmd() *cobra.Command {
	var nf natsFlags
	var asJSON bool
	c := &cobra.Command{
		Use:   "status [RUN]",
		Short: "Show the runs on a NATS server and their progress",
		Example: `  census status --nats nats://10.0.0.1:4222
  census status --nats nats://10.0.0.1:4222 clobber-4x5-811c9dc5 --json`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("census status wants at most one RUN, got %q", args)
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			ctx := c.Context()
			conn, err := nf.connect(ctx, "census-status")
			if err != nil {
				return usageError{err}
			}
			defer conn.Close()
			runs, err := coordinator.ListRuns(ctx, conn)
			if err != nil {
				return err
			}
			if len(args) == 1 {
				var one []coordinator.RunInfo
				for _, r := range runs {
					if r.Run == args[0] {
						one = append(one, r)
					}
				}
				if len(one) == 0 {
					return usageError{fmt.Errorf("%w %q", coordinator.ErrUnknownRun, args[0])}
				}
				runs = one
			}
			if asJSON {
				enc := json.NewEncoder(c.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(runs)
			}
			printRuns(c.OutOrStdout(), runs)
			return nil
		},
	}
	nf.register(c.Flags())
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func printRuns(w io.Writer, runs []coordinator.RunInfo) {
	if len(runs) == 0 {
		fmt.Fprintln(w, "no runs")
		return
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].Run < runs[j].Run })
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tGAME\tBOARD\tSTATE\tSTAGE\tTIER\tPOSITIONS\tSTORE\tJOBS DONE\tPENDING\tFAILED\tCOORDINATOR")
	for _, r := range runs {
		state, stage := r.Status.State, r.Status.Stage
		tier := fmt.Sprintf("%d/%d", r.Status.Tier, r.Status.MaxTier)
		if r.Status.Stage != runstate.StageTier {
			tier = fmt.Sprintf("%d tiers", r.Status.Tier)
		}
		done, pending, failed := r.JobsDone, r.JobsPending, r.JobsFailed
		if s := solving(r); s != nil {
			state, stage, tier = s.Status.State, "solve", fmt.Sprintf("%d/%d solved", s.Status.TiersDone, s.Status.Tiers)
			done, pending, failed = s.Status.JobsDone, s.Status.JobsTotal-s.Status.JobsDone, s.JobsFailed
		}
		holder := r.Holder
		if holder == "" {
			holder = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%d\t%d\t%d\t%s\n", r.Run, r.Plan.Game, r.Plan.Board,
			state, stage, tier, r.Status.Positions, coordinator.ByteSize(r.Status.StoreBytes), done, pending, failed, holder)
	}
	tw.Flush()
	for _, r := range runs {
		if r.Status.Error != "" {
			fmt.Fprintf(w, "%s failed: %s\n", r.Run, strings.TrimSpace(r.Status.Error))
		}
		if s := solving(r); s != nil && s.Status.Error != "" {
			fmt.Fprintf(w, "%s: solve failed: %s\n", r.Run, strings.TrimSpace(s.Status.Error))
		}
	}
}

// solving is the solve stage status shows for the run r: its solve, once
// its census is finished (or when the server holds the solve alone); nil
// while the census runs or failed, or when it has no solve.
func solving(r coordinator.RunInfo) *coordinator.SolveInfo {
	if r.Solve == nil || r.Status.State == runstate.StateRunning || r.Status.State == runstate.StateFailed {
		return nil
	}
	return r.Solve
}

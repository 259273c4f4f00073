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
		tier := fmt.Sprintf("%d/%d", r.Status.Tier, r.Status.MaxTier)
		if r.Status.Stage != runstate.StageTier {
			tier = fmt.Sprintf("%d tiers", r.Status.Tier)
		}
		holder := r.Holder
		if holder == "" {
			holder = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%d\t%d\t%d\t%s\n", r.Run, r.Plan.Game, r.Plan.Board,
			r.Status.State, r.Status.Stage, tier, r.Status.Positions, coordinator.ByteSize(r.Status.StoreBytes), r.JobsDone, r.JobsPending, r.JobsFailed, holder)
	}
	tw.Flush()
	for _, r := range runs {
		if r.Status.Error != "" {
			fmt.Fprintf(w, "%s failed: %s\n", r.Run, strings.TrimSpace(r.Status.Error))
		}
	}
}

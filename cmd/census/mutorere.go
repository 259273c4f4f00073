package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/games/mutorere"
	"github.com/census-cgt/census/loopy"
	"github.com/census-cgt/census/retro"
	"github.com/census-cgt/census/schema"
)

// mutorereGame is Mū tōrere's name on the command line. Its census is not
// tiered (positions recur): it runs in memory by retrograde analysis, with
// no NATS and no workers.
const mutorereGame = "mutorere"

// maxMutorerePoints is the largest star `census run mutorere` takes: the
// 22-point star (16.2 million arrangements, 32.4 million states) takes
// about two minutes of CPU and 770 MiB (docs/retrograde.md); the 24-point
// star would take about four times that, more than a census machine
// should give one in-memory command.
const maxMutorerePoints = 22

// mutorereFlagNames are the run flags that apply to mutorere; any other one
// set on the command line is a usage error.
var mutorereFlagNames = []string{"out", "json", "quiet", "cpuprofile", "variant", "tie-break"}

const mutorereHelp = `

GAME mutorere is Mū tōrere, a loopy game (positions recur), solved by
retrograde analysis in memory, with no NATS: its state space is small.
BOARD is the number of points of the star, an even number from 4 to 22 (8
is the game; 6, 10, 12 are its relatives). It writes OUT/mutorere-N/ (with
--variant free-centre, OUT/mutorere-N-free-centre/): states.parquet (every
state: arrangement, mover, verdict, remoteness, reachable, first_reached,
legal_moves, losing_moves), summary.json, and run.json last. Of the flags
only --out, --json, --quiet, --cpuprofile, --variant and --tie-break apply.`

// mutorereFlags are the flags of `census run` that only mutorere takes.
type mutorereFlags struct {
	variant  string
	tieBreak string
}

// addMutorereFlags registers mutorere's flags and help on the run command.
func addMutorereFlags(c *cobra.Command) *mutorereFlags {
	var mf mutorereFlags
	c.Flags().StringVar(&mf.variant, "variant", "classic", "mutorere only: the rules, classic or free-centre (no clause: any counter may enter the empty centre)")
	c.Flags().StringVar(&mf.tieBreak, "tie-break", "uniform", "mutorere only: how the perfect player facing the random player chooses among equally good moves, uniform or first (first in the order of the moves)")
	c.Long += mutorereHelp
	c.Example += "\n  census run mutorere 8 --out results\n  census run mutorere 8 --variant free-centre"
	return &mf
}

// dispatchMutorere runs the census when GAME is mutorere and reports that it
// did; for another game it refuses the flags only mutorere takes.
func dispatchMutorere(c *cobra.Command, f runFlags, mf *mutorereFlags, args []string) (bool, error) {
	if args[0] != mutorereGame {
		for _, name := range []string{"variant", "tie-break"} {
			if c.Flags().Changed(name) {
				return true, usagef("--%s is for mutorere only, not %q", name, args[0])
			}
		}
		return false, nil
	}
	var bad error
	c.Flags().Visit(func(fl *pflag.Flag) {
		if bad == nil && !slices.Contains(mutorereFlagNames, fl.Name) {
			bad = usagef("--%s does not apply to mutorere", fl.Name)
		}
	})
	if bad != nil {
		return true, bad
	}
	return true, runMutorere(c.Context(), f, *mf, args[1])
}

// mutorereRun is one mutorere census as the command line asks for it.
type mutorereRun struct {
	rules   *mutorere.Rules
	points  int
	variant mutorere.Variant
	tie     retro.TieBreak
	dir     string
}

func parseMutorere(f runFlags, mf mutorereFlags, board string) (*mutorereRun, error) {
	points, err := strconv.Atoi(board)
	if err != nil || points < 4 || points > maxMutorerePoints || points%2 != 0 {
		return nil, usagef("mutorere %s: BOARD is the number of points of the star, an even number from 4 to %d", board, maxMutorerePoints)
	}
	v, ok := mutorere.Variants[mf.variant]
	if !ok {
		return nil, usagef("--variant %s: want classic or free-centre", mf.variant)
	}
	var tie retro.TieBreak
	switch mf.tieBreak {
	case "uniform":
		tie = retro.TieUniform
	case "first":
		tie = retro.TieFirst
	default:
		return nil, usagef("--tie-break %s: want uniform or first", mf.tieBreak)
	}
	rules, err := mutorere.New(points, v)
	if err != nil {
		return nil, usageError{err}
	}
	return &mutorereRun{rules: rules, points: points, variant: v, tie: tie,
		dir: coordinator.OutputDir(f.out, mutorereGame, mutorereBoard(points, v))}, nil
}

// mutorereBoard names the board in the output directory and the summary:
// the points, and the variant unless classic.
func mutorereBoard(points int, v mutorere.Variant) string {
	if v == mutorere.Classic {
		return strconv.Itoa(points)
	}
	return strconv.Itoa(points) + "-" + v.String()
}

func runMutorere(ctx context.Context, f runFlags, mf mutorereFlags, board string) error {
	m, err := parseMutorere(f, mf, board)
	if err != nil {
		return err
	}
	if err := checkWritable(f.out); err != nil {
		return usagef("--out %s: %v", f.out, err)
	}
	if f.profile != "" {
		stop, err := startProfile(f.profile)
		if err != nil {
			return usagef("--cpuprofile %s: %v", f.profile, err)
		}
		defer stop()
	}
	began := time.Now()
	name := mutorereBoard(m.points, m.variant)
	c, err := loopy.Run(ctx, m.rules, loopy.Options{Game: mutorereGame, Board: name,
		Variant: m.variant.String(), TieBreak: m.tie})
	if err != nil {
		return fmt.Errorf("census mutorere %s: %w", board, err)
	}
	solved := time.Since(began)
	if err := writeMutorere(m.dir, c, m.rules.String(m.rules.Start())); err != nil {
		return fmt.Errorf("census mutorere %s: %w", board, err)
	}
	if !f.quiet {
		s := c.Summary
		fmt.Fprintf(os.Stderr, "mutorere %s: %d states solved in %s, %d reachable, start %s; outputs in %s (%s in all)\n",
			name, s.States, solved.Round(time.Millisecond), s.ReachableStates, s.StartVerdict, m.dir, time.Since(began).Round(time.Millisecond))
	}
	if f.json {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(c.Summary)
	}
	return nil
}

// writeMutorere writes states.parquet, summary.json and run.json last, each
// atomically, after removing an earlier run.json so that the directory
// never looks complete while it is being written.
func writeMutorere(dir string, c *loopy.Census, start string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	manifest := filepath.Join(dir, schema.ManifestFile)
	if err := os.Remove(manifest); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove old manifest: %w", err)
	}
	s := c.Summary
	m := schema.Manifest{SchemaVersion: schema.Version, Census: version,
		Run: strings.Join([]string{s.Game, s.Board}, "-"), Game: s.Game, Board: s.Board, Start: start}
	for _, out := range []struct {
		name  string
		write func(io.Writer) error
	}{
		{schema.StatesFile, c.WriteStates},
		{schema.SummaryJSONFile, func(w io.Writer) error {
			data, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				return err
			}
			_, err = w.Write(append(data, '\n'))
			return err
		}},
	} {
		p := filepath.Join(dir, out.name)
		if err := schema.WriteFileAtomic(p, out.write); err != nil {
			return err
		}
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		m.Files = append(m.Files, schema.OutputFile{Path: out.name, Bytes: fi.Size()})
	}
	if err := schema.WriteJSONAtomic(manifest, m); err != nil {
		return fmt.Errorf("write %s: %w", manifest, err)
	}
	return nil
}

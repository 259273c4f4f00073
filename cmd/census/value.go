package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values"
)

type valueFlags struct {
	file string
	json bool
}

func valueCmd() *cobra.Command {
	var f valueFlags
	c := &cobra.Command{
		Use:   "value DIR [DIAGRAM...]",
		Short: "Print the value and outcome class of positions of a valued run's board",
		Long: `Print the value and outcome class of each position given, a board diagram of
the run in DIR (OUT/GAME-BOARD of a run valued by census values or census run
--values): rows top to bottom separated by '/', in the characters of the
run's start ("x", "o" and "." for Clobber). The position is split into its
pieces, each piece is looked up in the run's pieces table (read once) and
their canonical forms are added.

Diagrams come from the arguments, or with --file F one a line from F ("-"
for standard input; blank lines and lines starting with '#' are skipped).
Each answer is one line: the diagram, the outcome class (L: Left wins
whoever starts, R, N: the first player wins, P: the second; "?" when it is
not decided) and the value in CGSuite's notation (see schema/COLUMNS.md).
A piece whose form is capped is written capped(PICTURE) and one not in the
pieces table (it occurs in no position the census reached) missing(PICTURE)
in the value; the outcome is still given when the other pieces decide it
(every other piece 0, or all of one sign). With --json each answer is a
JSON object on a line of its own.

DIR may be a partial values run (census values --max-size N): a piece
larger than N, left without a value, is written unvalued(PICTURE) in the
value and, like a missing piece, leaves the outcome undecided. The answers
then start with a line "# partial values run: ..." saying N, and with
--json each object has "values_max_size": N.

A DIR that is not a valued run, or a malformed diagram, is refused (exit 2)
naming it, before any answer is printed.`,
		Example: `  census run clobber 3x4 --values --out results
  census value results/clobber-3x4 xo.x/oxox/.o.o
  census value results/clobber-3x4 --json --file positions.txt`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) < 1 {
				return usagef("%s wants DIR and diagrams, got no arguments", c.CommandPath())
			}
			if len(args) == 1 && f.file == "" {
				return usagef("%s wants diagrams after DIR, or --file F", c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return runValue(f, args[0], args[1:], c.InOrStdin(), c.OutOrStdout())
		},
	}
	c.Flags().StringVar(&f.file, "file", "", `read diagrams from this file, one a line ("-" for standard input)`)
	c.Flags().BoolVar(&f.json, "json", false, "print each answer as a JSON object on a line")
	return c
}

// valueAnswer is one answer as --json prints it.
type valueAnswer struct {
	Diagram string `json:"diagram"`
	// Outcome is L, R, N or P, or null when it is not decided.
	Outcome *string `json:"outcome"`
	// Value is the canonical form, or null when a piece is capped,
	// missing or not valued.
	Value *string `json:"value"`
	// Known is the sum of the pieces with a form.
	Known   string   `json:"known"`
	Capped  []string `json:"capped"`
	Missing []string `json:"missing"`
	// NotValued are the pieces larger than a partial run's
	// values_max_size.
	NotValued []string `json:"not_valued"`
	// MaxSize is the run's values_max_size, only in a partial run.
	MaxSize int `json:"values_max_size,omitempty"`
}

func runValue(f valueFlags, dir string, diagrams []string, stdin io.Reader, stdout io.Writer) error {
	if _, err := schema.ReadManifest(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return usagef("DIR %s: not the outputs of a finished census run (no %s); DIR is OUT/GAME-BOARD", dir, schema.ManifestFile)
		}
		return usagef("DIR %s: %v", dir, err)
	}
	var lines *bufio.Scanner
	if f.file != "" {
		r := stdin
		if f.file != "-" {
			file, err := os.Open(f.file)
			if err != nil {
				return usagef("--file %s: %v", f.file, err)
			}
			defer file.Close()
			r = file
		}
		lines = bufio.NewScanner(r)
		lines.Buffer(nil, 1<<20)
	}
	x, err := values.LoadIndex(dir)
	if errors.Is(err, values.ErrNotValued) {
		return usagef("DIR %s: %v", dir, err)
	}
	if err != nil {
		return err
	}
	if lines != nil {
		for lines.Scan() {
			if d := strings.TrimSpace(lines.Text()); d != "" && !strings.HasPrefix(d, "#") {
				diagrams = append(diagrams, d)
			}
		}
		if err := lines.Err(); err != nil {
			return fmt.Errorf("read diagrams from %s: %w", f.file, err)
		}
	}
	// Every diagram is read before any answer is written, so that a bad
	// one leaves nothing partial.
	positions := make([]uint64, len(diagrams))
	for i, d := range diagrams {
		if positions[i], err = x.Position(d); err != nil {
			return usagef("DIAGRAM %v", err)
		}
	}
	w := bufio.NewWriter(stdout)
	if x.MaxSize() > 0 && !f.json {
		fmt.Fprintf(w, "# partial values run: pieces of up to %d %s valued; unvalued(PICTURE) is a larger piece, not valued\n",
			x.MaxSize(), sizeUnit(x.Game().Name()))
	}
	for i, d := range diagrams {
		if err := writeAnswer(w, x, d, x.Value(positions[i]), f.json); err != nil {
			return err
		}
	}
	return w.Flush()
}

func writeAnswer(w io.Writer, x *values.Index, diagram string, a values.Answer, asJSON bool) error {
	outcome := "?"
	if a.Outcome != 0 {
		outcome = a.Outcome.String()
	}
	if !asJSON {
		_, err := fmt.Fprintf(w, "%s\t%s\t%s\n", diagram, outcome, x.String(a))
		return err
	}
	j := valueAnswer{
		Diagram: diagram, Known: x.Table().String(a.Sum),
		Capped: pictures(x, a.Capped), Missing: pictures(x, a.Missing), NotValued: pictures(x, a.NotValued),
		MaxSize: x.MaxSize(),
	}
	if a.Outcome != 0 {
		j.Outcome = &outcome
	}
	if a.Complete() {
		j.Value = &j.Known
	}
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

func pictures(x *values.Index, keys []games.PieceKey) []string {
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, x.Game().Picture(k))
	}
	return out
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/konane"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values/konanecensus"
)

// konaneGame is the name `census run` knows Kōnane by.
const konaneGame = "konane"

// konaneFlags are the run command's flags that only Kōnane reads.
type konaneFlags struct {
	all    bool
	values bool
}

// addKonaneFlags registers Kōnane's flags on the run command and adds
// Kōnane to its help.
func addKonaneFlags(c *cobra.Command, f *konaneFlags) {
	c.Flags().BoolVar(&f.all, "all-arrangements", false, "konane 1xN: value every arrangement of the row")
	c.Long += `

census run konane 1xN --all-arrangements values every one of the 3^N rows of
N Kōnane squares (each empty, Black or White; N from 1 to ` + fmt.Sprint(konanecensus.MaxLen) + `) as a
canonical short game and writes OUT/konane-1xN/summary.json (arrangements,
outcomes by class L/R/N/P, distinct_values, and every value with its count,
the most frequent first), then run.json, which marks the outputs complete.
census run konane RxC (2 or more rows, at most 64 squares) solves the usual
openings of the full checkerboard (Black, on the top-left corner's colour,
empties a corner or a middle square, White a square next to it) and writes
each opening's outcome class, and with --values its canonical value, to
OUT/konane-RxC/summary.json. Boards whose solution needs more than
` + fmt.Sprint(konanecensus.DefaultMaxPositions) + ` positions in memory (6x6, and 5x5 with --values) stop with an error.`
	c.Example += `
  census run konane 1x8 --all-arrangements --out results
  census run konane 4x4 --values`
}

// isKonaneRun reports whether a run command is a Kōnane census.
func isKonaneRun(game string, f konaneFlags) bool { return game == konaneGame || f.all }

// konaneSummary is summary.json of a Kōnane row census.
type konaneSummary struct {
	SchemaVersion int    `json:"schema_version"`
	Game          string `json:"game"`
	Board         string `json:"board"`
	*konanecensus.Census
}

// runKonane counts the values of every arrangement of a Kōnane row and
// writes summary.json and run.json under OUT/konane-1xN/.
func runKonane(ctx context.Context, f runFlags, kf konaneFlags, gameName, board string) error {
	if gameName != konaneGame {
		return usagef("--all-arrangements: only %s values every arrangement, not %q", konaneGame, gameName)
	}
	if f.start != "" {
		return usagef("--start %q: %s takes no start (rows: every arrangement; boards: the usual openings)", f.start, konaneGame)
	}
	rows, cols, err := games.ParseBoard(board)
	if err != nil {
		return usageError{err}
	}
	if rows > 1 {
		return runKonaneOpenings(ctx, f, kf, gameName, board, rows, cols)
	}
	if !kf.all {
		return usagef("%s %s: want --all-arrangements (a row has no usual opening; its census values every arrangement)", gameName, board)
	}
	if kf.values {
		return usagef("--values: %s %s values every row already; --values is for the openings of boards of 2 or more rows", gameName, board)
	}
	if cols > konanecensus.MaxLen {
		return usagef("%s %s: a row of %d squares is too long; want 1 to %d", gameName, board, cols, konanecensus.MaxLen)
	}
	if err := checkWritable(f.out); err != nil {
		return usagef("--out %s: %v", f.out, err)
	}
	c, err := konanecensus.Count(ctx, cols)
	if err != nil {
		return fmt.Errorf("census %s %s: %w", gameName, board, err)
	}
	sum := konaneSummary{SchemaVersion: schema.Version, Game: gameName, Board: board, Census: c}
	dir := coordinator.OutputDir(f.out, gameName, board)
	if err := writeKonane(dir, gameName, board, "all-arrangements", sum); err != nil {
		return fmt.Errorf("census %s %s: %w", gameName, board, err)
	}
	if f.json {
		return printKonaneJSON(sum)
	}
	if !f.quiet {
		fmt.Printf("%s %s: %d arrangements; outcomes L %d, R %d, N %d, P %d; %d distinct values; written to %s\n",
			gameName, board, c.Arrangements, c.Outcomes["L"], c.Outcomes["R"], c.Outcomes["N"], c.Outcomes["P"], c.DistinctValues, dir)
	}
	return nil
}

// konaneBoardSummary is summary.json of a census of a board's openings.
type konaneBoardSummary struct {
	SchemaVersion int    `json:"schema_version"`
	Game          string `json:"game"`
	*konanecensus.BoardCensus
}

// runKonaneOpenings solves the usual openings of a board of two or more
// rows and writes summary.json and run.json under OUT/konane-RxC/.
func runKonaneOpenings(ctx context.Context, f runFlags, kf konaneFlags, gameName, board string, rows, cols int) error {
	if kf.all {
		return usagef("--all-arrangements: %s %s has %d squares; only rows (1xN) are counted by arrangement", gameName, board, rows*cols)
	}
	if rows*cols > konane.MaxSquares {
		return usagef("%s %s: %d squares; want at most %d", gameName, board, rows*cols, konane.MaxSquares)
	}
	if err := checkWritable(f.out); err != nil {
		return usagef("--out %s: %v", f.out, err)
	}
	c, err := konanecensus.CountOpenings(ctx, rows, cols, konanecensus.OpeningsOptions{Values: kf.values})
	if err != nil {
		return fmt.Errorf("census %s %s: %w", gameName, board, err)
	}
	sum := konaneBoardSummary{SchemaVersion: schema.Version, Game: gameName, BoardCensus: c}
	dir := coordinator.OutputDir(f.out, gameName, board)
	if err := writeKonane(dir, gameName, board, "openings", sum); err != nil {
		return fmt.Errorf("census %s %s: %w", gameName, board, err)
	}
	if f.json {
		return printKonaneJSON(sum)
	}
	if !f.quiet {
		fmt.Printf("%s %s: %d openings by %s; outcomes L %d, R %d, N %d, P %d; Black, jumping first, wins %d; %d positions; written to %s\n",
			gameName, board, c.Openings, c.Method, c.Outcomes["L"], c.Outcomes["R"], c.Outcomes["N"], c.Outcomes["P"], c.BlackWins, c.Positions, dir)
	}
	return nil
}

func printKonaneJSON(v any) error {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeKonane writes summary.json and then run.json into dir, removing an
// earlier run.json first so that the directory never looks complete while
// it is being written.
func writeKonane(dir, game, board, start string, sum any) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	manifest := filepath.Join(dir, schema.ManifestFile)
	if err := os.Remove(manifest); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove old manifest: %w", err)
	}
	p := filepath.Join(dir, schema.SummaryJSONFile)
	if err := schema.WriteJSONAtomic(p, sum); err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	m := schema.Manifest{SchemaVersion: schema.Version, Census: version,
		Run: game + "-" + board + "-" + start, Game: game, Board: board,
		Start: start, Files: []schema.OutputFile{{Path: schema.SummaryJSONFile, Bytes: fi.Size()}}}
	if err := schema.WriteJSONAtomic(manifest, m); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return nil
}

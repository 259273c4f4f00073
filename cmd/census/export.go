package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/schema"
)

// Export formats.
const (
	formatCGSuite = "cgsuite"
	formatList    = "list"
)

// exportLevel is a level of identification the pieces can be exported at:
// which key of a pieces row stands for its piece at that level.
type exportLevel struct {
	name string
	// summaryKey is the key of summary.json that counts the level.
	summaryKey string
	// what says in the header which pieces the file holds.
	what string
	key  func(p schema.Piece) games.PieceKey
}

var exportLevels = []exportLevel{
	{"translated", "pieces_translated", "Every distinct translated live piece, one per row of the pieces table",
		func(p schema.Piece) games.PieceKey { return games.PieceKey{Hi: p.KeyHi, Lo: p.KeyLo} }},
	{"symmetric", "pieces_symmetric", "One piece per class under the game's symmetries, drawn by the class's least key",
		func(p schema.Piece) games.PieceKey { return games.PieceKey{Hi: p.SymmetricHi, Lo: p.SymmetricLo} }},
	{"negation", "pieces_negation", "One piece per class under the symmetries and negation, drawn by the class's\nleast key, which may be the negative of the pieces that occurred",
		func(p schema.Piece) games.PieceKey { return games.PieceKey{Hi: p.NegationHi, Lo: p.NegationLo} }},
}

type exportFlags struct {
	format, level, out string
	values             bool
}

// exportPiece is one exported piece: its key at the level and, with
// --values, its outcome class and canonical form ("" when capped), both
// "" when a partial values run left it unvalued.
type exportPiece struct {
	key            games.PieceKey
	outcome, value string
}

// unvalued tells whether a partial values run left p without a value.
func (p exportPiece) unvalued() bool { return p.outcome == "" }

func exportCmd() *cobra.Command {
	var f exportFlags
	c := &cobra.Command{
		Use:   "export DIR",
		Short: "Write the pieces of a finished run as CGSuite positions or grid strings",
		Long: `Export the distinct live pieces of the census run whose outputs are in DIR
(OUT/GAME-BOARD, as written by census run; run.json must be there) at one
level of identification, in key order:

  translated  every row of the pieces table (summary.json pieces_translated)
  symmetric   one piece per class under the game's symmetries, drawn by the
              class's least key (pieces_symmetric)
  negation    one piece per class under the symmetries and negation, drawn by
              the class's least key, which may be the negative of the pieces
              that occurred (pieces_negation)

Each piece is a CGSuite grid string (the pieces table's picture with '|' for
'/'): rows separated by '|', in the characters of the game's CGSuite ruleset
(game.grid.Clobber ".xo", game.grid.Domineering ".#", game.grid.Amazons
".xo#"); a cell of the bounding box outside the piece is '.' for Clobber and
'#' for Domineering and Amazons.

--format cgsuite writes a CGSuite 2 script: a comment header (game, board,
level, count, census versions) and one statement assigning the list of
positions to the variable pieces:

  pieces := [
    game.grid.Clobber("xo"),
    game.grid.Clobber("x.|ox")
  ];

Save it in the CGSuite user folder as NAME.cgs, NAME a CGScript identifier
(e.g. clobber3x4), and enter NAME() on the Worksheet: the script runs and
pieces holds the positions. --format list writes one grid string per line and
nothing else, for other tools.

--values adds what census values found for each piece (the run must be
valued: census values DIR, or census run --values): --format list writes
GRID, the outcome class (L, R, N or P) and the canonical form in CGSuite's
notation on each line, separated by tabs; --format cgsuite adds two lists of
strings, in the order of pieces:

  outcomes := ["N", "L"];
  values := ["*", "^"];

so that pieces[i].CanonicalForm can be checked against values[i] in CGSuite.
A value over the values stage's cap is the empty string; its outcome class
is still exact. At the negation level a class drawn by the negative of the
pieces that occurred gets the negated value and the outcome with L and R
swapped. A partial values run (census values --max-size N) left the pieces
larger than N without a value: they are exported all the same, so that the
count stays the level's, with their outcome and value empty in --format
list (the grid string and two tabs) and nil in the script's lists, whose
header says N.

The output goes to standard output, or to --out FILE (written whole or not at
all).`,
		Example: `  census export census-out/clobber-3x4 --level symmetric --out ~/CGSuite/clobber3x4.cgs
  census export census-out/domineering-4x4 --format list --level negation
  census export census-out/clobber-3x4 --values --format list`,
		Args: exactArgs(1, "DIR, the output directory of one run (OUT/GAME-BOARD)"),
		RunE: func(c *cobra.Command, args []string) error {
			return runExport(c.OutOrStdout(), f, args[0])
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.format, "format", formatCGSuite, "cgsuite (a CGSuite script) or list (one grid string per line)")
	fl.StringVar(&f.level, "level", "symmetric", "translated, symmetric or negation")
	fl.StringVar(&f.out, "out", "", "file to write (default standard output)")
	fl.BoolVar(&f.values, "values", false, "add each piece's outcome class and canonical form (a valued run only; a partial one leaves larger pieces empty)")
	return c
}

func runExport(stdout io.Writer, f exportFlags, dir string) error {
	if f.format != formatCGSuite && f.format != formatList {
		return usagef("--format %q: want %s or %s", f.format, formatCGSuite, formatList)
	}
	i := slices.IndexFunc(exportLevels, func(l exportLevel) bool { return l.name == f.level })
	if i < 0 {
		return usagef("--level %q: want translated, symmetric or negation", f.level)
	}
	level := exportLevels[i]
	if f.out != "" {
		if fi, err := os.Stat(filepath.Dir(f.out)); err != nil || !fi.IsDir() {
			return usagef("--out %s: directory %s does not exist", f.out, filepath.Dir(f.out))
		}
	}
	m, err := readManifest(dir)
	if err != nil {
		return err
	}
	g, err := all.New(m.Game, m.Board, m.Start)
	if err != nil {
		return usagef("%s: run.json: %v", dir, err)
	}
	var vals *schema.Values
	if f.values {
		if vals, err = readValues(dir); err != nil {
			return err
		}
	}
	pieces, err := exportPieces(dir, m, level, vals)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if f.format == formatList {
			for _, p := range pieces {
				if f.values {
					fmt.Fprintf(bw, "%s\t%s\t%s\n", g.CGSuite(p.key), p.outcome, p.value)
				} else {
					fmt.Fprintln(bw, g.CGSuite(p.key))
				}
			}
		} else if err := writeCGSuiteScript(bw, g, m, level, pieces, vals); err != nil {
			return err
		}
		return bw.Flush()
	}
	if f.out == "" {
		return write(stdout)
	}
	if err := schema.WriteFileAtomic(f.out, write); err != nil {
		return fmt.Errorf("export to %s: %w", f.out, err)
	}
	return nil
}

// readManifest reads DIR/run.json, which marks DIR as the outputs of a
// finished run. Every failure is a usage error naming DIR.
func readManifest(dir string) (schema.Manifest, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return schema.Manifest{}, usagef("DIR %s: not a directory", dir)
	}
	m, err := schema.ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return m, usagef("DIR %s has no %s: not the outputs of a finished census run (OUT/GAME-BOARD)", dir, schema.ManifestFile)
	}
	if err != nil {
		return m, usagef("DIR %s: %v", dir, err)
	}
	return m, nil
}

// readValues reads what the values stage wrote into the summary of the run
// in dir. A run not valued, or without a readable summary.json, is a usage
// error naming it.
func readValues(dir string) (*schema.Values, error) {
	s, err := schema.ReadSummaryJSON(dir)
	if err != nil {
		return nil, usagef("--values: DIR %s: %v", dir, err)
	}
	if s.Values == nil {
		return nil, usagef("--values: %s is not valued (run census values %s first)", dir, dir)
	}
	return s.Values, nil
}

// exportPieces reads every pieces part of the run in dir and returns the
// distinct pieces at level, in key order, with their values when vals
// (the run's, from its summary) is not nil; a piece a partial run left
// without a value has none. A part of another table version, game or
// board, and with vals a piece without a value that vals says was valued,
// is a usage error naming it.
func exportPieces(dir string, m schema.Manifest, level exportLevel, vals *schema.Values) ([]exportPiece, error) {
	values := vals != nil
	parts, err := schema.PiecesParts(dir)
	if err != nil {
		return nil, err
	}
	var pieces []exportPiece
	for _, part := range parts {
		err := schema.ScanPiecesFile(part, func(p schema.Piece) error {
			if p.Game != m.Game || p.Board != m.Board {
				return usagef("%s holds %s %s, run.json says %s %s", part, p.Game, p.Board, m.Game, m.Board)
			}
			e := exportPiece{key: level.key(p)}
			if values {
				switch {
				case !p.Valued && vals.LeftUnvalued(int(p.Size)):
					pieces = append(pieces, e)
					return nil
				case !p.Valued:
					return usagef("--values: %s is not valued (run census values %s first)", part, dir)
				}
				e.outcome, e.value = p.Outcome, p.Value
				if level.name == "negation" && e.key != (games.PieceKey{Hi: p.SymmetricHi, Lo: p.SymmetricLo}) {
					// The class is drawn by the negative of this piece.
					if e.outcome, e.value, err = negateValue(p.Outcome, p.Value); err != nil {
						return fmt.Errorf("%s: piece %s: %w", part, p.Picture, err)
					}
				}
			}
			pieces = append(pieces, e)
			return nil
		})
		var u usageError
		switch {
		case errors.As(err, &u):
			return nil, u
		case errors.Is(err, schema.ErrWrongTable):
			return nil, usageError{err}
		case err != nil:
			return nil, err
		}
	}
	slices.SortFunc(pieces, func(a, b exportPiece) int { return a.key.Compare(b.key) })
	out := pieces[:0]
	for i, p := range pieces {
		if i > 0 && p.key == out[len(out)-1].key {
			if q := out[len(out)-1]; values && (q.outcome != p.outcome || q.value != p.value) {
				return nil, fmt.Errorf("%s: the pieces of one %s class have values %s (%s) and %s (%s)", dir, level.name, q.value, q.outcome, p.value, p.outcome)
			}
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// negateValue is the outcome class and canonical form of the negative of a
// piece of the given outcome and form ("" when capped).
func negateValue(outcome, value string) (string, string, error) {
	neg := map[string]string{"L": "R", "R": "L", "N": "N", "P": "P"}[outcome]
	if neg == "" {
		return "", "", fmt.Errorf("outcome class %q", outcome)
	}
	if value == "" {
		return neg, "", nil
	}
	t := cgt.NewTable()
	g, err := t.Parse(value)
	if err != nil {
		return "", "", fmt.Errorf("value %q: %w", value, err)
	}
	return neg, t.String(t.Neg(g)), nil
}

// writeCGSuiteScript writes pieces as a CGSuite script that assigns the list
// of their positions to the variable pieces and, with vals (the run's
// values, nil without --values), their outcome classes and canonical forms
// to the lists of strings outcomes and values, nil for a piece a partial
// run left unvalued.
func writeCGSuiteScript(w io.Writer, g games.Game, m schema.Manifest, level exportLevel, pieces []exportPiece, vals *schema.Values) error {
	ruleset, err := all.CGSuiteRuleset(g.Name())
	if err != nil {
		return err
	}
	header := []string{
		fmt.Sprintf("census export: %s %s, level %s, %d pieces (summary.json %s)", m.Game, m.Board, level.name, len(pieces), level.summaryKey),
		level.what + ", in key order.",
		fmt.Sprintf("Run %s from start %s, computed by census %s; exported by census %s.", m.Run, m.Start, m.Census, version),
		"To load in CGSuite 2, save this file in the CGSuite user folder as NAME.cgs,",
		"NAME a CGScript identifier, and enter NAME() on the Worksheet: the variable",
		"pieces then holds the list of positions.",
	}
	if vals != nil {
		header = append(header,
			"outcomes[i] is the outcome class of pieces[i] (L, R, N or P) and values[i]",
			"its canonical form in CGSuite's notation, as a string (\"\" when it was over",
			"the values stage's cap; the outcome class is exact all the same).")
	}
	if vals.Partial() {
		header = append(header, fmt.Sprintf(
			"A partial values run: only pieces of up to %d %s were valued; both are nil\nfor a larger piece (summary.json values_max_size, pieces_not_valued).",
			vals.MaxSize, sizeUnit(g.Name())))
	}
	for _, h := range strings.Split(strings.Join(header, "\n"), "\n") {
		fmt.Fprintf(w, "// %s\n", h)
	}
	list := func(name string, item func(p exportPiece) string) {
		fmt.Fprintf(w, "%s := [\n", name)
		for i, p := range pieces {
			sep := ","
			if i == len(pieces)-1 {
				sep = ""
			}
			fmt.Fprintf(w, "  %s%s\n", item(p), sep)
		}
		fmt.Fprintln(w, "];")
	}
	// Grid strings hold only CharMap characters and '|', outcomes letters
	// and canonical forms none of '"' and '\\': nothing to escape.
	list("pieces", func(p exportPiece) string { return fmt.Sprintf("%s(\"%s\")", ruleset, g.CGSuite(p.key)) })
	if vals != nil {
		// A piece a partial run left unvalued has neither: nil.
		quote := func(p exportPiece, s string) string {
			if p.unvalued() {
				return "nil"
			}
			return `"` + s + `"`
		}
		list("outcomes", func(p exportPiece) string { return quote(p, p.outcome) })
		list("values", func(p exportPiece) string { return quote(p, p.value) })
	}
	return nil
}

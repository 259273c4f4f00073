package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
)

// exportRuns are the spec's small boards, one per game, with the CGSuite
// ruleset and CharMap of each (from CGSuite's GenClobber.cgs,
// Domineering.cgs and Amazons.cgs).
var exportRuns = []struct {
	game, board, ruleset, charMap string
}{
	{"clobber", "3x4", "game.grid.Clobber", ".xo"},
	{"domineering", "4x4", "game.grid.Domineering", ".#"},
	{"amazons", "3x4", "game.grid.Amazons", ".xo#"},
}

var (
	exportOnce sync.Once
	exportOut  string
	exportErr  error
)

// exportCensus runs census on the spec's boards once for all export tests
// and returns the output directory. It lies in scratch, which TestMain
// removes.
func exportCensus(t *testing.T) string {
	t.Helper()
	exportOnce.Do(func() {
		exportOut, exportErr = os.MkdirTemp(scratch, "export-")
		if exportErr != nil {
			return
		}
		for _, r := range exportRuns {
			cmd := []string{"run", r.game, r.board, "--out", exportOut, "--quiet"}
			if _, stderr, code := census(t, cmd...); code != 0 {
				exportErr = fmt.Errorf("census %v: exit %d: %s", cmd, code, stderr)
				return
			}
		}
	})
	if exportErr != nil {
		t.Fatal(exportErr)
	}
	return exportOut
}

// summaryJSON reads the summary.json of the run whose outputs are in dir.
func summaryJSON(t *testing.T, dir string) schema.Summary {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var s schema.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// parseGrid reads a CGSuite grid string as CGSuite's Grid.parse does (rows
// split at '|', all as long as the first, each character's index in the
// CharMap its value) and packs it into a piece key as COLUMNS.md lays it
// out.
func parseGrid(game, charMap, s string) (games.PieceKey, error) {
	rows := strings.Split(s, "|")
	cols := len(rows[0])
	var lo uint64
	for r, row := range rows {
		if len(row) != cols || cols == 0 {
			return games.PieceKey{}, fmt.Errorf("%q: row %d is %d long, row 1 %d", s, r+1, len(row), cols)
		}
		for c := 0; c < cols; c++ {
			v := strings.IndexByte(charMap, row[c])
			if v < 0 {
				return games.PieceKey{}, fmt.Errorf("%q: %q is not in the %s CharMap %q", s, row[c], game, charMap)
			}
			bit := uint64(1) << (r*cols + c)
			switch {
			case game == "domineering":
				if v == 0 { // an empty square of the region
					lo |= bit
				}
			case v == 1: // Left
				lo |= bit
			case v == 2: // Right
				lo |= bit << 32
			case v == 3: // burnt
				lo |= bit | bit<<32
			}
		}
	}
	return games.MakePieceKey(len(rows), cols, lo), nil
}

// tableKeys reads the pieces parts of a run: the keys of every level, and
// checks that each row's picture, with '|' for '/' (its CGSuite string,
// schema/COLUMNS.md), reads back as the row's key.
func tableKeys(t *testing.T, dir, game, charMap string) map[string]map[games.PieceKey]bool {
	t.Helper()
	levels := map[string]map[games.PieceKey]bool{"translated": {}, "symmetric": {}, "negation": {}}
	parts, err := schema.PiecesParts(dir)
	if err != nil || len(parts) == 0 {
		t.Fatalf("no pieces parts in %s: %v", dir, err)
	}
	for _, p := range parts {
		rows, err := schema.ReadPiecesFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			k := games.PieceKey{Hi: r.KeyHi, Lo: r.KeyLo}
			cg := strings.ReplaceAll(r.Picture, "/", "|")
			if got, err := parseGrid(game, charMap, cg); err != nil || got != k {
				t.Fatalf("row %s: CGSuite string %q reads as %+v, %v; want key %+v", r.Picture, cg, got, err, k)
			}
			levels["translated"][k] = true
			levels["symmetric"][games.PieceKey{Hi: r.SymmetricHi, Lo: r.SymmetricLo}] = true
			levels["negation"][games.PieceKey{Hi: r.NegationHi, Lo: r.NegationLo}] = true
		}
	}
	return levels
}

var scriptLine = regexp.MustCompile(`^  (game\.grid\.[A-Za-z]+)\("([^"]*)"\)(,?)$`)

// scriptStrings checks the shape of a CGSuite script written by census
// export and returns its grid strings.
func scriptStrings(t *testing.T, script, ruleset string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(script, "\n"), "\n")
	i := 0
	for i < len(lines) && strings.HasPrefix(lines[i], "// ") {
		i++
	}
	if i == 0 || i >= len(lines) || lines[i] != "pieces := [" || lines[len(lines)-1] != "];" {
		t.Fatalf("script is not a header, \"pieces := [\", the list and \"];\":\n%s", script)
	}
	body := lines[i+1 : len(lines)-1]
	var out []string
	for j, l := range body {
		m := scriptLine.FindStringSubmatch(l)
		if m == nil || m[1] != ruleset || (m[3] == ",") != (j < len(body)-1) {
			t.Fatalf("script line %q: want %s(\"GRID\") and a comma on all but the last", l, ruleset)
		}
		out = append(out, m[2])
	}
	return out
}

func TestExport(t *testing.T) {
	out := exportCensus(t)
	for _, r := range exportRuns {
		t.Run(r.game, func(t *testing.T) {
			dir := schema.RunDir(out, r.game, r.board)
			s := summaryJSON(t, dir)
			counts := map[string]uint64{"translated": s.PiecesTranslated, "symmetric": s.PiecesSymmetric, "negation": s.PiecesNegation}
			table := tableKeys(t, dir, r.game, r.charMap)
			for _, level := range []string{"translated", "symmetric", "negation"} {
				t.Run(level, func(t *testing.T) {
					list, stderr, code := census(t, "export", dir, "--format", "list", "--level", level)
					if code != 0 {
						t.Fatalf("export list: exit %d: %s", code, stderr)
					}
					lines := strings.Split(strings.TrimSuffix(list, "\n"), "\n")
					if uint64(len(lines)) != counts[level] {
						t.Errorf("%d lines, summary.json says %d %s pieces", len(lines), counts[level], level)
					}
					var prev games.PieceKey
					for i, l := range lines {
						k, err := parseGrid(r.game, r.charMap, l)
						if err != nil {
							t.Fatalf("line %d: %v", i+1, err)
						}
						if !table[level][k] {
							t.Fatalf("line %d %q: key %+v is no %s piece of the table", i+1, l, k, level)
						}
						// Strictly increasing: in key order, no duplicates.
						if i > 0 && !prev.Less(k) {
							t.Fatalf("line %d %q does not follow line %d %q in key order", i+1, l, i, lines[i-1])
						}
						prev = k
					}

					script, stderr, code := census(t, "export", dir, "--format", "cgsuite", "--level", level)
					if code != 0 {
						t.Fatalf("export cgsuite: exit %d: %s", code, stderr)
					}
					if got := scriptStrings(t, script, r.ruleset); strings.Join(got, "\n") != strings.Join(lines, "\n") {
						t.Errorf("the script's grid strings differ from the list's")
					}
					head := fmt.Sprintf("// census export: %s %s, level %s, %d pieces (summary.json pieces_%s)\n", r.game, r.board, level, counts[level], level)
					if !strings.HasPrefix(script, head) {
						t.Errorf("script starts %q, want %q", script[:min(len(script), 80)], head)
					}

					if level != "symmetric" {
						return
					}
					file := filepath.Join(t.TempDir(), "pieces.cgs")
					if stdout, stderr, code := census(t, "export", dir, "--level", level, "--out", file); code != 0 || stdout != "" {
						t.Fatalf("export --out: exit %d, stdout %q, stderr %s", code, stdout, stderr)
					}
					if got, err := os.ReadFile(file); err != nil || string(got) != script {
						t.Errorf("--out file differs from standard output: %v", err)
					}
				})
			}
		})
	}
}

func TestExportDefaults(t *testing.T) {
	dir := filepath.Join(exportCensus(t), "domineering-4x4")
	def, _, code := census(t, "export", dir)
	explicit, _, code2 := census(t, "export", dir, "--format", "cgsuite", "--level", "symmetric")
	if code != 0 || code2 != 0 || def != explicit {
		t.Errorf("export with no flags (exit %d) differs from --format cgsuite --level symmetric (exit %d)", code, code2)
	}
	stdout, _, code := census(t, "export", "--help")
	for _, want := range []string{"pieces := [", "NAME()", "--level", "--format", "standard output"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("export --help (exit %d) does not mention %q", code, want)
		}
	}
}

func TestExportBadInput(t *testing.T) {
	run := filepath.Join(exportCensus(t), "clobber-3x4")
	empty := t.TempDir()
	notDir := filepath.Join(empty, "file")
	if err := os.WriteFile(notDir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A copy of the run whose pieces part is of another table.
	wrong := t.TempDir()
	if err := os.MkdirAll(filepath.Join(wrong, "pieces"), 0o755); err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{"run.json": "run.json", "tiers.parquet": "pieces/part-00000.parquet"} {
		data, err := os.ReadFile(filepath.Join(run, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wrong, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	badJSON := t.TempDir()
	if err := os.WriteFile(filepath.Join(badJSON, schema.ManifestFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(t.TempDir(), "out.cgs")
	tests := []struct {
		name  string
		args  []string
		names string // what the one-line error must mention
	}{
		{"missing DIR", []string{filepath.Join(empty, "none")}, filepath.Join(empty, "none")},
		{"DIR is a file", []string{notDir}, notDir},
		{"DIR without run.json", []string{empty}, "run.json"},
		{"run.json not JSON", []string{badJSON}, badJSON},
		{"part of another table", []string{wrong}, `holds table "tiers"`},
		{"bad format", []string{run, "--format", "sgf"}, `"sgf"`},
		{"bad level", []string{run, "--level", "rotated"}, `"rotated"`},
		{"out in a missing directory", []string{run, "--out", filepath.Join(empty, "none", "x.cgs")}, filepath.Join(empty, "none")},
		{"no DIR", nil, "DIR"},
		{"two DIRs", []string{run, run}, "DIR"},
		{"values of a run not valued", []string{run, "--values"}, "not valued"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"export"}, tc.args...)
			if !strings.Contains(strings.Join(tc.args, " "), "--out") {
				args = append(args, "--out", outFile)
			}
			stdout, stderr, code := census(t, args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2; stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tc.names) {
				t.Errorf("stderr %q: want one line naming %q", stderr, tc.names)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if _, err := os.Stat(outFile); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("bad input left %s behind", outFile)
			}
		})
	}
}

// TestExportValues exports the pieces of a valued run (Clobber 3x5, whose
// start is not its own negative, so that some classes of the negation
// level are drawn by pieces that did not occur) with their values at
// every level and checks them against the run's summary.json, the export
// without values, CGSuite's notation as package cgt reads it and values
// from the literature.
func TestExportValues(t *testing.T) {
	out := t.TempDir()
	if _, stderr, code := census(t, "run", "clobber", "3x5", "--out", out, "--quiet", "--values"); code != 0 {
		t.Fatalf("census run --values: exit %d: %s", code, stderr)
	}
	dir := schema.RunDir(out, "clobber", "3x5")
	s := summaryJSON(t, dir)
	outcomes := map[string]map[string]uint64{"translated": s.OutcomesTranslated, "symmetric": s.OutcomesSymmetric}
	byLevel := map[string]map[string][2]string{} // level -> grid -> outcome, value
	for _, level := range []string{"translated", "symmetric", "negation"} {
		t.Run(level, func(t *testing.T) {
			plain, stderr, code := census(t, "export", dir, "--format", "list", "--level", level)
			if code != 0 {
				t.Fatalf("export: exit %d: %s", code, stderr)
			}
			list, stderr, code := census(t, "export", dir, "--format", "list", "--level", level, "--values")
			if code != 0 {
				t.Fatalf("export --values: exit %d: %s", code, stderr)
			}
			table := cgt.NewTable()
			count := map[string]uint64{}
			got := map[string][2]string{}
			var grids, outs, vals []string
			for i, l := range strings.Split(strings.TrimSuffix(list, "\n"), "\n") {
				f := strings.Split(l, "\t")
				if len(f) != 3 {
					t.Fatalf("line %d %q: want GRID, outcome and value separated by tabs", i+1, l)
				}
				grids, outs, vals = append(grids, f[0]), append(outs, f[1]), append(vals, f[2])
				count[f[1]]++
				got[f[0]] = [2]string{f[1], f[2]}
				if f[2] == "" {
					continue
				}
				g, err := table.Parse(f[2])
				if err != nil {
					t.Fatalf("line %d %q: value: %v", i+1, l, err)
				}
				if o := table.Outcome(g).String(); o != f[1] {
					t.Errorf("line %d %q: the value's outcome class is %s", i+1, l, o)
				}
			}
			byLevel[level] = got
			if strings.Join(grids, "\n")+"\n" != plain {
				t.Errorf("the grid strings differ from those of the export without --values")
			}
			if want := outcomes[level]; want != nil && fmt.Sprint(count) != fmt.Sprint(want) {
				t.Errorf("outcome classes %v, summary.json says %v", count, want)
			}
			script, stderr, code := census(t, "export", dir, "--level", level, "--values")
			if code != 0 {
				t.Fatalf("export --values cgsuite: exit %d: %s", code, stderr)
			}
			var want strings.Builder
			for _, l := range []struct {
				name  string
				items []string
				quote func(string) string
			}{
				{"pieces", grids, func(g string) string { return `game.grid.Clobber("` + g + `")` }},
				{"outcomes", outs, strconv.Quote},
				{"values", vals, strconv.Quote},
			} {
				want.WriteString(l.name + " := [\n")
				for i, it := range l.items {
					want.WriteString("  " + l.quote(it) + comma(i, len(l.items)) + "\n")
				}
				want.WriteString("];\n")
			}
			if body := script[strings.Index(script, "pieces := ["):]; body != want.String() {
				t.Errorf("script lists differ from the list export:\n%.400s\nwant\n%.400s", body, want.String())
			}
		})
	}
	// Values from the literature ([AGNW], as in values.TestKnownValues).
	for grid, want := range map[string]string{"xo": "*", "ox": "*", "xxo": "^", "oox": "v"} {
		if got := byLevel["translated"][grid]; got[1] != want {
			t.Errorf("translated %s: value %q, want %q", grid, got[1], want)
		}
	}
	// A class at the negation level drawn by a piece that is its own
	// symmetric class keeps that class's value; any other is drawn by the
	// negative of a symmetric class, and its value is that class's negated.
	symValues := map[string]bool{}
	for _, v := range byLevel["symmetric"] {
		symValues[v[1]] = true
	}
	table := cgt.NewTable()
	drawnByNegative := 0
	for grid, v := range byLevel["negation"] {
		if w, ok := byLevel["symmetric"][grid]; ok {
			if w != v {
				t.Errorf("%s: negation level %v, symmetric level %v", grid, v, w)
			}
			continue
		}
		drawnByNegative++
		if v[1] == "" {
			continue
		}
		if neg := table.String(table.Neg(table.MustParse(v[1]))); !symValues[neg] {
			t.Errorf("%s: negation level value %s, but no symmetric class has its negative %s", grid, v[1], neg)
		}
	}
	if drawnByNegative == 0 {
		t.Errorf("no class of the negation level is drawn by the negative of a piece that occurred")
	}
}

func comma(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}

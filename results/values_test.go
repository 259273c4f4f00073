package results_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

// valueRun is one file of results/values: the values stage's counts of a
// board, as `census run GAME BOARD --values` wrote them to summary.json,
// with the ladder counts they add up to and what the run took.
type valueRun struct {
	path string
	Game string `json:"game"`
	// Board and Start are those of the run's summary.json.
	Board                 string `json:"board"`
	Start                 string `json:"start"`
	Command               string `json:"command"`
	PiecesTranslated      uint64 `json:"pieces_translated"`
	PiecesSymmetric       uint64 `json:"pieces_symmetric"`
	SelfNegativeSymmetric uint64 `json:"self_negative_symmetric"`
	schema.Values
	// WallSeconds and PeakRSSKiB are the run's elapsed time and maximum
	// resident set size as /usr/bin/time -v reported them.
	WallSeconds float64 `json:"wall_seconds"`
	PeakRSSKiB  uint64  `json:"peak_rss_kib"`
}

// outcomeClasses are the keys of the outcome tables, in table order.
var outcomeClasses = []string{"L", "R", "N", "P"}

// loadValues reads every file of results/values, ordered by game then
// pieces.
func loadValues(t *testing.T) []valueRun {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("values", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no value summaries: %v", err)
	}
	var runs []valueRun
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d := json.NewDecoder(strings.NewReader(string(data)))
		d.DisallowUnknownFields()
		v := valueRun{path: p}
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		runs = append(runs, v)
	}
	order := map[string]int{"clobber": 0, "domineering": 1, "amazons": 2}
	slices.SortFunc(runs, func(a, b valueRun) int {
		if a.Game != b.Game {
			return order[a.Game] - order[b.Game]
		}
		return sign(int64(a.PiecesTranslated) - int64(b.PiecesTranslated))
	})
	return runs
}

// publishedSummary reads results/GAME-BOARD/summary.json, if there is one.
func publishedSummary(t *testing.T, game, board string) (schema.Summary, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(game+"-"+board, "summary.json"))
	if os.IsNotExist(err) {
		return schema.Summary{}, false
	}
	if err != nil {
		t.Fatal(err)
	}
	var s schema.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s, true
}

// negatedBySymmetry reports whether a symmetry of the board maps the start
// to its negative: then the pieces that occur are closed under negation
// (up to that symmetry), which swaps L and R and keeps N and P, so there
// are as many L pieces as R at every level. The negative of a Clobber or
// Amazons position swaps the colours; that of a Domineering position is its
// transpose, a position of the same board only when the board is square.
func negatedBySymmetry(game, start string) bool {
	rows := strings.Split(start, "/")
	h, w := len(rows), len(rows[0])
	// image returns the board with each square (r, c) moved to f(r, c)
	// and its content changed by g, as rows.
	image := func(hh, ww int, f func(r, c int) (int, int), g func(byte) byte) string {
		out := make([][]byte, hh)
		for r := range out {
			out[r] = make([]byte, ww)
		}
		for r := range h {
			for c := range w {
				r2, c2 := f(r, c)
				out[r2][c2] = g(rows[r][c])
			}
		}
		var b []string
		for _, row := range out {
			b = append(b, string(row))
		}
		return strings.Join(b, "/")
	}
	same := func(b byte) byte { return b }
	// The symmetries of the board that keep the game: the four of a
	// rectangle, and the transposes too when it is square, except in
	// Domineering, whose players move along the axes.
	syms := []func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return h - 1 - r, c },
		func(r, c int) (int, int) { return r, w - 1 - c },
		func(r, c int) (int, int) { return h - 1 - r, w - 1 - c },
	}
	if h == w && game != "domineering" {
		for _, s := range slices.Clone(syms) {
			syms = append(syms, func(r, c int) (int, int) { return s(c, r) })
		}
	}
	var negative string
	switch game {
	case "domineering":
		if h != w {
			return false
		}
		negative = image(w, h, func(r, c int) (int, int) { return c, r }, same)
	default:
		negative = image(h, w, func(r, c int) (int, int) { return r, c }, func(b byte) byte {
			switch b {
			case 'x':
				return 'o'
			case 'o':
				return 'x'
			}
			return b
		})
	}
	for _, s := range syms {
		if image(h, w, s, same) == negative {
			return true
		}
	}
	return false
}

func sumClasses(m map[string]uint64) uint64 {
	var s uint64
	for _, c := range outcomeClasses {
		s += m[c]
	}
	return s
}

// TestValuesConsistent checks every value summary against itself and
// against the published summary of the same board.
func TestValuesConsistent(t *testing.T) {
	for _, v := range loadValues(t) {
		t.Run(v.path, func(t *testing.T) {
			if want := filepath.Join("values", v.Game+"-"+v.Board+".json"); v.path != want {
				t.Errorf("the file of %s %s is %s, want %s", v.Game, v.Board, v.path, want)
			}
			if want := valuesCommand(v); v.Command != want && !strings.HasPrefix(v.Command, want+" --mem-budget ") {
				t.Errorf("command %q, want %q, or that with --mem-budget", v.Command, want)
			}
			if s, ok := publishedSummary(t, v.Game, v.Board); ok {
				if s.Start != v.Start || s.PiecesTranslated != v.PiecesTranslated || s.PiecesSymmetric != v.PiecesSymmetric ||
					s.SelfNegativeSymmetric != v.SelfNegativeSymmetric {
					t.Errorf("start %q, %d translated, %d symmetric, %d self-negative; the published summary has %q, %d, %d, %d",
						v.Start, v.PiecesTranslated, v.PiecesSymmetric, v.SelfNegativeSymmetric,
						s.Start, s.PiecesTranslated, s.PiecesSymmetric, s.SelfNegativeSymmetric)
				}
			}
			for _, m := range []map[string]uint64{v.OutcomesTranslated, v.OutcomesSymmetric} {
				if len(m) != len(outcomeClasses) {
					t.Errorf("outcome table %v, want the keys %v", m, outcomeClasses)
				}
			}
			// A partial run values the pieces up to a size: its classes
			// add up to the pieces valued, and its symmetric classes to
			// at most the board's.
			if n := sumClasses(v.OutcomesTranslated); n != v.PiecesTranslated-v.PiecesNotValued {
				t.Errorf("outcomes_translated adds up to %d, pieces_translated less pieces_not_valued is %d", n, v.PiecesTranslated-v.PiecesNotValued)
			}
			if n := sumClasses(v.OutcomesSymmetric); n != v.PiecesSymmetric && !(v.Partial() && n < v.PiecesSymmetric) {
				t.Errorf("outcomes_symmetric adds up to %d, pieces_symmetric is %d", n, v.PiecesSymmetric)
			}
			if v.Partial() != (v.PiecesNotValued > 0) {
				t.Errorf("values_max_size %d with %d pieces not valued", v.MaxSize, v.PiecesNotValued)
			}
			// A symmetric class holds at least one translated piece and,
			// since a symmetry keeps the value, all of one outcome class.
			for _, c := range outcomeClasses {
				if v.OutcomesSymmetric[c] > v.OutcomesTranslated[c] {
					t.Errorf("%s: %d symmetric classes, %d translated pieces", c, v.OutcomesSymmetric[c], v.OutcomesTranslated[c])
				}
			}
			// A self-negative class is its own negative, so its class is
			// its own mirror image: N or P.
			if np := v.OutcomesSymmetric["N"] + v.OutcomesSymmetric["P"]; v.SelfNegativeSymmetric > np {
				t.Errorf("%d self-negative classes, but only %d of class N or P", v.SelfNegativeSymmetric, np)
			}
			if negatedBySymmetry(v.Game, v.Start) {
				for _, m := range []map[string]uint64{v.OutcomesTranslated, v.OutcomesSymmetric} {
					if m["L"] != m["R"] {
						t.Errorf("the start is its own negative up to a symmetry, but L = %d, R = %d", m["L"], m["R"])
					}
				}
			}
			if v.ValuesCapped > v.PiecesTranslated || v.DistinctValues == 0 || v.DistinctValues > v.PiecesTranslated {
				t.Errorf("%d distinct values, %d capped, of %d pieces", v.DistinctValues, v.ValuesCapped, v.PiecesTranslated)
			}
			if v.WallSeconds <= 0 || v.PeakRSSKiB == 0 {
				t.Errorf("wall time %v s, peak RSS %d KiB", v.WallSeconds, v.PeakRSSKiB)
			}
			checkLevels(t, v)
		})
	}
}

// boardLabel is the board of a value summary as the tables name it, with
// the largest piece size valued when the run is partial.
func boardLabel(v valueRun) string {
	if !v.Partial() {
		return v.Board
	}
	unit := "squares"
	if v.Game == "clobber" {
		unit = "stones"
	}
	return fmt.Sprintf("%s (partial: pieces of up to %d %s)", v.Board, v.MaxSize, unit)
}

// valuesCommand is the command that writes the value summary of v: the
// census with its values stage, up to the largest size valued when the
// run is partial.
func valuesCommand(v valueRun) string {
	c := "census run " + v.Game + " " + v.Board + " --values"
	if v.Partial() {
		c += fmt.Sprintf(" --max-size %d", v.MaxSize)
	}
	return c
}

func TestNegatedBySymmetry(t *testing.T) {
	tests := []struct {
		game, start string
		want        bool
	}{
		{"clobber", "xoxo/oxox/xoxo/oxox", true},
		{"clobber", "xoxox/oxoxo/xoxox", false},
		{"clobber", "xoxoxo/oxoxox/xoxoxo", true},
		{"clobber", "xo", true},
		{"clobber", "xxo", false},
		{"domineering", "...../...../...../...../.....", true},
		{"domineering", "....../....../....../....../......", false},
		{"domineering", "#../.../...", true},
		{"domineering", "#../.../..#", true},
		{"domineering", "#.../..../..../...#", true},
		{"domineering", "##../..../..../...#", false},
		{"domineering", "##./.../...", false},
		{"amazons", "o..x/..../....", true},
		{"amazons", "o.../..../...x", true},
		{"amazons", "o.x./..../....", false},
	}
	for _, tt := range tests {
		if got := negatedBySymmetry(tt.game, tt.start); got != tt.want {
			t.Errorf("negatedBySymmetry(%s, %q) = %v, want %v", tt.game, tt.start, got, tt.want)
		}
	}
}

// valuesTable is the outcome table of the value summaries.
func valuesTable(runs []valueRun) string {
	var b strings.Builder
	b.WriteString("| game | board | translated | L | R | N | P | symmetric | L | R | N | P | distinct values | capped | wall time | peak RSS |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, v := range runs {
		fmt.Fprintf(&b, "| %s | %s | %s", v.Game, boardLabel(v), commas(v.PiecesTranslated))
		for _, c := range outcomeClasses {
			fmt.Fprintf(&b, " | %s", commas(v.OutcomesTranslated[c]))
		}
		fmt.Fprintf(&b, " | %s", commas(v.PiecesSymmetric))
		for _, c := range outcomeClasses {
			fmt.Fprintf(&b, " | %s", commas(v.OutcomesSymmetric[c]))
		}
		fmt.Fprintf(&b, " | %s | %s | %.1f s | %d MiB |\n", commas(v.DistinctValues), commas(v.ValuesCapped),
			v.WallSeconds, (v.PeakRSSKiB+512)/1024)
	}
	return b.String()
}

// TestValuesREADME checks that the outcome table and the cost tables of
// README.md's Values section and values-cost.svg are what the value
// summaries give; -update rewrites them.
func TestValuesREADME(t *testing.T) {
	runs := loadValues(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := replaceGenerated(t, string(readme), "values", valuesTable(runs))
	want = replaceGenerated(t, want, "value costs", valueCostTables(runs))
	checkGenerated(t, "README.md", want)
	checkGenerated(t, "values-cost.svg", valueCostChart(runs))
}

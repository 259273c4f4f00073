package results_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/konane"
	"github.com/census-cgt/census/values/konanecensus"
)

// konaneDir reports whether dir holds a Kōnane census: its summary.json
// counts values or openings, not tiers.
func konaneDir(dir string) bool { return strings.HasPrefix(filepath.Base(dir), "konane-") }

// konaneRowRun is the census of every arrangement of a row (konane-1xN).
type konaneRowRun struct {
	dir  string
	Game string `json:"game"`
	konanecensus.Census
	Board string `json:"board"`
}

// konaneBoardRun is the census of a board's openings (konane-RxC).
type konaneBoardRun struct {
	dir  string
	Game string `json:"game"`
	konanecensus.BoardCensus
}

// loadKonane reads every committed Kōnane summary: the row censuses
// ordered by length, the boards' openings by squares.
func loadKonane(t *testing.T) ([]konaneRowRun, []konaneBoardRun) {
	t.Helper()
	paths, err := filepath.Glob("konane-*/summary.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []konaneRowRun
	var boards []konaneBoardRun
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(p)
		if strings.HasPrefix(dir, "konane-1x") {
			var r konaneRowRun
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			r.dir = dir
			rows = append(rows, r)
			continue
		}
		var b konaneBoardRun
		if err := json.Unmarshal(data, &b); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		b.dir = dir
		boards = append(boards, b)
	}
	slices.SortFunc(rows, func(a, b konaneRowRun) int { return a.Squares - b.Squares })
	slices.SortFunc(boards, func(a, b konaneBoardRun) int {
		ra, ca, _ := games.ParseBoard(a.Board)
		rb, cb, _ := games.ParseBoard(b.Board)
		return ra*ca - rb*cb
	})
	return rows, boards
}

func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}

// TestKonaneRowSummaries checks every committed census of a Kōnane row
// against itself, against the rules (through the colour swap, which
// negates a value), and against a fresh count.
func TestKonaneRowSummaries(t *testing.T) {
	rows, _ := loadKonane(t)
	if len(rows) == 0 {
		t.Fatal("no Kōnane row census committed (konane-1x8)")
	}
	for _, r := range rows {
		t.Run(r.dir, func(t *testing.T) {
			checkKonaneRow(t, r)
		})
	}
}

func checkKonaneRow(t *testing.T, r konaneRowRun) {
	t.Helper()
	if r.Game != "konane" || r.dir != r.Game+"-"+r.Board || r.Board != fmt.Sprintf("1x%d", r.Squares) {
		t.Errorf("directory %s holds %s %s of %d squares", r.dir, r.Game, r.Board, r.Squares)
	}
	// Each square empty, Black or White.
	if r.Arrangements != pow3(r.Squares) {
		t.Errorf("%d arrangements, want 3^%d = %d", r.Arrangements, r.Squares, pow3(r.Squares))
	}
	total := 0
	for _, k := range []string{"L", "R", "N", "P"} {
		total += r.Outcomes[k]
	}
	if total != r.Arrangements || len(r.Outcomes) != 4 {
		t.Errorf("outcomes %v add up to %d, want %d arrangements", r.Outcomes, total, r.Arrangements)
	}
	// Swapping the colours of a row swaps Left and Right.
	if r.Outcomes["L"] != r.Outcomes["R"] {
		t.Errorf("outcomes L %d, R %d: the colour swap makes them equal", r.Outcomes["L"], r.Outcomes["R"])
	}
	if len(r.Values) != r.DistinctValues {
		t.Errorf("%d values listed, distinct_values %d", len(r.Values), r.DistinctValues)
	}
	counts := map[string]int{}
	byOutcome := map[string]int{}
	total = 0
	for i, e := range r.Values {
		if _, dup := counts[e.Value]; dup {
			t.Errorf("value %s listed twice", e.Value)
		}
		counts[e.Value] = e.Count
		byOutcome[e.Outcome] += e.Count
		total += e.Count
		if i > 0 && e.Count > r.Values[i-1].Count {
			t.Errorf("value %s (%d) after %s (%d): want the most frequent first", e.Value, e.Count, r.Values[i-1].Value, r.Values[i-1].Count)
		}
	}
	if total != r.Arrangements {
		t.Errorf("value counts add up to %d, want %d arrangements", total, r.Arrangements)
	}
	if !reflect.DeepEqual(byOutcome, r.Outcomes) {
		t.Errorf("the values' outcomes give %v, outcomes %v", byOutcome, r.Outcomes)
	}
	// Each value read back is canonical, of its outcome, the value of its
	// example, and its negative (the value of the example with colours
	// swapped) occurs as often.
	tab := cgt.NewTable()
	v := konanecensus.NewValuer[konane.Row]()
	for _, e := range r.Values {
		id, err := tab.Parse(e.Value)
		if err != nil {
			t.Errorf("value %q: %v", e.Value, err)
			continue
		}
		if tab.String(id) != e.Value || tab.Outcome(id).String() != e.Outcome {
			t.Errorf("value %q reads back as %s of outcome %s, listed %s", e.Value, tab.String(id), tab.Outcome(id), e.Outcome)
		}
		neg := tab.String(tab.Neg(id))
		if counts[neg] != e.Count {
			t.Errorf("value %s occurs %d times, its negative %s %d times", e.Value, e.Count, neg, counts[neg])
		}
		ex, err := konane.ParseRow(e.Example)
		if err != nil || ex.Len() != r.Squares {
			t.Errorf("example %q of %s: %v", e.Example, e.Value, err)
			continue
		}
		if got := v.Table().String(v.Value(ex)); got != e.Value {
			t.Errorf("example %s has value %s, listed %s", e.Example, got, e.Value)
		}
		if got := v.Table().String(v.Value(ex.Neg())); got != neg {
			t.Errorf("example %s with colours swapped has value %s, want %s", e.Example, got, neg)
		}
	}
	if r.Squares > 10 {
		t.Logf("no recount of %d squares (slow)", r.Squares)
		return
	}
	c, err := konanecensus.Count(context.Background(), r.Squares)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*c, r.Census) {
		t.Errorf("a fresh count differs from summary.json:\nfresh %+v\nsummary %+v", *c, r.Census)
	}
}

// TestKonaneRow8 checks the essay's numbers for the row of eight squares.
func TestKonaneRow8(t *testing.T) {
	rows, _ := loadKonane(t)
	i := slices.IndexFunc(rows, func(r konaneRowRun) bool { return r.Board == "1x8" })
	if i < 0 {
		t.Fatal("konane-1x8 not committed")
	}
	r := rows[i]
	if r.Arrangements != 6561 || r.Outcomes["P"] != 3493 || r.DistinctValues != 36 {
		t.Errorf("1x8: %d arrangements, %d P-positions, %d distinct values; the essay: 6,561, 3,493, 36",
			r.Arrangements, r.Outcomes["P"], r.DistinctValues)
	}
}

// checkerboard is the full board as a string, Black (x) where row and
// column add up to an even number, with the squares of gaps emptied.
func checkerboard(rows, cols int, gaps ...[2]int) string {
	var b strings.Builder
	for r := range rows {
		if r > 0 {
			b.WriteByte('/')
		}
		for c := range cols {
			switch {
			case slices.Contains(gaps, [2]int{r, c}):
				b.WriteByte('.')
			case (r+c)%2 == 0:
				b.WriteByte('x')
			default:
				b.WriteByte('o')
			}
		}
	}
	return b.String()
}

// TestKonaneOpenings checks every committed census of a board's openings
// against the rule of the usual opening, against itself, and against a
// fresh solution.
func TestKonaneOpenings(t *testing.T) {
	_, boards := loadKonane(t)
	if len(boards) == 0 {
		t.Fatal("no census of Kōnane openings committed (konane-4x4)")
	}
	for _, b := range boards {
		t.Run(b.dir, func(t *testing.T) {
			if b.Game != "konane" || b.dir != b.Game+"-"+b.Board {
				t.Errorf("directory %s holds %s %s", b.dir, b.Game, b.Board)
			}
			rows, cols, err := games.ParseBoard(b.Board)
			if err != nil {
				t.Fatal(err)
			}
			// Black empties a corner or a middle square holding a Black
			// stone, White an orthogonal neighbour (all White).
			special := func(r, c int) bool {
				return (r == 0 || r == rows-1) && (c == 0 || c == cols-1) ||
					(r == (rows-1)/2 || r == rows/2) && (c == (cols-1)/2 || c == cols/2)
			}
			want := 0
			for r := range rows {
				for c := range cols {
					if !special(r, c) || (r+c)%2 != 0 {
						continue
					}
					for _, d := range [4][2]int{{-1, 0}, {0, -1}, {0, 1}, {1, 0}} {
						if nr, nc := r+d[0], c+d[1]; nr >= 0 && nr < rows && nc >= 0 && nc < cols {
							want++
						}
					}
				}
			}
			if b.Openings != want || len(b.Results) != want {
				t.Errorf("%d openings, %d results; the rule gives %d", b.Openings, len(b.Results), want)
			}
			outcomes := map[string]int{"L": 0, "R": 0, "N": 0, "P": 0}
			wins := 0
			tab := cgt.NewTable()
			for _, o := range b.Results {
				br, wr := o.BlackRemoves, o.WhiteRemoves
				dr, dc := br[0]-wr[0], br[1]-wr[1]
				if !special(br[0], br[1]) || (br[0]+br[1])%2 != 0 || dr*dr+dc*dc != 1 {
					t.Errorf("opening %v, %v is not a usual opening", br, wr)
				}
				if got := checkerboard(rows, cols, br, wr); o.Board != got {
					t.Errorf("opening %v, %v: board %s, want %s", br, wr, o.Board, got)
				}
				outcomes[o.Outcome]++
				if o.BlackWins != (o.Outcome == "L" || o.Outcome == "N") {
					t.Errorf("opening %s: outcome %s, black_wins %t", o.Board, o.Outcome, o.BlackWins)
				}
				if o.BlackWins {
					wins++
				}
				if (o.Value != "") != (b.Method == "values") {
					t.Errorf("opening %s: value %q by %s", o.Board, o.Value, b.Method)
				}
				if o.Value != "" {
					id, err := tab.Parse(o.Value)
					if err != nil || tab.Outcome(id).String() != o.Outcome {
						t.Errorf("opening %s: value %s (%v) of outcome %s, listed %s", o.Board, o.Value, err, tab.Outcome(id), o.Outcome)
					}
				}
			}
			if !reflect.DeepEqual(outcomes, b.Outcomes) || wins != b.BlackWins {
				t.Errorf("results give outcomes %v, Black wins %d; summary %v, %d", outcomes, wins, b.Outcomes, b.BlackWins)
			}
			if rows*cols > 25 {
				t.Logf("no fresh solution of %s (slow)", b.Board)
				return
			}
			c, err := konanecensus.CountOpenings(context.Background(), rows, cols,
				konanecensus.OpeningsOptions{Values: b.Method == "values"})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*c, b.BoardCensus) {
				t.Errorf("a fresh solution differs from summary.json:\nfresh %+v\nsummary %+v", *c, b.BoardCensus)
			}
		})
	}
}

// replaceKonaneTables puts the tables of the Kōnane censuses between their
// markers in text.
func replaceKonaneTables(t *testing.T, text string, rows []konaneRowRun, boards []konaneBoardRun) string {
	t.Helper()
	return replaceGenerated(t, text, "konane tables", konaneTables(rows, boards))
}

// rc writes a square, row and column from 0, as (row, column).
func rc(s [2]int) string { return fmt.Sprintf("(%d, %d)", s[0], s[1]) }

// cell escapes the bars of a value for a Markdown table cell.
func cell(v string) string { return "`" + strings.ReplaceAll(v, "|", `\|`) + "`" }

func konaneTables(rows []konaneRowRun, boards []konaneBoardRun) string {
	var b strings.Builder
	lrnp := func(m map[string]int) string {
		return fmt.Sprintf("%s / %s / %s / %s", commas(uint64(m["L"])), commas(uint64(m["R"])), commas(uint64(m["N"])), commas(uint64(m["P"])))
	}
	b.WriteString("\n| run | arrangements | outcomes L / R / N / P | distinct values |\n|---|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| [%s](%s/) | %s | %s | %d |\n", r.dir, r.dir, commas(uint64(r.Arrangements)), lrnp(r.Outcomes), r.DistinctValues)
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "\n#### The %d values of the row of %d\n\n", r.DistinctValues, r.Squares)
		b.WriteString("| value | outcome | rows | share | first row with it |\n|---|---|---:|---:|---|\n")
		for _, e := range r.Values {
			fmt.Fprintf(&b, "| %s | %s | %s | %.2f%% | `%s` |\n", cell(e.Value), e.Outcome, commas(uint64(e.Count)),
				100*float64(e.Count)/float64(r.Arrangements), e.Example)
		}
	}
	b.WriteString("\n#### Openings\n\n| run | openings | solved by | positions | outcomes L / R / N / P | Black, jumping first, wins |\n|---|---:|---|---:|---:|---:|\n")
	for _, c := range boards {
		fmt.Fprintf(&b, "| [%s](%s/) | %d | %s | %s | %s | %d |\n", c.dir, c.dir, c.Openings, c.Method, commas(uint64(c.Positions)), lrnp(c.Outcomes), c.BlackWins)
	}
	b.WriteString("\n| board | Black empties | White empties | position (rows top to bottom) | outcome | value |\n|---|---|---|---|---|---|\n")
	for _, c := range boards {
		for _, o := range c.Results {
			v := "–"
			if o.Value != "" {
				v = cell(o.Value)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | `%s` | %s | %s |\n", c.Board, rc(o.BlackRemoves), rc(o.WhiteRemoves), o.Board, o.Outcome, v)
		}
	}
	b.WriteString("\n")
	return b.String()
}

package results_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/census-cgt/census/loopy"
	"github.com/census-cgt/census/schema"
)

// loopyDir reports whether dir holds the census of a loopy game: its
// summary.json has other keys than a tiered run's, beside states.parquet.
func loopyDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "states.parquet"))
	return err == nil
}

type loopyRun struct {
	dir string
	s   loopy.Summary
}

// loadLoopy reads every committed summary of a loopy game, ordered by
// directory.
func loadLoopy(t *testing.T) []loopyRun {
	t.Helper()
	paths, err := filepath.Glob("*/summary.json")
	if err != nil {
		t.Fatal(err)
	}
	var runs []loopyRun
	for _, p := range paths {
		if !loopyDir(filepath.Dir(p)) {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var s loopy.Summary
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		runs = append(runs, loopyRun{dir: filepath.Dir(p), s: s})
	}
	slices.SortFunc(runs, func(a, b loopyRun) int { return strings.Compare(a.dir, b.dir) })
	return runs
}

func sumMap[K comparable](m map[K]uint64) uint64 {
	var s uint64
	for _, v := range m {
		s += v
	}
	return s
}

// TestLoopySummariesConsistent checks every committed summary of a loopy
// game against itself, against the number of arrangements of the star,
// and against its states.parquet, counted again here.
func TestLoopySummariesConsistent(t *testing.T) {
	runs := loadLoopy(t)
	if len(runs) == 0 {
		t.Fatal("no loopy game's census committed (mutorere-8)")
	}
	for _, r := range runs {
		t.Run(r.dir, func(t *testing.T) {
			s := r.s
			if r.dir != s.Game+"-"+s.Board {
				t.Errorf("directory %s holds %s %s", r.dir, s.Game, s.Board)
			}
			// A star of n points: n+1 places, n/2 counters a side, one
			// place empty: (n+1)! / ((n/2)!)^2 arrangements.
			pts, _, _ := strings.Cut(s.Board, "-")
			n, err := strconv.Atoi(pts)
			if err != nil {
				t.Fatalf("board %q: %v", s.Board, err)
			}
			want := new(big.Int).MulRange(1, int64(n+1))
			half := new(big.Int).MulRange(1, int64(n/2))
			want.Quo(want, half.Mul(half, half))
			if !want.IsUint64() || s.Arrangements != want.Uint64() {
				t.Errorf("%d arrangements, want %s for %d points", s.Arrangements, want, n)
			}
			if s.States != 2*s.Arrangements {
				t.Errorf("%d states, want 2 × %d arrangements", s.States, s.Arrangements)
			}
			// Every arrangement has at least one image of its own and at
			// most 2n under the star's symmetries.
			if s.ArrangementsSymmetric*uint64(2*n) < s.Arrangements || s.ArrangementsSymmetric > s.Arrangements {
				t.Errorf("%d arrangements in %d orbits of at most %d", s.Arrangements, s.ArrangementsSymmetric, 2*n)
			}
			if sumMap(s.Verdicts) != s.States {
				t.Errorf("verdicts %v add up to %d, want %d states", s.Verdicts, sumMap(s.Verdicts), s.States)
			}
			if sumMap(s.VerdictsByArrangement) != s.Arrangements {
				t.Errorf("verdicts by arrangement add up to %d, want %d", sumMap(s.VerdictsByArrangement), s.Arrangements)
			}
			// Each arrangement's two letters are the verdicts of its two
			// states.
			byLetter := map[string]uint64{}
			for pair, c := range s.VerdictsByArrangement {
				byLetter[pair[:1]] += c
				byLetter[pair[1:]] += c
			}
			for _, v := range []string{"W", "L", "D"} {
				if byLetter[v] != s.Verdicts[v] {
					t.Errorf("verdicts by arrangement give %d states %s, verdicts %d", byLetter[v], v, s.Verdicts[v])
				}
			}
			if sumMap(s.WonByRemoteness) != s.Verdicts["W"] || sumMap(s.LostByRemoteness) != s.Verdicts["L"] {
				t.Errorf("by remoteness: %d won, %d lost; verdicts %v", sumMap(s.WonByRemoteness), sumMap(s.LostByRemoteness), s.Verdicts)
			}
			// A win takes an odd number of moves, a loss an even one.
			for rem := range s.WonByRemoteness {
				if rem%2 != 1 || rem > s.MaxRemoteness {
					t.Errorf("a win in %d moves (max_remoteness %d)", rem, s.MaxRemoteness)
				}
			}
			for rem := range s.LostByRemoteness {
				if rem%2 != 0 || rem > s.MaxRemoteness {
					t.Errorf("a loss in %d moves (max_remoteness %d)", rem, s.MaxRemoteness)
				}
			}
			if sumMap(s.ReachableVerdicts) != s.ReachableStates || s.ReachableStates > s.States {
				t.Errorf("reachable verdicts add up to %d, reachable states %d of %d", sumMap(s.ReachableVerdicts), s.ReachableStates, s.States)
			}
			if sumMap(s.ReachableWonByRemoteness) != s.ReachableVerdicts["W"] || sumMap(s.ReachableLostByRemoteness) != s.ReachableVerdicts["L"] {
				t.Errorf("reachable by remoteness: %d won, %d lost; reachable verdicts %v",
					sumMap(s.ReachableWonByRemoteness), sumMap(s.ReachableLostByRemoteness), s.ReachableVerdicts)
			}
			if s.ReachableStatesSymmetric > s.ReachableStates || s.ReachableStatesSymmetric*uint64(2*n) < s.ReachableStates {
				t.Errorf("%d reachable states in %d orbits", s.ReachableStates, s.ReachableStatesSymmetric)
			}
			var losing uint64
			for k, c := range s.ReachableDrawnByLosingMoves {
				losing += uint64(k) * c
			}
			if sumMap(s.ReachableDrawnByLosingMoves) != s.ReachableVerdicts["D"] || losing != s.ReachableDrawnLosingMoves ||
				s.ReachableDrawnLosingMoves > s.ReachableDrawnMoves {
				t.Errorf("reachable drawn by losing moves %v: want %d states and %d of %d moves losing",
					s.ReachableDrawnByLosingMoves, s.ReachableVerdicts["D"], s.ReachableDrawnLosingMoves, s.ReachableDrawnMoves)
			}
			checkRandomPlayer(t, s.RandomPlayer)
			checkStates(t, r)
		})
	}
}

// checkRandomPlayer checks that the random player's chances are a
// distribution: rising, within [0, 1], leaving room for playing on for
// ever and for winning, and that the mean agrees with them.
func checkRandomPlayer(t *testing.T, rp loopy.RandomPlayer) {
	t.Helper()
	for name, side := range map[string]loopy.RandomSide{"black": rp.Black, "white": rp.White} {
		lw := side.LostWithin
		if len(lw) != rp.Horizon || rp.Horizon == 0 {
			t.Errorf("%s: lost_within of %d moves, horizon %d", name, len(lw), rp.Horizon)
			continue
		}
		if !slices.IsSorted(lw) || lw[0] < 0 || lw[len(lw)-1] > 1+1e-12 {
			t.Errorf("%s: lost_within is not a rising share", name)
		}
		// Losing, playing on for ever and winning (the perfect player
		// stuck) exclude each other.
		if lw[len(lw)-1]+side.NeverLoses+side.Wins > 1+1e-9 || side.NeverLoses < 0 || side.Wins < 0 {
			t.Errorf("%s: lost within %d %v, never loses %v, wins %v", name, rp.Horizon, lw[len(lw)-1], side.NeverLoses, side.Wins)
		}
		// A loss within k moves but not within k-1 (k >= 2) came after
		// exactly k moves (within 1 includes losing at once, after 0): the
		// mean is at least the sum of k·(lost within k - within k-1).
		if side.ExpectedMoves != nil {
			var least float64
			for i := 1; i < len(lw); i++ {
				least += float64(i+1) * (lw[i] - lw[i-1])
			}
			if *side.ExpectedMoves < least-1e-9 {
				t.Errorf("%s: %v moves on average, less than the %v the horizon gives", name, *side.ExpectedMoves, least)
			}
		}
	}
}

// checkStates counts states.parquet again and compares it with the
// summary.
func checkStates(t *testing.T, r loopyRun) {
	t.Helper()
	rows, err := schema.ReadStatesFile(filepath.Join(r.dir, "states.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	s := r.s
	if uint64(len(rows)) != s.States {
		t.Fatalf("states.parquet has %d rows, summary %d states", len(rows), s.States)
	}
	verdicts, reachable := map[string]uint64{}, map[string]uint64{}
	var last int32
	var drawnMoves, drawnLosing uint64
	for i, row := range rows {
		if row.State != uint64(i) {
			t.Fatalf("row %d is state %d", i, row.State)
		}
		verdicts[row.Verdict]++
		if (row.Remoteness == nil) != (row.Verdict == "D") || (row.FirstReached == nil) == row.Reachable {
			t.Errorf("state %d: verdict %s with remoteness %v, reachable %t with first_reached %v",
				row.State, row.Verdict, row.Remoteness, row.Reachable, row.FirstReached)
		}
		if !row.Reachable {
			continue
		}
		reachable[row.Verdict]++
		last = max(last, *row.FirstReached)
		if row.Verdict == "D" {
			drawnMoves += uint64(row.LegalMoves)
			drawnLosing += uint64(row.LosingMoves)
		}
		if row.Arrangement == s.Start && row.Mover == "B" && (*row.FirstReached != 0 || row.Verdict != s.StartVerdict) {
			t.Errorf("the start: first reached %d, verdict %s; summary %s", *row.FirstReached, row.Verdict, s.StartVerdict)
		}
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"verdicts", verdicts, s.Verdicts},
		{"reachable verdicts", reachable, s.ReachableVerdicts},
		{"last first reached", int(last), s.LastFirstReached},
		{"reachable drawn moves", drawnMoves, s.ReachableDrawnMoves},
		{"reachable drawn losing moves", drawnLosing, s.ReachableDrawnLosingMoves},
	} {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s: states.parquet gives %v, summary.json %v", c.name, c.got, c.want)
		}
	}
}

// replaceLoopyTable puts the table of the loopy games' censuses between
// its markers in text.
func replaceLoopyTable(t *testing.T, text string, runs []loopyRun) string {
	t.Helper()
	return replaceGenerated(t, text, "loopy table", loopyTable(runs))
}

func loopyTable(runs []loopyRun) string {
	var b strings.Builder
	b.WriteString("\n| run | arrangements | up to symmetry | states | won / lost / drawn | reachable | reachable won / lost / drawn | last first reached | start | random Black: lost within 10 / 50 / 100, mean moves | random White: the same |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n")
	wld := func(m map[string]uint64) string {
		return commas(m["W"]) + " / " + commas(m["L"]) + " / " + commas(m["D"])
	}
	random := func(rs loopy.RandomSide) string {
		mean := "∞"
		if rs.ExpectedMoves != nil {
			mean = fmt.Sprintf("%.3f", *rs.ExpectedMoves)
		}
		at := func(k int) string {
			if k > len(rs.LostWithin) {
				return "–"
			}
			return fmt.Sprintf("%.2f%%", 100*rs.LostWithin[k-1])
		}
		return fmt.Sprintf("%s / %s / %s, %s", at(10), at(50), at(100), mean)
	}
	names := map[string]string{"W": "won", "L": "lost", "D": "drawn"}
	for _, r := range runs {
		s := r.s
		fmt.Fprintf(&b, "| [%s](%s/) | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s |\n", r.dir, r.dir,
			commas(s.Arrangements), commas(s.ArrangementsSymmetric), commas(s.States), wld(s.Verdicts),
			commas(s.ReachableStates), wld(s.ReachableVerdicts), s.LastFirstReached, names[s.StartVerdict],
			random(s.RandomPlayer.Black), random(s.RandomPlayer.White))
	}
	b.WriteString("\n")
	return b.String()
}

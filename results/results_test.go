package results_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

var update = flag.Bool("update", false, "rewrite the generated tables of README.md and the charts from the results they show")

type run struct {
	dir string
	s   schema.Summary
}

// load reads every committed summary of a tiered run, ordered by game
// then positions.
func load(t *testing.T) []run {
	t.Helper()
	paths, err := filepath.Glob("*/summary.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no summaries: %v", err)
	}
	var runs []run
	for _, p := range paths {
		if loopyDir(filepath.Dir(p)) {
			continue // a loopy game's summary: see loadLoopy
		}
		if konaneDir(filepath.Dir(p)) {
			continue // a Kōnane census's summary: see loadKonane
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var s schema.Summary
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		runs = append(runs, run{dir: filepath.Dir(p), s: s})
	}
	order := map[string]int{"clobber": 0, "domineering": 1, "amazons": 2}
	slices.SortFunc(runs, func(a, b run) int {
		if a.s.Game != b.s.Game {
			return order[a.s.Game] - order[b.s.Game]
		}
		return int(a.s.Positions>>32) - int(b.s.Positions>>32) + sign(int64(a.s.Positions)-int64(b.s.Positions))
	})
	return runs
}

func sign(x int64) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// TestSummariesConsistent checks every committed summary against itself and
// against its tiers.parquet.
func TestSummariesConsistent(t *testing.T) {
	for _, r := range load(t) {
		t.Run(r.dir, func(t *testing.T) {
			s := r.s
			if r.dir != schema.RunName(s.Game, s.Board) {
				t.Errorf("directory %s holds %s %s", r.dir, s.Game, s.Board)
			}
			if sum(s.PositionsByTier) != s.Positions || len(s.PositionsByTier) != s.Tiers {
				t.Errorf("positions by tier sum to %d over %d tiers; summary says %d over %d", sum(s.PositionsByTier), len(s.PositionsByTier), s.Positions, s.Tiers)
			}
			if sum(s.SplitByTier) != s.SplitPositions {
				t.Errorf("split by tier sums to %d, summary says %d", sum(s.SplitByTier), s.SplitPositions)
			}
			var bySize uint64
			for _, n := range s.PiecesBySize {
				bySize += n
			}
			if bySize != s.PiecesTranslated {
				t.Errorf("pieces by size sum to %d, translated %d", bySize, s.PiecesTranslated)
			}
			ladder := []uint64{s.PiecesInPlace, s.PiecesTranslated, s.PiecesSymmetric, s.PiecesNegation}
			if s.DeadFreeBoards > s.Positions || !slices.IsSortedFunc(ladder, func(a, b uint64) int { return sign(int64(b) - int64(a)) }) {
				t.Errorf("ladder does not decrease: positions %d, dead-free %d, pieces %v", s.Positions, s.DeadFreeBoards, ladder)
			}
			// A negation class holds two symmetric classes (a piece and its
			// negative) or one (a self-negative class, or one whose
			// negative never occurs): N = S - pairs, pairs <= (S - self)/2.
			if s.SelfNegativeSymmetric > s.PiecesSymmetric || 2*s.PiecesNegation < s.PiecesSymmetric+s.SelfNegativeSymmetric {
				t.Errorf("self-negative %d, symmetric %d, negation %d: want 2·negation >= symmetric + self-negative", s.SelfNegativeSymmetric, s.PiecesSymmetric, s.PiecesNegation)
			}
			for name, v := range map[string]float64{"split_share": s.SplitShare, "dead_share": s.DeadShare} {
				if v < 0 || v > 1 {
					t.Errorf("%s = %v out of [0, 1]", name, v)
				}
			}
			if math.Abs(s.SplitShare-float64(s.SplitPositions)/float64(s.Positions)) > 1e-12 {
				t.Errorf("split_share %v is not split/positions", s.SplitShare)
			}
			if s.Joins != 0 {
				t.Errorf("joins = %d; the piece rules make it 0", s.Joins)
			}
			tiers, err := schema.ReadTiersFile(filepath.Join(r.dir, schema.TiersFile))
			if err != nil {
				t.Fatal(err)
			}
			if len(tiers) != s.Tiers {
				t.Fatalf("tiers.parquet has %d rows, summary %d tiers", len(tiers), s.Tiers)
			}
			var moves uint64
			for i, tr := range tiers {
				moves += tr.Moves
				if tr.Positions != s.PositionsByTier[i] || tr.Split != s.SplitByTier[i] {
					t.Errorf("tiers.parquet row %d: %d positions, %d split; summary %d, %d", i, tr.Positions, tr.Split, s.PositionsByTier[i], s.SplitByTier[i])
				}
			}
			if moves != s.Moves {
				t.Errorf("tiers.parquet moves sum to %d, summary %d", moves, s.Moves)
			}
		})
	}
}

// TestREADME checks that the tables of README.md and split-share.svg are
// what the summaries give; -update rewrites them.
func TestREADME(t *testing.T) {
	runs := load(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := replaceGenerated(t, string(readme), "tables", tables(runs))
	want = replaceLoopyTable(t, want, loadLoopy(t))
	krows, kboards := loadKonane(t)
	want = replaceKonaneTables(t, want, krows, kboards)
	checkGenerated(t, "README.md", want)
	checkGenerated(t, "split-share.svg", splitChart(runs))
}

func commas(n uint64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// step shows a count with the factor by which it shrinks the one before.
func step(prev, n uint64) string {
	return fmt.Sprintf("%s (÷%.2f)", commas(n), float64(prev)/float64(n))
}

func tables(runs []run) string {
	var b strings.Builder
	game := ""
	for _, r := range runs {
		s := r.s
		if s.Game != game {
			game = s.Game
			fmt.Fprintf(&b, "\n#### %s\n\n", strings.ToUpper(game[:1])+game[1:])
			b.WriteString("| board | positions | dead-free boards | live pieces in place | translated | symmetric | negation | self-negative |\n")
			b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s (%.2f%%) |\n", s.Board, commas(s.Positions),
			step(s.Positions, s.DeadFreeBoards), commas(s.PiecesInPlace), step(s.PiecesInPlace, s.PiecesTranslated),
			step(s.PiecesTranslated, s.PiecesSymmetric), step(s.PiecesSymmetric, s.PiecesNegation),
			commas(s.SelfNegativeSymmetric), 100*float64(s.SelfNegativeSymmetric)/float64(s.PiecesSymmetric))
	}
	b.WriteString("\n#### Shape of the position space\n\n")
	b.WriteString("| game | board | moves | tiers | split share | mean live pieces when split | with a dead piece | moved-piece fraction | after split | edge-rule joins |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	opt := func(f *float64) string {
		if f == nil {
			return "–"
		}
		return fmt.Sprintf("%.4f", *f)
	}
	for _, r := range runs {
		s := r.s
		erj := "–"
		if s.EdgeRuleJoins != nil {
			erj = commas(*s.EdgeRuleJoins)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %.4f | %.4f | %.4f | %s | %s | %s |\n", s.Game, s.Board, commas(s.Moves), s.Tiers,
			s.SplitShare, s.MeanLivePiecesWhenSplit, s.DeadShare, opt(s.MovedPieceFraction), opt(s.MovedPieceFractionAfterSplit), erj)
	}
	b.WriteString("\n")
	return b.String()
}

// splitChart draws the share of split positions by tier, one line per run,
// against the tier as a fraction of the run's last tier.
func splitChart(runs []run) string {
	const w, h, left, right, top, bottom = 720, 400, 60, 200, 20, 50
	pw, ph := float64(w-left-right), float64(h-top-bottom)
	var b strings.Builder
	svgStart(&b, w, h)
	for i := 0; i <= 5; i++ {
		y := float64(top) + ph - ph*float64(i)/5
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%.1f</text>`+"\n", left, y, float64(left)+pw, y, left-6, y+4, float64(i)/5)
		x := float64(left) + pw*float64(i)/5
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%.1f</text>`+"\n", x, h-bottom+16, float64(i)/5)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">tier / last tier</text>`+"\n", float64(left)+pw/2, h-12)
	fmt.Fprintf(&b, `<text transform="rotate(-90)" x="%.1f" y="16" text-anchor="middle">share of positions with two or more live pieces</text>`+"\n", -(float64(top) + ph/2))
	for i, r := range runs {
		s := r.s
		var pts []string
		for t, n := range s.PositionsByTier {
			x := float64(left)
			if s.Tiers > 1 {
				x += pw * float64(t) / float64(s.Tiers-1)
			}
			y := float64(top) + ph - ph*float64(s.SplitByTier[t])/float64(n)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		}
		c, dash := lineStyle(i, s.Game)
		polyline(&b, c, dash, pts)
		legendEntry(&b, w-right+12, top+14+18*i, c, dash, s.Game+" "+s.Board)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

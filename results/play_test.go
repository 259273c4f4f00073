package results_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/play"
	"github.com/census-cgt/census/report"
)

// playBoards are the boards of the players' table, in its order.
var playBoards = [][2]string{{"clobber", "3x4"}, {"clobber", "4x4"}, {"clobber", "3x5"},
	{"domineering", "4x4"}, {"domineering", "5x5"}, {"amazons", "3x4"}, {"mutorere", "8"}}

// playSeat and playFile are what census play --json prints.
type playSeat struct {
	Seat       string      `json:"seat"`
	PStart     string      `json:"p_start"`
	PWin       float64     `json:"p_win"`
	QWin       float64     `json:"q_win"`
	Unfinished float64     `json:"unfinished"`
	CILow      *float64    `json:"ci_low"`
	CIHigh     *float64    `json:"ci_high"`
	Tally      *play.Tally `json:"tally"`
}

type playFile struct {
	Game, Board, Start, Player, Against, Method string
	Seed                                        *uint64
	Games                                       int
	MaxMoves                                    int `json:"max_moves"`
	Seats                                       []playSeat
	All                                         playSeat
	Mobility                                    *struct {
		Moves       int
		Replies     float64
		RepliesMean float64 `json:"replies_mean"`
		Own         float64
		OwnMean     float64 `json:"own_mean"`
		RepliesSE   float64 `json:"replies_se"`
		OwnSE       float64 `json:"own_se"`
	} `json:"mobility"`
}

func playPath(game, board string, d int, against string) string {
	return filepath.Join("play", fmt.Sprintf("%s-%s-minimax-random-%d-vs-%s.json", game, board, d, against))
}

func loadPlay(t *testing.T, game, board string, d int, against string) playFile {
	t.Helper()
	p := playPath(game, board, d, against)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var f playFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	checkPlayFile(t, p, f)
	return f
}

// checkPlayFile checks a result against itself: exact rates add up to one
// and average to the whole, sampled rates are their tallies' and carry
// their Wilson intervals.
func checkPlayFile(t *testing.T, p string, f playFile) {
	t.Helper()
	if len(f.Seats) != 4 {
		t.Fatalf("%s: %d seats", p, len(f.Seats))
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	switch f.Method {
	case "exact":
		var mean float64
		for _, s := range f.Seats {
			if !near(s.PWin+s.QWin+s.Unfinished, 1) {
				t.Errorf("%s %s: rates add up to %v", p, s.Seat, s.PWin+s.QWin+s.Unfinished)
			}
			mean += s.PWin / 4
		}
		if !near(mean, f.All.PWin) {
			t.Errorf("%s: seats' mean %v, all %v", p, mean, f.All.PWin)
		}
	case "sampled":
		var total play.Tally
		for _, s := range append(f.Seats, f.All) {
			tl := s.Tally
			if tl == nil || tl.PWins+tl.QWins+tl.Unfinished != tl.Games || !near(s.PWin, float64(tl.PWins)/float64(tl.Games)) {
				t.Fatalf("%s %s: rates are not the tally's", p, s.Seat)
			}
			lo, hi := play.Wilson(tl.PWins, tl.Games)
			if !near(lo, *s.CILow) || !near(hi, *s.CIHigh) {
				t.Errorf("%s %s: interval [%v, %v], Wilson's [%v, %v]", p, s.Seat, *s.CILow, *s.CIHigh, lo, hi)
			}
			if s.Seat != f.All.Seat {
				total.Add(*tl)
			}
		}
		if total != *f.All.Tally || f.Games != total.Games || f.Seed == nil {
			t.Errorf("%s: seats' tallies %+v, all %+v, games %d", p, total, *f.All.Tally, f.Games)
		}
	default:
		t.Errorf("%s: method %q", p, f.Method)
	}
}

// playCell is one cell of the table: a rate and, sampled, its interval.
type playCell struct {
	rate, lo, hi float64
	exact        bool
}

func (c playCell) String() string {
	if c.exact {
		return fmt.Sprintf("**%.2f%%**", 100*c.rate)
	}
	return fmt.Sprintf("%.1f%% (%.1f–%.1f)", 100*c.rate, 100*c.lo, 100*c.hi)
}

// perfectCell is P's rate against the perfect player over the seats whose
// start P has won: how often it keeps a won game. Where no seat is won
// (Mū tōrere's start is drawn) it is the rate of games P has not lost
// within the move limit, over all four seats.
func perfectCell(f playFile) (playCell, string) {
	var seats []playSeat
	for _, s := range f.Seats {
		if s.PStart == "won" {
			seats = append(seats, s)
		}
	}
	measure := fmt.Sprintf("won in %d of 4 seats: P wins", len(seats))
	notLost := len(seats) == 0
	if notLost {
		seats = f.Seats
		measure = fmt.Sprintf("drawn: P not lost within %d moves", f.MaxMoves)
	}
	good := func(s playSeat) float64 {
		if notLost {
			return s.PWin + s.Unfinished
		}
		return s.PWin
	}
	if f.Method == "exact" {
		var r float64
		for _, s := range seats {
			r += good(s) / float64(len(seats))
		}
		return playCell{rate: r, exact: true}, measure
	}
	var k, n int
	for _, s := range seats {
		n += s.Tally.Games
		k += s.Tally.PWins
		if notLost {
			k += s.Tally.Unfinished
		}
	}
	lo, hi := play.Wilson(k, n)
	return playCell{rate: float64(k) / float64(n), lo: lo, hi: hi}, measure
}

// randomCell is P's win rate against the random player over all four
// seats.
func randomCell(f playFile) playCell {
	if f.Method == "exact" {
		return playCell{rate: f.All.PWin, exact: true}
	}
	return playCell{rate: f.All.PWin, lo: *f.All.CILow, hi: *f.All.CIHigh}
}

func boardName(game, board string) string {
	names := map[string]string{"clobber": "Clobber", "domineering": "Domineering", "amazons": "Amazons", "mutorere": "Mū tōrere"}
	if game == "mutorere" {
		return names[game] + " (" + board + " points)"
	}
	return names[game] + " " + board
}

// playTables builds the two tables and the two charts' series.
func playTables(t *testing.T) (string, [2][]report.PlaySeries) {
	var b strings.Builder
	var series [2][]report.PlaySeries
	for k, against := range []string{"perfect", "random"} {
		if k == 0 {
			b.WriteString("\n#### Against the perfect player\n\n| board | start for P | d = 0 (random) | d = 1 | d = 2 | d = 3 | d = 4 |\n|---|---|---:|---:|---:|---:|---:|\n")
		} else {
			b.WriteString("\n#### Against the random player (P's wins over all four seats)\n\n| board | d = 0 (random) | d = 1 | d = 2 | d = 3 | d = 4 |\n|---|---:|---:|---:|---:|---:|\n")
		}
		for _, gb := range playBoards {
			s := report.PlaySeries{Name: boardName(gb[0], gb[1])}
			var cells []string
			var measure string
			for d := 0; d <= play.MaxDepth; d++ {
				f := loadPlay(t, gb[0], gb[1], d, against)
				var c playCell
				if k == 0 {
					c, measure = perfectCell(f)
				} else {
					c = randomCell(f)
				}
				cells = append(cells, c.String())
				s.Points = append(s.Points, report.PlayPoint{Depth: d, Rate: c.rate, Lo: c.lo, Hi: c.hi, Exact: c.exact})
			}
			series[k] = append(series[k], s)
			if k == 0 {
				fmt.Fprintf(&b, "| %s | %s | %s |\n", s.Name, measure, strings.Join(cells, " | "))
			} else {
				fmt.Fprintf(&b, "| %s | %s |\n", s.Name, strings.Join(cells, " | "))
			}
		}
	}
	b.WriteString("\n#### What P's moves do to mobility against the perfect player (1,000 sampled games)\n\n" +
		"Each cell: the opponent's replies after P's move, then P's own moves in the position it leaves, each minus its mean over P's legal moves at that point, averaged over P's moves, ± one standard error.\n\n" +
		"| board | d = 0 (random) | d = 1 | d = 2 | d = 3 | d = 4 |\n|---|---:|---:|---:|---:|---:|\n")
	for _, gb := range playBoards {
		var cells []string
		for d := 0; d <= play.MaxDepth; d++ {
			p := filepath.Join("play", fmt.Sprintf("%s-%s-minimax-random-%d-mobility.json", gb[0], gb[1], d))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var f playFile
			if err := json.Unmarshal(data, &f); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			checkPlayFile(t, p, f)
			mb := f.Mobility
			if f.Method != "sampled" || mb == nil || mb.Moves == 0 {
				t.Fatalf("%s: no sampled mobility", p)
			}
			cells = append(cells, fmt.Sprintf("%+.2f±%.2f / %+.2f±%.2f", mb.Replies-mb.RepliesMean, mb.RepliesSE, mb.Own-mb.OwnMean, mb.OwnSE))
		}
		fmt.Fprintf(&b, "| %s | %s |\n", boardName(gb[0], gb[1]), strings.Join(cells, " | "))
	}
	b.WriteString("\n")
	return b.String(), series
}

// TestPlayREADME checks that the players' tables in README.md are what
// results/play holds; -update rewrites them and draws the charts.
func TestPlayREADME(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	tables, series := playTables(t)
	want := replaceGenerated(t, string(readme), "play tables", tables)
	checkGenerated(t, "README.md", want)
	if !*update {
		return
	}
	for k, c := range []struct{ name, title, y string }{
		{"play-vs-perfect", "Minimax over random leaves against the perfect player", "P keeps a won start (Mū tōrere: not lost in 200 moves)"},
		{"play-vs-random", "Minimax over random leaves against the random player", "P's wins over the four seats"},
	} {
		png, _, err := report.PlayChart(c.title, c.y, series[k])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c.name+".png", png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPlayRecomputed plays two of the published matches again: an exact
// one must come out the same to the last bit, a sampled one the same game
// for game.
func TestPlayRecomputed(t *testing.T) {
	g, err := all.New("clobber", "3x4", "")
	if err != nil {
		t.Fatal(err)
	}
	rules := play.NewGameRules(g.(games.Mover))
	sv := play.NewSolver(rules)
	exact := loadPlay(t, "clobber", "3x4", 1, "random")
	m := &play.Match{Rules: rules, P: play.NewMinimax(rules, 1), Q: play.Random{}, Start: g.Start()}
	for i, seat := range play.Seats {
		e, err := m.Exact(seat, 1_000_000)
		if err != nil {
			t.Fatal(err)
		}
		if e.PWins != exact.Seats[i].PWin || e.QWins != exact.Seats[i].QWin {
			t.Errorf("clobber 3x4 depth 1 against random, %s: %v, %v now, %v, %v published", seat,
				e.PWins, e.QWins, exact.Seats[i].PWin, exact.Seats[i].QWin)
		}
	}
	sampled := loadPlay(t, "clobber", "3x4", 3, "perfect")
	m = &play.Match{Rules: rules, P: play.NewMinimax(rules, 3), Q: &play.Perfect{Oracle: sv}, Start: g.Start()}
	tallies, err := m.Sample(*sampled.Seed, sampled.Games)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tallies {
		if tallies[i] != *sampled.Seats[i].Tally {
			t.Errorf("clobber 3x4 depth 3 against perfect, %s: %+v now, %+v published", play.Seats[i], tallies[i], *sampled.Seats[i].Tally)
		}
	}
}

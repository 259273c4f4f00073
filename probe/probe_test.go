package probe_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/internal/refsolve"
	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/probe/probetest"
	"github.com/census-cgt/census/solve"
)

// TestAnswersAgainstWholeBoard answers every reachable position of small
// boards of the three games, with the symmetry reduction and without, and
// checks each answer against the whole-board solver: both results, every
// move's result and remoteness, the order of the moves, and the best line.
func TestAnswersAgainstWholeBoard(t *testing.T) {
	for _, c := range []struct{ game, board string }{
		{"clobber", "2x3"}, {"clobber", "3x3"}, {"domineering", "3x3"}, {"domineering", "2x4"},
		{"amazons", "2x3"}, {"amazons", "2x4"},
	} {
		for _, sym := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s-%s-sym=%v", c.game, c.board, sym), func(t *testing.T) {
				tb, err := probetest.Table(c.game, c.board, "", sym)
				if err != nil {
					t.Fatal(err)
				}
				g, err := all.New(c.game, c.board, "")
				if err != nil {
					t.Fatal(err)
				}
				rec := refsolve.NewRecorder(g.(games.Mover))
				n := 0
				for _, tier := range refsolve.Reachable(g) {
					for _, pos := range tier {
						checkAnswer(t, tb, g.(games.Mover), rec, pos)
						n++
					}
				}
				if uint64(n) != tb.Info().Positions {
					t.Errorf("%d positions, the table says %d", n, tb.Info().Positions)
				}
			})
		}
	}
}

func checkAnswer(t *testing.T, tb *probe.Table, g games.Mover, rec *refsolve.Recorder, pos uint64) {
	t.Helper()
	a, err := tb.Answer(pos, probe.Both)
	if err != nil {
		t.Fatalf("%s: %v", g.Format(pos), err)
	}
	want := rec.Record(pos)
	if a.Diagram != g.Format(pos) || a.Outcome != want.Outcome().String() ||
		a.LeftFirst.Remoteness != int(want.Left) || a.RightFirst.Remoteness != int(want.Right) ||
		(a.LeftFirst.Result == "win") != solve.Wins(want.Left) || (a.RightFirst.Result == "win") != solve.Wins(want.Right) {
		t.Fatalf("%s: answer %s %+v %+v, whole board %s %+v", a.Diagram, a.Outcome, a.LeftFirst, a.RightFirst, want.Outcome(), want)
	}
	for _, p := range []probe.Player{probe.Left, probe.Right} {
		moves := a.Moves[p.String()]
		opts := g.Options(pos, p == probe.Left, nil)
		if len(moves) != len(opts) {
			t.Fatalf("%s: %d moves for %s, %d options", a.Diagram, len(moves), p, len(opts))
		}
		byDiagram := map[string]uint64{}
		for _, o := range opts {
			byDiagram[g.Format(o)] = o
		}
		for i, m := range moves {
			o, ok := byDiagram[m.Diagram]
			if !ok {
				t.Fatalf("%s: move %s leads to %s, no option of %s", a.Diagram, m.Move, m.Diagram, p)
			}
			r := rec.Record(o)
			opp := r.Left
			if p == probe.Left {
				opp = r.Right
			}
			if m.Remoteness != int(opp) || (m.Result == "win") == solve.Wins(opp) || m.Player != p.String() {
				t.Fatalf("%s: move %s: %s %d by %s, whole board remoteness %d after it", a.Diagram, m.Move, m.Result, m.Remoteness, m.Player, opp)
			}
			if i > 0 && better(m, moves[i-1]) {
				t.Fatalf("%s: move %s (%s %d) listed after %s (%s %d)", a.Diagram, m.Move, m.Result, m.Remoteness,
					moves[i-1].Move, moves[i-1].Result, moves[i-1].Remoteness)
			}
		}
		line := a.BestLine[p.String()]
		r := want.Left
		if p == probe.Right {
			r = want.Right
		}
		if len(line) != int(r) {
			t.Fatalf("%s: best line of %d moves for %s, remoteness %d", a.Diagram, len(line), p, r)
		}
		mover := p
		for i, m := range line {
			if m.Player != mover.String() {
				t.Fatalf("%s: move %d of the best line is %s's, want %s's", a.Diagram, i, m.Player, mover)
			}
			if m.Remoteness != len(line)-i-1 {
				t.Fatalf("%s: move %d of the best line leaves %d moves, the line %d", a.Diagram, i, m.Remoteness, len(line)-i-1)
			}
			mover = mover.Other()
		}
	}
}

// better reports whether move a is better for its player than b: a win
// before a loss, a faster win, a slower loss.
func better(a, b probe.Move) bool {
	if a.Result != b.Result {
		return a.Result == "win"
	}
	if a.Result == "win" {
		return a.Remoteness < b.Remoteness
	}
	return a.Remoteness > b.Remoteness
}

// TestBadDiagrams checks that a position the run cannot hold is refused
// with the error that says which, and never answered.
func TestBadDiagrams(t *testing.T) {
	clobber, err := probetest.Table("clobber", "2x3", "", true)
	if err != nil {
		t.Fatal(err)
	}
	amazons, err := probetest.Table("amazons", "2x3", "", true)
	if err != nil {
		t.Fatal(err)
	}
	long := make([]byte, probe.MaxDiagram+1)
	for i := range long {
		long[i] = '.'
	}
	for _, c := range []struct {
		name    string
		tb      *probe.Table
		diagram string
		want    error
	}{
		{"another board size", clobber, "xo/ox", probe.ErrBadDiagram},
		{"a character not of the game", clobber, "xo#/oxo", probe.ErrBadDiagram},
		{"too long", clobber, string(long), probe.ErrBadDiagram},
		{"the start", clobber, "xox/oxo", nil},
		{"unreachable", clobber, "xxx/ooo", probe.ErrNotInRun},
		{"stones the start does not have", clobber, "xxx/xxx", probe.ErrNotInRun},
		{"an amazon too many", amazons, "o.x/..x", probe.ErrBadDiagram},
		{"an amazon missing", amazons, "o../...", probe.ErrBadDiagram},
		{"amazons reachable", amazons, "o#./..x", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, err := c.tb.Probe(c.diagram, probe.Both)
			if c.want == nil {
				if err != nil {
					t.Fatalf("%q: %v", c.diagram, err)
				}
				return
			}
			if !errors.Is(err, c.want) || a != nil {
				t.Fatalf("%q: answer %v, error %v; want %v", c.diagram, a, err, c.want)
			}
		})
	}
}

// TestNotation checks the names of moves of each game.
func TestNotation(t *testing.T) {
	for _, c := range []struct {
		game, board, diagram string
		player               probe.Player
		want                 []string
	}{
		{"clobber", "1x3", "xo.", probe.Left, []string{"a1xb1"}},
		{"clobber", "2x2", "x./o.", probe.Right, []string{"a2xa1"}},
		{"domineering", "2x2", "../##", probe.Right, []string{"a1-b1"}},
		{"domineering", "2x2", ".#/.#", probe.Left, []string{"a1-a2"}},
		{"amazons", "1x3", "o.x", probe.Left, []string{"c1-b1/c1"}},
	} {
		t.Run(c.game+" "+c.diagram, func(t *testing.T) {
			tb, err := probetest.Table(c.game, c.board, c.diagram, false)
			if err != nil {
				t.Fatal(err)
			}
			a, err := tb.Probe(c.diagram, c.player)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range a.Moves[c.player.String()] {
				got = append(got, m.Move)
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("moves %v, want %v", got, c.want)
			}
			if _, ok := a.Moves[c.player.Other().String()]; ok {
				t.Errorf("moves of %s given, asked for %s only", c.player.Other(), c.player)
			}
		})
	}
}

// TestValuesConcurrently answers every position of a valued table from
// several goroutines at once (run with -race): each answer's pieces have
// values and their sum is the position's value, whatever the others do.
func TestValuesConcurrently(t *testing.T) {
	tb, err := probetest.ValuedTable("clobber", "2x4")
	if err != nil {
		t.Fatal(err)
	}
	g, err := all.New("clobber", "2x4", "")
	if err != nil {
		t.Fatal(err)
	}
	var diagrams []string
	for _, tier := range refsolve.Reachable(g) {
		for _, pos := range tier {
			diagrams = append(diagrams, g.Format(pos))
		}
	}
	want := map[string]string{}
	for _, d := range diagrams {
		a, err := tb.Probe(d, probe.Left)
		if err != nil || a.Value == nil || !tb.Info().Valued {
			t.Fatalf("%s: value %v, %v", d, a, err)
		}
		want[d] = *a.Value
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < len(diagrams); i += 2 {
				d := diagrams[i%len(diagrams)]
				a, err := tb.Probe(d, probe.Right)
				if err != nil || a.Value == nil || *a.Value != want[d] {
					t.Errorf("%s: value %v, alone %s: %v", d, a.Value, want[d], err)
					return
				}
				for _, p := range a.Pieces {
					if p.Value == "" {
						t.Errorf("%s: piece %s without a value", d, p.Picture)
					}
				}
			}
		})
	}
	wg.Wait()
}

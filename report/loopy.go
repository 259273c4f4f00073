package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/census-cgt/census/loopy"
	"github.com/census-cgt/census/schema"
)

// chartRandom is the name of a loopy run's chart of the random player.
const chartRandom = "random-player"

// loopyRun reports whether dir holds the census of a loopy game, which has
// a states table instead of tiers.
func loopyRun(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, schema.StatesFile))
	return err == nil
}

// loadLoopyRun reads the census of a loopy game in dir: its summary.json,
// which must hold the random player's analysis, states.parquet, whose rows
// must be the summary's states, and run.json when there is one.
func loadLoopyRun(dir string) (Run, error) {
	r := Run{Dir: dir, Loopy: &loopy.Summary{}}
	path := filepath.Join(dir, schema.SummaryJSONFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return Run{}, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, r.Loopy); err != nil {
		return Run{}, fmt.Errorf("read %s: %w", path, err)
	}
	if err := checkLoopy(r.Loopy); err != nil {
		return Run{}, fmt.Errorf("read %s: %w", path, err)
	}
	path = filepath.Join(dir, schema.StatesFile)
	n, err := schema.CountStatesFile(path)
	if err != nil {
		return Run{}, err
	}
	if uint64(n) != r.Loopy.States {
		return Run{}, fmt.Errorf("read %s: %d states, summary.json %d", path, n, r.Loopy.States)
	}
	if r.Manifest, err = readManifest(dir); err != nil {
		return Run{}, err
	}
	return r, nil
}

// checkLoopy rejects a loopy summary the report cannot be drawn from.
func checkLoopy(s *loopy.Summary) error {
	rp := s.RandomPlayer
	switch {
	case s.Game == "" || s.Board == "":
		return errors.New("no game or board")
	case s.States == 0 || s.States != 2*s.Arrangements:
		return fmt.Errorf("%d states of %d arrangements, want two an arrangement", s.States, s.Arrangements)
	case rp.Horizon <= 0 || len(rp.Black.LostWithin) != rp.Horizon || len(rp.White.LostWithin) != rp.Horizon:
		return fmt.Errorf("random_player: lost_within of %d (black) and %d (white) moves, horizon %d",
			len(rp.Black.LostWithin), len(rp.White.LostWithin), rp.Horizon)
	}
	return nil
}

// loopyCharts returns the charts of a loopy game's census: the random
// player's chance of having lost within k of its own moves, as Black and
// as White.
func loopyCharts(r Run) ([]*chart, error) {
	ch, err := randomChart(r)
	if err != nil {
		return nil, fmt.Errorf("chart of %s: %w", r.ID, err)
	}
	return []*chart{ch}, nil
}

// moves writes an expected number of moves, or ∞ when the game need not
// end.
func moves(v *float64) string {
	if v == nil {
		return "∞"
	}
	return strconv.FormatFloat(*v, 'f', 3, 64)
}

func randomChart(r Run) (*chart, error) {
	rp := r.Loopy.RandomPlayer
	p := newPlot(fmt.Sprintf("Random player against a perfect one: %s\n(perfect player's tie-break: %s)", runName(r), rp.TieBreak),
		"k, the random player's own moves", "lost within k moves")
	leg := newLegend()
	for i, side := range []struct {
		name string
		s    loopy.RandomSide
	}{{"Black", rp.Black}, {"White", rp.White}} {
		pts := make(plotter.XYs, len(side.s.LostWithin))
		for k, v := range side.s.LostWithin {
			pts[k] = plotter.XY{X: float64(k + 1), Y: v}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("series %s: %w", side.name, err)
		}
		line.Color, line.Width = palette[i], vg.Points(1.8)
		if i == 1 {
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		p.Add(line)
		leg.Add(fmt.Sprintf("random player as %s: %s moves on average", side.name, moves(side.s.ExpectedMoves)), line)
	}
	p.X.Min, p.X.Max = 0, float64(rp.Horizon)
	p.Y.Min, p.Y.Max = 0, 1
	p.Y.Tick.Marker = percentTicks{}
	p.X.Tick.Marker = plot.DefaultTicks{}
	ch := runChart(chartRandom, p)
	ch.legend, ch.legendBelow = leg, true
	return ch, nil
}

// loopyCells returns the numbers of a loopy run that its facts table
// shows; a key is the summary.json key, with a dot before a key or index
// (from 1) inside it.
func loopyCells(r Run) []cell {
	s := r.Loopy
	cs := []cell{
		{Key: "arrangements", Label: "arrangements", Value: commas(s.Arrangements)},
		{Key: "arrangements_symmetric", Label: "up to symmetry", Value: commas(s.ArrangementsSymmetric)},
		{Key: "states", Label: "states (arrangement and mover)", Value: commas(s.States)},
	}
	verdicts := func(key, label string, m map[string]uint64) {
		for _, v := range []string{"W", "L", "D"} {
			cs = append(cs, cell{Key: key + "." + v, Label: label + verdictNames[v], Value: commas(m[v])})
		}
	}
	verdicts("verdicts", "states ", s.Verdicts)
	pairs := make([]string, 0, len(s.VerdictsByArrangement))
	for k := range s.VerdictsByArrangement {
		pairs = append(pairs, k)
	}
	slices.Sort(pairs)
	for _, k := range pairs {
		cs = append(cs, cell{Key: "verdicts_by_arrangement." + k,
			Label: "arrangements " + k + " (Black to move, White to move)", Value: commas(s.VerdictsByArrangement[k])})
	}
	cs = append(cs,
		cell{Key: "max_remoteness", Label: "longest win or loss (moves)", Value: strconv.Itoa(s.MaxRemoteness)},
		cell{Key: "start_verdict", Label: "the start, Black to move", Value: verdictNames[s.StartVerdict]},
		cell{Key: "reachable_states", Label: "states reachable from the start", Value: commas(s.ReachableStates)},
		cell{Key: "reachable_states_symmetric", Label: "up to symmetry", Value: commas(s.ReachableStatesSymmetric)},
	)
	verdicts("reachable_verdicts", "reachable ", s.ReachableVerdicts)
	cs = append(cs, cell{Key: "last_first_reached", Label: "last first reached (moves)", Value: strconv.Itoa(s.LastFirstReached)})
	rp := s.RandomPlayer
	for _, side := range []struct {
		key, name string
		s         loopy.RandomSide
	}{{"black", "Black", rp.Black}, {"white", "White", rp.White}} {
		prefix := "random_player." + side.key + "."
		for _, k := range []int{10, 50, 100} {
			if k <= len(side.s.LostWithin) {
				cs = append(cs, cell{Key: prefix + "lost_within." + strconv.Itoa(k),
					Label: fmt.Sprintf("random %s lost within %d moves", side.name, k), Value: percent(side.s.LostWithin[k-1])})
			}
		}
		cs = append(cs, cell{Key: prefix + "expected_moves", Label: "random " + side.name + ": moves on average", Value: moves(side.s.ExpectedMoves)})
	}
	return cs
}

// verdictNames spell the verdicts of summary.json.
var verdictNames = map[string]string{"W": "won", "L": "lost", "D": "drawn"}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/games/mutorere"
	"github.com/census-cgt/census/play"
	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/solve"
)

type playFlags struct {
	player, against string
	games           int
	seed            uint64
	start           string
	maxMoves        int
	maxStates       int
	sample          bool
	mobility        bool
	json            bool
	tablebase       string
}

func playCmd() *cobra.Command {
	var f playFlags
	c := &cobra.Command{
		Use:   "play GAME BOARD",
		Short: "Play two players against each other on a solved board and print P's win rate",
		Long: `Play player P (--player) against player Q (--against) from the start of
GAME on BOARD, with P on each side (Left: Black in Clobber, Amazons and Mū
tōrere, vertical in Domineering) and each side moving first: four seats.
A player who cannot move loses.

Players: random (uniform among the legal moves); minimax-random:D (minimax
D moves deep, every position at the horizon scored with a fresh uniform
random number, a position whose mover cannot move scored as that mover's
loss, ties broken uniformly; D from 0 to 4, 0 is random); perfect (a
winning move when there is one, uniformly among them, else a drawing one,
else any; in Mū tōrere the fastest win and the slowest loss). The perfect
player reads every outcome from an exact solution computed in memory: a
memoised solve of the whole board, or Mū tōrere's retrograde analysis;
with --tablebase DIR it reads them from the tablebase of the solved run in
DIR (of the same game, board and start) instead, and plays the fastest win
and the slowest loss, as the tablebase's remoteness says.

Where every player's move probabilities can be computed exactly, the win
rates are exact sums over every branch of play (the minimax player's
choices follow from its leaves' distributions, integrated exactly); this
visits at most --max-states states a seat (summed over the moves) and takes
minimax trees of at most 1024 random leaves. Otherwise --games games
are sampled, game k in seat k mod 4 from a generator seeded with (--seed,
k), and the rates carry 95% Wilson intervals. The output says which.

GAME mutorere takes BOARD as the number of points of the star (8 is the
game); its games can go round for ever, so a game still on after
--max-moves moves counts as unfinished.`,
		Example: `  census play clobber 3x4 --player minimax-random:2 --against perfect
  census play domineering 5x5 --player minimax-random:3 --against random --games 2000 --seed 7 --json
  census play mutorere 8 --player minimax-random:1 --against perfect --max-moves 200
  census play clobber 4x5 --player random --against perfect --tablebase results/clobber-4x5 --sample`,
		Args: exactArgs(2, "GAME BOARD"),
		RunE: func(c *cobra.Command, args []string) error {
			return runPlay(c.Context(), c.OutOrStdout(), f, args[0], args[1])
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.player, "player", "random", "player P: random, perfect or minimax-random:D")
	fl.StringVar(&f.against, "against", "perfect", "player Q: random, perfect or minimax-random:D")
	fl.IntVar(&f.games, "games", 1000, "games to sample when the rates cannot be computed exactly, spread over the four seats")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the sampled games")
	fl.StringVar(&f.start, "start", "", "start position as a board diagram, rows separated by '/' (default the game's standard start; not for mutorere)")
	fl.IntVar(&f.maxMoves, "max-moves", 200, "mutorere: moves after which a game counts as unfinished")
	fl.IntVar(&f.maxStates, "max-states", 1_000_000, "states the exact sum of one seat may visit (summed over the moves) before the rates are sampled instead")
	fl.BoolVar(&f.sample, "sample", false, "sample games even where the rates can be computed exactly")
	fl.BoolVar(&f.mobility, "mobility", false, "sample, and measure P's moves: the opponent's replies after them and P's own moves, beside the means over P's legal moves")
	fl.BoolVar(&f.json, "json", false, "print the result as JSON")
	fl.StringVar(&f.tablebase, "tablebase", "", "the perfect player reads the tablebase of this solved run (OUT/GAME-BOARD) and plays the fastest wins and slowest losses")
	return c
}

// playSeat is the result of one seat, or of all four.
type playSeat struct {
	Seat   string `json:"seat"`
	PLeft  *bool  `json:"p_left,omitempty"`
	PFirst *bool  `json:"p_first,omitempty"`
	// PStart is the start's outcome for P with best play from both
	// sides: won, lost or drawn.
	PStart string `json:"p_start,omitempty"`
	// PWin and QWin are exact probabilities or sampled frequencies;
	// Unfinished likewise for loopy games.
	PWin       float64 `json:"p_win"`
	QWin       float64 `json:"q_win"`
	Unfinished float64 `json:"unfinished,omitempty"`
	// CILow and CIHigh bound PWin (95% Wilson) when sampled.
	CILow  *float64    `json:"ci_low,omitempty"`
	CIHigh *float64    `json:"ci_high,omitempty"`
	Tally  *play.Tally `json:"tally,omitempty"`
}

// playResult is what census play prints.
type playResult struct {
	Game    string `json:"game"`
	Board   string `json:"board"`
	Start   string `json:"start"`
	Player  string `json:"player"`
	Against string `json:"against"`
	// Method is "exact" (summed over every branch) or "sampled".
	Method string `json:"method"`
	// Why says why the rates were sampled.
	Why      string     `json:"why,omitempty"`
	Seed     *uint64    `json:"seed,omitempty"`
	Games    int        `json:"games,omitempty"`
	MaxMoves int        `json:"max_moves,omitempty"`
	Seats    []playSeat `json:"seats"`
	// All is the four seats together: the mean of their exact rates, or
	// the pooled sampled games.
	All playSeat `json:"all"`
	// Mobility is the mean over P's sampled moves (--mobility).
	Mobility *playMobility `json:"mobility,omitempty"`
}

// playMobility is the mobility of P's moves in the sampled games.
type playMobility struct {
	Moves int `json:"moves"`
	// Replies is the opponent's moves after P's move, RepliesMean its
	// mean over P's legal moves; Own and OwnMean the same for P's own
	// moves in the position P's move leaves.
	Replies     float64 `json:"replies"`
	RepliesMean float64 `json:"replies_mean"`
	Own         float64 `json:"own"`
	OwnMean     float64 `json:"own_mean"`
	// RepliesSE and OwnSE are the standard errors of Replies - RepliesMean
	// and Own - OwnMean.
	RepliesSE float64 `json:"replies_se"`
	OwnSE     float64 `json:"own_se"`
}

// playSetup is a parsed census play command.
type playSetup struct {
	rules  play.Rules
	oracle play.Oracle
	start  uint64
	diag   string
	p, q   play.Spec
	// close releases what the oracle holds open, when set.
	close func() error
}

func parsePlay(ctx context.Context, f playFlags, gameName, board string) (*playSetup, error) {
	p, err := play.ParseSpec(f.player)
	if err != nil {
		return nil, usagef("--player %s: %v", f.player, err)
	}
	q, err := play.ParseSpec(f.against)
	if err != nil {
		return nil, usagef("--against %s: %v", f.against, err)
	}
	if f.games < 1 {
		return nil, usagef("--games %d: want at least 1", f.games)
	}
	if f.maxStates < 1 {
		return nil, usagef("--max-states %d: want at least 1", f.maxStates)
	}
	if f.maxMoves < 1 {
		return nil, usagef("--max-moves %d: want at least 1", f.maxMoves)
	}
	su := &playSetup{p: p, q: q}
	if gameName == mutorereGame {
		if f.start != "" {
			return nil, usagef("--start %q: mutorere plays from its start only", f.start)
		}
		points, err := strconv.Atoi(board)
		if err != nil || points < 4 || points > maxMutorerePoints || points%2 != 0 {
			return nil, usagef("mutorere %s: BOARD is the number of points of the star, an even number from 4 to %d", board, maxMutorerePoints)
		}
		r, err := mutorere.New(points, mutorere.Classic)
		if err != nil {
			return nil, usageError{err}
		}
		m, err := play.NewMutorere(ctx, r)
		if err != nil {
			return nil, err
		}
		su.rules, su.oracle, su.start, su.diag = m, m, m.Start(), r.String(r.Start())
		return su, nil
	}
	g, err := all.New(gameName, board, f.start)
	if err != nil {
		return nil, usageError{err}
	}
	mv, ok := g.(games.Mover)
	if !ok {
		return nil, usagef("%s: its moves are not split by player", gameName)
	}
	rules := play.NewGameRules(mv)
	su.rules, su.oracle, su.start, su.diag = rules, play.NewSolver(rules), g.Start(), g.Format(g.Start())
	if f.tablebase != "" {
		t, err := probe.Open(f.tablebase)
		if err != nil {
			return nil, usagef("--tablebase %v", err)
		}
		if i := t.Info(); i.Game != gameName || i.Board != board || i.Start != su.diag {
			t.Close()
			return nil, usagef("--tablebase %s: a run of %s %s from %s, not of %s %s from %s", f.tablebase, i.Game, i.Board, i.Start, gameName, board, su.diag)
		}
		su.oracle, su.close = tablebaseOracle{t}, t.Close
	}
	return su, nil
}

func runPlay(ctx context.Context, w io.Writer, f playFlags, gameName, board string) error {
	su, err := parsePlay(ctx, f, gameName, board)
	if err != nil {
		return err
	}
	if su.close != nil {
		defer su.close()
	}
	res := playResult{Game: gameName, Board: board, Start: su.diag, Player: su.p.String(), Against: su.q.String()}
	if su.rules.Loopy() {
		res.MaxMoves = f.maxMoves
	}
	m := &play.Match{Rules: su.rules, P: su.p.New(su.rules, su.oracle), Q: su.q.New(su.rules, su.oracle),
		Start: su.start, MaxMoves: res.MaxMoves}
	if f.mobility {
		m.Mobility = &play.Mobility{}
	}
	exact := !f.sample && !f.mobility
	var exacts []play.Exact
	if exact {
		for _, seat := range play.Seats {
			e, err := m.Exact(seat, f.maxStates)
			if errors.Is(err, play.ErrTooCostly) {
				exact, res.Why = false, err.Error()
				break
			}
			if err != nil {
				return fmt.Errorf("census play %s %s: %w", gameName, board, err)
			}
			exacts = append(exacts, e)
		}
	} else {
		res.Why = "--sample"
		if f.mobility {
			res.Why = "--mobility"
		}
	}
	if exact {
		res.Method = "exact"
		for i, e := range exacts {
			res.Seats = append(res.Seats, seatOf(su, play.Seats[i], e.PWins, e.QWins, e.Unfinished))
			res.All.PWin += e.PWins / 4
			res.All.QWin += e.QWins / 4
			res.All.Unfinished += e.Unfinished / 4
		}
		res.All.Seat = "all four seats"
	} else {
		tallies, err := m.Sample(f.seed, f.games)
		if err != nil {
			return fmt.Errorf("census play %s %s: %w", gameName, board, err)
		}
		res.Method, res.Seed, res.Games = "sampled", &f.seed, f.games
		var total play.Tally
		for i, t := range tallies {
			res.Seats = append(res.Seats, sampledSeat(seatOf(su, play.Seats[i], 0, 0, 0), t))
			total.Add(t)
		}
		res.All = sampledSeat(playSeat{Seat: "all four seats"}, total)
		if mb := m.Mobility; mb != nil {
			r, rm, o, om := mb.Means()
			rse, ose := mb.StdErrs()
			res.Mobility = &playMobility{Moves: mb.Moves, Replies: r, RepliesMean: rm, Own: o, OwnMean: om, RepliesSE: rse, OwnSE: ose}
		}
	}
	if f.json {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printPlay(w, res)
	return nil
}

func seatOf(su *playSetup, st play.Seat, pw, qw, un float64) playSeat {
	v := su.oracle.Outcome(st.Start(su.start))
	if !st.PFirst {
		v = play.Win - v // the start's verdict is the mover's, Q's
	}
	return playSeat{Seat: st.String(), PLeft: &st.PLeft, PFirst: &st.PFirst, PStart: verdictNames[v],
		PWin: pw, QWin: qw, Unfinished: un}
}

var verdictNames = map[play.Verdict]string{play.Win: "won", play.Loss: "lost", play.Draw: "drawn"}

// sampledSeat fills a seat's rates and interval from its tally.
func sampledSeat(s playSeat, t play.Tally) playSeat {
	n := float64(max(t.Games, 1))
	s.PWin, s.QWin, s.Unfinished = float64(t.PWins)/n, float64(t.QWins)/n, float64(t.Unfinished)/n
	lo, hi := play.Wilson(t.PWins, t.Games)
	s.CILow, s.CIHigh, s.Tally = &lo, &hi, &t
	return s
}

func printPlay(w io.Writer, r playResult) {
	fmt.Fprintf(w, "%s %s from %s: P = %s against Q = %s\n", r.Game, r.Board, r.Start, r.Player, r.Against)
	switch r.Method {
	case "exact":
		fmt.Fprintln(w, "exact: summed over every branch of play, nothing sampled")
	default:
		fmt.Fprintf(w, "sampled: %d games, seed %d, 95%% Wilson intervals (not exact: %s)\n", r.Games, *r.Seed, r.Why)
	}
	if r.MaxMoves > 0 {
		fmt.Fprintf(w, "a game still on after %d moves is unfinished\n", r.MaxMoves)
	}
	for _, s := range append(r.Seats, r.All) {
		line := fmt.Sprintf("  %-18s P wins %.4f", s.Seat, s.PWin)
		if s.CILow != nil {
			line += fmt.Sprintf(" [%.4f, %.4f] (%d of %d)", *s.CILow, *s.CIHigh, s.Tally.PWins, s.Tally.Games)
		}
		if r.MaxMoves > 0 {
			line += fmt.Sprintf(", Q wins %.4f, unfinished %.4f", s.QWin, s.Unfinished)
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	if mb := r.Mobility; mb != nil {
		fmt.Fprintf(w, "P's %d moves: the opponent's replies after them %.3f (mean over P's legal moves %.3f, difference's standard error %.3f); P's own moves after them %.3f (mean %.3f, s.e. %.3f)\n",
			mb.Moves, mb.Replies, mb.RepliesMean, mb.RepliesSE, mb.Own, mb.OwnMean, mb.OwnSE)
	}
}

// tablebaseOracle reads the verdicts and remoteness of a tiered game's
// states from a solved run's tablebase: the perfect player then plays the
// fastest wins and the slowest losses. A state the tablebase does not
// hold is a bug in the match (every state it visits is reachable), so it
// panics with the error.
type tablebaseOracle struct{ t *probe.Table }

func (o tablebaseOracle) remoteness(s play.State) uint8 {
	r, err := o.t.Record(s.Pos)
	if err != nil {
		panic(fmt.Sprintf("census play: tablebase: %v", err))
	}
	if s.Left {
		return r.Left
	}
	return r.Right
}

func (o tablebaseOracle) Outcome(s play.State) play.Verdict {
	if solve.Wins(o.remoteness(s)) {
		return play.Win
	}
	return play.Loss
}

func (o tablebaseOracle) Remoteness(s play.State) int { return int(o.remoteness(s)) }

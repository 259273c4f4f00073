package loopy

import (
	"context"
	"fmt"

	"github.com/census-cgt/census/retro"
	"github.com/census-cgt/census/schema"
)

// Summary is summary.json of a loopy game's census. Verdicts are from the
// side of the player to move: W won, L lost, D drawn.
type Summary struct {
	SchemaVersion int    `json:"schema_version"`
	Game          string `json:"game"`
	Board         string `json:"board"`
	Variant       string `json:"variant"`
	// Start is the start's arrangement; the first player moves first.
	Start string `json:"start"`

	Arrangements          uint64 `json:"arrangements"`
	ArrangementsSymmetric uint64 `json:"arrangements_symmetric"`
	States                uint64 `json:"states"`
	// Verdicts counts every state by its verdict.
	Verdicts map[string]uint64 `json:"verdicts"`
	// VerdictsByArrangement counts arrangements by two letters: the
	// verdict with the first player (Black) to move, then with the second.
	VerdictsByArrangement map[string]uint64 `json:"verdicts_by_arrangement"`
	// WonByRemoteness and LostByRemoteness count the decided states by
	// remoteness.
	WonByRemoteness  map[int]uint64 `json:"won_by_remoteness"`
	LostByRemoteness map[int]uint64 `json:"lost_by_remoteness"`
	MaxRemoteness    int            `json:"max_remoteness"`

	StartVerdict              string            `json:"start_verdict"`
	ReachableStates           uint64            `json:"reachable_states"`
	ReachableStatesSymmetric  uint64            `json:"reachable_states_symmetric"`
	ReachableVerdicts         map[string]uint64 `json:"reachable_verdicts"`
	ReachableWonByRemoteness  map[int]uint64    `json:"reachable_won_by_remoteness"`
	ReachableLostByRemoteness map[int]uint64    `json:"reachable_lost_by_remoteness"`
	// LastFirstReached is the greatest number of moves from the start to
	// first reach a state; FirstWonReached the least to reach a won one
	// (-1 when none is reachable).
	LastFirstReached int `json:"last_first_reached"`
	FirstWonReached  int `json:"first_won_reached"`
	// ReachableDrawnByLosingMoves counts the reachable drawn states by how
	// many of their moves lose; ReachableDrawnMoves and
	// ReachableDrawnLosingMoves sum their legal and losing moves.
	ReachableDrawnByLosingMoves map[int]uint64 `json:"reachable_drawn_by_losing_moves"`
	ReachableDrawnMoves         uint64         `json:"reachable_drawn_moves"`
	ReachableDrawnLosingMoves   uint64         `json:"reachable_drawn_losing_moves"`

	RandomPlayer RandomPlayer `json:"random_player"`
}

// RandomPlayer is the random player's analysis: a player who picks
// uniformly among its legal moves against a perfect one, summed exactly
// over every branch.
type RandomPlayer struct {
	// TieBreak is how the perfect player chooses among equally good moves.
	TieBreak string `json:"tie_break"`
	Horizon  int    `json:"horizon"`
	// Black is the random player moving first, White second.
	Black RandomSide `json:"black"`
	White RandomSide `json:"white"`
}

// RandomSide is the random player's fate playing one side.
type RandomSide struct {
	// LostWithin[k-1] is the probability that it has lost within k of its
	// own moves (it is stuck having made at most k).
	LostWithin []float64 `json:"lost_within"`
	// ExpectedMoves is the expected number of moves it makes before it is
	// stuck, to within retro.Tolerance; null when infinite.
	ExpectedMoves *float64 `json:"expected_moves"`
	// NeverLoses is the probability that it is never stuck; Wins that the
	// perfect player is stuck instead.
	NeverLoses float64 `json:"never_loses"`
	Wins       float64 `json:"wins"`
	// States is the number of states with it to move that play reaches.
	States int `json:"states"`
}

func (c *Census) summarise(ctx context.Context, o Options) error {
	g, res := c.g, c.res
	start := g.StartState()
	startArr, _ := g.Describe(start)
	s := Summary{
		SchemaVersion: schema.Version, Game: o.Game, Board: o.Board, Variant: o.Variant, Start: startArr,
		Arrangements: g.NumStates() / 2, States: g.NumStates(),
		Verdicts: map[string]uint64{}, VerdictsByArrangement: map[string]uint64{},
		WonByRemoteness: map[int]uint64{}, LostByRemoteness: map[int]uint64{},
		MaxRemoteness: res.MaxLevel, StartVerdict: res.Verdict[start].String(),
		ReachableVerdicts:           map[string]uint64{},
		ReachableWonByRemoteness:    map[int]uint64{},
		ReachableLostByRemoteness:   map[int]uint64{},
		ReachableDrawnByLosingMoves: map[int]uint64{},
		FirstWonReached:             -1,
	}
	all := func(uint64) bool { return true }
	reachable := func(t uint64) bool { return c.dist[t] != retro.Unreached }
	var buf, images []uint64
	for st := range g.NumStates() {
		if st%(1<<20) == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		v, rem := res.Verdict[st], int(res.Remoteness[st])
		images = g.StateImages(st, images[:0])
		s.Verdicts[v.String()]++
		if st%2 == 1 {
			s.VerdictsByArrangement[res.Verdict[st-1].String()+v.String()]++
		} else if leastInOrbit(st, images, all) {
			s.ArrangementsSymmetric++
		}
		byRem(v, rem, s.WonByRemoteness, s.LostByRemoteness)
		d := c.dist[st]
		if d == retro.Unreached {
			continue
		}
		s.ReachableStates++
		if leastInOrbit(st, images, reachable) {
			s.ReachableStatesSymmetric++
		}
		s.ReachableVerdicts[v.String()]++
		byRem(v, rem, s.ReachableWonByRemoteness, s.ReachableLostByRemoteness)
		s.LastFirstReached = max(s.LastFirstReached, int(d))
		if v == retro.Win && (s.FirstWonReached < 0 || int(d) < s.FirstWonReached) {
			s.FirstWonReached = int(d)
		}
		if v == retro.Draw {
			var legal, losing int
			legal, losing, buf = c.moves(st, buf)
			s.ReachableDrawnByLosingMoves[losing]++
			s.ReachableDrawnMoves += uint64(legal)
			s.ReachableDrawnLosingMoves += uint64(losing)
		}
	}
	rp := RandomPlayer{TieBreak: o.TieBreak.String(), Horizon: o.Horizon}
	for _, side := range []struct {
		first bool
		out   *RandomSide
	}{{true, &rp.Black}, {false, &rp.White}} {
		a, err := retro.AnalyseRandom(ctx, g, res, start, side.first, o.TieBreak, o.Horizon)
		if err != nil {
			return fmt.Errorf("play the random player: %w", err)
		}
		*side.out = RandomSide{LostWithin: a.LostWithin, ExpectedMoves: finite(a.Expected),
			NeverLoses: a.Never, Wins: a.Won, States: a.States}
	}
	s.RandomPlayer = rp
	c.Summary = s
	return nil
}

// byRem counts a decided state in won or lost by its remoteness.
func byRem(v retro.Verdict, rem int, won, lost map[int]uint64) {
	switch v {
	case retro.Win:
		won[rem]++
	case retro.Loss:
		lost[rem]++
	}
}

package play

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Seat is one of the four ways a game between P and Q is set up: P's
// side and who moves first.
type Seat struct {
	// PLeft is true when P plays Left.
	PLeft bool
	// PFirst is true when P moves first.
	PFirst bool
}

// Seats lists the four seats in the order a match plays them.
var Seats = []Seat{{true, true}, {true, false}, {false, true}, {false, false}}

// String is e.g. "P Left, P first".
func (st Seat) String() string {
	side, first := "Right", "Q first"
	if st.PLeft {
		side = "Left"
	}
	if st.PFirst {
		first = "P first"
	}
	return "P " + side + ", " + first
}

// Start is the state a game from pos begins in.
func (st Seat) Start(pos uint64) State { return State{Pos: pos, Left: st.PLeft == st.PFirst} }

// Tally counts the games of one seat, or of a whole match.
type Tally struct {
	Games int `json:"games"`
	// PWins and QWins count the games each won; Unfinished counts those
	// that reached the move limit (only loopy games can).
	PWins      int `json:"p_wins"`
	QWins      int `json:"q_wins"`
	Unfinished int `json:"unfinished,omitempty"`
}

// Add adds o to t.
func (t *Tally) Add(o Tally) {
	t.Games += o.Games
	t.PWins += o.PWins
	t.QWins += o.QWins
	t.Unfinished += o.Unfinished
}

// Match is what a match plays: P against Q from a position.
type Match struct {
	Rules Rules
	// P and Q are the players; they keep nothing from game to game but
	// scratch space, so a game depends only on its generator.
	P, Q Player
	// Start is the start position (State.Pos); the seat decides the mover.
	Start uint64
	// MaxMoves ends a game unfinished after that many moves (0: no limit;
	// loopy games need one).
	MaxMoves int
	// Mobility, when not nil, gathers the mobility of P's sampled moves.
	Mobility *Mobility
}

// Mobility measures what P's moves do to the number of moves each side
// has: over P's moves in sampled games, the opponent's replies after the
// move and P's own moves in the position it leaves (were P to move again),
// each beside its mean over all of P's legal moves at that point, which is
// what the random player gets on average.
type Mobility struct {
	Moves int `json:"moves"`
	// Sums over P's moves, and of the squares of the differences chosen
	// minus mean, for their standard errors.
	Replies, RepliesMean float64
	Own, OwnMean         float64
	RepliesSq, OwnSq     float64
}

// StdErrs returns the standard errors of the mean differences, replies
// and own moves, chosen minus mean.
func (mb *Mobility) StdErrs() (replies, own float64) {
	n := float64(mb.Moves)
	if n < 2 {
		return math.NaN(), math.NaN()
	}
	se := func(sum, sq float64) float64 {
		mean := sum / n
		return math.Sqrt(max(sq/n-mean*mean, 0) / (n - 1))
	}
	return se(mb.Replies-mb.RepliesMean, mb.RepliesSq), se(mb.Own-mb.OwnMean, mb.OwnSq)
}

// Means returns the mean per move of the four sums.
func (mb *Mobility) Means() (replies, repliesMean, own, ownMean float64) {
	n := float64(max(mb.Moves, 1))
	return mb.Replies / n, mb.RepliesMean / n, mb.Own / n, mb.OwnMean / n
}

// add measures P's choice of moves[chosen] from s.
func (mb *Mobility) add(r Rules, s State, moves []State, chosen int, buf []State) []State {
	var replies, own float64
	for i, t := range moves {
		buf = r.Moves(t, buf[:0])
		nr := float64(len(buf))
		buf = r.Moves(State{Pos: t.Pos, Left: s.Left}, buf[:0])
		no := float64(len(buf))
		replies += nr
		own += no
		if i == chosen {
			mb.Replies += nr
			mb.Own += no
		}
	}
	mb.Moves++
	rm, om := replies/float64(len(moves)), own/float64(len(moves))
	mb.RepliesMean += rm
	mb.OwnMean += om
	buf = r.Moves(moves[chosen], buf[:0])
	d := float64(len(buf)) - rm
	mb.RepliesSq += d * d
	buf = r.Moves(State{Pos: moves[chosen].Pos, Left: s.Left}, buf[:0])
	d = float64(len(buf)) - om
	mb.OwnSq += d * d
	return buf
}

// Sample plays games games, seat Seats[k%4] for game k, each from its own
// generator seeded with (seed, k): a game's moves depend only on the seed
// and its number. It returns the tally of each seat.
func (m *Match) Sample(seed uint64, games int) ([]Tally, error) {
	if m.Rules.Loopy() && m.MaxMoves == 0 {
		return nil, errors.New("a loopy game needs a move limit")
	}
	tallies := make([]Tally, len(Seats))
	var moves, buf []State
	for k := range games {
		si := k % len(Seats)
		seat := Seats[si]
		rng := rand.New(rand.NewPCG(seed, uint64(k)))
		s := seat.Start(m.Start)
		pMoves := seat.PFirst
		t := &tallies[si]
		t.Games++
		for n := 0; ; n++ {
			if m.MaxMoves > 0 && n == m.MaxMoves {
				t.Unfinished++
				break
			}
			moves = m.Rules.Moves(s, moves[:0])
			if len(moves) == 0 {
				// The mover cannot move and loses.
				if pMoves {
					t.QWins++
				} else {
					t.PWins++
				}
				break
			}
			pl := m.Q
			if pMoves {
				pl = m.P
			}
			i := pl.Choose(s, moves, rng)
			if pMoves && m.Mobility != nil {
				buf = m.Mobility.add(m.Rules, s, moves, i, buf)
			}
			s, pMoves = moves[i], !pMoves
		}
	}
	return tallies, nil
}

// ErrTooCostly is returned by Exact when a player cannot give its move
// probabilities exactly, or the play visits more states than maxStates.
var ErrTooCostly = errors.New("exact sum too costly")

// Exact is the exact outcome of one seat: the probabilities that P wins,
// that Q wins, and (loopy games) that the game is still on after MaxMoves
// moves.
type Exact struct {
	PWins, QWins, Unfinished float64
	// States is the number of states visited, summed over the moves (a
	// state met after different numbers of moves counts each time).
	States int
}

// Exact sums every branch of play from one seat: the probability of each
// state after n moves follows from those after n-1 and the players' move
// probabilities. It fails with ErrTooCostly when a player's probabilities
// are beyond its budget or it would visit more than maxStates states. The states of
// each move are kept in the order they are first reached, so that the sums
// are made in the same order every time.
func (m *Match) Exact(seat Seat, maxStates int) (Exact, error) {
	if m.Rules.Loopy() && m.MaxMoves == 0 {
		return Exact{}, errors.New("a loopy game needs a move limit")
	}
	pr := exactProbs{m: m}
	if m.Rules.Loopy() {
		pr.cache = make(map[exactKey]exactMoves)
	}
	var out Exact
	cur := exactStates{keys: []exactKey{{seat.Start(m.Start), seat.PFirst}}, mass: []float64{1}}
	for n := 0; len(cur.keys) > 0; n++ {
		if m.MaxMoves > 0 && n == m.MaxMoves {
			for _, w := range cur.mass {
				out.Unfinished += w
			}
			break
		}
		out.States += len(cur.keys)
		next := exactStates{index: make(map[exactKey]int, len(cur.keys))}
		for c, k := range cur.keys {
			w := cur.mass[c]
			mv, err := pr.of(k, n)
			if err != nil {
				return Exact{}, err
			}
			if len(mv.next) == 0 {
				if k.pMoves {
					out.QWins += w
				} else {
					out.PWins += w
				}
				continue
			}
			for i, t := range mv.next {
				if mv.p[i] == 0 {
					continue
				}
				if !next.add(exactKey{t, !k.pMoves}, w, mv.p[i], maxStates-out.States) {
					return Exact{}, fmt.Errorf("more than %d states by %d moves: %w", maxStates, n+1, ErrTooCostly)
				}
			}
		}
		cur = next
	}
	return out, nil
}

// exactKey is a state of a game of a match and whether P is the mover.
type exactKey struct {
	s      State
	pMoves bool
}

// exactMoves is the moves from a state and the mover's probability of each.
type exactMoves struct {
	next []State
	p    []float64
}

// exactProbs gives the moves of the states of a match with the movers'
// probabilities, in scratch space that the next call reuses.
type exactProbs struct {
	m *Match
	// Loopy games meet a state again and again: cache, when not nil, keeps
	// each player's probabilities.
	cache map[exactKey]exactMoves
	moves []State
	p     []float64
}

// of is the moves from k, reached after n moves, with their
// probabilities; it fails with ErrTooCostly when the mover cannot give
// them exactly.
func (pr *exactProbs) of(k exactKey, n int) (exactMoves, error) {
	if cv, ok := pr.cache[k]; ok {
		return cv, nil
	}
	m := pr.m
	pr.moves = m.Rules.Moves(k.s, pr.moves[:0])
	if len(pr.moves) > 0 {
		pl := m.Q
		if k.pMoves {
			pl = m.P
		}
		pr.p = append(pr.p[:0], make([]float64, len(pr.moves))...)
		if !pl.Dist(k.s, pr.moves, pr.p) {
			return exactMoves{}, fmt.Errorf("%s after %d moves: %w", pl, n, ErrTooCostly)
		}
	}
	if pr.cache != nil {
		pr.cache[k] = exactMoves{append([]State(nil), pr.moves...), append([]float64(nil), pr.p[:len(pr.moves)]...)}
	}
	return exactMoves{pr.moves, pr.p}, nil
}

// exactStates is the states after some number of moves, in the order they
// were first reached, with the probability of each.
type exactStates struct {
	index map[exactKey]int // the place of each state in keys
	keys  []exactKey
	mass  []float64
}

// add adds w*p to the probability of k, which it adds first when it is
// new, unless there are already room states; it reports false then.
func (st *exactStates) add(k exactKey, w, p float64, room int) bool {
	j, ok := st.index[k]
	if !ok {
		if len(st.keys) == room {
			return false
		}
		j = len(st.keys)
		st.index[k] = j
		st.keys = append(st.keys, k)
		st.mass = append(st.mass, 0)
	}
	st.mass[j] += w * p
	return true
}

// Wilson is the 95% Wilson score interval of wins out of n.
func Wilson(wins, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(wins) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}

// Package probe answers what a solved run's tablebase knows of one
// position: its class, each player's result and remoteness, every legal
// move with what it leads to, best first, and the line of best play.
// `census probe`, `census serve` and the perfect player of `census play`
// ask it.
package probe

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/values"
)

// The errors of a probe. A caller tells a bad question (ErrBadDiagram:
// not a position of the run's game and board) from a position the run
// does not hold (ErrNotInRun: unreachable from its start) and from a
// damaged tablebase (ErrCorrupt).
var (
	ErrBadDiagram = errors.New("bad diagram")
	ErrNotInRun   = errors.New("position not in the run")
	ErrCorrupt    = errors.New("tablebase corrupt")
	// ErrNoTablebase: the run was solved before the solve kept a
	// tablebase (census solve solves it again to gain one), or not
	// solved at all.
	ErrNoTablebase = errors.New("no tablebase")
)

// MaxDiagram bounds the length of a diagram a probe reads: a board of 64
// squares and its row separators fit with room to spare.
const MaxDiagram = 256

// Source is where a Table finds the record of a stored position (the
// representative of its orbit under the start's symmetries): a
// tablebase's files, or a solve made in memory. It returns false when it
// holds no such position, and an error wrapping ErrCorrupt when what it
// holds is damaged. It is safe for concurrent use.
type Source interface {
	Record(tier int, canon uint64) (solve.Record, bool, error)
}

// Table answers probes of one solved run. It is safe for concurrent use.
type Table struct {
	info   RunInfo
	g      games.Mover
	group  games.Group
	src    Source
	values *values.Index
	// valuesMu serializes the answers' values (see value).
	valuesMu sync.Mutex
	// startX and startO count each player's amazons at the start, for
	// games whose movers never leave the board (Amazons).
	startX, startO int
	close          func() error
}

// New returns the table of the run info describes, whose game is g and
// whose stored positions are the representatives under group, each one's
// record in src. x, when not nil, values the pieces of a valued run.
func New(info RunInfo, g games.Mover, group games.Group, src Source, x *values.Index) *Table {
	t := &Table{info: info, g: g, group: group, src: src, values: x}
	start := g.Format(g.Start())
	t.startX, t.startO = strings.Count(start, "x"), strings.Count(start, "o")
	info.Valued = x != nil
	t.info = info
	return t
}

// Info describes the run.
func (t *Table) Info() RunInfo { return t.info }

// Game is the run's game.
func (t *Table) Game() games.Mover { return t.g }

// Close releases the files of the table's source.
func (t *Table) Close() error {
	if t.close != nil {
		return t.close()
	}
	return nil
}

// Position reads a diagram of the run's board. It fails with an error
// wrapping ErrBadDiagram that names what is wrong: a length over
// MaxDiagram, another board size, a character not of the game, or (Amazons)
// another number of amazons than the start has.
func (t *Table) Position(diagram string) (uint64, error) {
	if len(diagram) > MaxDiagram {
		return 0, fmt.Errorf("%w: %d characters, at most %d", ErrBadDiagram, len(diagram), MaxDiagram)
	}
	pos, err := t.parse(diagram)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), t.info.Game+": ")
		msg = strings.TrimPrefix(msg, games.ErrBadDiagram.Error()+": ")
		return 0, fmt.Errorf("%w: %s", ErrBadDiagram, msg)
	}
	if t.info.Game == "amazons" {
		x, o := strings.Count(diagram, "x"), strings.Count(diagram, "o")
		if x != t.startX || o != t.startO {
			return 0, fmt.Errorf("%w: %q has %d black and %d white amazons, the run's start %d and %d",
				ErrBadDiagram, diagram, x, o, t.startX, t.startO)
		}
	}
	return pos, nil
}

// parse reads diagram with the game's own parser, or as the start of a
// new game where it has none.
func (t *Table) parse(diagram string) (uint64, error) {
	if p, ok := t.g.(games.Parser); ok {
		return p.Parse(diagram)
	}
	g, err := all.New(t.info.Game, t.info.Board, diagram)
	if err != nil {
		return 0, err
	}
	return g.Start(), nil
}

// Record is the record of pos: its representative's, with Left and Right
// exchanged when the map to it exchanges the players. It fails with an
// error wrapping ErrNotInRun when pos is not reachable from the run's
// start.
func (t *Table) Record(pos uint64) (solve.Record, error) {
	tier := t.g.Tier(pos)
	if tier < 0 {
		return solve.Record{}, fmt.Errorf("%w: %s holds more material than the run's start %s, so no sequence of moves reaches it",
			ErrNotInRun, t.g.Format(pos), t.info.Start)
	}
	if tier >= t.info.Tiers {
		return solve.Record{}, fmt.Errorf("%w: %s is %d moves from the start, the run's tiers are 0 to %d",
			ErrNotInRun, t.g.Format(pos), tier, t.info.Tiers-1)
	}
	canon, negated := t.group.CanonSign(pos)
	r, ok, err := t.src.Record(tier, canon)
	if err != nil {
		return solve.Record{}, err
	}
	if !ok {
		return solve.Record{}, fmt.Errorf("%w: %s is not reachable from the run's start %s", ErrNotInRun, t.g.Format(pos), t.info.Start)
	}
	if negated {
		r = r.Negate()
	}
	return r, nil
}

// Probe answers for the position diagram shows, for the player to move
// asked (Both for both). It fails like Position and Record.
func (t *Table) Probe(diagram string, toMove Player) (*Answer, error) {
	pos, err := t.Position(diagram)
	if err != nil {
		return nil, err
	}
	return t.Answer(pos, toMove)
}

// Answer answers for pos, for the player to move asked (Both for both).
func (t *Table) Answer(pos uint64, toMove Player) (*Answer, error) {
	a, err := t.Brief(pos, toMove)
	if err != nil {
		return nil, err
	}
	a.Moves, a.BestLine = map[string][]Move{}, map[string][]Move{}
	for _, p := range []Player{Left, Right} {
		if toMove != Both && toMove != p {
			continue
		}
		if a.Moves[p.String()], err = t.Moves(pos, p); err != nil {
			return nil, err
		}
		if a.BestLine[p.String()], err = t.BestLine(pos, p); err != nil {
			return nil, err
		}
	}
	if t.values != nil {
		t.value(a, pos)
	}
	return a, nil
}

// Moves lists p's legal moves in pos, best first: the winning moves by
// least remoteness, then the losing ones by greatest, ties in the order
// of their notation.
func (t *Table) Moves(pos uint64, p Player) ([]Move, error) {
	opts, err := t.options(pos, p, nil)
	if err != nil {
		return nil, err
	}
	before := cells(t.g.Format(pos))
	moves := make([]Move, 0, len(opts))
	for _, o := range opts {
		m, err := t.move(before, p, o)
		if err != nil {
			return nil, err
		}
		moves = append(moves, m)
	}
	slices.SortFunc(moves, func(a, b Move) int {
		return cmp.Or(cmp.Compare(rank(uint8(a.Remoteness)), rank(uint8(b.Remoteness))), cmp.Compare(a.Move, b.Move))
	})
	return moves, nil
}

// option is a move's position after it and that position's remoteness
// with the opponent to move.
type option struct {
	next uint64
	r    uint8
}

// rank orders the options of a player by what they do for the player,
// best first: a win (the opponent, to move after it, loses: r even) before
// a loss, a faster win before a slower one, a slower loss before a faster
// one.
func rank(r uint8) int {
	if !solve.Wins(r) {
		return int(r)
	}
	return 2*solve.MaxRemoteness - int(r)
}

// options appends p's options in pos, with their remoteness, to dst.
func (t *Table) options(pos uint64, p Player, dst []option) ([]option, error) {
	for _, o := range t.g.Options(pos, p == Left, nil) {
		r, err := t.Record(o)
		if err != nil {
			return nil, fmt.Errorf("%w: the option %s of %s: %v", ErrCorrupt, t.g.Format(o), t.g.Format(pos), err)
		}
		opp := r.Left
		if p == Left {
			opp = r.Right
		}
		dst = append(dst, option{next: o, r: opp})
	}
	return dst, nil
}

// move describes p's move from the position whose cells are before to
// o.next.
func (t *Table) move(before []byte, p Player, o option) (Move, error) {
	after := t.g.Format(o.next)
	squares, name, err := describe(t.info.Game, before, cells(after), t.info.Cols)
	if err != nil {
		return Move{}, err
	}
	res := "loss"
	if !solve.Wins(o.r) {
		res = "win"
	}
	return Move{Move: name, Player: p.String(), Squares: squares, Diagram: after, Result: res, Remoteness: int(o.r), next: o.next}, nil
}

// BestLine is the line of best play from pos with p to move: p's best
// move, the opponent's best reply, and so on to the end: the first move
// Moves lists at each step, but only the best moves are described. Its
// length is the position's remoteness for p; a tablebase whose records
// disagree with their options' fails with an error wrapping ErrCorrupt.
func (t *Table) BestLine(pos uint64, p Player) ([]Move, error) {
	r, err := t.Record(pos)
	if err != nil {
		return nil, err
	}
	want := r.Left
	if p == Right {
		want = r.Right
	}
	var line []Move
	var opts []option
	for {
		if opts, err = t.options(pos, p, opts[:0]); err != nil {
			return nil, err
		}
		if len(opts) == 0 {
			if want != 0 {
				return nil, fmt.Errorf("%w: %s has no move for %s but remoteness %d", ErrCorrupt, t.g.Format(pos), p, want)
			}
			return line, nil
		}
		best, err := t.best(pos, p, opts)
		if err != nil {
			return nil, err
		}
		if best.Remoteness+1 != int(want) {
			return nil, fmt.Errorf("%w: %s has remoteness %d for %s, its best move %s leaves %d",
				ErrCorrupt, t.g.Format(pos), want, p, best.Move, best.Remoteness)
		}
		line = append(line, best)
		pos, p, want = best.next, p.Other(), uint8(best.Remoteness)
	}
}

// best is the best of p's options opts in pos, as Moves orders them.
func (t *Table) best(pos uint64, p Player, opts []option) (Move, error) {
	top := rank(opts[0].r)
	for _, o := range opts[1:] {
		top = min(top, rank(o.r))
	}
	before := cells(t.g.Format(pos))
	var best Move
	for _, o := range opts {
		if rank(o.r) != top {
			continue
		}
		m, err := t.move(before, p, o)
		if err != nil {
			return Move{}, err
		}
		if best.Move == "" || m.Move < best.Move {
			best = m
		}
	}
	return best, nil
}

// value adds each live piece's value and their sum to a. The values'
// table builds the sum's form, so one answer at a time uses it.
func (t *Table) value(a *Answer, pos uint64) {
	t.valuesMu.Lock()
	defer t.valuesMu.Unlock()
	g, tab := t.values.Game(), t.values.Table()
	for _, pv := range t.values.Pieces(pos) {
		p := Piece{Picture: g.Picture(pv.Key)}
		switch {
		case pv.Valued:
			p.Value = tab.String(pv.Value)
		case pv.Capped:
			p.Note = "capped"
		case pv.Missing:
			p.Note = "missing"
		default:
			p.Note = "not valued"
		}
		if pv.Outcome != 0 {
			p.Outcome = pv.Outcome.String()
		}
		a.Pieces = append(a.Pieces, p)
	}
	if sum := t.values.Value(pos); sum.Complete() {
		v := tab.String(sum.Sum)
		a.Value = &v
	}
}

// cells is a diagram's cells without its row separators.
func cells(diagram string) []byte { return []byte(strings.ReplaceAll(diagram, "/", "")) }

// Brief answers for pos without its moves and best line: the class and
// each player's result alone.
func (t *Table) Brief(pos uint64, toMove Player) (*Answer, error) {
	r, err := t.Record(pos)
	if err != nil {
		return nil, err
	}
	return &Answer{Diagram: t.g.Format(pos), Game: t.info.Game, Board: t.info.Board, Tier: t.g.Tier(pos),
		Outcome: r.Outcome().String(), LeftFirst: resultOf(r.Left), RightFirst: resultOf(r.Right),
		ToMove: toMove.String(), record: r}, nil
}

// Package values computes the value of every piece of a census game: its
// canonical form as a short partizan game (package cgt) and its outcome
// class.
//
// A piece's value is the canonical form of {Left options | Right options},
// where each option is a position whose live pieces are smaller than the
// piece (a move removes a stone in Clobber, covers two squares in
// Domineering, burns one in Amazons) and whose value is the sum of its
// pieces' values. Values are memoised by translated piece key; a
// symmetric image has the piece's value, and the negation of a piece (the
// colour swap in Clobber and Amazons, the transpose in Domineering, which
// turns vertical dominoes into horizontal ones) has the negated value, so
// only one piece per negation class is valued from its options.
//
// A canonical form over the cap (Options.Cap nodes) is not kept: the piece
// is recorded as capped, and so is every piece with an option that holds a
// capped piece. The outcome class of a capped piece is still exact: it is
// found by a memoised search over sums, see outcomeBySearch.
package values

import (
	"fmt"
	"slices"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// DefaultCap is the default size cap of a canonical form, in nodes (the
// form and all its followers, cgt.Table.Size). The largest canonical form
// of a piece of Clobber 4x4 has 1,356 nodes, so none of its pieces is
// capped by default.
const DefaultCap = 1 << 12

// Value is the value of one translated piece.
type Value struct {
	// ID is the canonical form in the Valuer's table; meaningless when
	// Capped.
	ID cgt.ID
	// Capped is true when the canonical form is over the cap, or an option
	// holds a capped piece.
	Capped bool
	// Outcome is the outcome class, exact even when Capped.
	Outcome cgt.Outcome
	// Nodes is the size of the canonical form (0 when Capped).
	Nodes int
	// Cost is the number of distinct sub-positions the valuation visited:
	// the positions reached by one move of either player, each of which is
	// decomposed into pieces whose values are summed.
	Cost int
}

// Valuer values the pieces of one game. It is not safe for concurrent use.
type Valuer struct {
	game    string
	cap     int
	table   *cgt.Table
	boxes   map[uint64]games.Mover
	memo    memo
	fresh   []games.PieceKey // valued by Value, not recorded by Set
	winMemo map[string]bool
	succ    [][]uint64 // a successor buffer per recursion depth
	depth   int
}

// New returns a Valuer of the named game whose canonical forms are capped
// at cap nodes (DefaultCap when cap <= 0). It fails on an unknown game.
func New(game string, cap int) (*Valuer, error) {
	if _, err := all.New(game, "2x2", ""); err != nil {
		return nil, fmt.Errorf("value pieces: %w", err)
	}
	if cap <= 0 {
		cap = DefaultCap
	}
	return &Valuer{
		game:    game,
		cap:     cap,
		table:   cgt.NewTable(),
		boxes:   map[uint64]games.Mover{},
		winMemo: map[string]bool{},
	}, nil
}

// Table is the table the values' IDs belong to.
func (v *Valuer) Table() *cgt.Table { return v.table }

// String is the canonical form of val in CGSuite's notation, or "" when it
// is capped. The notation writes a follower once per path to it, so its
// length can grow exponentially with the nodes of the form: the longest of
// Clobber 4x4 (1,186 nodes) is 245,870 bytes, and the 23,608 distinct
// values of its pieces take 5.9 MB together.
func (v *Valuer) String(val Value) string {
	if val.Capped {
		return ""
	}
	return v.table.String(val.ID)
}

// Len is the number of translated pieces valued so far.
func (v *Valuer) Len() int { return v.memo.n }

// box returns the game on the board of k's bounding box.
func (v *Valuer) box(k games.PieceKey) games.Mover {
	if g, ok := v.boxes[k.Hi]; ok {
		return g
	}
	rows, cols := k.Dims()
	g, err := all.New(v.game, fmt.Sprintf("%dx%d", rows, cols), "")
	if err != nil {
		panic(fmt.Sprintf("values: build %s on the box of a piece: %v", v.game, err))
	}
	m := g.(games.Mover)
	v.boxes[k.Hi] = m
	return m
}

// Value returns the value of the live translated piece k.
func (v *Valuer) Value(k games.PieceKey) Value {
	if r, ok := v.memo.get(k); ok {
		return r
	}
	g := v.box(k)
	sym, neg, _ := g.Classes(k)
	var r Value
	switch {
	case neg != sym:
		r = v.negate(v.Value(neg))
	case sym != k:
		r = v.Value(sym)
	default:
		r = v.compute(g, k)
	}
	v.memo.set(k, r)
	v.fresh = append(v.fresh, k)
	return r
}

func (v *Valuer) negate(r Value) Value {
	if !r.Capped {
		r.ID = v.table.Neg(r.ID)
	}
	switch r.Outcome {
	case cgt.L:
		r.Outcome = cgt.R
	case cgt.R:
		r.Outcome = cgt.L
	}
	return r
}

// sum is a position as a sum: the canonical sum of its uncapped pieces and
// the keys of its capped ones, sorted.
type sum struct {
	part   cgt.ID
	capped []games.PieceKey
}

// split values the live pieces of pos, a position of g, into a sum.
func (v *Valuer) split(g games.Mover, pos uint64) sum {
	s := sum{part: cgt.Zero}
	for _, p := range g.Pieces(pos, nil) {
		if !p.Live {
			continue
		}
		k := g.Translate(p.Key)
		if pv := v.Value(k); pv.Capped {
			s.capped = append(s.capped, k)
		} else {
			s.part = v.table.Add(s.part, pv.ID)
		}
	}
	slices.SortFunc(s.capped, games.PieceKey.Compare)
	return s
}

// options returns the sums reached by one move of Left (left) or Right in
// the piece k of game g, and how many distinct positions they are.
func (v *Valuer) options(g games.Mover, k games.PieceKey, left bool) []sum {
	if len(v.succ) <= v.depth {
		v.succ = append(v.succ, nil)
	}
	succ := g.Options(g.PiecePosition(k), left, v.succ[v.depth][:0])
	slices.Sort(succ)
	succ = slices.Compact(succ)
	v.succ[v.depth] = succ
	v.depth++
	defer func() { v.depth-- }()
	out := make([]sum, len(succ))
	for i, s := range succ {
		out[i] = v.split(g, s)
	}
	return out
}

// compute values k, the least key of its negation class, from its options.
func (v *Valuer) compute(g games.Mover, k games.PieceKey) Value {
	left, right := v.options(g, k, true), v.options(g, k, false)
	r := Value{Cost: len(left) + len(right)}
	var l, rr []cgt.ID
	for _, s := range left {
		r.Capped = r.Capped || len(s.capped) > 0
		l = append(l, s.part)
	}
	for _, s := range right {
		r.Capped = r.Capped || len(s.capped) > 0
		rr = append(rr, s.part)
	}
	if !r.Capped {
		r.ID = v.table.New(l, rr)
		if r.Nodes = v.table.Size(r.ID); r.Nodes > v.cap {
			r.Capped, r.Nodes = true, 0
		}
	}
	if r.Capped {
		r.Outcome = v.outcomeBySearch(left, right)
	} else {
		r.Outcome = v.table.Outcome(r.ID)
	}
	return r
}

type gamesKey = games.PieceKey

func sortKeys(ks []games.PieceKey) { slices.SortFunc(ks, games.PieceKey.Compare) }

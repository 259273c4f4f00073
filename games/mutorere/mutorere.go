// Package mutorere holds the rules of Mū tōrere, and of its relatives on
// larger and smaller stars, for the census.
//
// The board is a star of n = 2k points on a circle, each joined to its two
// neighbours on the circle and by a spoke to a centre; k Black and k White
// counters fill all but one of the n+1 places. A move slides one of the
// mover's counters along a line into the empty place: along the circle to a
// neighbouring point, out of the centre to any point, or from a point into
// the centre only when one of that counter's two circle neighbours holds an
// opponent's counter (the clause; the free-centre variant drops it). Nothing
// is captured, and a player who cannot move loses. From the start (Black on
// k neighbouring points, White on the other k, centre empty) Black moves
// first.
//
// Moves can be undone, so positions recur: the game is loopy and does not
// fit the tiered games.Game interface. Instead a Rules is an explicit state
// graph (see Successors and Predecessors) for retrograde analysis. A state
// is an arrangement and the player to move, numbered densely by Index.
package mutorere

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// MaxPoints is the largest star an Arrangement holds: the n points and the
// centre take n+1 of the 32 bits of each colour.
const MaxPoints = 30

// Colour is the colour of a counter, and the player to move.
type Colour uint8

const (
	Black Colour = iota
	White
)

// Other is the opponent of c.
func (c Colour) Other() Colour { return 1 - c }

// String is "B" or "W".
func (c Colour) String() string { return [...]string{"B", "W"}[c] }

// Variant is a set of rules.
type Variant uint8

const (
	// Classic is the game as played: a counter enters the centre only
	// from beside an opponent's counter.
	Classic Variant = iota
	// FreeCentre drops the clause: any counter on a point next to the
	// empty centre may enter it.
	FreeCentre
)

// Variants lists the variants by the name the CLI gives them.
var Variants = map[string]Variant{"classic": Classic, "free-centre": FreeCentre}

// String is the variant's name as the CLI spells it.
func (v Variant) String() string {
	if v == FreeCentre {
		return "free-centre"
	}
	return "classic"
}

// ErrPoints is wrapped by New's error for a star it cannot build.
var ErrPoints = errors.New("a star needs an even number of points from 4 to 30")

// Arrangement is where the counters stand: Black's places in the low 32 bits
// and White's in the high 32 bits, point i at bit i and the centre at bit n.
// The one place in neither is empty.
type Arrangement uint64

// Black and White are the places of each colour's counters.
func (a Arrangement) Black() uint32 { return uint32(a) }
func (a Arrangement) White() uint32 { return uint32(a >> 32) }

// Of is the places of c's counters.
func (a Arrangement) Of(c Colour) uint32 {
	if c == Black {
		return a.Black()
	}
	return a.White()
}

func arrangement(black, white uint32) Arrangement {
	return Arrangement(uint64(black) | uint64(white)<<32)
}

// Rules is Mū tōrere on one star under one variant. It is immutable and safe
// for concurrent use.
type Rules struct {
	n        int // points on the circle; the centre is place n
	k        int // counters a side
	variant  Variant
	all      uint32     // every place
	choose   [][]uint64 // choose[i][j] = C(i, j) for i <= n
	perEmpty uint64     // arrangements with a given empty place: C(n, k)
}

// New returns the rules on a star of points points (an even number from 4
// to MaxPoints) with k = points/2 counters a side. It fails, wrapping
// ErrPoints, on any other number of points.
func New(points int, v Variant) (*Rules, error) {
	if points < 4 || points > MaxPoints || points%2 != 0 {
		return nil, fmt.Errorf("star of %d points: %w", points, ErrPoints)
	}
	if v != Classic && v != FreeCentre {
		return nil, fmt.Errorf("unknown variant %d", v)
	}
	r := &Rules{n: points, k: points / 2, variant: v, all: 1<<(points+1) - 1}
	r.choose = make([][]uint64, points+1)
	for i := range r.choose {
		r.choose[i] = make([]uint64, points+1)
		r.choose[i][0] = 1
		for j := 1; j <= i; j++ {
			r.choose[i][j] = r.choose[i-1][j-1]
			if j < i {
				r.choose[i][j] += r.choose[i-1][j]
			}
		}
	}
	r.perEmpty = r.choose[points][r.k]
	return r, nil
}

// Points is the number of points on the circle, n.
func (r *Rules) Points() int { return r.n }

// Centre is the place number of the centre, n.
func (r *Rules) Centre() int { return r.n }

// Variant is the rules' variant.
func (r *Rules) Variant() Variant { return r.variant }

// Start is Black on points 0..k-1, White on points k..n-1, centre empty.
func (r *Rules) Start() Arrangement {
	black := uint32(1)<<r.k - 1
	return arrangement(black, black<<r.k)
}

// Empty is the place of a's empty place.
func (r *Rules) Empty(a Arrangement) int {
	return bits.TrailingZeros32(r.all &^ (a.Black() | a.White()))
}

func (r *Rules) left(p int) int  { return (p + r.n - 1) % r.n }
func (r *Rules) right(p int) int { return (p + 1) % r.n }

// mayEnter reports whether the counter of colour c on point p may move into
// the centre: always in FreeCentre, else when a circle neighbour of p holds
// an opponent's counter.
func (r *Rules) mayEnter(a Arrangement, c Colour, p int) bool {
	if r.variant == FreeCentre {
		return true
	}
	opp := a.Of(c.Other())
	return opp&(1<<r.left(p)|1<<r.right(p)) != 0
}

// slide is a with c's counter moved from place from to place to.
func slide(a Arrangement, c Colour, from, to int) Arrangement {
	m := uint64(1)<<from | uint64(1)<<to
	if c == White {
		m <<= 32
	}
	return a ^ Arrangement(m)
}

// Moves appends to dst the arrangement after each legal move of mover in a,
// one per move, in a fixed order: by the place the moving counter leaves,
// lowest first. Distinct moves give distinct arrangements (each fills the
// one empty place from a different place).
func (r *Rules) Moves(a Arrangement, mover Colour, dst []Arrangement) []Arrangement {
	e := r.Empty(a)
	own := a.Of(mover)
	if e == r.n {
		for p := range r.n {
			if own&(1<<p) != 0 && r.mayEnter(a, mover, p) {
				dst = append(dst, slide(a, mover, p, e))
			}
		}
		return dst
	}
	l, rt := r.left(e), r.right(e)
	if rt < l {
		l, rt = rt, l
	}
	for _, p := range [...]int{l, rt, r.n} {
		if own&(1<<p) != 0 {
			dst = append(dst, slide(a, mover, p, e))
		}
	}
	return dst
}

// Unmoves appends to dst every arrangement from which mover has a legal move
// to a, one per such move. It is the inverse of Moves: b is in Unmoves(a, c)
// exactly as often as a is in Moves(b, c).
func (r *Rules) Unmoves(a Arrangement, mover Colour, dst []Arrangement) []Arrangement {
	e := r.Empty(a)
	own := a.Of(mover)
	// The move filled some place q from e; undo it by moving q back to e.
	if e == r.n {
		// Out of the centre to any point q: always legal.
		for q := range r.n {
			if own&(1<<q) != 0 {
				dst = append(dst, slide(a, mover, q, e))
			}
		}
		return dst
	}
	l, rt := r.left(e), r.right(e)
	if rt < l {
		l, rt = rt, l
	}
	for _, q := range [...]int{l, rt} {
		if own&(1<<q) != 0 {
			dst = append(dst, slide(a, mover, q, e))
		}
	}
	// Into the centre from e: legal when the counter then on e may enter.
	if own&(1<<r.n) != 0 {
		b := slide(a, mover, r.n, e)
		if r.mayEnter(b, mover, e) {
			dst = append(dst, b)
		}
	}
	return dst
}

// NumArrangements is (n+1)·C(n, k): the empty place, then Black's places
// among the other n.
func (r *Rules) NumArrangements() uint64 { return uint64(r.n+1) * r.perEmpty }

// Rank numbers a in [0, NumArrangements): the empty place times C(n, k),
// plus the rank of Black's places among the other n places in the
// combinatorial number system.
func (r *Rules) Rank(a Arrangement) uint64 {
	e := r.Empty(a)
	black := a.Black()
	// Close the gap at e: places above it move down by one.
	low := uint32(1)<<e - 1
	set := black&low | (black>>1)&^low
	var rank uint64
	for i := 0; set != 0; i++ {
		p := bits.TrailingZeros32(set)
		set &= set - 1
		rank += r.choose[p][i+1]
	}
	return uint64(e)*r.perEmpty + rank
}

// Unrank is the arrangement of rank i; it is the inverse of Rank.
func (r *Rules) Unrank(i uint64) Arrangement {
	e := int(i / r.perEmpty)
	rank := i % r.perEmpty
	var set uint32
	p := r.n - 1
	for j := r.k; j >= 1; j-- {
		for r.choose[p][j] > rank {
			p--
		}
		rank -= r.choose[p][j]
		set |= 1 << p
		p--
	}
	low := uint32(1)<<e - 1
	black := set&low | (set&^low)<<1
	white := r.all &^ black &^ (1 << e)
	return arrangement(black, white)
}

// String draws a as n+1 characters, the points in order round the circle
// and then the centre: 'B', 'W', or '.' for the empty place.
func (r *Rules) String(a Arrangement) string {
	var sb strings.Builder
	for p := 0; p <= r.n; p++ {
		switch {
		case a.Black()&(1<<p) != 0:
			sb.WriteByte('B')
		case a.White()&(1<<p) != 0:
			sb.WriteByte('W')
		default:
			sb.WriteByte('.')
		}
	}
	return sb.String()
}

// Parse reads an arrangement drawn by String. It fails when s has the wrong
// length, other characters, or other than k counters of each colour.
func (r *Rules) Parse(s string) (Arrangement, error) {
	if len(s) != r.n+1 {
		return 0, fmt.Errorf("arrangement %q: want %d places", s, r.n+1)
	}
	var black, white uint32
	for p := range len(s) {
		switch s[p] {
		case 'B':
			black |= 1 << p
		case 'W':
			white |= 1 << p
		case '.':
		default:
			return 0, fmt.Errorf("arrangement %q: place %d is %q, want B, W or '.'", s, p, s[p])
		}
	}
	if bits.OnesCount32(black) != r.k || bits.OnesCount32(white) != r.k {
		return 0, fmt.Errorf("arrangement %q: want %d counters of each colour", s, r.k)
	}
	return arrangement(black, white), nil
}

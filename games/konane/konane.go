// Package konane holds the rules of Kōnane on a row of squares: the
// squares, a row's text form, and each player's moves.
//
// Each square is empty, Black (Left, written x) or White (Right, written
// o). A move takes one of the mover's stones and jumps it over an adjacent
// opponent's stone into the empty square directly beyond, removing the
// jumped stone; the stone may go on jumping in the same direction while it
// can, and may stop after any jump, so each stopping point is a separate
// option. A player with no move loses (normal play).
package konane

import (
	"errors"
	"fmt"
	"strings"
)

// Square is the content of one square.
type Square uint8

// The contents of a square.
const (
	Empty Square = iota
	Black        // Left's stone, written x
	White        // Right's stone, written o
)

// MaxLen is the longest row a Row holds: two bits a square in a uint64.
const MaxLen = 32

// Sentinel errors of ParseRow.
var (
	ErrLength = errors.New("row length out of range")
	ErrSquare = errors.New("square is not '.', 'x' or 'o'")
)

// Row is a row of N squares, packed two bits a square, square 0 in the
// lowest bits. The zero Row is the empty row of no squares. Rows are
// values: comparable, and usable as map keys.
type Row struct {
	cells uint64
	n     uint8
}

// EmptyRow returns the row of n empty squares; it panics when n is not in
// 0..MaxLen.
func EmptyRow(n int) Row {
	if n < 0 || n > MaxLen {
		panic(fmt.Sprintf("konane: row of %d squares", n))
	}
	return Row{n: uint8(n)}
}

// ParseRow reads a row written one character a square: '.' empty, 'x'
// Black, 'o' White. It fails with ErrLength on more than MaxLen squares
// and with ErrSquare on any other character.
func ParseRow(s string) (Row, error) {
	if len(s) > MaxLen {
		return Row{}, fmt.Errorf("parse row %q: %d squares: %w", s, len(s), ErrLength)
	}
	r := EmptyRow(len(s))
	for i := 0; i < len(s); i++ {
		var q Square
		switch s[i] {
		case '.':
			q = Empty
		case 'x':
			q = Black
		case 'o':
			q = White
		default:
			return Row{}, fmt.Errorf("parse row %q: square %d %q: %w", s, i, s[i], ErrSquare)
		}
		r = r.With(i, q)
	}
	return r, nil
}

// MustParseRow is ParseRow that panics on a bad row; for tests and
// examples.
func MustParseRow(s string) Row {
	r, err := ParseRow(s)
	if err != nil {
		panic(err)
	}
	return r
}

// FromIndex returns the row of n squares whose contents are the base-3
// digits of i, square 0 the least significant digit (0 empty, 1 Black, 2
// White). Indices 0 .. 3^n-1 name every arrangement once.
func FromIndex(n int, i uint64) Row {
	r := EmptyRow(n)
	for k := 0; k < n; k++ {
		r = r.With(k, Square(i%3))
		i /= 3
	}
	return r
}

// Len is the number of squares.
func (r Row) Len() int { return int(r.n) }

// At is the content of square i.
func (r Row) At(i int) Square { return Square(r.cells >> (2 * uint(i)) & 3) }

// With is r with square i set to q.
func (r Row) With(i int, q Square) Row {
	sh := 2 * uint(i)
	r.cells = r.cells&^(3<<sh) | uint64(q)<<sh
	return r
}

// Stones is the number of stones on the row.
func (r Row) Stones() int {
	k := 0
	for i := 0; i < r.Len(); i++ {
		if r.At(i) != Empty {
			k++
		}
	}
	return k
}

// Neg is r with the colours swapped: the negative of r as a game.
func (r Row) Neg() Row {
	for i := 0; i < r.Len(); i++ {
		switch r.At(i) {
		case Black:
			r = r.With(i, White)
		case White:
			r = r.With(i, Black)
		}
	}
	return r
}

// Reverse is r read from the other end: the same game.
func (r Row) Reverse() Row {
	out := EmptyRow(r.Len())
	for i := 0; i < r.Len(); i++ {
		out = out.With(r.Len()-1-i, r.At(i))
	}
	return out
}

// Concat is r followed by s; it panics when the result is longer than
// MaxLen.
func (r Row) Concat(s Row) Row {
	if r.Len()+s.Len() > MaxLen {
		panic(fmt.Sprintf("konane: concatenated row of %d squares", r.Len()+s.Len()))
	}
	out := r
	out.n += s.n
	out.cells |= s.cells << (2 * uint(r.Len()))
	return out
}

// String writes the row one character a square: '.', 'x', 'o'.
func (r Row) String() string {
	var b strings.Builder
	for i := 0; i < r.Len(); i++ {
		b.WriteByte(".xo"[r.At(i)])
	}
	return b.String()
}

// Options appends to dst the rows reached by one move of Left (Black) when
// left is true, of Right (White) otherwise, and returns the extended
// slice. Each stopping point of a multiple jump is its own option, and
// distinct moves always reach distinct rows, so no option is listed twice.
func (r Row) Options(left bool, dst []Row) []Row {
	me, them := Black, White
	if !left {
		me, them = White, Black
	}
	n := r.Len()
	for i := 0; i < n; i++ {
		if r.At(i) != me {
			continue
		}
		for _, d := range [2]int{-1, 1} {
			cur, p := r.With(i, Empty), i
			for {
				over, land := p+d, p+2*d
				if land < 0 || land >= n || cur.At(over) != them || cur.At(land) != Empty {
					break
				}
				cur = cur.With(over, Empty)
				p = land
				dst = append(dst, cur.With(p, me))
			}
		}
	}
	return dst
}

// Package solve holds the outcome of a position under normal play, as the
// solve stage computes it from its options' outcomes, and the rule that
// combines them.
package solve

import "fmt"

// Outcome is a position's outcome as two bits: LeftFirst (bit 0) says Left
// wins moving first, LeftSecond (bit 1) that Left wins moving second. The
// four values are the classes of CGSuite: L (Left wins whoever starts), R
// (Right wins whoever starts), N (the first player wins), P (the second
// player wins).
type Outcome uint8

// The bits and the classes.
const (
	LeftFirst  Outcome = 1
	LeftSecond Outcome = 2

	R Outcome = 0
	N Outcome = LeftFirst
	P Outcome = LeftSecond
	L Outcome = LeftFirst | LeftSecond
)

// Classes lists the classes in the order the outputs count them.
var Classes = [4]Outcome{L, R, N, P}

// String is the class's letter.
func (o Outcome) String() string {
	switch o & 3 {
	case L:
		return "L"
	case R:
		return "R"
	case N:
		return "N"
	}
	return "P"
}

// Parse reads a class letter.
func Parse(s string) (Outcome, error) {
	for _, o := range Classes {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("outcome %q: want one of L, R, N, P", s)
}

// Negate is the outcome of the position with Left and Right exchanged: Left
// wins it moving first exactly when Right wins the original moving first,
// that is when Left does not win it moving second, and the other way round.
func (o Outcome) Negate() Outcome {
	var n Outcome
	if o&LeftSecond == 0 {
		n |= LeftFirst
	}
	if o&LeftFirst == 0 {
		n |= LeftSecond
	}
	return n
}

// Combine is the outcome of a position from its options (normal play: a
// player without a move loses). Left wins moving first when some Left
// option is won by Left moving second; Left wins moving second when every
// Right option is won by Left moving first.
type Combine struct {
	first, second bool
}

// NewCombine starts a position that has seen no option yet: Left has no
// winning move, and Right none either.
func NewCombine() Combine { return Combine{first: false, second: true} }

// Left adds a Left option of outcome o.
func (c *Combine) Left(o Outcome) { c.first = c.first || o&LeftSecond != 0 }

// Right adds a Right option of outcome o.
func (c *Combine) Right(o Outcome) { c.second = c.second && o&LeftFirst != 0 }

// LeftDone reports that no further Left option can change the outcome.
func (c *Combine) LeftDone() bool { return c.first }

// RightDone reports that no further Right option can change the outcome.
func (c *Combine) RightDone() bool { return !c.second }

// Outcome is the outcome of the options added.
func (c Combine) Outcome() Outcome {
	var o Outcome
	if c.first {
		o |= LeftFirst
	}
	if c.second {
		o |= LeftSecond
	}
	return o
}

// Counts counts positions by class, indexed by Outcome.
type Counts [4]uint64

// Add adds o's counts.
func (c *Counts) Add(o Counts) {
	for i := range c {
		c[i] += o[i]
	}
}

// Total is the positions counted.
func (c Counts) Total() uint64 { return c[0] + c[1] + c[2] + c[3] }

// Map is the counts by class letter, as summary.json spells them.
func (c Counts) Map() map[string]uint64 {
	m := make(map[string]uint64, 4)
	for _, o := range Classes {
		m[o.String()] = c[o]
	}
	return m
}

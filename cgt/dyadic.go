package cgt

import (
	"fmt"
	"math/bits"
)

// Dyadic is the dyadic rational Num/2^Exp, kept reduced: Num is odd when Exp
// is positive. The zero value is 0.
type Dyadic struct {
	Num int64
	Exp uint8
}

// Int is the integer n as a Dyadic.
func Int(n int64) Dyadic { return Dyadic{Num: n} }

// MakeDyadic returns num/2^exp reduced.
func MakeDyadic(num int64, exp uint) Dyadic {
	for exp > 0 && num%2 == 0 {
		num /= 2
		exp--
	}
	if num == 0 {
		exp = 0
	}
	return Dyadic{Num: num, Exp: uint8(exp)}
}

// align returns the numerators of a and b over their common denominator 2^e.
func align(a, b Dyadic) (an, bn int64, e uint) {
	e = uint(max(a.Exp, b.Exp))
	return a.Num << (e - uint(a.Exp)), b.Num << (e - uint(b.Exp)), e
}

// Add returns a+b.
func (a Dyadic) Add(b Dyadic) Dyadic {
	an, bn, e := align(a, b)
	return MakeDyadic(an+bn, e)
}

// Neg returns -a.
func (a Dyadic) Neg() Dyadic { return Dyadic{Num: -a.Num, Exp: a.Exp} }

// Cmp returns -1, 0 or 1 as a is less than, equal to or greater than b.
func (a Dyadic) Cmp(b Dyadic) int {
	an, bn, _ := align(a, b)
	switch {
	case an < bn:
		return -1
	case an > bn:
		return 1
	}
	return 0
}

// Half returns a/2.
func (a Dyadic) Half() Dyadic {
	return MakeDyadic(a.Num, uint(a.Exp)+1)
}

// IsInteger reports whether a is an integer.
func (a Dyadic) IsInteger() bool { return a.Exp == 0 }

// floor returns the greatest integer <= a.
func (a Dyadic) floor() int64 {
	if a.Exp == 0 {
		return a.Num
	}
	return a.Num >> a.Exp // arithmetic shift rounds toward -inf
}

// Float returns a as a float64.
func (a Dyadic) Float() float64 { return float64(a.Num) / float64(uint64(1)<<a.Exp) }

// String writes a as CGSuite does: an integer, or [-]n/d.
func (a Dyadic) String() string {
	if a.Exp == 0 {
		return fmt.Sprint(a.Num)
	}
	sign, n := "", a.Num
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%d/%d", sign, n, uint64(1)<<a.Exp)
}

// simplest returns the simplest number strictly between lo and hi; a nil
// bound is absent. lo < hi must hold when both are present.
func simplest(lo, hi *Dyadic) Dyadic {
	switch {
	case lo == nil && hi == nil:
		return Dyadic{}
	case hi == nil:
		if lo.Num < 0 {
			return Dyadic{}
		}
		return Int(lo.floor() + 1)
	case lo == nil:
		if hi.Num > 0 {
			return Dyadic{}
		}
		return Int(-hi.Neg().floor() - 1)
	}
	if lo.Num < 0 && hi.Num > 0 {
		return Dyadic{}
	}
	// The integer nearest zero strictly between, if any.
	if lo.Num >= 0 {
		if n := Int(lo.floor() + 1); n.Cmp(*hi) < 0 {
			return n
		}
	} else {
		if n := Int(-hi.Neg().floor() - 1); n.Cmp(*lo) > 0 {
			return n
		}
	}
	// Otherwise the fraction of least denominator strictly between.
	for k := uint(1); k < 63; k++ {
		an, bn, e := align(*lo, *hi)
		_ = bn
		// m/2^k > lo: m = floor(lo*2^k)+1.
		var m int64
		if k >= e {
			m = an<<(k-e) + 1
		} else {
			m = (an >> (e - k)) + 1
		}
		if c := MakeDyadic(m, k); c.Cmp(*hi) < 0 && c.Cmp(*lo) > 0 {
			return c
		}
	}
	panic("cgt: no dyadic between " + lo.String() + " and " + hi.String())
}

var _ = bits.Len64

package cgt

import (
	"math"
	"slices"
)

// wall is a continuous piecewise linear function of the temperature t >= 0:
// the value v[i] at t[i] (t[0] = 0, increasing), linear between, and slope
// tail beyond the last point. Thermograph walls are such functions; their
// slopes are 0 and ±1, so every breakpoint is a dyadic rational of small
// denominator and float64 holds it exactly.
type wall struct {
	t, v []float64
	tail float64
}

func constWall(x float64) wall { return wall{t: []float64{0}, v: []float64{x}} }

func (w wall) at(t float64) float64 {
	i := len(w.t) - 1
	for i > 0 && w.t[i] > t {
		i--
	}
	if i == len(w.t)-1 {
		return w.v[i] + w.tail*(t-w.t[i])
	}
	f := (t - w.t[i]) / (w.t[i+1] - w.t[i])
	return w.v[i] + f*(w.v[i+1]-w.v[i])
}

// tilt returns w(t) + s*t.
func (w wall) tilt(s float64) wall {
	o := wall{t: slices.Clone(w.t), v: make([]float64, len(w.v)), tail: w.tail + s}
	for i := range w.v {
		o.v[i] = w.v[i] + s*w.t[i]
	}
	return o
}

// combine returns the pointwise max (or min) of f and g.
func combine(f, g wall, isMax bool) wall {
	ts := slices.Concat(f.t, g.t)
	slices.Sort(ts)
	ts = slices.Compact(ts)
	// Add the points where f and g cross.
	var cross []float64
	for i, t := range ts {
		d0 := f.at(t) - g.at(t)
		var t1, d1 float64
		if i+1 < len(ts) {
			t1 = ts[i+1]
			d1 = f.at(t1) - g.at(t1)
		} else {
			slope := f.tail - g.tail
			if slope == 0 || d0 == 0 || (d0 > 0) == (slope > 0) {
				continue
			}
			cross = append(cross, t-d0/slope)
			continue
		}
		if d0 < 0 && d1 > 0 || d0 > 0 && d1 < 0 {
			cross = append(cross, t+(t1-t)*d0/(d0-d1))
		}
	}
	ts = append(ts, cross...)
	slices.Sort(ts)
	ts = slices.Compact(ts)
	o := wall{t: ts, v: make([]float64, len(ts))}
	pick := func(a, b float64) float64 {
		if isMax {
			return math.Max(a, b)
		}
		return math.Min(a, b)
	}
	for i, t := range ts {
		o.v[i] = pick(f.at(t), g.at(t))
	}
	last := ts[len(ts)-1]
	switch fv, gv := f.at(last), g.at(last); {
	case fv == gv:
		o.tail = pick(f.tail, g.tail)
	case (fv > gv) == isMax:
		o.tail = f.tail
	default:
		o.tail = g.tail
	}
	return o
}

// mast cuts w at temperature T, where it has value m, and continues it as
// the vertical mast at m.
func (w wall) mast(T, m float64) wall {
	o := wall{}
	for i, t := range w.t {
		if t < T {
			o.t = append(o.t, t)
			o.v = append(o.v, w.v[i])
		}
	}
	o.t = append(o.t, T)
	o.v = append(o.v, m)
	return o
}

// thermograph holds the walls of a game's thermograph above temperature 0,
// its temperature and its mast value (the mean).
type thermograph struct {
	left, right wall
	temp, mean  float64
}

// thermo computes the thermograph of g from those of its options:
// LW(t) = max RW(G^L)(t) - t and RW(t) = min LW(G^R)(t) + t below the
// temperature, where the two meet, and the mast above it (Siegel,
// Combinatorial Game Theory, II.5).
func (t *Table) thermo(g ID, memo map[ID]*thermograph) *thermograph {
	if th, ok := memo[g]; ok {
		return th
	}
	n := &t.nodes[g]
	var th *thermograph
	if n.isNum {
		x := n.num.Float()
		th = &thermograph{left: constWall(x), right: constWall(x), mean: x, temp: -1 / float64(uint64(1)<<n.num.Exp)}
	} else {
		var a, b wall
		for i, gl := range n.left {
			w := t.thermo(gl, memo).right.tilt(-1)
			if i == 0 {
				a = w
			} else {
				a = combine(a, w, true)
			}
		}
		for i, gr := range n.right {
			w := t.thermo(gr, memo).left.tilt(1)
			if i == 0 {
				b = w
			} else {
				b = combine(b, w, false)
			}
		}
		T := meet(a, b)
		m := a.at(T)
		th = &thermograph{left: a.mast(T, m), right: b.mast(T, m), temp: T, mean: m}
	}
	memo[g] = th
	return th
}

// meet returns the least t >= 0 where the nonincreasing a is at most the
// nondecreasing b.
func meet(a, b wall) float64 {
	ts := slices.Concat(a.t, b.t)
	slices.Sort(ts)
	ts = slices.Compact(ts)
	prev, dprev := 0.0, 0.0
	for i, t := range ts {
		d := a.at(t) - b.at(t)
		if d <= 0 {
			if i == 0 {
				return 0
			}
			return prev + (t-prev)*dprev/(dprev-d)
		}
		prev, dprev = t, d
	}
	return prev + dprev/(b.tail-a.tail)
}

// toDyadic converts a float64 that holds a dyadic rational exactly.
func toDyadic(f float64) Dyadic {
	for k := uint(0); k < 60; k++ {
		s := f * float64(uint64(1)<<k)
		if s == math.Trunc(s) {
			return MakeDyadic(int64(s), k)
		}
	}
	panic("cgt: not a dyadic rational")
}

// MeanTemp returns the mean and the temperature of g from its thermograph.
// Following CGSuite, a number x = m/2^k (m odd, or k = 0) has mean x and
// temperature -1/2^k, so an integer has temperature -1. The thermographs of
// all followers of g are computed, which costs time and memory in the size
// of g's canonical form times the number of breakpoints of its walls.
func (t *Table) MeanTemp(g ID) (mean, temp Dyadic) {
	th := t.thermo(g, map[ID]*thermograph{})
	return toDyadic(th.mean), toDyadic(th.temp)
}

// Stops returns the left and right stops of g.
func (t *Table) Stops(g ID) (left, right Dyadic) {
	n := &t.nodes[g]
	if n.stopsOK {
		return n.lstop, n.rstop
	}
	if n.isNum {
		left, right = n.num, n.num
	} else {
		for i, gl := range n.left {
			if _, r := t.Stops(gl); i == 0 || r.Cmp(left) > 0 {
				left = r
			}
		}
		for i, gr := range n.right {
			if l, _ := t.Stops(gr); i == 0 || l.Cmp(right) < 0 {
				right = l
			}
		}
	}
	n = &t.nodes[g]
	n.lstop, n.rstop, n.stopsOK = left, right, true
	return left, right
}

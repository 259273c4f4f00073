package cgt

import (
	"math/rand/v2"
	"testing"
)

// Sources cited below:
//   [WW]  Berlekamp, Conway, Guy, Winning Ways for your Mathematical Plays,
//         2nd ed., vol. 1 (2001).
//   [LiP] Albert, Nowakowski, Wolfe, Lessons in Play (2007).
//   [CGT] Siegel, Combinatorial Game Theory (2013).
//   [ONAG] Conway, On Numbers and Games, 2nd ed. (2001).

// TestKnownValues checks canonical forms written as options against their
// published values and CGSuite's way of printing them.
func TestKnownValues(t *testing.T) {
	tests := []struct {
		name, in, want string
		outcome        Outcome
		birthday       int
	}{
		{"zero is the empty game [ONAG ch. 0]", "{|}", "0", P, 0},
		{"one is {0|} [ONAG ch. 0]", "{0|}", "1", L, 1},
		{"minus one is {|0} [ONAG ch. 0]", "{|0}", "-1", R, 1},
		{"two is {1|} [ONAG ch. 0]", "{1|}", "2", L, 2},
		{"one half is {0|1} [WW ch. 2]", "{0|1}", "1/2", L, 2},
		{"three quarters is {1/2|1} [WW ch. 2]", "{1/2|1}", "3/4", L, 3},
		{"minus three quarters [WW ch. 2]", "{-1|-1/2}", "-3/4", R, 3},
		{"{0|2} is 1, the simplest number between [LiP 4.3]", "{0|2}", "1", L, 1},
		{"{-1|3} is 0 by the simplicity rule [LiP 4.3]", "{-1|3}", "0", P, 0},
		{"star is {0|0} [WW ch. 2]", "{0|0}", "*", N, 1},
		{"star two is {0,*|0,*} [WW ch. 3]", "{0,*|0,*}", "*2", N, 2},
		{"mex rule: {0,*2|0,*2} = * [WW ch. 3]", "{0,*2|0,*2}", "*", N, 1},
		{"up is {0|*} [WW ch. 3]", "{0|*}", "^", L, 2},
		{"down is {*|0} [WW ch. 3]", "{*|0}", "v", R, 2},
		{"up star is {0,*|0} [WW ch. 3]", "{0,*|0}", "^*", N, 2},
		{"down star is {0|0,*} [WW ch. 3]", "{0|0,*}", "v*", N, 2},
		{"double up is {0|^*} [WW ch. 3]", "{0|^*}", "^^", L, 3},
		{"double up star is {0|^} [WW ch. 3]", "{0|^}", "^^*", L, 3},
		{"triple up is {0|^^*} [CGT II.4]", "{0|^^*}", "^3", L, 4},
		{"{1|-1} is the switch +-1 [WW ch. 2]", "{1|-1}", "+-1", N, 2},
		{"{2|1} is hot [LiP 6]", "{2|1}", "{2|1}", L, 3},
		{"{1|0} [LiP 6]", "{1|0}", "{1|0}", N, 2},
		{"dominated option 0 < 1 deleted [LiP 4.2]", "{0,1|}", "2", L, 2},
		{"reversible option bypassed: {*|} = 0 [LiP 4.2]", "{*|}", "0", P, 0},
		{"tiny two is {0||0|-2} [WW ch. 5]", "{0||0|-2}", "Tiny(2)", L, 4},
		{"1 + star is {1|1} [WW ch. 2]", "{1|1}", "1*", L, 2},
		{"1/2 + up is {1/2|1/2*} [CGT II.4]", "{1/2|1/2*}", "1/2^", L, 4},
		{"nested switch +-{2|1} [CGT II.5]", "{{2|1}|{-1|-2}}", "+-{2|1}", N, 4},
		{"general form {2||1|0} [CGT II.5]", "{2|{1|0}}", "{2||1|0}", L, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := NewTable()
			g, err := tb.Parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := tb.String(g); got != tc.want {
				t.Errorf("%s prints as %q, want %q", tc.in, got, tc.want)
			}
			if got := tb.Outcome(g); got != tc.outcome {
				t.Errorf("outcome of %s = %s, want %s", tc.in, got, tc.outcome)
			}
			if got := tb.Birthday(g); got != tc.birthday {
				t.Errorf("birthday of %s = %d, want %d", tc.in, got, tc.birthday)
			}
			if back := tb.MustParse(tc.want); back != g {
				t.Errorf("%q parses to %s, not %s", tc.want, tb.String(back), tb.String(g))
			}
		})
	}
}

// TestKnownSums checks sums and relations with published values.
func TestKnownSums(t *testing.T) {
	tb := NewTable()
	p := tb.MustParse
	sums := []struct {
		name  string
		terms []string
		want  string
	}{
		{"1/2 + 1/2 = 1 [WW ch. 2]", []string{"1/2", "1/2"}, "1"},
		{"* + * = 0 [WW ch. 3]", []string{"*", "*"}, "0"},
		{"*2 + *3 = *, the nim sum [WW ch. 3]", []string{"*2", "*3"}, "*"},
		{"^ + * = ^* [WW ch. 3]", []string{"^", "*"}, "^*"},
		{"^ + ^ = ^^ [WW ch. 3]", []string{"^", "^"}, "^^"},
		{"^ + ^ + * = ^^* = {0|^} [WW ch. 3]", []string{"^", "^", "*"}, "^^*"},
		{"^ + v = 0 [WW ch. 3]", []string{"^", "v"}, "0"},
		{"+-1 + +-1 = 0 [WW ch. 2]", []string{"+-1", "+-1"}, "0"},
		{"{1|0} + {1|0} = 1, as {1|0} = 1/2 +-1/2 [LiP 6]", []string{"{1|0}", "{1|0}"}, "1"},
		{"3/4 + -1/4 = 1/2 [WW ch. 2]", []string{"3/4", "-1/4"}, "1/2"},
		{"{2|1} + -3/2 = {1/2|-1/2} = +-1/2 [CGT II.5]", []string{"{2|1}", "-3/2"}, "+-1/2"},
	}
	for _, tc := range sums {
		t.Run(tc.name, func(t *testing.T) {
			s := Zero
			for _, term := range tc.terms {
				s = tb.Add(s, p(term))
			}
			if got := tb.String(s); got != tc.want {
				t.Errorf("sum = %s, want %s", got, tc.want)
			}
		})
	}
	relations := []struct {
		name       string
		g, h       string
		le, ge     bool // g <= h, g >= h
		wantFuzzy  bool
		wantStrict bool
	}{
		{"^ > 0 [WW ch. 3]", "^", "0", false, true, false, true},
		{"^ || * [WW ch. 3]", "^", "*", false, false, true, false},
		{"^* || 0 [WW ch. 3]", "^*", "0", false, false, true, false},
		{"^^* > 0 [WW ch. 3]", "^^*", "0", false, true, false, true},
		{"^ < 1/64, up is infinitesimal [WW ch. 3]", "^", "1/64", true, false, false, true},
		{"* || 0 [WW ch. 2]", "*", "0", false, false, true, false},
		{"+-1 || 1/2 [LiP 5]", "+-1", "1/2", false, false, true, false},
		{"+-1 < 2 [LiP 5]", "+-1", "2", true, false, false, true},
		{"Tiny(2) < ^ [WW ch. 5]", "Tiny(2)", "^", true, false, false, true},
		{"Tiny(2) > 0 [WW ch. 5]", "Tiny(2)", "0", false, true, false, true},
		{"{2|1} || 1, as {2|1} - 1 = {1|0} [LiP 6]", "{2|1}", "1", false, false, true, false},
		{"{2|1} > 1/2, as {2|1} - 1/2 = {3/2|1/2} [LiP 6]", "{2|1}", "1/2", false, true, false, true},
	}
	for _, tc := range relations {
		t.Run(tc.name, func(t *testing.T) {
			g, h := p(tc.g), p(tc.h)
			if tb.Le(g, h) != tc.le || tb.Ge(g, h) != tc.ge {
				t.Errorf("%s <= %s: %v, >=: %v; want %v, %v", tc.g, tc.h, tb.Le(g, h), tb.Ge(g, h), tc.le, tc.ge)
			}
			if tb.Confused(g, h) != tc.wantFuzzy {
				t.Errorf("%s || %s = %v", tc.g, tc.h, tb.Confused(g, h))
			}
			if tb.Lt(g, h) || tb.Lt(h, g) != tc.wantStrict {
				if tc.wantStrict != (tb.Lt(g, h) || tb.Lt(h, g)) {
					t.Errorf("%s, %s strictly ordered: %v", tc.g, tc.h, !tc.wantStrict)
				}
			}
		})
	}
}

// TestMeanTemp checks thermographs: a switch {a|b} of numbers a > b has mean
// (a+b)/2 and temperature (a-b)/2 [LiP 6; CGT II.5]; a number m/2^k has
// temperature -1/2^k as CGSuite reports; infinitesimals have temperature 0.
func TestMeanTemp(t *testing.T) {
	tb := NewTable()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a := MakeDyadic(rng.Int64N(41)-20, uint(rng.IntN(4)))
		b := MakeDyadic(rng.Int64N(41)-20, uint(rng.IntN(4)))
		if a.Cmp(b) <= 0 {
			continue
		}
		g := tb.New([]ID{tb.Number(a)}, []ID{tb.Number(b)})
		mean, temp := tb.MeanTemp(g)
		if want := a.Add(b).Half(); mean != want {
			t.Errorf("mean of {%s|%s} = %s, want %s", a, b, mean, want)
		}
		if want := a.Add(b.Neg()).Half(); temp != want {
			t.Errorf("temperature of {%s|%s} = %s, want %s", a, b, temp, want)
		}
	}
	for _, tc := range []struct{ g, mean, temp string }{
		{"3", "3", "-1"},
		{"-5/8", "-5/8", "-1/8"},
		{"^*", "0", "0"},
		{"1*", "1", "0"},
		{"{2||1|0}", "5/4", "3/4"}, // walls 2-t and 1/2+t meet at t = 3/4
		// Left wall: {2|1}'s right wall 1+t (to its mast 3/2 at t = 1/2)
		// taxed by t, so 3/2-t; the right wall -3/2+t by symmetry; they
		// meet at t = 3/2.
		{"+-{2|1}", "0", "3/2"},
	} {
		g := tb.MustParse(tc.g)
		m, tp := tb.MeanTemp(g)
		if m.String() != tc.mean || tp.String() != tc.temp {
			t.Errorf("%s: mean %s temperature %s, want %s %s", tc.g, m, tp, tc.mean, tc.temp)
		}
	}
}

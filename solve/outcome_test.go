package solve

import "testing"

// TestNegate checks the exchange of the players on the four classes: L and
// R swap, N and P stay, and negating twice is the identity.
func TestNegate(t *testing.T) {
	want := map[Outcome]Outcome{L: R, R: L, N: N, P: P}
	for o, n := range want {
		if o.Negate() != n || o.Negate().Negate() != o {
			t.Errorf("%s negated is %s, want %s", o, o.Negate(), n)
		}
	}
}

// TestCombine checks the rule on small option sets: no option loses for
// the player to move; the classes of * = {0|0}, 1 = {0|}, -1 = {|0} and
// {1|-1}.
func TestCombine(t *testing.T) {
	cases := []struct {
		name        string
		left, right []Outcome
		want        Outcome
	}{
		{"0", nil, nil, P},
		{"*", []Outcome{P}, []Outcome{P}, N},
		{"1", []Outcome{P}, nil, L},
		{"-1", nil, []Outcome{P}, R},
		{"{1|-1}", []Outcome{L}, []Outcome{R}, N},
		{"{-1|1}", []Outcome{R}, []Outcome{L}, P},
	}
	for _, c := range cases {
		cb := NewCombine()
		for _, o := range c.left {
			cb.Left(o)
		}
		for _, o := range c.right {
			cb.Right(o)
		}
		if got := cb.Outcome(); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	for _, o := range Classes {
		if p, err := Parse(o.String()); err != nil || p != o {
			t.Errorf("Parse(%q) = %v, %v", o.String(), p, err)
		}
	}
	if _, err := Parse("X"); err == nil {
		t.Error("Parse(\"X\") did not fail")
	}
}

package cgt

import "testing"

// TestNotationReadsOneWay checks the cases of the grammar in
// schema/COLUMNS.md: each string is built here from its options by New,
// independently of the parser, then printed and parsed back.
func TestNotationReadsOneWay(t *testing.T) {
	tb := NewTable()
	zero, up, star := Zero, tb.Up(1), tb.Star()
	upStar := tb.Add(up, star)
	upUpStar := tb.Add(tb.Up(2), star)
	tiny2 := tb.New([]ID{zero}, []ID{tb.New([]ID{zero}, []ID{tb.Number(Int(-2))})})
	tests := []struct {
		name string
		game ID
		want string
	}{
		// A switch whose Left options are a list: {0,^* | 0,v*}.
		{"switch on a list", tb.New([]ID{zero, upStar}, []ID{zero, tb.Neg(upStar)}), "+-{0,^*}"},
		// A switch on one game, {^^*|^}: the braces hold a top-level '|'.
		{"switch on a game", tb.New([]ID{tb.New([]ID{upUpStar}, []ID{up})}, []ID{tb.Neg(tb.New([]ID{upUpStar}, []ID{up}))}), "+-{^^*|^}"},
		// Three ups: ^3 is 3.^, not ^ followed by the number 3.
		{"three ups", tb.Up(3), "^3"},
		{"three downs star", tb.Add(tb.Up(-3), star), "v3*"},
		// A number before Tiny is added to it: 1Tiny(2) = 1 + Tiny(2).
		{"number plus tiny", tb.Add(tb.Number(Int(1)), tiny2), "1Tiny(2)"},
		{"tiny", tiny2, "Tiny(2)"},
		{"switch on a number", tb.New([]ID{tb.Number(Int(1))}, []ID{tb.Number(Int(-1))}), "+-1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tb.String(tc.game); got != tc.want {
				t.Errorf("prints as %q, want %q", got, tc.want)
			}
			back, err := tb.Parse(tc.want)
			if err != nil || back != tc.game {
				t.Errorf("%q reads back as %s (%v)", tc.want, tb.String(back), err)
			}
		})
	}
	// The two switches differ only by the top-level '|' and are different
	// games.
	if a, b := tb.MustParse("+-{0,^*}"), tb.MustParse("+-{0|^*}"); a == b {
		t.Error("+-{0,^*} and +-{0|^*} read as the same game")
	}
	// ^3 is not ^ + 3, nor 1Tiny(2) Tiny(2) with something else.
	if tb.MustParse("^3") == tb.Add(up, tb.Number(Int(3))) {
		t.Error("^3 read as ^ + 3")
	}
	if tb.MustParse("1Tiny(2)") != tb.MustParse("1+Tiny(2)") {
		t.Error("1Tiny(2) is not 1 + Tiny(2)")
	}
}

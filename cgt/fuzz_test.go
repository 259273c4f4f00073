package cgt

import (
	"errors"
	"testing"
)

// FuzzParse checks that Parse never panics, fails only with ErrSyntax, and
// that what it reads prints as a string that reads back as the same game.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "*", "^*", "1/2v*", "+-1", "+-{1,{2|0}}", "{2||1|0}", "{0,*|0,*}", "Tiny(2)", "3Miny({5||3|1})", "9/8+*", "{0||0,v*|vv}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64 {
			return
		}
		tb := NewTable()
		g, err := tb.Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q): %v does not wrap ErrSyntax", s, err)
			}
			return
		}
		if tb.Size(g) > 1<<14 {
			return
		}
		out := tb.String(g)
		back, err := tb.Parse(out)
		if errors.Is(err, ErrTooLarge) {
			return // a sum of numbers under the bounds may be over them
		}
		if err != nil || back != g {
			t.Fatalf("Parse(%q) prints as %q, which reads back as %v (%v)", s, out, back, err)
		}
	})
}

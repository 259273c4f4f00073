package konane

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		name, row   string
		left, right []string
	}{
		{"empty", "....", nil, nil},
		{"one colour", "xx.x", nil, nil},
		{"single jump", "xo.", []string{"..x"}, nil},
		{"no room beyond", "xo", nil, nil},
		{"blocked landing", "xox", nil, nil},
		{"both ways", ".ox.", []string{"x..."}, []string{"...o"}},
		{"edge", ".ox", []string{"x.."}, nil},
		// Black's first stone may stop after the first jump or go on.
		{"double jump", "xo.o.", []string{"..xo.", "....x"}, nil},
		{"triple jump", "xo.o.o.", []string{"..xo.o.", "....xo.", "......x"}, nil},
		// A multiple jump keeps its direction: the stone on square 2 may
		// not turn back.
		{"no turning", ".o.ox.", []string{".ox...", "x....."}, []string{".o...o"}},
		{"blocked both ways", "oxo.xo", []string{"o..xxo"}, []string{"oxoo.."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := MustParseRow(tc.row)
			for _, side := range []struct {
				left bool
				want []string
			}{{true, tc.left}, {false, tc.right}} {
				var got []string
				for _, o := range r.Options(side.left, nil) {
					got = append(got, o.String())
				}
				slices.Sort(got)
				want := slices.Clone(side.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("%s options of %s: got %q, want %q", map[bool]string{true: "Left", false: "Right"}[side.left], tc.row, got, want)
				}
			}
		})
	}
}

func TestNegAndReverse(t *testing.T) {
	// A row's Right options are the negatives of the Left options of its
	// negative, and reversing a row reverses its options.
	for i := uint64(0); i < 729; i++ {
		r := FromIndex(6, i)
		if r.String() != MustParseRow(r.String()).String() {
			t.Fatalf("%s does not survive a round trip", r)
		}
		var a, b, c, d []string
		for _, o := range r.Options(false, nil) {
			a = append(a, o.String())
		}
		for _, o := range r.Neg().Options(true, nil) {
			b = append(b, o.Neg().String())
		}
		for _, o := range r.Options(true, nil) {
			c = append(c, o.Reverse().String())
		}
		for _, o := range r.Reverse().Options(true, nil) {
			d = append(d, o.String())
		}
		for _, s := range [][]string{a, b, c, d} {
			slices.Sort(s)
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s: Right options %q, negated Left options of the negative %q", r, a, b)
		}
		if !slices.Equal(c, d) {
			t.Errorf("%s: reversed Left options %q, Left options of the reverse %q", r, c, d)
		}
		if len(a) > 0 && len(slices.Compact(a)) != len(a) {
			t.Errorf("%s: an option listed twice: %q", r, a)
		}
	}
}

func TestParseRow(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"", nil},
		{"x.o", nil},
		{"x-o", ErrSquare},
		{"X", ErrSquare},
		{strings.Repeat(".", MaxLen), nil},
		{strings.Repeat(".", MaxLen+1), ErrLength},
	} {
		_, err := ParseRow(tc.in)
		if !errors.Is(err, tc.want) {
			t.Errorf("ParseRow(%q): %v, want %v", tc.in, err, tc.want)
		}
	}
}

func TestConcat(t *testing.T) {
	r := MustParseRow("xo.").Concat(MustParseRow("..ox"))
	if got := r.String(); got != "xo...ox" {
		t.Errorf("concat: %s", got)
	}
	if r.Stones() != 4 || r.Len() != 7 {
		t.Errorf("concat: %d stones, %d squares", r.Stones(), r.Len())
	}
}

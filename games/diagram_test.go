package games

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseDiagram(t *testing.T) {
	b := mustBoard(t, 2, 3)
	cells, err := ParseDiagram("xo./o.x", b, "xo.")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(cells); got != "xo.o.x" {
		t.Errorf("cells = %q, want %q", got, "xo.o.x")
	}

	bad := []struct {
		name, diagram string
		// want lists what the message must name.
		want []string
	}{
		{"one row for two", "xo.", []string{`"xo."`, "1 rows", "2x3"}},
		{"three rows for two", "xo./o.x/...", []string{`"xo./o.x/..."`, "3 rows"}},
		{"empty", "", []string{`""`, "1 rows"}},
		{"short row", "xo/o.x", []string{`"xo"`, "row 1", "2 squares"}},
		{"long row", "xo./o.xx", []string{`"o.xx"`, "row 2", "4 squares"}},
		{"empty row", "xo./", []string{`""`, "row 2", "0 squares"}},
		{"unknown character", "xo./o#x", []string{`'#'`, "row 2 column 2"}},
		{"upper case", "Xo./o.x", []string{`'X'`, "row 1 column 1"}},
		{"space", "xo /o.x", []string{`' '`, "row 1 column 3"}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			cells, err := ParseDiagram(tc.diagram, b, "xo.")
			if err == nil {
				t.Fatalf("ParseDiagram(%q) = %q, nil; want an error", tc.diagram, cells)
			}
			if !errors.Is(err, ErrBadDiagram) {
				t.Errorf("error %v does not wrap ErrBadDiagram", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %s", err, w)
				}
			}
		})
	}
}

func TestFormatDiagram(t *testing.T) {
	tests := []struct {
		rows, cols int
		want       string
	}{
		{1, 1, "a"},
		{1, 4, "abcd"},
		{4, 1, "a/b/c/d"},
		{2, 3, "abc/def"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			got := FormatDiagram(tc.rows, tc.cols, func(i int) byte { return byte('a' + i) })
			if got != tc.want {
				t.Errorf("FormatDiagram(%d, %d) = %q, want %q", tc.rows, tc.cols, got, tc.want)
			}
		})
	}
}

// TestFormatPlanesAgreesWithFormat checks the drawing of planes against
// the drawing that asks for each square, on boards up to 64 squares.
func TestFormatPlanesAgreesWithFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	chars := [4]byte{'.', 'x', 'o', '#'}
	for _, rc := range [][2]int{{1, 1}, {2, 3}, {4, 5}, {1, 32}, {8, 8}, {1, 64}, {64, 1}} {
		rows, cols := rc[0], rc[1]
		for i := 0; i < 20; i++ {
			p0, p1 := rng.Uint64(), rng.Uint64()
			cell := func(i int) byte { return chars[p0>>i&1|(p1>>i&1)<<1] }
			if got, want := FormatDiagramPlanes(rows, cols, p0, p1, &chars), FormatDiagram(rows, cols, cell); got != want {
				t.Fatalf("%dx%d: FormatDiagramPlanes = %q, want %q", rows, cols, got, want)
			}
			if got, want := FormatCGSuitePlanes(rows, cols, p0, p1, &chars), FormatCGSuite(rows, cols, cell); got != want {
				t.Fatalf("%dx%d: FormatCGSuitePlanes = %q, want %q", rows, cols, got, want)
			}
		}
	}
}

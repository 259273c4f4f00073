package cgt

import (
	"errors"
	"slices"
	"testing"
)

// TestEncodeDecode moves games from one table to a fresh one through the
// encoding and checks they print alike and that a truncated or forward
// reference is refused.
func TestEncodeDecode(t *testing.T) {
	src := NewTable()
	var roots []ID
	for _, s := range []string{"0", "*", "^", "+-1", "{2|1}", "{1|*}", "1/2v*", "+-{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}", "^"} {
		roots = append(roots, src.MustParse(s))
	}
	data := src.Encode([]byte{9}, roots)[1:]
	dst := NewTable()
	dst.MustParse("{3|-3}") // so the IDs of the two tables differ
	got, n, err := dst.Decode(append(data, 7))
	if err != nil {
		t.Fatal(err)
	}
	fast, _, err := dst.DecodeCanonical(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fast, got) {
		t.Errorf("DecodeCanonical gives %v, Decode %v", fast, got)
	}
	if n != len(data) {
		t.Errorf("read %d bytes, want %d", n, len(data))
	}
	if len(got) != len(roots) {
		t.Fatalf("%d roots, want %d", len(got), len(roots))
	}
	for i := range roots {
		if a, b := src.String(roots[i]), dst.String(got[i]); a != b {
			t.Errorf("root %d: %s, want %s", i, b, a)
		}
	}
	if got[2] != got[8] {
		t.Error("the two ^ roots decode to different IDs")
	}
	for cut := 0; cut < len(data); cut++ {
		if _, _, err := NewTable().Decode(data[:cut]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated at %d: err %v, want ErrCorrupt", cut, err)
		}
	}
	// One game whose Left option is itself: a forward reference.
	if _, _, err := NewTable().Decode([]byte{1, 1, 0, 0, 1, 0}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("forward reference: err %v, want ErrCorrupt", err)
	}
}

package values

import (
	"errors"
	"testing"
)

// TestAppendLoad values the pieces of Clobber 3x3, moves them into a fresh
// Valuer through Append and Load, and checks that the values read back
// print and classify alike, and that any single damaged byte is refused.
func TestAppendLoad(t *testing.T) {
	keys := livePieces(t, "clobber", "3x3")
	src, err := New("clobber", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		src.Value(k)
	}
	data := src.Append(nil, keys)
	dst, _ := New("clobber", 0)
	n, err := dst.Load(data)
	if err != nil || n != len(keys) {
		t.Fatalf("Load: %d, %v; want %d", n, err, len(keys))
	}
	for _, k := range keys {
		a, b := src.Value(k), dst.Value(k)
		if src.String(a) != dst.String(b) || a.Outcome != b.Outcome || a.Nodes != b.Nodes || a.Cost != b.Cost {
			t.Errorf("%v: loaded %s %v, want %s %v", k, dst.String(b), b, src.String(a), a)
		}
	}
	for i := 0; i < len(data); i += 7 {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x20
		fresh, _ := New("clobber", 0)
		if _, err := fresh.Load(bad); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: err %v, want ErrCorrupt", i, err)
		}
		if fresh.Len() != 0 {
			t.Fatalf("byte %d flipped: %d values recorded", i, fresh.Len())
		}
	}
}

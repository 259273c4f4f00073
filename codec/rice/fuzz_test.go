package rice

import (
	"bytes"
	"math/bits"
	"slices"
	"testing"
)

// fuzzCodes derives increasing codes from data: every two bytes a gap, a
// byte shifted left by a byte.
func fuzzCodes(data []byte) []uint64 {
	var codes []uint64
	var c uint64
	for i := 0; i+2 <= len(data); i += 2 {
		g := uint64(data[i]) << (data[i+1] & 63)
		if len(codes) > 0 {
			if c+g+1 <= c {
				break
			}
			c += g + 1
		} else {
			c = g
		}
		codes = append(codes, c)
	}
	return codes
}

// FuzzRoundTrip writes the gaps of codes derived from the input with
// their parameter and with k, and reads them back.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{10, 0, 2, 0, 0, 0, 15, 0}, uint8(2))
	f.Add([]byte{1, 63, 1, 62, 255, 0, 3, 1}, uint8(63))
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		codes := fuzzCodes(data)
		for _, kk := range []uint{Parameter(codes), uint(k % 64)} {
			if len(codes) > 1 && kk+20 < uint(bits.Len64(codes[len(codes)-1]-codes[0])) {
				continue // a quotient of over a million one-bits
			}
			var w Writer
			w.Gaps(codes, kk)
			n := w.Len()
			w.Done()
			if (n+7)/8 != uint64(len(w.Bytes())) {
				t.Fatalf("Len %d bits for %d bytes", n, len(w.Bytes()))
			}
			got, err := decodeAll(w.Bytes(), kk, firstOr(codes), len(codes))
			if err != nil || !slices.Equal(got, codes) {
				t.Fatalf("k %d: wrote %v, read %v, %v", kk, codes, got, err)
			}
		}
	})
}

// FuzzDecode reads gaps from arbitrary bytes: the reader never panics,
// never reads past the end, and every gap it reads writes back as the
// bits it read.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0xc4, 0x0d}, uint8(2))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, uint8(0))
	f.Add(bytes.Repeat([]byte{0xff}, 20), uint8(60))
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		kk := uint(k % 64)
		r := NewReader(data)
		var w Writer
		for {
			from := r.Pos()
			g, ok := r.Gap(kk)
			if !ok {
				break
			}
			if r.Pos() <= from || r.Pos() > 8*uint(len(data)) {
				t.Fatalf("gap %d from bit %d to %d of %d bytes", g, from, r.Pos(), len(data))
			}
			w.Gap(g, kk)
		}
		// The gaps read, written again, are the stream's bits up to where
		// the reading stopped: its whole bytes, and the low bits of the
		// next.
		n := w.Len()
		w.Done()
		got := w.Bytes()
		whole := n / 8
		if whole > uint64(len(data)) || !bytes.Equal(got[:whole], data[:whole]) {
			t.Fatalf("gaps read rewrite as % x, stream % x", got, data)
		}
		if rest := n % 8; rest > 0 && (got[whole]^data[whole])&(1<<rest-1) != 0 {
			t.Fatalf("gaps read rewrite as % x, stream % x", got, data)
		}
	})
}

package rice

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

func ExampleWriter() {
	codes := []uint64{10, 13, 14, 30}
	var w Writer
	w.Gaps(codes, Parameter(codes))
	w.Done()
	fmt.Printf("k %d: % x\n", Parameter(codes), w.Bytes())
	// Output: k 2: c4 0d
}

// refBits writes the stream of gaps bit by bit, as the package doc
// describes it, with no word packing.
func refBits(codes []uint64, k uint) []byte {
	var out []byte
	n := 0
	bit := func(b uint64) {
		if n%8 == 0 {
			out = append(out, 0)
		}
		out[n/8] |= byte(b&1) << (n % 8)
		n++
	}
	for i := 1; i < len(codes); i++ {
		g := codes[i] - codes[i-1] - 1
		for q := g >> k; q > 0; q-- {
			bit(1)
		}
		bit(0)
		for j := range k {
			bit(g >> j)
		}
	}
	return out
}

// cost is the bits that the gaps of codes take with parameter k.
func cost(codes []uint64, k uint) uint64 {
	var c uint64
	for i := 1; i < len(codes); i++ {
		c += (codes[i]-codes[i-1]-1)>>k + uint64(k) + 1
	}
	return c
}

// checkParameter checks that k codes the gaps of codes in the fewest
// bits of any k that spends at most 2^16 one-bits on a gap.
func checkParameter(t *testing.T, codes []uint64, k uint) {
	t.Helper()
	if len(codes) < 2 {
		if k != 0 {
			t.Errorf("Parameter %d of %d codes", k, len(codes))
		}
		return
	}
	for kk := uint(0); kk < 64; kk++ {
		fits := true
		for i := 1; i < len(codes); i++ {
			fits = fits && (codes[i]-codes[i-1]-1)>>kk <= 1<<16
		}
		if !fits && kk == k {
			t.Errorf("Parameter %d spends more than 2^16 one-bits on a gap", k)
		}
		if fits && cost(codes, kk) < cost(codes, k) {
			t.Errorf("Parameter %d takes %d bits, %d takes %d", k, cost(codes, k), kk, cost(codes, kk))
		}
	}
}

// decodeAll reads len(codes)-1 gaps from b with parameter k, from first.
func decodeAll(b []byte, k uint, first uint64, n int) ([]uint64, error) {
	if n == 0 {
		return nil, nil
	}
	r := NewReader(b)
	out := []uint64{first}
	c := first
	for i := 1; i < n; i++ {
		g, ok := r.Gap(k)
		if !ok || c+g+1 <= c {
			return out, fmt.Errorf("gap %d: bad code", i)
		}
		c += g + 1
		out = append(out, c)
	}
	if (r.Pos()+7)/8 != uint(len(b)) {
		return out, fmt.Errorf("codes end at bit %d of %d bytes", r.Pos(), len(b))
	}
	return out, nil
}

func testCodes() map[string][]uint64 {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int, spread uint64) []uint64 {
		var out []uint64
		c := rng.Uint64N(1000)
		for range n {
			out = append(out, c)
			g := rng.Uint64N(spread)
			if c+g+1 < c {
				break
			}
			c += g + 1
		}
		return out
	}
	return map[string][]uint64{
		"none":             nil,
		"one":              {7},
		"two":              {0, 1<<64 - 1},
		"dense":            {3, 4, 5, 6, 7, 8},
		"example":          {10, 13, 14, 30},
		"small gaps":       random(1000, 10),
		"large gaps":       random(1000, 1<<40),
		"huge gaps":        random(100, 1<<62),
		"one huge gap":     {0, 1, 2, 3, 1 << 60, 1<<60 + 1},
		"near 2^64":        {1<<64 - 5, 1<<64 - 3, 1<<64 - 1},
		"runs of one-bits": {0, 1 << 20, 1 << 21, 1 << 22},
	}
}

func TestRoundTrip(t *testing.T) {
	for name, codes := range testCodes() {
		t.Run(name, func(t *testing.T) {
			k := Parameter(codes)
			checkParameter(t, codes, k)
			for _, kk := range []uint{k, 0, 1, 17, 63} {
				if len(codes) > 1 && kk < uint(max(bits.Len64(codes[len(codes)-1]-codes[0])-20, 0)) {
					continue // too many one-bits to test
				}
				var w Writer
				w.Bits(0, 0)
				w.Gaps(codes, kk)
				n := w.Len()
				w.Done()
				got := w.Bytes()
				if want := refBits(codes, kk); !bytes.Equal(got, want) {
					t.Fatalf("k %d: wrote % x, want % x", kk, got, want)
				}
				if (n+7)/8 != uint64(len(got)) {
					t.Errorf("k %d: Len %d bits for %d bytes", kk, n, len(got))
				}
				back, err := decodeAll(got, kk, firstOr(codes), len(codes))
				if err != nil || !slices.Equal(back, codes) {
					t.Fatalf("k %d: read %v, %v", kk, back, err)
				}
				w.Reset()
				if w.Len() != 0 || len(w.Bytes()) != 0 {
					t.Fatalf("Reset leaves %d bits", w.Len())
				}
			}
		})
	}
}

func firstOr(codes []uint64) uint64 {
	if len(codes) == 0 {
		return 0
	}
	return codes[0]
}

// TestBits checks Bits and Unary against the bit-by-bit layout.
func TestBits(t *testing.T) {
	var w Writer
	w.Bits(0b101, 3)
	w.Unary(2)
	w.Bits(1<<64-1, 64)
	w.Unary(70)
	w.Bits(0x1234, 16)
	w.Done()
	var want []byte
	n := 0
	put := func(v uint64, k int) {
		for j := range k {
			if n%8 == 0 {
				want = append(want, 0)
			}
			want[n/8] |= byte(v>>j&1) << (n % 8)
			n++
		}
	}
	put(0b101, 3)
	put(0b011, 3)
	put(1<<64-1, 64)
	put(1<<64-1, 64)
	put(0b0111111, 7)
	put(0x1234, 16)
	if got := w.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("wrote % x, want % x", got, want)
	}
}

// TestGapCorrupt reads codes that run past the stream's end or overflow.
func TestGapCorrupt(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		k    uint
	}{
		{"empty", nil, 0},
		{"ones to the end", []byte{0xff, 0xff}, 0},
		{"low bits past the end", []byte{0x00}, 9},
		{"quotient overflows", bytes.Repeat([]byte{0xff}, 20), 60},
	}
	for _, tc := range tests {
		r := NewReader(tc.b)
		if g, ok := r.Gap(tc.k); ok {
			t.Errorf("%s: read %d", tc.name, g)
		}
	}
	r := NewReader([]byte{0x02, 0x00})
	r.Seek(1)
	if g, ok := r.Gap(0); !ok || g != 1 || r.Pos() != 3 {
		t.Errorf("from bit 1: %d, %v at %d; want 1, true at 3", g, ok, r.Pos())
	}
}

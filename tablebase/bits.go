package tablebase

import "math/bits"

// bitWriter packs bits, least significant first.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

// bits appends the n low bits of v (n <= 64).
func (w *bitWriter) bits(v uint64, n uint) {
	for n > 0 {
		take := min(n, 64-w.nacc, 32)
		w.acc |= (v & (1<<take - 1)) << w.nacc
		w.nacc += take
		v >>= take
		n -= take
		for w.nacc >= 8 {
			w.out = append(w.out, byte(w.acc))
			w.acc >>= 8
			w.nacc -= 8
		}
	}
}

// unary appends q one-bits and a zero.
func (w *bitWriter) unary(q uint64) {
	for ; q >= 32; q -= 32 {
		w.bits(1<<32-1, 32)
	}
	w.bits(1<<q-1, uint(q)+1)
}

// done flushes the last partial byte, zero padded.
func (w *bitWriter) done() {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
	}
	w.acc, w.nacc = 0, 0
}

// bitReader reads the gaps too long for the decoding loops' fast path: b
// runs from the keys' start to the end of the file, and end is the keys'
// length in bits, past which nothing may be read.
type bitReader struct {
	b   []byte
	pos uint
	end uint
}

// gap reads a Rice-coded number with parameter k: q one-bits, a zero and
// k low bits. It reports false when the code runs past the end or the
// number overflows 64 bits.
func (r *bitReader) gap(k uint) (uint64, bool) {
	var q uint64
	for {
		if r.pos >= r.end {
			return 0, false
		}
		w := load(r.b, r.pos)
		ones := uint(bits.TrailingZeros64(^w))
		if ones < 57 {
			r.pos += ones + 1
			q += uint64(ones)
			break
		}
		q += 56
		r.pos += 56
	}
	if k > 0 && q > (1<<64-1)>>k {
		return 0, false
	}
	lo := r.bits(min(k, 32))
	if k > 32 {
		lo |= r.bits(k-32) << 32
	}
	return q<<k | lo, r.pos <= r.end
}

// bits reads an n-bit number, n <= 56.
func (r *bitReader) bits(n uint) uint64 {
	v := load(r.b, r.pos) & (1<<n - 1)
	r.pos += n
	return v
}

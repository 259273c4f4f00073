package rice

import (
	"encoding/binary"
	"math/bits"
)

// Writer packs bits into bytes, least significant bit first (bit i of the
// stream is bit i%8 of byte i/8), and Rice codes gaps. Its zero value is
// an empty stream.
type Writer struct {
	out  []byte
	acc  uint64
	nacc uint
}

// Bits appends the n low bits of v (n <= 64), least significant first.
func (w *Writer) Bits(v uint64, n uint) {
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

// Unary appends q one-bits and a zero-bit.
func (w *Writer) Unary(q uint64) {
	for ; q >= 32; q -= 32 {
		w.Bits(1<<32-1, 32)
	}
	w.Bits(1<<q-1, uint(q)+1)
}

// Gap appends the Rice code of g with parameter k (k <= 63): g>>k
// one-bits, a zero-bit and the k low bits of g.
func (w *Writer) Gap(g uint64, k uint) {
	w.Unary(g >> k)
	w.Bits(g&(1<<k-1), k)
}

// Gaps appends the Rice codes with parameter k of the gaps between codes,
// which strictly increase: codes[i] - codes[i-1] - 1 for each i from 1.
func (w *Writer) Gaps(codes []uint64, k uint) {
	for i := 1; i < len(codes); i++ {
		w.Gap(codes[i]-codes[i-1]-1, k)
	}
}

// Len is the number of bits appended since the stream began, padding
// included.
func (w *Writer) Len() uint64 { return 8*uint64(len(w.out)) + uint64(w.nacc) }

// Done ends the stream: its last partial byte is padded with zero-bits.
func (w *Writer) Done() {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
	}
	w.acc, w.nacc = 0, 0
}

// Bytes is the stream's bytes, whole once Done is called. They are the
// Writer's until Reset.
func (w *Writer) Bytes() []byte { return w.out }

// Reset empties the stream, keeping its buffer for the next.
func (w *Writer) Reset() {
	w.out = w.out[:0]
	w.acc, w.nacc = 0, 0
}

// Parameter is the k that codes the gaps between codes, strictly
// increasing, in the fewest bits: a gap g takes g>>k + 1 + k bits, so
// the cost of k is sum(g>>k) + n*(k+1), least near log2 of the mean gap.
// The k tried are those from two below the bit length of the mean gap to
// one above, none above 63 and none below kmin: a k below kmin would
// spend more than 2^16 one-bits on the largest gap (and could overflow
// the cost). Ties go to the least k. Fewer than two codes have no gaps:
// their k is 0.
func Parameter(codes []uint64) uint {
	if len(codes) < 2 {
		return 0
	}
	n := uint64(len(codes) - 1)
	var sum, most uint64
	for i := 1; i < len(codes); i++ {
		g := codes[i] - codes[i-1] - 1
		sum += g
		most = max(most, g)
	}
	best, bestCost := uint(0), ^uint64(0)
	k0, kmin := bits.Len64(sum/n), max(bits.Len64(most)-16, 0)
	for k := max(k0-2, kmin); k <= max(min(k0+1, 63), kmin); k++ {
		var cost uint64
		for i := 1; i < len(codes); i++ {
			cost += (codes[i] - codes[i-1] - 1) >> k
		}
		if cost += n * uint64(k+1); cost < bestCost {
			best, bestCost = uint(k), cost
		}
	}
	return best
}

// Reader reads Rice codes from a bit stream that Writer packed. It reads
// nothing past the end of its bytes.
type Reader struct {
	b   []byte
	pos uint
}

// NewReader reads the stream b from its first bit.
func NewReader(b []byte) Reader { return Reader{b: b} }

// Pos is the position of the next bit to read.
func (r *Reader) Pos() uint { return r.pos }

// Seek moves the reader to bit pos of the stream.
func (r *Reader) Seek(pos uint) { r.pos = pos }

// word is the 64 bits from the reader's position on, zeros past the end.
func (r *Reader) word() uint64 {
	i := r.pos >> 3
	var w uint64
	if i+8 <= uint(len(r.b)) {
		w = binary.LittleEndian.Uint64(r.b[i:])
	} else {
		for j := uint(0); i+j < uint(len(r.b)); j++ {
			w |= uint64(r.b[i+j]) << (8 * j)
		}
	}
	return w >> (r.pos & 7)
}

// bits reads an n-bit number, n <= 56, past the end as zeros.
func (r *Reader) bits(n uint) uint64 {
	v := r.word() & (1<<n - 1)
	r.pos += n
	return v
}

// Gap reads the Rice code of a number with parameter k (k <= 63): q
// one-bits, a zero-bit and k low bits, the number q<<k | low. It reports
// false when the code runs past the end of the stream or the number does
// not fit 64 bits; the reader's position is then of no use.
func (r *Reader) Gap(k uint) (uint64, bool) {
	end := 8 * uint(len(r.b))
	var q uint64
	for {
		if r.pos >= end {
			return 0, false
		}
		ones := uint(bits.TrailingZeros64(^r.word()))
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
	return q<<k | lo, r.pos <= end
}

package parquetpages

import (
	"encoding/binary"
	"math/bits"
)

// deltaEncoder encodes int64 values as DELTA_BINARY_PACKED: blocks of
// 128 deltas in four miniblocks of 32, each bit-packed at its own width
// after the block's least delta, behind a header of the block size, the
// miniblocks a block, the number of values and the first value. Deltas
// wrap around as int64 arithmetic does, as the format allows.
type deltaEncoder struct {
	// narrow is set for INT32 values (an INT32 column's, or the lengths
	// of DELTA_LENGTH_BYTE_ARRAY), whose deltas wrap around as int32
	// arithmetic does.
	narrow  bool
	n       int
	first   int64
	prev    int64
	block   [deltaBlock]int64 // the deltas of the block being filled
	nblock  int
	encoded []byte // the finished blocks
}

const (
	deltaBlock     = 128
	deltaMiniBlock = 32
	deltaMinis     = deltaBlock / deltaMiniBlock
)

func (d *deltaEncoder) add(v int64) {
	if d.n == 0 {
		d.first = v
	} else {
		delta := v - d.prev
		if d.narrow {
			delta = int64(int32(v) - int32(d.prev))
		}
		d.block[d.nblock] = delta
		if d.nblock++; d.nblock == deltaBlock {
			d.flushBlock()
		}
	}
	d.prev = v
	d.n++
}

// size is the bytes of the finished blocks.
func (d *deltaEncoder) size() int { return len(d.encoded) }

func (d *deltaEncoder) reset() {
	d.n, d.nblock, d.encoded = 0, 0, d.encoded[:0]
}

// flushBlock encodes the deltas of the block: the least of them, the
// bit width of each miniblock, then the miniblocks holding deltas.
func (d *deltaEncoder) flushBlock() {
	if d.nblock == 0 {
		return
	}
	deltas := d.block[:d.nblock]
	least := deltas[0]
	for _, v := range deltas[1:] {
		least = min(least, v)
	}
	d.encoded = binary.AppendVarint(d.encoded, least)
	var widths [deltaMinis]int
	minis := (d.nblock + deltaMiniBlock - 1) / deltaMiniBlock
	for m := range minis {
		var or uint64
		for _, v := range deltas[m*deltaMiniBlock : min((m+1)*deltaMiniBlock, d.nblock)] {
			or |= uint64(v - least)
		}
		widths[m] = bits.Len64(or)
	}
	for _, w := range widths {
		d.encoded = append(d.encoded, byte(w))
	}
	for m := range minis {
		var vals [deltaMiniBlock]uint64 // a partial miniblock is padded with zeros
		for i, v := range deltas[m*deltaMiniBlock : min((m+1)*deltaMiniBlock, d.nblock)] {
			vals[i] = uint64(v - least)
		}
		d.encoded = packBits(d.encoded, vals[:], widths[m])
	}
	d.nblock = 0
}

// finish appends the page's encoded values to dst: the header, then the
// blocks.
func (d *deltaEncoder) finish(dst []byte) []byte {
	d.flushBlock()
	dst = binary.AppendUvarint(dst, deltaBlock)
	dst = binary.AppendUvarint(dst, deltaMinis)
	dst = binary.AppendUvarint(dst, uint64(d.n))
	dst = binary.AppendVarint(dst, d.first)
	return append(dst, d.encoded...)
}

// packBits appends vals, a multiple of 8 of them, at w bits each, least
// significant bit first: w bytes for every 8 values.
func packBits(dst []byte, vals []uint64, w int) []byte {
	if w == 0 {
		return dst
	}
	var acc uint64
	var nacc uint // bits in acc
	for _, v := range vals {
		acc |= v << nacc
		if nacc+uint(w) >= 64 {
			dst = binary.LittleEndian.AppendUint64(dst, acc)
			// The bits of v that did not fit (none when nacc is 0: a
			// shift by 64 gives 0).
			acc = v >> (64 - nacc)
			nacc = nacc + uint(w) - 64
		} else {
			nacc += uint(w)
		}
	}
	for ; nacc > 0; nacc -= 8 {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst
}

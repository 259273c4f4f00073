package main

import (
	"math/bits"
	"slices"
)

const (
	// radixBits is the width of a digit: 2048 counts, which fit in the
	// first-level cache.
	radixBits = 11
	// radixMin is the number of keys below which slices.Sort is used.
	radixMin = 4096
	// bucketKeys is about the number of keys the first, most significant
	// digit pass leaves in a bucket: with the scratch, a megabyte, which
	// the second-level cache holds.
	bucketKeys = 1 << 16
)

// sorter sorts keys and drops repeats, with buffers reused from one call
// to the next.
type sorter struct {
	std     bool // use slices.Sort and slices.Compact only
	scratch []uint64
	count   [2][1 << radixBits]uint32
}

// unique sorts keys and drops repeats in place, and returns the distinct
// keys, a prefix of keys. Its digits cover only the bits in which the
// keys differ.
func (s *sorter) unique(keys []uint64) []uint64 {
	if s.std || len(keys) < radixMin {
		slices.Sort(keys)
		return slices.Compact(keys)
	}
	or, and := uint64(0), ^uint64(0)
	for _, k := range keys {
		or |= k
		and &= k
	}
	diff := or ^ and
	if diff == 0 {
		return keys[:1]
	}
	s.scratch = reserve(s.scratch, len(keys))
	lo, hi := bits.TrailingZeros64(diff), 64-bits.LeadingZeros64(diff)
	return s.split(keys, s.scratch[:len(keys)], lo, hi)
}

// split sorts keys, which agree on every bit from top up, on bits lo to
// top-1 and drops repeats, with scratch as room, and returns the distinct
// keys, a prefix of keys. More keys than the cache holds are first split
// on their top bits by a pass that places them in scratch; each bucket
// is then sorted on the bits below, split again if it is still too big
// for the cache (canonical keys crowd into the low values of the top
// bits), and its distinct keys closed up at the start of keys.
func (s *sorter) split(keys, scratch []uint64, lo, top int) []uint64 {
	width := splitWidth(len(keys), top-lo)
	if width == 0 {
		return keys[:compactInto(keys, 0, s.lsd(keys, scratch, lo, top))]
	}
	shift := uint(top-width) & 63
	mask := uint64(1)<<width - 1
	var next [1<<radixBits + 1]int
	for _, k := range keys {
		next[(k>>shift)&mask+1]++
	}
	for b := 1; b < len(next); b++ {
		next[b] += next[b-1]
	}
	start := next
	for _, k := range keys {
		b := (k >> shift) & mask
		scratch[next[b]] = k
		next[b]++
	}
	n := 0
	for b := range 1 << width {
		b0, b1 := start[b], start[b+1]
		switch {
		case b1-b0 > 2*bucketKeys:
			n += copy(keys[n:], s.split(scratch[b0:b1], keys[b0:b1], lo, top-width))
		case b0 < b1:
			n = compactInto(keys, n, s.lsd(scratch[b0:b1], keys[b0:b1], lo, top-width))
		}
	}
	return keys[:n]
}

// splitWidth returns the number of top bits, of the nbits in which n keys
// differ, on which to split them first, or 0 for none: at least enough
// to leave about bucketKeys keys a bucket, and more if that spares the
// buckets a digit, as long as a bucket keeps about 4096 keys.
func splitWidth(n, nbits int) int {
	if n < 2*bucketKeys {
		return 0
	}
	digits := func(w int) int { return (nbits - w + radixBits - 1) / radixBits }
	width := min(bits.Len(uint(n/bucketKeys)), radixBits, nbits)
	for w := width + 1; w <= min(radixBits, nbits, bits.Len(uint(n))-12); w++ {
		if digits(w) < digits(width) {
			width = w
		}
	}
	return width
}

// lsd sorts src on bits lo to top-1, least significant digit first, with
// dst as room for the passes, and returns the sorted keys, in src or dst.
// Each pass places the keys by one digit and counts the next digit's
// values as it goes; a digit that every key shares is not placed.
func (s *sorter) lsd(src, dst []uint64, lo, top int) []uint64 {
	if top <= lo || len(src) < 2 {
		return src
	}
	digits := (top - lo + radixBits - 1) / radixBits
	width := (top - lo + digits - 1) / digits
	mask := uint64(1)<<width - 1
	count, next := &s.count[0], &s.count[1]
	clear(count[:])
	shift := uint(lo) & 63
	for _, k := range src {
		count[(k>>shift)&mask]++
	}
	for d := range digits {
		shift := uint(lo+d*width) & 63
		nshift := uint(lo+(d+1)*width) & 63
		last := d == digits-1
		clear(next[:])
		if int(count[(src[0]>>shift)&mask]) == len(src) {
			if !last {
				for _, k := range src {
					next[(k>>nshift)&mask]++
				}
			}
			count, next = next, count
			continue
		}
		var sum uint32
		for i, c := range count[:mask+1] {
			count[i] = sum
			sum += c
		}
		if last {
			for _, k := range src {
				b := (k >> shift) & mask
				dst[count[b]] = k
				count[b]++
			}
		} else {
			for _, k := range src {
				b := (k >> shift) & mask
				dst[count[b]] = k
				count[b]++
				next[(k>>nshift)&mask]++
			}
		}
		src, dst = dst, src
		count, next = next, count
	}
	return src
}

// compactInto copies the distinct keys of sorted to dst from index n on
// and returns the index after them. sorted may start at or after dst[n]
// in the same array: no key is overwritten before it is read.
func compactInto(dst []uint64, n int, sorted []uint64) int {
	if len(sorted) == 0 {
		return n
	}
	last := sorted[0]
	dst[n] = last
	n++
	for _, k := range sorted[1:] {
		dst[n] = k
		if k != last {
			n++
		}
		last = k
	}
	return n
}

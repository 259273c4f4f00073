package jobs

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/census-cgt/census/games"
)

// Bucket maps a key to one of n buckets by a fixed mix of its bits, the same
// on every machine and every run.
func Bucket(key uint64, n int) int {
	hi, _ := bits.Mul64(mix(key), uint64(n))
	return int(hi)
}

func pieceBucket(k games.PieceKey, n int) int { return Bucket(k.Hi^mix(k.Lo), n) }

// mix is the finaliser of splitmix64.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// sortUnique sorts keys and drops repeats; scratch is reused for the radix
// passes and returned, grown if need be. The result may live in either
// keys or scratch.
func sortUnique(keys, scratch []uint64) (sorted, newScratch []uint64) {
	if len(keys) < radixMin {
		slices.Sort(keys)
		return slices.Compact(keys), scratch
	}
	if cap(scratch) < len(keys) {
		scratch = make([]uint64, len(keys))
	}
	scratch = scratch[:len(keys)]
	keys = radixSort(keys, scratch)
	return slices.Compact(keys), scratch
}

// radixMin is the length below which a comparison sort is faster.
const radixMin = 4096

// radixBits is the width of a radix digit: 2048 buckets, whose counts fit
// in the first-level cache.
const radixBits = 11

// radixSort sorts keys least significant digit first, with digits placed
// on the bits in which the keys differ (positions pack into a few ranges
// of bits) and none where they all agree. It returns the sorted slice,
// which is either keys or scratch.
func radixSort(keys, scratch []uint64) []uint64 {
	var or, and uint64 = 0, ^uint64(0)
	for _, k := range keys {
		or |= k
		and &= k
	}
	varying := or ^ and
	src, dst := keys, scratch
	var count [1 << radixBits]int
	const mask = 1<<radixBits - 1
	for varying != 0 {
		shift := uint(bits.TrailingZeros64(varying))
		if shift+radixBits < 64 {
			varying &^= (1<<radixBits - 1) << shift
		} else {
			varying = 0
		}
		clear(count[:])
		for _, k := range src {
			count[(k>>shift)&mask]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			d := (k >> shift) & mask
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	return src
}

func comparePieceKeys(a, b games.PieceKey) int {
	if c := cmp.Compare(a.Hi, b.Hi); c != 0 {
		return c
	}
	return cmp.Compare(a.Lo, b.Lo)
}

// sortPieces sorts piece records by key and folds records of one key into
// one: positions add up, the first tier is the least.
func sortPieces(recs []PieceRecord) []PieceRecord {
	slices.SortFunc(recs, func(a, b PieceRecord) int { return comparePieceKeys(a.Key, b.Key) })
	out := recs[:0]
	for _, r := range recs {
		if n := len(out); n > 0 && out[n-1].Key == r.Key {
			out[n-1].Positions += r.Positions
			out[n-1].FirstTier = min(out[n-1].FirstTier, r.FirstTier)
			continue
		}
		out = append(out, r)
	}
	return out
}

// sortPieceRows sorts piece rows, whose keys are unique, by key.
func sortPieceRows(rows []pieceRow) []pieceRow {
	slices.SortFunc(rows, func(a, b pieceRow) int { return comparePieceKeys(a.Key, b.Key) })
	return rows
}

func compareClasses(a, b ClassRecord) int {
	if c := comparePieceKeys(a.Neg, b.Neg); c != 0 {
		return c
	}
	return comparePieceKeys(a.Sym, b.Sym)
}

// sortClasses sorts class records by negation class, then symmetric class,
// and drops repeats.
func sortClasses(recs []ClassRecord) []ClassRecord {
	slices.SortFunc(recs, compareClasses)
	return slices.CompactFunc(recs, func(a, b ClassRecord) bool { return a.Neg == b.Neg && a.Sym == b.Sym })
}

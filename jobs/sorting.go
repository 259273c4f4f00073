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

// radixSortBy sorts recs by a key of words 64-bit words, word(r, 0) the
// most significant, least significant digit first and stably, with
// digits only on the bits in which the keys differ, as radixSort does
// for uint64 keys. scratch must be as long as recs; the result is
// either recs or scratch.
func radixSortBy[T any](recs, scratch []T, words int, word func(r *T, i int) uint64) []T {
	src, dst := recs, scratch[:len(recs)]
	var count [1 << radixBits]int
	const mask = 1<<radixBits - 1
	for w := words - 1; w >= 0; w-- {
		var or, and uint64 = 0, ^uint64(0)
		for i := range src {
			k := word(&src[i], w)
			or |= k
			and &= k
		}
		varying := or ^ and
		for varying != 0 {
			shift := uint(bits.TrailingZeros64(varying))
			if shift+radixBits < 64 {
				varying &^= (1<<radixBits - 1) << shift
			} else {
				varying = 0
			}
			clear(count[:])
			for i := range src {
				count[(word(&src[i], w)>>shift)&mask]++
			}
			sum := 0
			for i, c := range count {
				count[i] = sum
				sum += c
			}
			for i := range src {
				d := (word(&src[i], w) >> shift) & mask
				dst[count[d]] = src[i]
				count[d]++
			}
			src, dst = dst, src
		}
	}
	return src
}

// sortBy sorts recs by cmp, or by radixSortBy on their words when there
// are enough of them; scratch is grown as need be and kept for the next
// call. The result is either recs or *scratch.
func sortBy[T any](recs []T, scratch *[]T, cmp func(a, b T) int, words int, word func(r *T, i int) uint64) []T {
	if len(recs) < radixMin {
		slices.SortFunc(recs, cmp)
		return recs
	}
	if cap(*scratch) < len(recs) {
		*scratch = make([]T, len(recs))
	}
	return radixSortBy(recs, (*scratch)[:len(recs)], words, word)
}

func pieceKeyWord(k *games.PieceKey, i int) uint64 {
	if i == 0 {
		return k.Hi
	}
	return k.Lo
}

func comparePieceRecords(a, b PieceRecord) int { return comparePieceKeys(a.Key, b.Key) }

func pieceRecordWord(r *PieceRecord, i int) uint64 { return pieceKeyWord(&r.Key, i) }

// sortPieces sorts piece records by key and folds records of one key into
// one: positions add up, the first tier is the least.
func sortPieces(recs []PieceRecord) []PieceRecord {
	var scratch []PieceRecord
	return sortPiecesWith(recs, &scratch)
}

// sortPiecesWith is sortPieces with the radix scratch of the caller (see
// sortBy); the result may live in either recs or *scratch.
func sortPiecesWith(recs []PieceRecord, scratch *[]PieceRecord) []PieceRecord {
	recs = sortBy(recs, scratch, comparePieceRecords, 2, pieceRecordWord)
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
	var scratch []pieceRow
	return sortPieceRowsWith(rows, &scratch)
}

// sortPieceRowsWith is sortPieceRows with the radix scratch of the caller
// (see sortBy).
func sortPieceRowsWith(rows []pieceRow, scratch *[]pieceRow) []pieceRow {
	return sortBy(rows, scratch, func(a, b pieceRow) int { return comparePieceKeys(a.Key, b.Key) }, 2,
		func(r *pieceRow, i int) uint64 { return pieceKeyWord(&r.Key, i) })
}

func compareClasses(a, b ClassRecord) int {
	if c := comparePieceKeys(a.Neg, b.Neg); c != 0 {
		return c
	}
	return comparePieceKeys(a.Sym, b.Sym)
}

// classWord is word i of the sort key of a class record: its negation
// class, then its symmetric class.
func classWord(r *ClassRecord, i int) uint64 {
	switch i {
	case 0:
		return r.Neg.Hi
	case 1:
		return r.Neg.Lo
	case 2:
		return r.Sym.Hi
	}
	return r.Sym.Lo
}

// sortClasses sorts class records by negation class, then symmetric class,
// and drops repeats.
func sortClasses(recs []ClassRecord) []ClassRecord {
	var scratch []ClassRecord
	return sortClassesWith(recs, &scratch)
}

// sortClassesWith is sortClasses with the radix scratch of the caller (see
// sortBy).
func sortClassesWith(recs []ClassRecord, scratch *[]ClassRecord) []ClassRecord {
	recs = sortBy(recs, scratch, compareClasses, 4, classWord)
	return slices.CompactFunc(recs, func(a, b ClassRecord) bool { return a.Neg == b.Neg && a.Sym == b.Sym })
}

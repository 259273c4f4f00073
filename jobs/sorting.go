package jobs

import (
	"cmp"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/host/hugepages"
)

// Bucket maps a key to one of n buckets by a fixed mix of its bits, the same
// on every machine and every run.
func Bucket(key uint64, n int) int { return bucketOfMix(mix(key), n) }

// bucketOfMix is Bucket of a key whose mix is h.
func bucketOfMix(h uint64, n int) int {
	hi, _ := bits.Mul64(h, uint64(n))
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
		hugepages.Advise(scratch)
	}
	scratch = scratch[:len(keys)]
	return radixSortUnique(keys, scratch), scratch
}

// radixMin is the length below which a comparison sort is faster.
const radixMin = 4096

// radixBits is the width of a radix digit: 2048 buckets, whose counts fit
// in the first-level cache.
const radixBits = 11

// radixSortUnique sorts keys least significant digit first and drops
// repeats, with digits placed on the bits in which the keys differ
// (positions pack into a few ranges of bits) and none where they all
// agree. It returns the sorted distinct keys, which live in either keys
// or scratch. More keys than the cache holds are first split on their
// most significant bits (radixSplit).
func radixSortUnique(keys, scratch []uint64) []uint64 {
	if len(keys) == 0 {
		return keys
	}
	var or, and uint64 = 0, ^uint64(0)
	for _, k := range keys {
		or |= k
		and &= k
	}
	if or == and {
		return keys[:1] // every key is the same
	}
	if len(keys) >= radixSplitMin {
		return radixSplit(keys, scratch, or^and)
	}
	var shifts [64/radixBits + 1]uint
	digits := radixPlan(or^and, &shifts)
	return radixPasses(keys, scratch, shifts[:digits], make([]uint32, digits<<radixBits))
}

// radixPlan places radix digits on the bits set in varying, each from the
// lowest bit not yet covered, and returns how many; shifts holds where
// they begin, lowest first.
func radixPlan(varying uint64, shifts *[64/radixBits + 1]uint) (digits int) {
	for ; varying != 0; digits++ {
		shift := uint(bits.TrailingZeros64(varying))
		shifts[digits] = shift
		if shift+radixBits < 64 {
			varying &^= (1<<radixBits - 1) << shift
		} else {
			varying = 0
		}
	}
	return digits
}

// radixSplitMin is the number of keys from which radixSortUnique splits
// them first: a megabyte, about what the second-level cache holds.
// radixSplitLog is the base-2 logarithm of the keys the split aims at a
// bucket, whose passes, with their scratch, then run in that cache.
// radixBucketMinLog is the base-2 logarithm of the fewest keys the split
// leaves a bucket on average when it widens to spare the buckets a pass:
// fewer, and clearing each bucket's counts costs more than the pass.
const (
	radixSplitMin     = 1 << 17
	radixSplitLog     = 15
	radixBucketMinLog = 12
)

// radixSplit sorts keys, whose bits set in varying differ, and drops
// repeats: one pass places them in scratch by their most significant
// varying bits, as many as leave about 2^radixSplitLog keys a bucket,
// then each bucket is sorted on the bits below by radixPasses, in the
// cache. Least significant digit first over the whole buffer, each pass
// would read and write it in memory; split, only the first does. It
// returns the sorted distinct keys, in keys or scratch.
func radixSplit(keys, scratch []uint64, varying uint64) []uint64 {
	top := 63 - bits.LeadingZeros64(varying)
	// The split takes at least enough bits for buckets the cache holds,
	// and more where that spares each bucket a pass (Clobber 4x5's 40
	// bits: 7 and three digits of 11, not 5 and four), as long as a
	// bucket keeps about 2^radixBucketMinLog keys to spread the clearing
	// of its counts. The last radixPlan puts the chosen width's digits
	// back in shifts, which the candidates overwrote.
	width := min(bits.Len(uint(len(keys)-1)>>radixSplitLog), radixBits, top+1)
	var shifts [64/radixBits + 1]uint
	low := func(w int) uint64 { return varying & (1<<(top+1-w) - 1) }
	digits := radixPlan(low(width), &shifts)
	for w := width + 1; w <= min(radixBits, top+1, bits.Len(uint(len(keys)))-radixBucketMinLog); w++ {
		if d := radixPlan(low(w), &shifts); d < digits {
			width, digits = w, d
		}
	}
	digits = radixPlan(low(width), &shifts)
	shift := uint(top+1-width) & 63
	mask := uint64(1)<<width - 1
	var next [1<<radixBits + 1]uint32
	for _, k := range keys {
		next[(k>>shift)&mask+1]++
	}
	for b := 1; b < len(next); b++ {
		next[b] += next[b-1]
	}
	start := next // start[b]:start[b+1] will hold bucket b
	for _, k := range keys {
		b := (k >> shift) & mask
		scratch[next[b]] = k
		next[b]++
	}
	// Every bucket takes the same number of passes, so every bucket's
	// sorted keys land in the same one of keys and scratch: out.
	out := scratch
	if digits%2 == 1 {
		out = keys
	}
	counts := make([]uint32, digits<<radixBits)
	n := 0
	for b := range 1 << width {
		lo, hi := start[b], start[b+1]
		if lo == hi {
			continue
		}
		var sorted []uint64
		if digits == 0 || hi-lo == 1 {
			// The keys of the bucket agree on every varying bit.
			sorted = scratch[lo : lo+1]
			if digits%2 == 1 {
				keys[lo] = scratch[lo]
				sorted = keys[lo : lo+1]
			}
		} else {
			clear(counts)
			sorted = radixPasses(scratch[lo:hi], keys[lo:hi], shifts[:digits], counts)
		}
		n += copy(out[n:], sorted)
	}
	return out[:n]
}

// radixPasses sorts keys on the digits at shifts, lowest first, and drops
// repeats; counts is zeroed room for the counts of every digit. The
// counts of every digit are taken in one pass over the keys, before the
// first digit is placed, so that each digit costs one pass, not two. The
// last pass, on the most significant digit, drops the repeats as it
// places the keys: the keys of one bucket arrive in order, so a key that
// equals the last one placed in its bucket is a repeat, and is
// overwritten by the next key of the bucket. The buckets' runs of
// distinct keys are then closed up. The result lives in keys when there
// is an even number of digits, else in scratch.
func radixPasses(keys, scratch []uint64, ds []uint, counts []uint32) []uint64 {
	const mask = 1<<radixBits - 1
	digits := len(ds)
	// The counts fit in 32 bits: no buffer of a job holds 2^32 keys.
	for _, k := range keys {
		for d, shift := range ds {
			counts[d<<radixBits+int((k>>shift)&mask)]++
		}
	}
	src, dst := keys, scratch
	for d, shift := range ds[:digits-1] {
		count := counts[d<<radixBits : (d+1)<<radixBits]
		var sum uint32
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		shift &= 63 // shifts are below 64: saying so spares each shift a check
		for _, k := range src {
			b := (k >> shift) & mask
			dst[count[b]] = k
			count[b]++
		}
		src, dst = dst, src
	}
	// The last digit drops the repeats as it places the keys.
	shift := ds[digits-1]
	count := counts[(digits-1)<<radixBits : digits<<radixBits]
	var start [1 << radixBits]uint32
	var sum uint32
	for i, c := range count {
		start[i], count[i] = sum, sum
		sum += c
	}
	placeUnique(src, dst, shift, (*[1 << radixBits]uint32)(count))
	// Bucket b holds its distinct keys in dst[start[b]:count[b]]: they
	// move down only once a bucket before had repeats.
	n := count[0]
	for b := 1; b < len(count); b++ {
		if start[b] != n {
			copy(dst[n:], dst[start[b]:count[b]])
		}
		n += count[b] - start[b]
	}
	return dst[:n]
}

// placeUnique places the keys of src, sorted on the digits below the one
// at shift, in the buckets of dst that digit says, dropping repeats: the
// keys of one bucket arrive in order, so a key that equals the last one
// placed in its bucket is a repeat, and the next key of the bucket
// overwrites it. count holds where each bucket starts, and is left
// holding where its distinct keys end.
func placeUnique(src, dst []uint64, shift uint, count *[1 << radixBits]uint32) {
	const mask = 1<<radixBits - 1
	shift &= 63
	// last[b] is the key last placed in bucket b: at first one whose
	// digit is not b, so that it equals no key of b.
	var last [1 << radixBits]uint64
	for b := range last {
		last[b] = uint64(b^1) << shift
	}
	for _, k := range src {
		b := (k >> shift) & mask
		dst[count[b]] = k
		var fresh uint32
		if k != last[b] {
			fresh = 1
		}
		count[b] += fresh
		last[b] = k
	}
}

// msdBits is the width of a digit of msdSortKeyed: 256 buckets, whose
// counts cost little to clear for the small buckets of the last digits.
const msdBits = 8

// radixDigit is a digit of msdSortKeyed: msdBits bits of a key word (0
// the key's Hi, 1 its Lo) from shift up.
type radixDigit struct {
	word  int
	shift uint
}

// appendDigits appends the digits, most significant first, that cover the
// bits set in varying of key word w.
func appendDigits(ds []radixDigit, w int, varying uint64) []radixDigit {
	for varying != 0 {
		top := 63 - bits.LeadingZeros64(varying)
		shift := uint(max(top-msdBits+1, 0))
		ds = append(ds, radixDigit{w, shift})
		varying &^= (1<<msdBits - 1) << shift
	}
	return ds
}

// The records sorted by their piece keys begin with them: a piece job's
// images and class records, a tier job's piece records. keyOf reads the
// key at the start of such a record, so that one sort serves them all
// with the key read in place rather than through a function value
// (TestKeyedRecordsBeginWithKeys checks where the keys lie). keyed names
// them, so that no other type reaches keyOf.
func keyOf[T keyed](r *T) *games.PieceKey { return (*games.PieceKey)(unsafe.Pointer(r)) }

// keyed are the records that begin with their piece keys.
type keyed interface {
	image | PieceRecord | ClassRecord
}

// keyDigit is digit d of the key of r.
func keyDigit[T keyed](r *T, d radixDigit) int {
	k := keyOf(r)
	w := k.Lo
	if d.word == 0 {
		w = k.Hi
	}
	return int(w >> d.shift & (1<<msdBits - 1))
}

// sortKeyed sorts recs in place by the piece key each begins with, and
// records of one key by tie (nil when no two records share a key, or
// their order does not matter).
func sortKeyed[T keyed](recs []T, tie func(a, b T) int) {
	if len(recs) < 2 {
		return
	}
	var or, and [2]uint64
	and = [2]uint64{^uint64(0), ^uint64(0)}
	for i := range recs {
		k := keyOf(&recs[i])
		or[0], and[0] = or[0]|k.Hi, and[0]&k.Hi
		or[1], and[1] = or[1]|k.Lo, and[1]&k.Lo
	}
	var ds []radixDigit
	for w := range 2 {
		ds = appendDigits(ds, w, or[w]^and[w])
	}
	msdSortKeyed(recs, ds, tie)
}

// insertionMax is the length up to which msdSortKeyed sorts a bucket by
// insertion.
const insertionMax = 64

// msdSortKeyed sorts recs by key on the digits ds, most significant
// first: one counting pass and one pass of swaps (a swap puts a record in
// its bucket for good) per digit, then the buckets on the next digits;
// buckets of at most insertionMax records are sorted by insertion. It
// needs no scratch, so the records are sorted in the memory that holds
// them.
func msdSortKeyed[T keyed](recs []T, ds []radixDigit, tie func(a, b T) int) {
	for len(ds) > 0 && len(recs) > 1 {
		if len(recs) <= insertionMax {
			insertionSortKeyed(recs, tie)
			return
		}
		d := ds[0]
		ds = ds[1:]
		var start, next [1 << msdBits]int
		for i := range recs {
			start[keyDigit(&recs[i], d)]++
		}
		sum, one := 0, false
		for b, c := range start {
			start[b], next[b] = sum, sum
			sum += c
			one = one || c == len(recs)
		}
		if one {
			continue // every key has this digit: on to the next
		}
		for b := range next {
			end := len(recs)
			if b+1 < len(start) {
				end = start[b+1]
			}
			for i := next[b]; i < end; {
				db := keyDigit(&recs[i], d)
				if db == b {
					i++
					continue
				}
				recs[i], recs[next[db]] = recs[next[db]], recs[i]
				next[db]++
			}
			next[b] = end
		}
		for b := range start {
			if lo, hi := start[b], next[b]; hi-lo > 1 {
				msdSortKeyed(recs[lo:hi], ds, tie)
			}
		}
		return
	}
	// Every key of recs is the same.
	if tie != nil && len(recs) > 1 {
		slices.SortFunc(recs, tie)
	}
}

// insertionSortKeyed sorts a few records by key, then by tie.
func insertionSortKeyed[T keyed](recs []T, tie func(a, b T) int) {
	for i := 1; i < len(recs); i++ {
		r := recs[i]
		k := *keyOf(&recs[i])
		j := i
		for ; j > 0; j-- {
			pk := keyOf(&recs[j-1])
			if !k.Less(*pk) && (k != *pk || tie == nil || tie(r, recs[j-1]) >= 0) {
				break
			}
			recs[j] = recs[j-1]
		}
		recs[j] = r
	}
}

func comparePieceRecords(a, b PieceRecord) int { return a.Key.Compare(b.Key) }

// sortPieces sorts piece records by key and folds records of one key into
// one: positions add up, the first tier is the least.
func sortPieces(recs []PieceRecord) []PieceRecord {
	sortKeyed(recs, nil)
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

// sortImages sorts the pieces of orbits, whose keys are unique, by key.
func sortImages(imgs []image) []image {
	sortKeyed(imgs, nil)
	return imgs
}

func compareClasses(a, b ClassRecord) int {
	if c := a.Neg.Compare(b.Neg); c != 0 {
		return c
	}
	return compareOther(a, b)
}

// compareOther orders class records of one negation class: the one that
// names the negation class itself first.
func compareOther(a, b ClassRecord) int {
	return cmp.Compare(boolWord(a.Other), boolWord(b.Other))
}

// boolWord is b as a word of a sort key: 1 for true, 0 for false.
func boolWord(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// sortClasses sorts class records by negation class, then symmetric class,
// and drops repeats.
func sortClasses(recs []ClassRecord) []ClassRecord {
	sortKeyed(recs, compareOther)
	return slices.CompactFunc(recs, func(a, b ClassRecord) bool { return a.Neg == b.Neg && a.Other == b.Other })
}

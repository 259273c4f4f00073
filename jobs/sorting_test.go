package jobs

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// keyGens draw keys whose varying bits sit in different 16-bit digits, so
// that the radix sort skips different passes.
var keyGens = []struct {
	name string
	gen  func(rng *rand.Rand) uint64
}{
	{"all bits", func(rng *rand.Rand) uint64 { return rng.Uint64() }},
	{"low digit only", func(rng *rand.Rand) uint64 { return 0xdead_beef_0000_0000 | rng.Uint64N(1<<16) }},
	{"top digit only", func(rng *rand.Rand) uint64 { return rng.Uint64N(1<<16)<<48 | 0x1234 }},
	{"two middle digits", func(rng *rand.Rand) uint64 { return rng.Uint64N(1<<32) << 16 }},
	{"three low bits", func(rng *rand.Rand) uint64 { return 1<<40 | rng.Uint64N(8) }},
	{"bits 15 and 16", func(rng *rand.Rand) uint64 { return rng.Uint64N(4) << 15 }},
	{"one bit per digit", func(rng *rand.Rand) uint64 {
		return rng.Uint64N(2) | rng.Uint64N(2)<<16 | rng.Uint64N(2)<<32 | rng.Uint64N(2)<<63
	}},
	{"all equal", func(rng *rand.Rand) uint64 { return 42 }},
	{"clobber-like positions", func(rng *rand.Rand) uint64 { return rng.Uint64() & 0x0000_ffff_0000_ffff }},
	// Repeats, zero among them, as the successors of a tier job repeat.
	{"few keys with zero", func(rng *rand.Rand) uint64 { return rng.Uint64N(3000) * 0x0000_1001_0010_0001 }},
	// The low buckets repeat and the high ones do not; then the other
	// way round.
	{"repeats then distinct", func(rng *rand.Rand) uint64 {
		if rng.Uint64N(2) == 0 {
			return rng.Uint64N(1024) << 40
		}
		return rng.Uint64() | 1<<63
	}},
	{"distinct then repeats", func(rng *rand.Rand) uint64 {
		if rng.Uint64N(2) == 0 {
			return rng.Uint64N(1024)<<40 | 1<<63
		}
		return rng.Uint64() &^ (1 << 63)
	}},
}

func TestSortUnique(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, kg := range keyGens {
		for _, n := range []int{0, 1, 2, 255, 256, 257, 511, 1000, radixMin - 1, radixMin, radixMin + 1, 5000, 70_000, radixSplitMin, 300_000} {
			t.Run(fmt.Sprintf("%s/%d", kg.name, n), func(t *testing.T) {
				keys := make([]uint64, n)
				for i := range keys {
					keys[i] = kg.gen(rng)
				}
				want := slices.Clone(keys)
				slices.Sort(want)
				want = slices.Compact(want)
				for _, scratch := range [][]uint64{nil, make([]uint64, 0, n/2), make([]uint64, 2*n+1)} {
					got, newScratch := sortUnique(slices.Clone(keys), scratch)
					if !slices.Equal(got, want) {
						t.Fatalf("sortUnique differs from Sort+Compact: %d keys, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
					}
					if n >= radixMin && cap(newScratch) < n {
						t.Errorf("scratch returned with capacity %d < %d keys", cap(newScratch), n)
					}
				}
			})
		}
	}
}

func TestRadixSortUnique(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, kg := range keyGens {
		t.Run(kg.name, func(t *testing.T) {
			keys := make([]uint64, 3000)
			for i := range keys {
				keys[i] = kg.gen(rng)
			}
			want := slices.Compact(slices.Sorted(slices.Values(keys)))
			got := radixSortUnique(slices.Clone(keys), make([]uint64, len(keys)))
			if !slices.Equal(got, want) {
				t.Errorf("radixSortUnique differs from Sort+Compact at %d", firstDiff(got, want))
			}
		})
	}
}

func TestSortPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	var recs []PieceRecord
	type agg struct {
		positions uint64
		first     int32
	}
	want := map[games.PieceKey]agg{}
	for i := 0; i < 5000; i++ {
		k := games.MakePieceKey(1+rng.IntN(2), 1+rng.IntN(2), uint64(rng.IntN(300)))
		r := PieceRecord{Key: k, Positions: uint64(1 + rng.IntN(5)), FirstTier: rng.Int32N(20)}
		recs = append(recs, r)
		a, ok := want[k]
		if !ok {
			a.first = r.FirstTier
		}
		a.positions += r.Positions
		a.first = min(a.first, r.FirstTier)
		want[k] = a
	}
	got := sortPieces(recs)
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i, r := range got {
		if i > 0 && !got[i-1].Key.Less(r.Key) {
			t.Fatalf("records %d and %d out of order: %+v, %+v", i-1, i, got[i-1].Key, r.Key)
		}
		if a := want[r.Key]; r.Positions != a.positions || r.FirstTier != a.first {
			t.Errorf("%+v: %d positions, first tier %d; want %d, %d", r.Key, r.Positions, r.FirstTier, a.positions, a.first)
		}
	}
}

func TestSortClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var recs []ClassRecord
	type pair struct {
		neg   games.PieceKey
		other bool
	}
	want := map[pair]bool{}
	for i := 0; i < 3000; i++ {
		r := ClassRecord{
			Neg:   games.MakePieceKey(1+rng.IntN(2), 2, uint64(rng.IntN(200))),
			Other: rng.IntN(2) == 0,
		}
		recs = append(recs, r)
		want[pair{r.Neg, r.Other}] = true
	}
	got := sortClasses(recs)
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d distinct pairs", len(got), len(want))
	}
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if !(a.Neg.Less(b.Neg) || a.Neg == b.Neg && !a.Other && b.Other) {
			t.Fatalf("records %d and %d out of order: %+v, %+v", i-1, i, a, b)
		}
	}
}

// splitmix64 is the generator of Steele, Lea and Flood; its published
// first outputs from seed 0 are 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4 and
// 0x06c45d188009454f. Bucket mixes a key with splitmix64's finaliser, so
// that the key k*0x9e3779b97f4a7c15 maps to the k-th output. Pinning these
// values pins the map of keys to shards, which must never change while a
// run is in flight.
func TestBucketIsSplitmix(t *testing.T) {
	const golden = 0x9e3779b97f4a7c15
	outputs := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}
	for i, out := range outputs {
		key := golden * uint64(i+1)
		for _, n := range []int{1, 2, 16, 1000, 1 << 20} {
			want, _ := bits.Mul64(out, uint64(n))
			if got := Bucket(key, n); got != int(want) {
				t.Errorf("Bucket(%#x, %d) = %d, want %d (the top bits of %#x times n)", key, n, got, want, out)
			}
		}
	}
}

func TestBucketRangeAndUniformity(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	for _, n := range []int{1, 2, 3, 7, 16, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			// Dense keys (like positions of one tier) and sparse ones.
			const keys = 1 << 17
			for _, gen := range []func(i int) uint64{
				func(i int) uint64 { return uint64(i) },
				func(i int) uint64 { return uint64(i) << 32 },
				func(i int) uint64 { return rng.Uint64() },
			} {
				counts := make([]int, n)
				for i := 0; i < keys; i++ {
					b := Bucket(gen(i), n)
					if b < 0 || b >= n {
						t.Fatalf("Bucket = %d, outside 0..%d", b, n-1)
					}
					counts[b]++
				}
				// Each bucket within 5% of its share, more than 4
				// standard deviations of a fair split for n <= 16 (at 16
				// a share is 8192 keys, deviation about 88). At n = 100 a
				// share is 1311 keys, deviation about 36, so allow 12%.
				mean := float64(keys) / float64(n)
				tol := 0.05
				if n == 100 {
					tol = 0.12
				}
				for b, c := range counts {
					if d := float64(c) - mean; d > tol*mean || d < -tol*mean {
						t.Errorf("bucket %d of %d holds %d keys, mean %.0f", b, n, c, mean)
					}
				}
			}
		})
	}
	// pieceBucket spreads the keys of one box over the buckets too.
	counts := make([]int, 8)
	for lo := uint64(0); lo < 8000; lo++ {
		counts[pieceBucket(games.MakePieceKey(2, 3, lo), 8)]++
	}
	for b, c := range counts {
		if c < 850 || c > 1150 {
			t.Errorf("pieceBucket: bucket %d holds %d of 8000 keys", b, c)
		}
	}
}

// TestMSDSortMatchesSortFunc sorts records of every kind the jobs sort by
// key, with keys of few and of many varying bits, by msdSortKeyed and by a
// comparison sort, and wants the same order (the keys are unique).
func TestMSDSortMatchesSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 12))
	key := func(wide bool) games.PieceKey {
		if wide {
			return games.PieceKey{Hi: rng.Uint64(), Lo: rng.Uint64()}
		}
		return games.MakePieceKey(1+rng.IntN(4), 1+rng.IntN(4), uint64(rng.IntN(1<<16)))
	}
	for _, wide := range []bool{false, true} {
		for _, n := range []int{0, 1, 100, radixMin, 3 * radixMin} {
			seen := map[games.PieceKey]bool{}
			var rows []image
			var classes []ClassRecord
			for len(rows) < n {
				k := key(wide)
				if seen[k] {
					continue
				}
				seen[k] = true
				rows = append(rows, image{Key: k, orbit: rng.Uint32(), negates: rng.IntN(2) == 0})
				classes = append(classes, ClassRecord{Neg: k, Other: rng.IntN(2) == 0})
				// A negation class may come with both its symmetric
				// classes, and a class more than once.
				switch rng.IntN(4) {
				case 0:
					classes = append(classes, ClassRecord{Neg: k, Other: !classes[len(classes)-1].Other})
				case 1:
					classes = append(classes, classes[len(classes)-1])
				}
			}
			// Many records of one key: more than a bucket sorted by
			// insertion holds.
			if n > 0 {
				for i := range 3 * insertionMax {
					classes = append(classes, ClassRecord{Neg: classes[0].Neg, Other: i%3 == 0})
				}
			}
			wantRows := slices.Clone(rows)
			slices.SortFunc(wantRows, func(a, b image) int { return a.Key.Compare(b.Key) })
			wantClasses := slices.Clone(classes)
			slices.SortFunc(wantClasses, compareClasses)
			wantClasses = slices.Compact(wantClasses)
			if got := sortImages(rows); !slices.Equal(got, wantRows) {
				t.Errorf("wide %v, %d images: msdSortKeyed order differs from the comparison sort", wide, n)
			}
			if got := sortClasses(classes); !slices.Equal(got, wantClasses) {
				t.Errorf("wide %v, %d class records: msdSortKeyed order differs from the comparison sort", wide, n)
			}
		}
	}
}

// TestKeyedRecordsBeginWithKeys checks that the records sortKeyed sorts
// begin with their piece keys, where keyOf reads them.
func TestKeyedRecordsBeginWithKeys(t *testing.T) {
	k := games.PieceKey{Hi: 0x0102, Lo: 0x0304}
	im := image{Key: k, orbit: 7, negates: true}
	rec := PieceRecord{Key: k, Positions: 9, FirstTier: 3}
	class := ClassRecord{Neg: k, Other: true, SelfNegative: true}
	if *keyOf(&im) != k || *keyOf(&rec) != k || *keyOf(&class) != k {
		t.Errorf("keyOf reads %v, %v, %v; want %v in each", *keyOf(&im), *keyOf(&rec), *keyOf(&class), k)
	}
}

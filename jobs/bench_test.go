package jobs

// Benchmarks of the kernels of the jobs: sorting, k-way merging, fragment
// encoding and decoding, the spiller and a whole tier job, on random keys
// and on realistic ones: the canonical successors of a middle tier of
// Clobber 4x4, found in the setup by an exact breadth-first search of the
// census's own kind (one position per orbit of the start's symmetries).
//
//	go test -bench . -run '^$' ./jobs/

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// benchTierSize is how many stored positions the realistic tier holds at
// least: the search stops at the first tier of this size.
const benchTierSize = 20_000

// benchTierData is one tier of Clobber 4x4 as a census stores it.
type benchTierData struct {
	g    games.Game
	tier int
	// positions are the tier's sorted canonical positions.
	positions []uint64
	// succ are the canonical successors of positions, unsorted and with
	// repeats, as a tier job hands them to its spiller.
	succ []uint64
	// unique is succ sorted without repeats.
	unique []uint64
	// pieces are the piece records of the tier, unsorted.
	pieces []PieceRecord
}

var (
	benchTierOnce sync.Once
	benchTierVal  *benchTierData
	benchTierErr  error
)

func benchTier(b *testing.B) *benchTierData {
	b.Helper()
	benchTierOnce.Do(func() { benchTierVal, benchTierErr = makeBenchTier() })
	if benchTierErr != nil {
		b.Fatal(benchTierErr)
	}
	return benchTierVal
}

func makeBenchTier() (*benchTierData, error) {
	g, err := all.New("clobber", "4x4", "")
	if err != nil {
		return nil, err
	}
	gr := games.StartGroup(g, true)
	m := games.NewMoveStats(true)
	d := &benchTierData{g: g}
	cur := []uint64{gr.Canon(g.Start())}
	var pcs []games.Piece
	var succ []uint64
	for len(cur) < benchTierSize {
		next := map[uint64]struct{}{}
		for _, p := range cur {
			pcs = g.Pieces(p, pcs[:0])
			succ = g.Expand(p, pcs, succ[:0], m, 1)
			for _, q := range succ {
				next[gr.Canon(q)] = struct{}{}
			}
		}
		if len(next) == 0 {
			return nil, fmt.Errorf("clobber 4x4 ends at tier %d, below %d positions", d.tier, benchTierSize)
		}
		cur = cur[:0]
		for q := range next {
			cur = append(cur, q)
		}
		slices.Sort(cur)
		d.tier++
	}
	d.positions = cur
	for _, p := range cur {
		_, w := gr.CanonOrbit(p)
		pcs = g.Pieces(p, pcs[:0])
		var seen []games.PieceKey
		for _, pc := range pcs {
			if !pc.Live {
				continue
			}
			k := g.Translate(pc.Key)
			if slices.Contains(seen, k) {
				continue
			}
			seen = append(seen, k)
			d.pieces = append(d.pieces, PieceRecord{Key: gr.CanonPiece(k), Positions: w, FirstTier: int32(d.tier)})
		}
		succ = g.Expand(p, pcs, succ[:0], m, 1)
		for _, q := range succ {
			d.succ = append(d.succ, gr.Canon(q))
		}
	}
	d.unique = slices.Compact(slices.Sorted(slices.Values(d.succ)))
	return d, nil
}

// benchLowKeys returns n uniformly random keys of the given number of low
// bits.
func benchLowKeys(n, bits int, seed uint64) []uint64 {
	keys := benchRandomKeys(n, seed)
	for i := range keys {
		keys[i] >>= 64 - bits
	}
	return keys
}

// benchRandomKeys returns n uniformly random 64-bit keys.
func benchRandomKeys(n int, seed uint64) []uint64 {
	rng := rand.New(rand.NewPCG(seed, 99))
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	return keys
}

// benchKeySets are the unsorted key sets the sorting benchmarks run on.
func benchKeySets(b *testing.B) []struct {
	name string
	keys []uint64
} {
	d := benchTier(b)
	return []struct {
		name string
		keys []uint64
	}{
		{"random-200", benchRandomKeys(200, 1)},
		{"random-4Ki", benchRandomKeys(4<<10, 2)},
		{"random-1Mi", benchRandomKeys(1<<20, 3)},
		// Domineering 6x6's positions vary in 36 bits, Clobber 4x5's in
		// 40, Clobber 5x5's in 50.
		{"random36-4Mi", benchLowKeys(4<<20, 36, 4)},
		{"random40-1Mi", benchLowKeys(1<<20, 40, 6)},
		{"random50-4Mi", benchLowKeys(4<<20, 50, 5)},
		{fmt.Sprintf("clobber4x4-t%d-succ-%d", d.tier, len(d.succ)), d.succ},
	}
}

func reportKeyRate(b *testing.B, n int, unit string) {
	if sec := b.Elapsed().Seconds(); sec > 0 {
		b.ReportMetric(float64(n)/sec, unit)
	}
}

// BenchmarkSortUnique measures sortUnique with a reused scratch; one op
// sorts the whole set (the copy of the input is not timed).
func BenchmarkSortUnique(b *testing.B) {
	for _, ks := range benchKeySets(b) {
		b.Run(ks.name, func(b *testing.B) {
			keys := make([]uint64, len(ks.keys))
			scratch := make([]uint64, len(ks.keys))
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				b.StopTimer()
				copy(keys, ks.keys)
				b.StartTimer()
				_, scratch = sortUnique(keys, scratch)
				n += len(keys)
			}
			reportKeyRate(b, n, "keys/s")
		})
	}
}

// BenchmarkSortBaseline is slices.Sort and slices.Compact on the same key
// sets, the yardstick sortUnique has to beat.
func BenchmarkSortBaseline(b *testing.B) {
	for _, ks := range benchKeySets(b) {
		b.Run(ks.name, func(b *testing.B) {
			keys := make([]uint64, len(ks.keys))
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				b.StopTimer()
				copy(keys, ks.keys)
				b.StartTimer()
				slices.Sort(keys)
				_ = slices.Compact(keys)
				n += len(keys)
			}
			reportKeyRate(b, n, "keys/s")
		})
	}
}

// BenchmarkSortPieces measures sorting and folding the piece records of a
// tier, as the piece spiller does before it writes.
func BenchmarkSortPieces(b *testing.B) {
	d := benchTier(b)
	b.ReportAllocs()
	benchSort(b, d.pieces, func(r []PieceRecord) { sortPieces(r) }, "recs/s")
}

// benchSort times sort on a fresh copy of recs each round and reports the
// records sorted a second as unit.
func benchSort[T any](b *testing.B, recs []T, sort func([]T), unit string) {
	buf := make([]T, len(recs))
	n := 0
	for b.Loop() {
		b.StopTimer()
		copy(buf, recs)
		b.StartTimer()
		sort(buf)
		n += len(buf)
	}
	reportKeyRate(b, n, unit)
}

// BenchmarkSortImages measures sorting the pieces of the orbits of the
// distinct pieces of a tier, gathered orbit by orbit in key order of the
// representatives, as a piece job sorts them before it writes its rows.
func BenchmarkSortImages(b *testing.B) {
	d := benchTier(b)
	gr := games.StartGroup(d.g, true)
	reps := slices.Clone(d.pieces)
	reps = sortPieces(reps)
	var imgs []image
	var orbit []games.Image
	for i, r := range reps {
		orbit = gr.PieceOrbit(r.Key, orbit[:0])
		for _, im := range orbit {
			imgs = append(imgs, image{Key: im.Key, orbit: uint32(i), negates: im.Negates})
		}
	}
	benchSort(b, imgs, func(r []image) { sortImages(r) }, "images/s")
}

// BenchmarkSortClasses measures sorting the class records of the distinct
// pieces of a tier and dropping repeats, as a piece job's class spiller
// does before it writes: each piece's classes, in the pieces' key order.
func BenchmarkSortClasses(b *testing.B) {
	d := benchTier(b)
	reps := sortPieces(slices.Clone(d.pieces))
	classes := make([]ClassRecord, 0, len(reps))
	for _, r := range reps {
		classes = append(classes, classesOf(d.g, r.Key).record())
	}
	benchSort(b, classes, func(r []ClassRecord) { sortClasses(r) }, "recs/s")
}

// benchSplit deals the sorted keys into n sorted sources by key bucket, as
// fragments from n parents reach a tier job.
func benchSplit(keys []uint64, n int) [][]uint64 {
	out := make([][]uint64, n)
	for _, k := range keys {
		i := Bucket(k^0x9e3779b97f4a7c15, n)
		out[i] = append(out[i], k)
	}
	return out
}

// BenchmarkMergeSorted measures mergeSorted over N sorted in-memory sources
// holding 1Mi random keys between them; one op merges them all.
func BenchmarkMergeSorted(b *testing.B) {
	keys := slices.Sorted(slices.Values(benchRandomKeys(1<<20, 4)))
	for _, n := range []int{2, 8, 64} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			parts := benchSplit(keys, n)
			srcs := make([]func() (uint64, bool, error), n)
			idx := make([]int, n)
			for i := range srcs {
				srcs[i] = func() (uint64, bool, error) {
					if idx[i] == len(parts[i]) {
						return 0, false, nil
					}
					idx[i]++
					return parts[i][idx[i]-1], true, nil
				}
			}
			var sink uint64
			emit := func(k uint64) error { sink ^= k; return nil }
			b.ReportAllocs()
			total := 0
			for b.Loop() {
				clear(idx)
				if err := mergeSorted(srcs, cmpKeys, emit); err != nil {
					b.Fatal(err)
				}
				total += len(keys)
			}
			reportKeyRate(b, total, "keys/s")
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}

// BenchmarkMergeFragments measures what a tier job does with its inputs:
// decode N fragments of the realistic tier's successors and merge them
// without repeats.
func BenchmarkMergeFragments(b *testing.B) {
	d := benchTier(b)
	h := Header{Kind: KindPositions, Game: "clobber", Rows: 4, Cols: 4, Tier: d.tier + 1}
	for _, n := range []int{2, 8, 64} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var frags [][]byte
			for _, p := range benchSplit(d.unique, n) {
				var buf bytes.Buffer
				if _, err := writeKeys(&buf, h, p); err != nil {
					b.Fatal(err)
				}
				frags = append(frags, buf.Bytes())
			}
			var sink uint64
			b.ReportAllocs()
			total := 0
			for b.Loop() {
				srcs := make([]func() (uint64, bool, error), len(frags))
				for i, f := range frags {
					fr, err := fragment.NewReader(bytes.NewReader(f), KindPositions, fragment.Options{Name: "bench"})
					if err != nil {
						b.Fatal(err)
					}
					srcs[i] = fr.NextKey
				}
				err := mergeSorted(srcs, cmpKeys, func(k uint64) error { sink ^= k; total++; return nil })
				if err != nil {
					b.Fatal(err)
				}
			}
			reportKeyRate(b, total, "keys/s")
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}

// benchEncodeSets are the sorted unique key sets fragments are encoded
// from: the realistic tier's successors whole (denser than any one shard of
// a real run, which holds a hashed share), one shard of 16 of them, and
// random keys.
func benchEncodeSets(b *testing.B) []struct {
	name string
	keys []uint64
} {
	d := benchTier(b)
	return []struct {
		name string
		keys []uint64
	}{
		{fmt.Sprintf("clobber4x4-t%d-succ-%d", d.tier, len(d.unique)), d.unique},
		{"clobber4x4-shard1of16", benchSplit(d.unique, 16)[0]},
		{"random-1Mi", slices.Compact(slices.Sorted(slices.Values(benchRandomKeys(1<<20, 5))))},
	}
}

// BenchmarkWriteKeys measures encoding a sorted key set as one fragment
// into a reused buffer; bytes/key is the fragment's size per key.
func BenchmarkWriteKeys(b *testing.B) {
	for _, ks := range benchEncodeSets(b) {
		b.Run(ks.name, func(b *testing.B) {
			h := Header{Kind: KindPositions, Game: "clobber", Rows: 4, Cols: 4, Tier: 1}
			var buf bytes.Buffer
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				buf.Reset()
				if _, err := writeKeys(&buf, h, ks.keys); err != nil {
					b.Fatal(err)
				}
				n += len(ks.keys)
			}
			reportKeyRate(b, n, "keys/s")
			b.ReportMetric(float64(buf.Len())/float64(len(ks.keys)), "bytes/key")
		})
	}
}

// benchKeyFragment is keys written as a fragment of positions.
func benchKeyFragment(b *testing.B, keys []uint64) []byte {
	h := Header{Kind: KindPositions, Game: "clobber", Rows: 4, Cols: 4, Tier: 1}
	var buf bytes.Buffer
	if _, err := writeKeys(&buf, h, keys); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkReadKeys measures decoding and checking a fragment from memory.
func BenchmarkReadKeys(b *testing.B) {
	for _, ks := range benchEncodeSets(b) {
		b.Run(ks.name, func(b *testing.B) {
			data := benchKeyFragment(b, ks.keys)
			r := bytes.NewReader(data)
			var sink uint64
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				r.Reset(data)
				fr, err := fragment.NewReader(r, KindPositions, fragment.Options{Name: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				for {
					k, ok, err := fr.NextKey()
					if err != nil {
						b.Fatal(err)
					}
					if !ok {
						break
					}
					sink ^= k
					n++
				}
			}
			reportKeyRate(b, n, "keys/s")
			b.ReportMetric(float64(len(data))/float64(len(ks.keys)), "bytes/key")
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}

// BenchmarkSpiller measures a tier job's successor spiller: the realistic
// successors (unsorted, with repeats) added to 16 buckets by Bucket, spilled
// at a limit of 64Ki keys into sorted fragments on a store that discards
// them. One op adds every successor and closes the spiller.
func BenchmarkSpiller(b *testing.B) {
	d := benchTier(b)
	h := Header{Kind: KindPositions, Game: "clobber", Rows: 4, Cols: 4, Tier: d.tier + 1}
	for _, limit := range []int{64 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("limit=%d", limit), func(b *testing.B) {
			const buckets = 16
			ctx := context.Background()
			st := &memStore{blobs: map[string][]byte{}, discard: true}
			var scratch []uint64
			b.ReportAllocs()
			n, parts, ops := 0, 0, 0
			for b.Loop() {
				s := newSpiller(ctx, st, buckets, limit, func(part int) string {
					return fmt.Sprintf("run/t%04d/p%03d.frag", d.tier+1, part)
				}, func(w io.Writer, keys []uint64) (Blob, error) {
					keys, scratch = sortUnique(keys, scratch)
					return writeKeys(w, h, keys)
				})
				for _, k := range d.succ {
					if err := s.add(Bucket(k, buckets), k); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := s.close(); err != nil {
					b.Fatal(err)
				}
				n += len(d.succ)
				parts += s.parts
				ops++
			}
			reportKeyRate(b, n, "keys/s")
			b.ReportMetric(float64(parts)/float64(max(ops, 1)), "parts/op")
			b.ReportMetric(float64(st.written)/float64(n), "bytes/key")
		})
	}
}

// BenchmarkRunTier measures a whole tier job on the realistic tier in one
// shard: merge the input fragment, measure every position, and spill the
// successors (4 next shards) and piece keys (4 reduce shards) to a store in
// memory. One op is the whole job; positions/s counts stored positions.
func BenchmarkRunTier(b *testing.B) {
	d := benchTier(b)
	ctx := context.Background()
	in := newMemStore()
	spec := Spec{Run: "bench", Game: "clobber", Board: "4x4", MemBudget: 256 << 20}
	blob, err := putKeys(ctx, in, "bench/input.frag", spec.header(d.g, KindPositions, d.tier), d.positions)
	if err != nil {
		b.Fatal(err)
	}
	job := TierJob{Spec: spec, Tier: d.tier, Shard: 0, Shards: 1, NextShards: 4, ReduceShards: 4, Inputs: []Blob{blob}}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		st := newMemStore()
		st.blobs["bench/input.frag"] = in.blobs["bench/input.frag"]
		j := job
		b.StartTimer()
		res, err := runTier(ctx, st, &j, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n += int(res.Stats.Stored)
	}
	reportKeyRate(b, n, "positions/s")
}

// BenchmarkRunPieces measures a whole piece job (one reduce shard of four)
// over what the tier job of BenchmarkRunTier sends it: merge the dead-free
// and in-place keys, gather the orbits of the pieces, sort them, write the
// pieces table into a store in memory and spill the class records. One op
// is the whole job; pieces/s counts the rows written.
func BenchmarkRunPieces(b *testing.B) {
	ctx := context.Background()
	in, spec, inputs := benchPieceInputs(b)
	job := PieceJob{Spec: spec, Bucket: 0, ClassShards: 4, Inputs: inputs}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		b.StopTimer()
		st := newMemStore()
		for name, data := range in.blobs {
			st.blobs[name] = data
		}
		j := job
		b.StartTimer()
		res, err := runPieces(ctx, st, &j, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n += int(res.Translated)
	}
	reportKeyRate(b, n, "pieces/s")
}

// benchPieceInputs runs the tier job of BenchmarkRunTier into a store in
// memory and returns the store, the spec and the piece fragments it sent
// to reduce shard 0 of 4.
func benchPieceInputs(b *testing.B) (*memStore, Spec, []Blob) {
	d := benchTier(b)
	ctx := context.Background()
	st := newMemStore()
	spec := Spec{Run: "bench", Game: "clobber", Board: "4x4", MemBudget: 256 << 20}
	blob, err := putKeys(ctx, st, "bench/input.frag", spec.header(d.g, KindPositions, d.tier), d.positions)
	if err != nil {
		b.Fatal(err)
	}
	tier := TierJob{Spec: spec, Tier: d.tier, Shard: 0, Shards: 1, NextShards: 4, ReduceShards: 4, Inputs: []Blob{blob}}
	tres, err := runTier(ctx, st, &tier, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var inputs []Blob
	for _, p := range tres.Pieces {
		if p.Bucket == 0 {
			inputs = append(inputs, p)
		}
	}
	return st, spec, inputs
}

// BenchmarkCompact measures a compaction of one reduce shard of four over
// what the tier job of BenchmarkRunTier sends it: two merges of each kind
// (to count, then to write). One op is the whole job; records/s counts the
// records read.
func BenchmarkCompact(b *testing.B) {
	ctx := context.Background()
	st, spec, inputs := benchPieceInputs(b)
	var records uint64
	for _, p := range inputs {
		records += p.Count
	}
	job := CompactJob{Spec: spec, Tier: 1, Bucket: 0, Inputs: inputs}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		j := job
		if _, err := runCompact(ctx, st, &j, Options{}); err != nil {
			b.Fatal(err)
		}
		n += int(records)
	}
	reportKeyRate(b, n, "records/s")
}

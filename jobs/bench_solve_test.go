package jobs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/census-cgt/census/codec/kept"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/tablebase"
)

// BenchmarkSolveJob measures solve jobs as a run gives them: the jobs of
// a middle tier of Clobber 4x5 (the first whose next tier holds at least a
// million stored positions, found in the setup by an exact breadth-first
// search of the census's kind), the tier in four shards and the next in
// sixteen, kept and given records (random: a job does not check its
// options' records) on a store in memory. The jobs of a run share the next
// tier's table (Options.Tables), so the table is loaded by the first job
// and the others, which are what is timed, look their options up in it. It
// reports the wall and the CPU time of the process per stored position of
// the tier.
//
//	go test -bench SolveJob -run '^$' ./jobs/
func BenchmarkSolveJob(b *testing.B) {
	ctx := context.Background()
	g := mustGame(b, "clobber", "4x5", "")
	group := games.StartGroup(g, true)
	tier, cur, next := benchSolveTiers(g, group, 1_000_000)
	spec := Spec{Run: "bench", Game: "clobber", Board: "4x5"}
	st := newMemStore()
	r := rand.New(rand.NewPCG(5, 6))
	const shards, nextShards = 4, 16
	keep := func(t, shard int, keys []uint64) Blob {
		return keepKeys(b, st, fmt.Sprintf("bench/kept/t%d/s%d", t, shard), g, t, shard, keys)
	}
	byShard := func(keys []uint64, n int) [][]uint64 {
		out := make([][]uint64, n)
		for _, k := range keys {
			out[Bucket(k, n)] = append(out[Bucket(k, n)], k)
		}
		return out
	}
	var nextKept, nextOuts []Blob
	for s, keys := range byShard(next, nextShards) {
		nextKept = append(nextKept, keep(tier+1, s, keys))
		recs := make([]solve.Record, len(keys))
		for i := range recs {
			recs[i] = solve.Record{Left: uint8(r.IntN(12)), Right: uint8(r.IntN(12))}
		}
		h := tablebase.Header{Game: g.Name(), Rows: 4, Cols: 5, Tier: tier + 1, Shard: s, Shards: nextShards, Coding: uint8(squeeze(g))}
		blob, err := putTable(ctx, st, fmt.Sprintf("bench/tables/t%d/s%d", tier+1, s), h, keys, recs)
		if err != nil {
			b.Fatal(err)
		}
		blob.Bucket = s
		nextOuts = append(nextOuts, blob)
	}
	var batch []SolveJob
	for s, keys := range byShard(cur, shards) {
		batch = append(batch, SolveJob{Spec: spec, Tier: tier, Shard: s, Shards: shards, Kept: keep(tier, s, keys),
			NextShards: nextShards, NextKept: nextKept, Next: nextOuts})
	}
	opts := Options{Tables: NewTableCache(2)}
	if _, err := runSolve(ctx, st, &batch[0], opts); err != nil { // loads the table
		b.Fatal(err)
	}
	b.Logf("tier %d: %d stored positions in %d shards, the next %d in %d", tier, len(cur), shards, len(next), nextShards)
	n := 0
	var cpu time.Duration
	for i := 0; b.Loop(); i++ {
		j := &batch[i%len(batch)]
		c0 := processCPU()
		if _, err := runSolve(ctx, st, j, opts); err != nil {
			b.Fatal(err)
		}
		cpu += processCPU() - c0
		n += int(j.Kept.Count)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(n, 1)), "ns/position")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(max(n, 1)), "cpu-ns/position")
}

// benchSolveTiers searches g breadth first, one canonical position per
// orbit of group, to the first tier t whose next tier holds at least
// least positions, and returns t and the sorted positions of t and t+1.
func benchSolveTiers(g games.Game, group games.Group, least int) (int, []uint64, []uint64) {
	var pcs []games.Piece
	var succ []uint64
	m := games.NewMoveStats(false)
	cur := []uint64{group.Canon(g.Start())}
	for t := 0; ; t++ {
		set := map[uint64]struct{}{}
		for _, p := range cur {
			pcs = g.Pieces(p, pcs[:0])
			succ = g.Expand(p, pcs, succ[:0], m, 1)
			for _, q := range succ {
				set[group.Canon(q)] = struct{}{}
			}
		}
		next := make([]uint64, 0, len(set))
		for q := range set {
			next = append(next, q)
		}
		slices.Sort(next)
		if len(next) >= least || len(next) == 0 {
			return t, cur, next
		}
		cur = next
	}
}

// BenchmarkOutcomeLookup looks random positions up in an outcome table of
// 64 million positions in 64 shards (some half a GiB, like the large
// tiers of Clobber 3x8 and 4x6), read from kept blobs and outcome tables
// on a store in memory: the cost of a lookup when the table is far larger
// than the caches. The positions are random codes of Clobber 4x8's board.
//
//	go test -bench OutcomeLookup -run '^$' ./jobs/
func BenchmarkOutcomeLookup(b *testing.B) {
	ctx := context.Background()
	g := mustGame(b, "clobber", "4x8", "")
	s := squeeze(g)
	r := rand.New(rand.NewPCG(8, 9))
	const positions, shards, tier = 64 << 20, 64, 3
	keys := make([]uint64, positions)
	for i := range keys {
		keys[i] = kept.Key(r.Uint64N(1<<(2*min(s, 31))), s)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	byShard := make([][]uint64, shards)
	for _, k := range keys {
		byShard[Bucket(k, shards)] = append(byShard[Bucket(k, shards)], k)
	}
	st := newMemStore()
	var kept, outs []Blob
	for sh, ks := range byShard {
		kb := keepKeys(b, st, fmt.Sprintf("bench/kept/s%d", sh), g, tier, sh, ks)
		h := tablebase.Header{Game: g.Name(), Rows: 4, Cols: 8, Tier: tier, Shard: sh, Shards: shards, Coding: uint8(s)}
		ob, err := putTable(ctx, st, fmt.Sprintf("bench/tables/s%d", sh), h, ks, make([]solve.Record, len(ks)))
		if err != nil {
			b.Fatal(err)
		}
		ob.Bucket = sh
		kept, outs = append(kept, kb), append(outs, ob)
	}
	byShard = nil
	table, err := readOutcomeTable(ctx, st, g, games.StartGroup(g, false), tier, shards, kept, outs)
	if err != nil {
		b.Fatal(err)
	}
	st = newMemStore()
	queries := make([]uint64, 1<<20)
	for i := range queries {
		queries[i] = keys[r.IntN(len(keys))]
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, ok := table.lookup(queries[i%len(queries)]); !ok {
			b.Fatal("a kept position is not in the table")
		}
	}
}

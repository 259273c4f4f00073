package jobs

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// BenchmarkTierStages measures a tier job of Clobber 4x5 stage by stage,
// in CPU time per stored position: one job of a real middle tier as a
// run gives it, shard 0 of stagesShards (the first tier whose shard holds
// at least stagesTierSize positions, found in the setup by an exact
// breadth-first search), with four input fragments that share a third of
// their positions, four next shards, four reduce shards and a store in
// memory. A run splits Clobber 4x5's middle tiers in four shards: the
// successors of a job of one shard of four repeat about half as much as
// those of the whole tier in one job, so a job of the whole tier would
// make the successors' sort look larger than it is in a run. Each stage runs the
// job's steps up to it, so that each sub-benchmark's cost less the one
// before is what its stage adds:
//
//	read       merge the input fragments, visit nothing
//	visit      and each position's kernel Visit (games.Kernel)
//	pieces     and its checks, counts, pieces and dead-free board sent on
//	succ       and its successors appended to the next shards' buffers
//	job        the whole job (runTier): and the successors and the piece
//	           keys sorted and written as fragments
//
// and, measured alone within the whole job's steps:
//
//	succ-out   the successors sorted, deduplicated and written
//	pieces-out the piece cache flushed, the piece keys and records sorted
//	           and written
//
//	go test -run '^$' -bench TierStages ./jobs/
func BenchmarkTierStages(b *testing.B) {
	d := stagesTier(b)
	b.Logf("clobber 4x5, tier %d: %d positions", d.tier, len(d.positions))
	ctx := context.Background()
	spec := Spec{Run: "bench", Game: "clobber", Board: "4x5", MemBudget: 1 << 30}
	in := newMemStore()
	inputs := splitInputs(b, in, spec, d.g, d.tier, d.positions)
	job := TierJob{Spec: spec, Tier: d.tier, Shard: 0, Shards: stagesShards, NextShards: 4, ReduceShards: 4, Inputs: inputs}
	// stage runs one job's steps through stage s on a copy of the inputs,
	// and returns the CPU time of the part measured.
	stage := func(b *testing.B, s string) time.Duration {
		st := newMemStore()
		for name, data := range in.blobs {
			st.blobs[name] = data
		}
		j := job
		if s == "job" {
			c0 := processCPU()
			if _, err := runTier(ctx, st, &j, Options{}); err != nil {
				b.Fatal(err)
			}
			return processCPU() - c0
		}
		drainPieceBufs()
		k := newTierKernel(ctx, st, &j, d.g, Options{})
		defer k.abort()
		each := func(pos uint64) error { return nil }
		switch s {
		case "visit":
			each = func(pos uint64) error {
				k.kernel.Visit(pos, &k.v, k.moves, true)
				return nil
			}
		case "pieces":
			each = func(pos uint64) error {
				if err := k.check(pos); err != nil {
					return err
				}
				k.kernel.Visit(pos, &k.v, k.moves, true)
				if err := k.count(pos, k.v.Orbit); err != nil {
					return err
				}
				if err := k.pieces(k.v.Orbit); err != nil {
					return err
				}
				return k.shape(k.v.Orbit)
			}
		case "succ", "succ-out", "pieces-out":
			each = k.visit
		}
		c0 := processCPU()
		if err := k.in.run(ctx, st, j.Inputs, KindPositions, d.g, k.reads, each); err != nil {
			b.Fatal(err)
		}
		cpu := processCPU() - c0
		switch s {
		case "succ-out":
			c0 = processCPU()
			if _, err := k.next.close(); err != nil {
				b.Fatal(err)
			}
			cpu = processCPU() - c0
		case "pieces-out":
			c0 = processCPU()
			if _, err := k.closePieces(); err != nil {
				b.Fatal(err)
			}
			cpu = processCPU() - c0
		}
		return cpu
	}
	for _, s := range []string{"read", "visit", "pieces", "succ", "job", "succ-out", "pieces-out"} {
		b.Run(s, func(b *testing.B) {
			var cpu time.Duration
			n := 0
			for b.Loop() {
				cpu += stage(b, s)
				n += len(d.positions)
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(max(n, 1)), "cpu-ns/position")
			// ns/op would count the copy of the inputs and the set-up of
			// the stages before the one measured: leave it out.
			b.ReportMetric(0, "ns/op")
		})
	}
}

// splitInputs writes positions, sorted, as four input fragments of tier,
// as four jobs of the tier before write them: each position in one, and
// a third of them in a second too.
func splitInputs(b *testing.B, st *memStore, spec Spec, g games.Game, tier int, positions []uint64) []Blob {
	parts := make([][]uint64, 4)
	for i, p := range positions {
		parts[i%4] = append(parts[i%4], p)
		if i%3 == 0 {
			parts[(i+1)%4] = append(parts[(i+1)%4], p)
		}
	}
	var inputs []Blob
	for i, keys := range parts {
		blob, err := putKeys(context.Background(), st, fmt.Sprintf("bench/input-%d.frag", i), spec.header(g, KindPositions, tier), keys)
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, blob)
	}
	return inputs
}

// stagesTierSize is the fewest positions of the job BenchmarkTierStages
// runs, a shard of stagesShards of its tier: about what one of the sixty
// tier jobs of a Clobber 4x5 run with two workers stores.
const (
	stagesTierSize = 300_000
	stagesShards   = 4
)

var (
	stagesTierOnce sync.Once
	stagesTierVal  *benchTierData
	stagesTierErr  error
)

// stagesTier is shard 0 of stagesShards of the first tier of Clobber 4x5
// whose shard holds at least stagesTierSize positions, one a symmetry
// orbit.
func stagesTier(b *testing.B) *benchTierData {
	b.Helper()
	stagesTierOnce.Do(func() {
		g, err := all.New("clobber", "4x5", "")
		if err != nil {
			stagesTierErr = err
			return
		}
		gr := games.StartGroup(g, true)
		k := games.NewKernel(g, &gr)
		m := games.NewMoveStats(false)
		var v games.Visit
		d := &benchTierData{g: g}
		cur := []uint64{gr.Canon(g.Start())}
		shard := func() []uint64 {
			var s []uint64
			for _, p := range cur {
				if Bucket(p, stagesShards) == 0 {
					s = append(s, p)
				}
			}
			return s
		}
		for len(shard()) < stagesTierSize {
			next := map[uint64]struct{}{}
			for _, p := range cur {
				k.Visit(p, &v, m, true)
				for _, q := range v.Succ {
					next[q] = struct{}{}
				}
			}
			if len(next) == 0 {
				stagesTierErr = fmt.Errorf("clobber 4x5 ends at tier %d, below %d positions", d.tier, stagesTierSize)
				return
			}
			cur = slices.Sorted(maps.Keys(next))
			d.tier++
		}
		d.positions = shard()
		stagesTierVal = d
	})
	if stagesTierErr != nil {
		b.Fatal(stagesTierErr)
	}
	return stagesTierVal
}

package jobs

import (
	"context"
	"syscall"
	"testing"
	"time"
)

// BenchmarkTierJob measures one tier job as a run gives it: the realistic
// tier of Clobber 4x4 (benchTier) in one shard, read from four input
// fragments, as four shards of the previous tier write them, that share a
// third of their positions (a position reached from two shards is in two
// fragments), with successors sent to four next shards and piece keys to
// four reduce shards on a store in memory. "warm" starts each job with
// the buffers the previous job left in the pools, as the jobs of a tier
// after the first do; "cold" drains them first, as the first job of a
// tier larger than the ones before it finds them. It reports the wall and
// the CPU time of the process (user and system, which on a loaded machine
// varies less than the wall) per stored position.
//
//	go test -bench TierJob -run '^$' ./jobs/
func BenchmarkTierJob(b *testing.B) {
	d := benchTier(b)
	ctx := context.Background()
	spec := Spec{Run: "bench", Game: "clobber", Board: "4x4", MemBudget: 256 << 20}
	in := newMemStore()
	inputs := splitInputs(b, in, spec, d.g, d.tier, d.positions)
	for _, cold := range []bool{false, true} {
		name := "warm"
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				st := newMemStore()
				for name, data := range in.blobs {
					st.blobs[name] = data
				}
				if cold {
					drainTierBufs()
				}
				j := TierJob{Spec: spec, Tier: d.tier, Shard: 0, Shards: 1, NextShards: 4, ReduceShards: 4, Inputs: inputs}
				c0 := processCPU()
				b.StartTimer()
				res, err := runTier(ctx, st, &j, Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += processCPU() - c0
				b.StartTimer()
				n += int(res.Stats.Stored)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(n, 1)), "ns/position")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(max(n, 1)), "cpu-ns/position")
		})
	}
}

// processCPU is the user and system CPU time the process has taken.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

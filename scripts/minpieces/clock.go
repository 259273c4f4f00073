package main

import (
	"os"
	"runtime/metrics"
	"time"
)

// cost is what one way of writing a table cost: the CPU time of the
// writing goroutine's thread, the process's CPU time (which adds the
// garbage collector's background work), the wall time, the garbage
// collections that ran, and the bytes written.
type cost struct {
	thread, process, wall time.Duration
	gcs                   uint64
	bytes                 int64
}

// add returns the sum of two costs.
func (c cost) add(d cost) cost {
	return cost{c.thread + d.thread, c.process + d.process, c.wall + d.wall, c.gcs + d.gcs, c.bytes + d.bytes}
}

// clock holds the readings taken when a measurement started.
type clock struct {
	c cost
}

// startClock reads the clocks. The caller's goroutine must be locked to
// its OS thread (runtime.LockOSThread) for the thread's time to be its.
func startClock() clock {
	return clock{cost{thread: threadCPU(), process: processCPU(), wall: wallTime(), gcs: gcCycles()}}
}

// elapsed returns what passed since the clock started, without bytes.
func (k clock) elapsed() cost {
	return cost{
		thread:  threadCPU() - k.c.thread,
		process: processCPU() - k.c.process,
		wall:    wallTime() - k.c.wall,
		gcs:     gcCycles() - k.c.gcs,
	}
}

// stop returns what passed since the clock started, with the size of the
// file at path.
func (k clock) stop(path string) (cost, error) {
	c := k.elapsed()
	fi, err := os.Stat(path)
	if err != nil {
		return cost{}, err
	}
	c.bytes = fi.Size()
	return c, nil
}

var epoch = time.Now()

// wallTime returns the monotonic time since the program started.
func wallTime() time.Duration { return time.Since(epoch) }

// gcCycles returns the number of garbage collections completed so far.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

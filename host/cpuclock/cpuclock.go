// Package cpuclock measures the CPU time of work done on one goroutine.
package cpuclock

import (
	"runtime"
	"time"
)

// Measure runs fn with a Stopwatch and returns how long it took and the
// CPU time it spent.
func Measure(fn func()) (wall, cpu time.Duration) {
	sw := Start()
	defer sw.Stop()
	fn()
	return sw.Read()
}

// Stopwatch measures the work of the goroutine that started it, which it
// locks to its OS thread until Stop: the CPU time (user and system) of
// that thread is the work's. Work handed to other goroutines, and the
// garbage collector's background workers, are not counted; the
// collector's assists to the goroutine's allocations are. Where the system
// gives no CPU time per thread (PerThread is false), the CPU time is the
// wall time.
type Stopwatch struct {
	began time.Time
	cpu   time.Duration
	ok    bool
}

// Start locks the calling goroutine to its thread and starts a Stopwatch.
func Start() *Stopwatch {
	runtime.LockOSThread()
	cpu, ok := threadCPU()
	return &Stopwatch{began: time.Now(), cpu: cpu, ok: ok}
}

// Read returns the wall and CPU time since Start. It must be called on
// the goroutine that called Start, before Stop.
func (s *Stopwatch) Read() (wall, cpu time.Duration) {
	wall = time.Since(s.began)
	now, ok := threadCPU()
	if !s.ok || !ok {
		return wall, wall
	}
	return wall, max(now-s.cpu, 0)
}

// Stop unlocks the goroutine from its thread.
func (s *Stopwatch) Stop() { runtime.UnlockOSThread() }

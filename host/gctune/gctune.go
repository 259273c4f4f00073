// Package gctune sets the collector of a process that runs census jobs.
//
// Nearly all of a job's heap is record buffers without pointers, which the
// collector does not scan, so a collection is cheap but not free: each
// stops and resumes every goroutine and walks the spans. A fixed GOGC low
// enough to keep a large board's peak RSS near what its jobs hold (a
// collection once the heap has grown by a quarter) collects a small
// board's heap of a few tens of megabytes every few megabytes allocated,
// a hundred times a second. The tuner lets the heap grow by at least a
// fixed headroom past what the last collection left live, and by the
// percentage otherwise: the next collection comes at
//
//	max(live × (1 + percent/100), live + headroom)
//
// which is GOGC = percent for a large live heap and more for a small one.
package gctune

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// MaxPercent bounds the percentage the tuner sets, however small the heap.
const MaxPercent = 1000

// Tuner re-targets the collector after each collection.
type Tuner struct {
	percent  int
	headroom int64

	mu      sync.Mutex
	stopped bool
	last    int // the percentage last set
	sample  []metrics.Sample
}

// Start sets the collector's percentage for the heap live now and
// re-targets it after every collection, until Stop. percent is
// the least percentage (GOGC for a large heap); headroom the least growth
// in bytes allowed past the live heap.
func Start(percent int, headroom int64) *Tuner {
	t := &Tuner{
		percent:  percent,
		headroom: headroom,
		sample:   []metrics.Sample{{Name: "/gc/heap/live:bytes"}},
	}
	t.adjust()
	t.arm()
	return t
}

// Percent is the percentage the collector would get for a live heap of
// live bytes.
func (t *Tuner) Percent(live int64) int {
	if live <= 0 {
		return MaxPercent
	}
	p := int(t.headroom * 100 / live)
	return min(max(p, t.percent), MaxPercent)
}

// Stop ends the re-targeting; the collector keeps the percentage last
// set until the caller sets another. Stop on a nil Tuner does nothing.
func (t *Tuner) Stop() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
}

// adjust reads what the last collection left live and sets the
// percentage for it; it reports false once the tuner is stopped.
func (t *Tuner) adjust() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return false
	}
	metrics.Read(t.sample)
	var live int64
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = int64(t.sample[0].Value.Uint64())
	}
	if p := t.Percent(live); p != t.last {
		debug.SetGCPercent(p)
		t.last = p
	}
	return true
}

// sentinel is garbage from the moment it is made: its finalizer runs
// after the next collection, re-targets the collector and arms another.
type sentinel struct{ t *Tuner }

func (t *Tuner) arm() {
	s := &sentinel{t: t}
	runtime.SetFinalizer(s, func(s *sentinel) {
		if s.t.adjust() {
			s.t.arm()
		}
	})
}

package coordinator

import (
	"sync"
	"time"
)

// ValuesProgress is how far a values stage has come.
type ValuesProgress struct {
	// Stage is "levels" while the value jobs run, then "outputs" while
	// the value columns are written into the pieces parts.
	Stage string
	// Level counts the levels (piece sizes) done; Levels is their number
	// and Size the size of the level being valued.
	Level, Levels, Size int
	// PiecesDone counts the pieces of the finished levels, of Pieces.
	PiecesDone, Pieces uint64
	// JobsDone and JobsTotal count the value jobs of the current level.
	JobsDone, JobsTotal int
	Elapsed             time.Duration
}

// Stages of a values stage.
const (
	ValuesStageLevels  = "levels"
	ValuesStageOutputs = "outputs"
)

// valuesTracker tells the caller's callback of a values stage's progress,
// from the coordinator's loop and from the executor's barrier.
type valuesTracker struct {
	mu       sync.Mutex
	callback func(ValuesProgress)
	began    time.Time
	p        ValuesProgress
}

func newValuesTracker(callback func(ValuesProgress)) *valuesTracker {
	return &valuesTracker{callback: callback, began: time.Now()}
}

// set changes the progress with f and tells the callback.
func (t *valuesTracker) set(f func(p *ValuesProgress)) {
	if t == nil || t.callback == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	f(&t.p)
	t.p.Elapsed = time.Since(t.began)
	t.callback(t.p)
}

// jobs is the executor's Waiting callback.
func (t *valuesTracker) jobs(done, _, total int) {
	t.set(func(p *ValuesProgress) { p.JobsDone, p.JobsTotal = done, total })
}

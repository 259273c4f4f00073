package coordinator

import (
	"math"
	"time"

	"github.com/census-cgt/census/internal/cpuclock"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
)

// stageClock adds up where a run's time goes, stage by stage (see
// schema.Stages): the wall time of each stage as the coordinator sees it
// and the CPU time of its jobs as their done-records say.
type stageClock struct {
	s schema.Stages
	// began is when the tiers began.
	began time.Time
}

// begin starts the tiers.
func (c *stageClock) begin() { c.began = time.Now() }

// tiersDone ends the tiers.
func (c *stageClock) tiersDone() { c.s.Tiers.WallSeconds = time.Since(c.began).Seconds() }

// add counts the jobs of results, and their CPU time, into st.
func (c *stageClock) add(st *schema.StageTime, results []jobs.Result) {
	for _, r := range results {
		st.Jobs++
		st.CPUSeconds += r.Cost.CPU().Seconds()
	}
}

// outputs measures fn, the writing of the outputs, on the coordinator's
// thread; fn calls done once the work the outputs stage counts is over.
func (c *stageClock) outputs(fn func(done func()) error) error {
	sw := cpuclock.Start()
	defer sw.Stop()
	return fn(func() {
		wall, cpu := sw.Read()
		c.s.Outputs.WallSeconds, c.s.Outputs.CPUSeconds = wall.Seconds(), cpu.Seconds()
	})
}

// stages is a copy of the times so far, to the microsecond.
func (c *stageClock) stages() *schema.Stages {
	s := c.s
	for _, st := range []*schema.StageTime{&s.Tiers, &s.Compactions, &s.Pieces, &s.Classes, &s.Outputs} {
		st.WallSeconds, st.CPUSeconds = micro(st.WallSeconds), micro(st.CPUSeconds)
	}
	return &s
}

func micro(seconds float64) float64 { return math.Round(seconds*1e6) / 1e6 }

package coordinator

import (
	"math"
	"time"

	"github.com/census-cgt/census/host/cpuclock"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
)

// stageClock adds up where a run's time goes, stage by stage (see
// schema.Stages): the wall time of each stage as the coordinator sees it
// and the CPU time of its jobs as their done-records say.
type stageClock struct {
	s schema.Stages
	// mark is when the last tier ended, or the tiers began.
	mark time.Time
	// credit is the wall time that tiers finished by an earlier start of
	// the run took then, less the time this start took to replay them.
	credit time.Duration
}

// begin starts the tiers.
func (c *stageClock) begin() { c.mark = time.Now() }

// tierDone ends a tier and returns the wall time it took in this start:
// since the tier before ended. A tier that an earlier start finished,
// and that took earlier seconds then (zero: not known), counts as those.
func (c *stageClock) tierDone(earlier float64) time.Duration {
	now := time.Now()
	took := now.Sub(c.mark)
	c.mark = now
	wall := took.Seconds()
	if earlier > 0 {
		c.credit += time.Duration(earlier*float64(time.Second)) - took
		wall = earlier
	}
	c.s.Tiers.WallSeconds += wall
	return took
}

// tiersDone ends the tiers: the empty batch after the last tier.
func (c *stageClock) tiersDone() { c.tierDone(0) }

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

package cpuclock

import (
	"testing"
	"time"
)

// TestMeasure checks that busy work counts as CPU time and sleeping does
// not. A busy thread of a loaded machine gets only part of the wall time.
func TestMeasure(t *testing.T) {
	if !PerThread {
		t.Skip("no CPU time per thread on this system")
	}
	wall, cpu := Measure(func() {
		for began := time.Now(); time.Since(began) < 50*time.Millisecond; {
		}
	})
	if wall < 50*time.Millisecond || cpu <= 0 || cpu > wall+5*time.Millisecond {
		t.Errorf("busy for 50ms: wall %v, cpu %v", wall, cpu)
	}
	busy := cpu
	wall, cpu = Measure(func() { time.Sleep(50 * time.Millisecond) })
	if wall < 50*time.Millisecond || cpu > 5*time.Millisecond || cpu >= busy {
		t.Errorf("asleep for 50ms: wall %v, cpu %v (busy: %v)", wall, cpu, busy)
	}
}

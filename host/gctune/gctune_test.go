package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	tu := &Tuner{percent: 25, headroom: 128 << 20}
	for _, c := range []struct {
		live int64
		want int
	}{
		{0, MaxPercent},
		{1 << 20, MaxPercent}, // 12,800% of a megabyte, capped
		{64 << 20, 200},       // 128 MiB of headroom is twice the heap
		{128 << 20, 100},      // and once
		{512 << 20, 25},       // a quarter of 512 MiB is the headroom
		{4 << 30, 25},         // a large heap grows by a quarter
	} {
		if got := tu.Percent(c.live); got != c.want {
			t.Errorf("Percent(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// currentPercent reads the collector's percentage.
func currentPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestTunerFollowsTheLiveHeap(t *testing.T) {
	defer debug.SetGCPercent(currentPercent())
	tu := Start(25, 64<<20)
	defer tu.Stop()
	// A live heap of 256 MiB wants 25%; after it is dropped, a heap of a
	// few megabytes wants the cap.
	held := make([]byte, 256<<20)
	for i := range held {
		held[i] = byte(i)
	}
	waitFor(t, 25)
	runtime.KeepAlive(held)
	held = nil
	waitFor(t, MaxPercent)
	tu.Stop()
	debug.SetGCPercent(77)
	runtime.GC()
	runtime.GC()
	time.Sleep(50 * time.Millisecond)
	if p := currentPercent(); p != 77 {
		t.Errorf("after Stop the tuner set the percentage to %d", p)
	}
}

// waitFor collects until the tuner has set the collector to want.
func waitFor(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for currentPercent() != want {
		if time.Now().After(deadline) {
			t.Fatalf("percentage %d, want %d", currentPercent(), want)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

package coordinator

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A census's deletes run behind the coordinator, in the order asked for,
// and wait returns once they are all done.
func TestDeleterInBackground(t *testing.T) {
	d := &deleter{}
	release := make(chan struct{})
	var mu sync.Mutex
	var order []int
	asked := make(chan struct{})
	go func() {
		d.do(func() {
			<-release
			mu.Lock()
			order = append(order, 1)
			mu.Unlock()
		})
		d.do(func() {
			mu.Lock()
			order = append(order, 2)
			mu.Unlock()
		})
		close(asked)
	}()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("do waited for a delete to finish")
	}
	if !d.pending() {
		t.Fatal("a delete still running is not pending")
	}
	waited := make(chan struct{})
	go func() { d.wait(); close(waited) }()
	select {
	case <-waited:
		t.Fatal("wait returned before the deletes were done")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-waited
	if d.pending() {
		t.Error("deletes pending after wait")
	}
	if !slices.Equal(order, []int{1, 2}) {
		t.Errorf("deletes ran in the order %v, want [1 2]", order)
	}
	// Deletes asked for after the queue ran dry start it again.
	ran := false
	d.do(func() { ran = true })
	d.wait()
	if !ran {
		t.Error("a delete asked for after the queue ran dry did not run")
	}
	// The nil deleter (a stage other than the census) deletes at once.
	var none *deleter
	ran = false
	none.do(func() { ran = true })
	if !ran || none.pending() {
		t.Error("the nil deleter did not delete at once")
	}
}

// Deletes asked for during a hold wait for release, and then run after
// those asked for before; a drop forgets them.
func TestDeleterHolds(t *testing.T) {
	d := &deleter{}
	var mu sync.Mutex
	var order []int
	add := func(k int) func() {
		return func() {
			mu.Lock()
			order = append(order, k)
			mu.Unlock()
		}
	}
	gate := make(chan struct{})
	d.do(func() { <-gate })
	d.do(add(1))
	d.hold()
	d.do(add(2))
	d.do(add(3))
	close(gate)
	d.wait()
	if !slices.Equal(order, []int{1}) || d.pending() {
		t.Fatalf("during a hold ran %v (pending %v), want [1]", order, d.pending())
	}
	d.release()
	d.do(add(4))
	d.wait()
	if !slices.Equal(order, []int{1, 2, 3, 4}) {
		t.Fatalf("after release ran %v, want [1 2 3 4]", order)
	}
	d.hold()
	d.do(add(5))
	d.drop()
	d.do(add(6))
	d.wait()
	if !slices.Equal(order, []int{1, 2, 3, 4, 6}) {
		t.Errorf("after a drop ran %v, want [1 2 3 4 6]", order)
	}
}

// A space check that fails while deletes are still running is made again
// once they are done; one that fails after them still fails.
func TestCheckRoomWaitsForDeletes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after uint64 // free bytes once the delete has run
		ok    bool
	}{{"deletes free the room", 1000, true}, {"still no room", 50, false}} {
		t.Run(tc.name, func(t *testing.T) {
			var free atomic.Uint64
			free.Store(10)
			c := &censusStage{cfg: Config{deletes: &deleter{}}, space: &spaceBudget{dirs: []string{"store"},
				free: func(string) (uint64, bool, error) { return free.Load(), true, nil }}}
			c.cfg.deletes.do(func() {
				time.Sleep(50 * time.Millisecond)
				free.Store(tc.after)
			})
			checks := 0
			err := c.checkRoom(context.Background(), nil, func() error {
				checks++
				return c.space.checkFloor("tier 3", 100)
			})
			if tc.ok && (err != nil || checks != 2) {
				t.Fatalf("checkRoom = %v after %d checks, want nil after 2", err, checks)
			}
			if !tc.ok && !errors.Is(err, ErrNoSpace) {
				t.Fatalf("checkRoom = %v, want ErrNoSpace", err)
			}
			// With no delete pending a failed check is not made again.
			checks = 0
			free.Store(10)
			if err := c.checkRoom(context.Background(), nil, func() error {
				checks++
				return c.space.checkFloor("tier 3", 100)
			}); !errors.Is(err, ErrNoSpace) || checks != 1 {
				t.Fatalf("checkRoom = %v after %d checks, want ErrNoSpace after 1", err, checks)
			}
		})
	}
}

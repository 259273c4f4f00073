package coordinator

import "sync"

// deleter runs a census's deletes of blobs that no job reads again in the
// background, one at a time in the order they were asked for, so that the
// coordinator does not wait for them between one batch and the next. A
// tier's input blobs are read by every job of the tier, so they are all
// deleted as its last job finishes, just before the next tier's batch is
// published: on Clobber 5x5 that is up to 2.5 s a tier with both cores
// idle (a file system that discards freed blocks takes about 0.4 s a GB),
// 30 s of the run's wall in all.
//
// What is asked for is done before the census ends (wait), and before a
// space check that would fail without it (censusStage.checkRoom). A delete
// that fails only leaves wasted space, as before: the run's prefix goes
// at its end. A nil deleter deletes at once.
//
// The deletes of the inputs of jobs the coordinator ran itself wait for
// those jobs' done-records (see unrecorded): hold keeps what is asked for
// from running until release, or for good after drop.
type deleter struct {
	mu      sync.Mutex
	queue   []func()
	running bool
	holding bool
	held    []func()
	// idle is closed when the goroutine that runs the queue finds it
	// empty and ends.
	idle chan struct{}
}

// do runs del in the background, or at once when d is nil.
func (d *deleter) do(del func()) {
	if d == nil {
		del()
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.holding {
		d.held = append(d.held, del)
		return
	}
	d.queue = append(d.queue, del)
	d.start()
}

// start runs the queue unless it runs already; d.mu is held.
func (d *deleter) start() {
	if !d.running && len(d.queue) > 0 {
		d.running = true
		d.idle = make(chan struct{})
		go d.loop(d.idle)
	}
}

// hold keeps the deletes asked for from now on from running, until
// release or drop.
func (d *deleter) hold() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.holding = true
}

// release runs the deletes held, after those asked for before them, and
// ends the hold.
func (d *deleter) release() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.queue = append(d.queue, d.held...)
	d.held, d.holding = nil, false
	d.start()
}

// drop forgets the deletes held and ends the hold: what they would have
// deleted stays in the store, wasted space that goes with the run's
// prefix at its end.
func (d *deleter) drop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.held, d.holding = nil, false
}

func (d *deleter) loop(idle chan struct{}) {
	for {
		d.mu.Lock()
		if len(d.queue) == 0 {
			d.running = false
			d.mu.Unlock()
			close(idle)
			return
		}
		del := d.queue[0]
		d.queue[0] = nil
		d.queue = d.queue[1:]
		d.mu.Unlock()
		del()
	}
}

// pending reports whether a delete asked for is not done yet.
func (d *deleter) pending() bool {
	if d == nil {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.running
}

// wait returns once every delete asked for, before or while it waits, is
// done, but for those held.
func (d *deleter) wait() {
	if d == nil {
		return
	}
	for {
		d.mu.Lock()
		running, idle := d.running, d.idle
		d.mu.Unlock()
		if !running {
			return
		}
		<-idle
	}
}

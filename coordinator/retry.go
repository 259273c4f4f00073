package coordinator

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/census-cgt/census/broker"
)

// retryFor bounds how long a NATS call is retried: long enough to ride out
// a server leaving a cluster (an election takes seconds), short enough that
// a lasting fault fails the run with its error.
const retryFor = 2 * time.Minute

// errPermanent marks an error that retrying cannot fix.
type errPermanent struct{ err error }

func (e errPermanent) Error() string { return e.err.Error() }
func (e errPermanent) Unwrap() error { return e.err }

func permanent(err error) error {
	if err == nil {
		return nil
	}
	return errPermanent{err}
}

// attemptFirst and attemptMax bound the deadline of one attempt. A request
// to a stream whose leader has just left goes unanswered until its
// deadline, while the others elect a new leader in a few seconds: a short
// first deadline retries soon after, and the deadline doubles with each
// failed attempt, so that a server slow under load is given time.
const (
	attemptFirst = 3 * time.Second
	attemptMax   = 15 * time.Second
)

// natsWait tells how a stage waits for NATS: the first failed attempt
// of a call that retry tries again is logged and counted, and so is the
// answer that ends the wait, so that a run waiting out a leader election
// says so (on standard error, beside its progress line, and in the
// metrics) rather than seem stuck. A stage puts one in its context
// (withNATSWait); retry finds it there.
type natsWait struct {
	run string
	log *slog.Logger
	m   *Metrics

	mu sync.Mutex
	// waiters counts the calls waiting now, since the first of them began.
	waiters int
	since   time.Time
	// notify, when set, is told when the stage begins to wait (the time
	// the first waiting call began) and when it stops (the zero time).
	notify func(since time.Time)
}

// setNotify has w tell notify when the stage begins and stops waiting.
func (w *natsWait) setNotify(notify func(since time.Time)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.notify = notify
}

// waiting adds d (1 or -1) to the calls waiting, and tells notify when the
// stage begins or stops waiting; began is when the call began.
func (w *natsWait) waiting(d int, began time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waiters += d
	var tell bool
	switch {
	case d > 0 && w.waiters == 1:
		w.since, tell = began, true
	case d < 0 && w.waiters == 0:
		w.since, tell = time.Time{}, true
	}
	if w.m != nil && tell {
		w.m.WaitingForNATS.WithLabelValues(w.run).Set(float64(min(w.waiters, 1)))
	}
	if tell && w.notify != nil {
		w.notify(w.since)
	}
}

type natsWaitKey struct{}

// withNATSWait is ctx with w, which the retries under it tell of their
// waits.
func withNATSWait(ctx context.Context, w *natsWait) context.Context {
	return context.WithValue(ctx, natsWaitKey{}, w)
}

// begin is told that a call that began at began failed with err and is
// tried again.
func (w *natsWait) begin(err error, began time.Time) {
	if w == nil {
		return
	}
	if w.log != nil {
		w.log.Warn("NATS is not answering the coordinator (a leader election, a stalled or lost server): waiting",
			"run", w.run, "err", err, "at_most", retryFor)
	}
	if w.m != nil {
		w.m.NATSWaits.WithLabelValues(w.run).Inc()
	}
	w.waiting(1, began)
}

// end is told that a call that waited has ended, after waited; ok says
// whether it went through.
func (w *natsWait) end(waited time.Duration, ok bool) {
	if w == nil {
		return
	}
	if w.log != nil && ok {
		w.log.Warn("NATS answered the coordinator again: going on", "run", w.run, "waited", waited.Round(time.Millisecond))
	}
	w.waiting(-1, time.Time{})
}

// retry calls fn, each time with its own deadline, until it succeeds,
// returns a permanent error or the server's word that its store is full
// (wrapped with broker.ErrStoreFull), ctx ends, or retryFor has passed.
// It tells the stage's natsWait, if ctx has one, when it begins to wait
// and when it stops.
func retry(ctx context.Context, fn func(ctx context.Context) error) error {
	began := time.Now()
	deadline := began.Add(retryFor)
	wait := 250 * time.Millisecond
	w, _ := ctx.Value(natsWaitKey{}).(*natsWait)
	waiting := false
	defer func() {
		if waiting {
			w.end(time.Since(began), false)
		}
	}()
	gate, _ := ctx.Value(leaseGateKey{}).(*leaseGate)
	for attempt := attemptFirst; ; attempt = min(2*attempt, attemptMax) {
		// A coordinator whose lease has lapsed calls NATS only once it
		// holds the run again.
		if err := gate.wait(ctx); err != nil {
			return err
		}
		actx, cancel := context.WithTimeout(ctx, attempt)
		err := fn(actx)
		cancel()
		var p errPermanent
		switch {
		case err == nil:
			if waiting {
				w.end(time.Since(began), true)
				waiting = false
			}
			return nil
		case broker.StoreFull(err) != nil:
			// Retrying cannot make room: say so now, not after retryFor.
			return broker.StoreFull(err)
		case errors.As(err, &p):
			return p.err
		case ctx.Err() != nil:
			return ctx.Err()
		case time.Now().After(deadline):
			return err
		}
		if !waiting && w != nil {
			w.begin(err, began)
			waiting = true
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 5*time.Second)
	}
}

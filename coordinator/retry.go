package coordinator

import (
	"context"
	"errors"
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

// retry calls fn, each time with its own deadline, until it succeeds,
// returns a permanent error or the server's word that its store is full
// (wrapped with broker.ErrStoreFull), ctx ends, or retryFor has passed.
func retry(ctx context.Context, fn func(ctx context.Context) error) error {
	deadline := time.Now().Add(retryFor)
	wait := 250 * time.Millisecond
	for attempt := attemptFirst; ; attempt = min(2*attempt, attemptMax) {
		actx, cancel := context.WithTimeout(ctx, attempt)
		err := fn(actx)
		cancel()
		var p errPermanent
		switch {
		case err == nil:
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

package coordinator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/census-cgt/census/runstate"
)

// ErrRunHeld is returned by Start with Config.NoWait when another
// coordinator holds the run.
var ErrRunHeld = runstate.ErrLeaseHeld

// DefaultLeaseTTL is how long a coordinator's hold on its run outlasts its
// last renewal. It renews every third of it; a coordinator waiting for a
// run whose holder died takes it within DefaultLeaseTTL plus a second of
// polling (at once when the holder ran on the same host and its process is
// gone).
const DefaultLeaseTTL = 10 * time.Second

// leasePoll is how often a waiting coordinator tries the lease again.
const leasePoll = time.Second

// heldLease is the lease of the run this coordinator holds.
type heldLease struct {
	b   runstate.Bucket
	me  runstate.Lease
	log *slog.Logger
	// waitedFor is the coordinator that held the run when this one had
	// to wait for it; nil when the run was free.
	waitedFor *runstate.Lease
	// began is when this coordinator first asked for the lease.
	began time.Time

	rev  uint64        // owned by renew once it runs
	stop chan struct{} // closed to stop renewing
	done chan struct{} // closed when renew has stopped
}

// acquireLease takes the run's lease, waiting while another coordinator
// holds it: o.OnHeld is told once who holds it. With o.NoWait it fails
// at once with a *runstate.HeldError (ErrRunHeld) instead.
func acquireLease(ctx context.Context, b runstate.Bucket, o LeaseOptions, log *slog.Logger) (*heldLease, error) {
	ttl := o.LeaseTTL
	if ttl == 0 {
		ttl = DefaultLeaseTTL
	}
	host, _ := os.Hostname()
	me := runstate.Lease{Host: host, PID: os.Getpid(), TTL: ttl}
	began := time.Now()
	var waitedFor *runstate.Lease
	for {
		me.Since = time.Now().UTC()
		var rev uint64
		err := retry(ctx, func(ctx context.Context) error {
			var err error
			rev, err = b.TakeLease(ctx, me)
			if errors.Is(err, runstate.ErrLeaseHeld) || errors.Is(err, runstate.ErrBadRecord) {
				return permanent(err)
			}
			return err
		})
		if err == nil {
			return &heldLease{b: b, me: me, rev: rev, log: log, waitedFor: waitedFor, began: began}, nil
		}
		var held *runstate.HeldError
		if !errors.As(err, &held) {
			return nil, err
		}
		if held.Revision == 0 {
			// The lease expired between looking and reading: try again.
			continue
		}
		if held.Lease.Host == host && held.Lease.PID != me.PID && processGone(held.Lease.PID) {
			// Its holder died on this host: no need to wait for expiry.
			rev, err := b.TakeOver(ctx, held.Revision, me)
			if err == nil {
				log.Info("took the run over from a coordinator that is gone", "holder", held.Lease.Holder())
				return &heldLease{b: b, me: me, rev: rev, log: log, waitedFor: &held.Lease, began: began}, nil
			}
			if !errors.Is(err, runstate.ErrLeaseLost) {
				return nil, err
			}
			continue
		}
		if o.NoWait {
			return nil, held
		}
		if waitedFor == nil {
			waitedFor = &held.Lease
			if o.OnHeld != nil {
				o.OnHeld(held.Lease)
			}
			log.Info("waiting for the run's lease", "holder", held.Lease.Holder(), "since", held.Lease.Since)
		}
		t := time.NewTimer(leasePoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// renew keeps the lease until release, every third of its TTL, and
// returns the gate that holds the coordinator's own NATS calls while the
// lease has lapsed.
//
// A lease that NATS has not renewed for a whole TTL (a leader election, a
// stalled or cut-off server) has lapsed: another coordinator may take the
// run. The coordinator then makes no call to NATS through retry (the gate
// is shut) and goes on renewing. A renewal that goes through finds the
// lease as this coordinator left it, or expired with no one holding it
// (RenewLease takes it again): the gate opens and the run goes on. A
// renewal that finds another coordinator holding the run, or NATS silent
// for retryFor after the lapse, ends the run through lost.
func (h *heldLease) renew(ctx context.Context, lost context.CancelCauseFunc) *leaseGate {
	h.stop, h.done = make(chan struct{}), make(chan struct{})
	gate := &leaseGate{}
	go func() {
		defer close(h.done)
		every := h.me.TTL / 3
		last := time.Now()
		t := time.NewTimer(every)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			rctx, cancel := context.WithTimeout(ctx, every)
			rev, err := h.b.RenewLease(rctx, h.rev, h.me)
			cancel()
			switch {
			case err == nil:
				if gate.open() {
					h.log.Warn("renewed the run's lease: the coordinator goes on", "lapsed_for", time.Since(last.Add(h.me.TTL)).Round(time.Millisecond))
				}
				h.rev, last = rev, time.Now()
				t.Reset(every)
			case errors.Is(err, runstate.ErrLeaseLost) || time.Since(last) >= h.me.TTL+retryFor:
				lost(fmt.Errorf("%w: %v", runstate.ErrLeaseLost, err))
				return
			default:
				if time.Since(last) >= h.me.TTL && gate.shut() {
					h.log.Warn("the run's lease lapsed: NATS has taken no renewal for its TTL; the coordinator makes no call to NATS until it renews the lease",
						"ttl", h.me.TTL, "err", err, "at_most", retryFor)
				} else {
					h.log.Warn("renew the run's lease, will retry", "err", err)
				}
				t.Reset(min(time.Second, every))
			}
		}
	}()
	return gate
}

// leaseGate holds the coordinator's calls to NATS while its lease has
// lapsed (see renew). retry waits at it before each attempt.
type leaseGate struct {
	mu sync.Mutex
	// lapsed is nil while the lease holds, and while it has lapsed a
	// channel that is closed when it is renewed.
	lapsed chan struct{}
}

type leaseGateKey struct{}

// withLeaseGate is ctx with g, at which the retries under it wait.
func withLeaseGate(ctx context.Context, g *leaseGate) context.Context {
	return context.WithValue(ctx, leaseGateKey{}, g)
}

// shut shuts the gate, and reports whether it was open.
func (g *leaseGate) shut() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lapsed != nil {
		return false
	}
	g.lapsed = make(chan struct{})
	return true
}

// open opens the gate, and reports whether it was shut.
func (g *leaseGate) open() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lapsed == nil {
		return false
	}
	close(g.lapsed)
	g.lapsed = nil
	return true
}

// wait returns once the gate is open, or with ctx's error when ctx ends
// first.
func (g *leaseGate) wait(ctx context.Context) error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	c := g.lapsed
	g.mu.Unlock()
	if c == nil {
		return nil
	}
	select {
	case <-c:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release stops renewing and gives the lease up, so that a waiting
// coordinator takes the run at once.
func (h *heldLease) release() {
	if h.stop != nil {
		close(h.stop)
		<-h.done
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.b.ReleaseLease(ctx, h.rev); err != nil {
		h.log.Warn("release the run's lease", "err", err)
	}
}

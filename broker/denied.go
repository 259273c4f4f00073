package broker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"
)

// ErrDenied is returned when the NATS server refuses this connection's user
// a subject: its permissions do not allow what was asked (see deploy/nats).
var ErrDenied = errors.New("NATS denied this user")

// denials tracks the permission violations the server reports on one
// connection. The server answers a denied publish with an asynchronous
// error and never replies, so a denied request would only time out; the
// contexts of operations run through Conn.Do end at once instead.
type denials struct {
	mu     sync.Mutex
	last   error
	next   int
	active map[int]context.CancelCauseFunc
}

// report records a violation and ends every operation in flight with it.
func (d *denials) report(err error) {
	if !errors.Is(err, nats.ErrPermissionViolation) {
		return
	}
	// The server's text names the subject: `Permissions Violation for
	// Publish to "census.jobs.x"`.
	text := strings.TrimPrefix(err.Error(), nats.ErrPermissionViolation.Error()+": ")
	cause := fmt.Errorf("%w: %s", ErrDenied, text)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.last = cause
	for _, cancel := range d.active {
		cancel(cause)
	}
}

// Denied is the last permission violation the server reported on this
// connection, wrapping ErrDenied, or nil when there was none.
func (c *Conn) Denied() error {
	if c == nil || c.denials == nil {
		return nil
	}
	c.denials.mu.Lock()
	defer c.denials.mu.Unlock()
	return c.denials.last
}

// Do runs op with a context that ends as soon as the server reports a
// permission violation on this connection. It returns op's error, or, when
// the server denied a subject meanwhile, an error wrapping ErrDenied that
// names the subject. Operations on one connection run concurrently, so a
// violation ends every operation in flight, not only the one to blame.
func (c *Conn) Do(ctx context.Context, op func(context.Context) error) error {
	if c.denials == nil {
		return op(ctx)
	}
	d := c.denials
	ctx, cancel := context.WithCancelCause(ctx)
	d.mu.Lock()
	id := d.next
	d.next++
	d.active[id] = cancel
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.active, id)
		d.mu.Unlock()
		cancel(nil)
	}()
	err := op(ctx)
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, ErrDenied) {
		return cause
	}
	return err
}

package runstate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Lease says which coordinator holds the run. It lives under the lease
// key with a time to live that the server enforces: a holder that stops
// renewing it (a dead process, a lost machine) loses it when it expires,
// and another coordinator can take the run. The bucket needs message TTLs
// on (jetstream.KeyValueConfig.LimitMarkerTTL).
type Lease struct {
	Host string `json:"host"`
	PID  int    `json:"pid"`
	// Since is when the holder took the run.
	Since time.Time `json:"since"`
	// TTL is how long the lease lasts without a renewal.
	TTL time.Duration `json:"ttl"`
}

// Holder names the holder as host/pid.
func (l Lease) Holder() string { return fmt.Sprintf("%s/%d", l.Host, l.PID) }

// ErrLeaseHeld is returned when another coordinator holds the run.
var ErrLeaseHeld = errors.New("the run is held by another coordinator")

// ErrLeaseLost is returned when a renewal finds the lease expired or taken
// by another coordinator.
var ErrLeaseLost = errors.New("lost the run's lease")

// HeldError is ErrLeaseHeld with the lease that holds the run.
type HeldError struct {
	Lease Lease
	// Revision is the lease record's revision, for TakeOver.
	Revision uint64
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%v: %s since %s", ErrLeaseHeld, e.Lease.Holder(), e.Lease.Since.UTC().Format(time.RFC3339))
}

func (e *HeldError) Unwrap() error { return ErrLeaseHeld }

// TakeLease takes the lease for l when no one holds it, and returns the
// revision to renew it with. It fails with a *HeldError when another
// coordinator holds it.
func (b Bucket) TakeLease(ctx context.Context, l Lease) (uint64, error) {
	data, err := json.Marshal(l)
	if err != nil {
		return 0, fmt.Errorf("encode lease: %w", err)
	}
	rev, err := b.KV.Create(ctx, keyLease, data, jetstream.KeyTTL(l.TTL))
	if err == nil {
		return rev, nil
	}
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return 0, fmt.Errorf("take lease: %w", err)
	}
	e, gerr := b.KV.Get(ctx, keyLease)
	if errors.Is(gerr, jetstream.ErrKeyNotFound) || errors.Is(gerr, jetstream.ErrKeyDeleted) {
		// Expired between the two calls: the caller tries again.
		return 0, &HeldError{}
	}
	if gerr != nil {
		return 0, fmt.Errorf("read lease: %w", gerr)
	}
	if bytes.Equal(e.Value(), data) {
		// Ours: an earlier try of this Create landed and its answer was
		// lost (a cut-off server, a retried call).
		return e.Revision(), nil
	}
	held := &HeldError{Revision: e.Revision()}
	if err := json.Unmarshal(e.Value(), &held.Lease); err != nil {
		return 0, fmt.Errorf("read lease: %w: %v", ErrBadRecord, err)
	}
	return 0, held
}

// Lease reads who holds the run; false when no one does.
func (b Bucket) Lease(ctx context.Context) (Lease, bool, error) {
	var l Lease
	found, err := b.get(ctx, keyLease, &l)
	return l, found, err
}

// TakeOver replaces the lease at revision rev (a holder known to be dead)
// with l, and returns the revision to renew it with. It fails with
// ErrLeaseLost when the lease changed since rev.
func (b Bucket) TakeOver(ctx context.Context, rev uint64, l Lease) (uint64, error) {
	return b.write(ctx, rev, l)
}

// RenewLease extends the lease at revision rev by its TTL and returns the
// new revision. A lease that expired without anyone taking it (its holder
// stalled for longer than its TTL: a loaded machine, a disk busy writing
// back) is taken again. It fails with ErrLeaseLost when another
// coordinator took it.
func (b Bucket) RenewLease(ctx context.Context, rev uint64, l Lease) (uint64, error) {
	n, err := b.write(ctx, rev, l)
	if !errors.Is(err, ErrLeaseLost) {
		return n, err
	}
	if _, held, lerr := b.Lease(ctx); lerr != nil || held {
		return 0, err
	}
	n, terr := b.TakeLease(ctx, l)
	if terr != nil {
		return 0, fmt.Errorf("%w: expired, then %v", ErrLeaseLost, terr)
	}
	return n, nil
}

// write puts l with its TTL if the lease is still at revision rev.
// jetstream.KeyValue.Update takes no TTL, so this publishes to the key's
// subject itself, as Update does.
func (b Bucket) write(ctx context.Context, rev uint64, l Lease) (uint64, error) {
	data, err := json.Marshal(l)
	if err != nil {
		return 0, fmt.Errorf("encode lease: %w", err)
	}
	if b.JS == nil {
		return 0, errors.New("renew lease: the bucket has no JetStream context")
	}
	m := &nats.Msg{Subject: "$KV." + b.KV.Bucket() + "." + keyLease, Data: data, Header: nats.Header{}}
	ack, err := b.JS.PublishMsg(ctx, m, jetstream.WithExpectLastSequencePerSubject(rev), jetstream.WithMsgTTL(l.TTL))
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence || apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
		// The lease moved on from rev. When the record there is this very
		// lease, an earlier try of this write landed and only its answer
		// was lost (a server cut off, a retried call): the lease is still
		// ours, at the record's revision.
		if e, gerr := b.KV.Get(ctx, keyLease); gerr == nil && bytes.Equal(e.Value(), data) {
			return e.Revision(), nil
		}
		return 0, fmt.Errorf("%w: %v", ErrLeaseLost, err)
	}
	if err != nil {
		return 0, fmt.Errorf("write lease: %w", err)
	}
	return ack.Sequence, nil
}

// ReleaseLease gives the lease at revision rev up, so that a waiting
// coordinator takes the run at once.
func (b Bucket) ReleaseLease(ctx context.Context, rev uint64) error {
	if err := b.KV.Delete(ctx, keyLease, jetstream.LastRevision(rev)); err != nil {
		return fmt.Errorf("release lease: %w", err)
	}
	return nil
}

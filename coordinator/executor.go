package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
)

// ErrJobFailed is returned when a job of the run can never succeed.
var ErrJobFailed = errors.New("job failed")

// NATS runs jobs by publishing them to the JetStream work queue and waiting
// for their done-records in the run's bucket: the tier barrier.
type NATS struct {
	Conn *broker.Conn
	KV   jetstream.KeyValue
	Run  string
	// Nonce goes into every message ID, so that jobs published again by a
	// later start of the run are not taken for duplicates by the stream.
	Nonce string
	Log   *slog.Logger
	// Relist is how often the barrier re-reads the bucket, since watchers
	// do not survive a reconnect.
	Relist time.Duration
	// Waiting, when set, is told how many jobs of the batch are done and
	// about how many are running (from the workers' consumer, which all
	// runs share).
	Waiting func(done, running, total int)
	// Fresh says that no job of the run was published before: the bucket
	// holds no records of it, and a batch is published without reading
	// them first.
	Fresh bool

	// watcher follows the bucket's job records from the first batch on,
	// so that a batch does not wait for a watch of its own to start; nil
	// until then, or while none runs.
	watcher *runstate.Watcher
}

var _ Executor = (*NATS)(nil)

// Execute publishes the jobs of the batch that have no done-record yet and
// waits until every job has one. It fails as soon as a job of the batch has
// a failed-record, or done fails.
func (n *NATS) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	b := n.newBarrier(batch)
	b.done = done
	// Watch before listing and publishing, so no record slips between.
	b.watch(ctx)
	if dead, err := n.watchDeadLetters(ctx); err != nil {
		b.log.Warn("watch dead letters", "err", err)
	} else {
		defer dead.Unsubscribe()
	}
	if !n.Fresh {
		if err := b.relist(ctx); fatal(err) {
			return nil, err
		} else if err != nil {
			b.log.Warn("list run bucket", "err", err)
		}
	}
	if err := n.publish(ctx, batch, b.have); err != nil {
		return nil, err
	}
	if err := b.wait(ctx); err != nil {
		return nil, err
	}
	return b.results, nil
}

// barrier is one batch waiting for its done-records.
type barrier struct {
	n       *NATS
	log     *slog.Logger
	bucket  runstate.Bucket
	batch   []jobs.Job
	index   map[string]int // job key to position in batch
	results []jobs.Result
	have    []bool
	left    int
	done    func(int, jobs.Result) error
	// listed counts the records that a listing found before the watch
	// delivered them.
	listed int
}

func (n *NATS) newBarrier(batch []jobs.Job) *barrier {
	if n.Relist == 0 {
		n.Relist = 2 * time.Second
	}
	log := n.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &barrier{n: n, log: log, bucket: runstate.New(n.Conn.JS, n.KV), batch: batch,
		index: make(map[string]int, len(batch)), results: make([]jobs.Result, len(batch)),
		have: make([]bool, len(batch)), left: len(batch)}
	for i, j := range batch {
		b.index[j.Key()] = i
	}
	return b
}

// watch starts following the bucket's job records, unless a watch of an
// earlier batch still runs: it ends with ctx, the run's. Records of the
// jobs of other batches are passed over. While no watch runs the periodic
// re-list alone would do, so a watch that cannot start is tried again
// later.
func (b *barrier) watch(ctx context.Context) {
	if b.n.watcher != nil {
		return
	}
	w, err := b.bucket.WatchRecords(ctx)
	if err != nil {
		b.log.Warn("watch run bucket", "err", err)
		return
	}
	b.n.watcher = w
	context.AfterFunc(ctx, func() { w.Stop() })
}

func (b *barrier) stopWatch() {
	if b.n.watcher != nil {
		b.n.watcher.Stop()
		b.n.watcher = nil
	}
}

// records is the watch's channel, nil (never ready) while none runs.
func (b *barrier) records() <-chan runstate.Record {
	if b.n.watcher == nil {
		return nil
	}
	return b.n.watcher.Records()
}

// take counts a record of a job of the batch; a failed-record fails the
// batch.
func (b *barrier) take(r runstate.Record) error {
	i, ok := b.index[r.Job]
	if !ok {
		return nil
	}
	if b.have[i] {
		// A failure recorded after the job's done-record is of a second
		// delivery, which found the inputs of the finished job gone.
		return nil
	}
	if r.Failed {
		return fmt.Errorf("%w: %s: %s", ErrJobFailed, b.batch[i].ID(), r.Reason)
	}
	b.results[i], b.have[i] = r.Result, true
	b.left--
	if b.done != nil {
		if err := b.done(i, r.Result); err != nil {
			return &doneError{err}
		}
	}
	return nil
}

// doneError is an error of the batch's done function, which ends the
// batch as a failed job does.
type doneError struct{ err error }

func (e *doneError) Error() string { return e.err.Error() }
func (e *doneError) Unwrap() error { return e.err }

// fatal tells the errors that end a batch from those of a listing.
func fatal(err error) bool {
	var d *doneError
	return errors.Is(err, ErrJobFailed) || errors.As(err, &d)
}

// relist reads the records of the jobs not yet done, for what a watch
// missed.
func (b *barrier) relist(ctx context.Context) error {
	for i, j := range b.batch {
		if b.have[i] {
			continue
		}
		// The done-record first: a failure recorded beside it is of a
		// second delivery of a finished job.
		res, done, err := b.bucket.Done(ctx, j.Key())
		if errors.Is(err, runstate.ErrBadRecord) {
			return fmt.Errorf("%w: %s: %v", ErrJobFailed, j.ID(), err)
		}
		if err != nil {
			return err
		}
		if done {
			b.listed++
			if err := b.take(runstate.Record{Job: j.Key(), Result: res}); err != nil {
				return err
			}
			continue
		}
		reason, failed, err := b.bucket.Failed(ctx, j.Key())
		if err != nil {
			return err
		}
		if failed {
			return b.take(runstate.Record{Job: j.Key(), Failed: true, Reason: reason})
		}
	}
	return nil
}

// wait takes records until every job of the batch is done, re-listing the
// bucket every Relist.
func (b *barrier) wait(ctx context.Context) error {
	ticker := time.NewTicker(b.n.Relist)
	defer ticker.Stop()
	running := 0
	for b.left > 0 {
		b.tell(running)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case r, ok := <-b.records():
			if !ok {
				// The watch ended (a reconnect): start another.
				b.stopWatch()
				b.watch(ctx)
				continue
			}
			if err := b.take(r); err != nil {
				return err
			}
		case <-ticker.C:
			b.watch(ctx)
			running = b.n.ackPending(ctx)
			listed := b.listed
			if err := b.relist(ctx); err != nil {
				if fatal(err) {
					return err
				}
				b.log.Warn("re-list run bucket", "err", err)
			}
			if b.listed > listed {
				// The watch missed a record written a tick ago: its
				// consumer may have been on a server that left the
				// cluster, and it does not always end when that happens.
				// Start another, which the stream's leader now serves.
				b.stopWatch()
				b.watch(ctx)
			}
		}
	}
	b.tell(0)
	return nil
}

func (b *barrier) tell(running int) {
	if b.n.Waiting != nil {
		b.n.Waiting(len(b.batch)-b.left, running, len(b.batch))
	}
}

// publish sends the jobs that are not done. The message ID makes a job
// published twice by this coordinator (a retried publish) a duplicate that
// the stream drops.
func (n *NATS) publish(ctx context.Context, batch []jobs.Job, have []bool) error {
	type pending struct {
		job  jobs.Job
		data []byte
		f    jetstream.PubAckFuture
	}
	var sent []pending
	for i, j := range batch {
		if have[i] {
			continue
		}
		data, err := json.Marshal(j)
		if err != nil {
			return err
		}
		p := pending{job: j, data: data}
		// An async publish that cannot even start is sent again below.
		p.f, _ = n.Conn.JS.PublishAsync(broker.Subject(n.Run), data, jetstream.WithMsgID(n.msgID(j)))
		sent = append(sent, p)
	}
	for _, p := range sent {
		if p.f != nil {
			select {
			case <-p.f.Ok():
				continue
			case err := <-p.f.Err():
				if full := broker.StoreFull(err); full != nil {
					return fmt.Errorf("publish %s: %w", p.job.ID(), full)
				}
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		// The server did not confirm: publish again, synchronously, until
		// it does (a cluster electing a leader takes seconds).
		err := retry(ctx, func(ctx context.Context) error {
			_, err := n.Conn.JS.Publish(ctx, broker.Subject(n.Run), p.data, jetstream.WithMsgID(n.msgID(p.job)))
			return err
		})
		if err != nil {
			return fmt.Errorf("publish %s: %w", p.job.ID(), err)
		}
	}
	return nil
}

func (n *NATS) msgID(j jobs.Job) string { return n.Run + "." + n.Nonce + "." + j.Key() }

// watchDeadLetters turns the server's advisory that a job ran out of
// deliveries (its workers kept dying or timing out) into a failed-record,
// unless the job is done after all (its last worker recorded it as the
// advisory went out). The record is written as the coordinator's other
// writes are, retried through an election (retry), on a goroutine of its
// own so that the subscription goes on; a failed-record lost would leave
// the barrier waiting for ever.
func (n *NATS) watchDeadLetters(ctx context.Context) (*nats.Subscription, error) {
	subject := fmt.Sprintf("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.%s.%s", broker.Stream, broker.Consumer)
	bucket := runstate.New(n.Conn.JS, n.KV)
	return n.Conn.NC.Subscribe(subject, func(m *nats.Msg) {
		var adv struct {
			StreamSeq  uint64 `json:"stream_seq"`
			Deliveries uint64 `json:"deliveries"`
		}
		if json.Unmarshal(m.Data, &adv) != nil {
			return
		}
		go func() {
			err := retry(ctx, func(ctx context.Context) error {
				return n.recordDeadLetter(ctx, bucket, adv.StreamSeq, adv.Deliveries)
			})
			if err != nil && ctx.Err() == nil && n.Log != nil {
				n.Log.Warn("record a job out of deliveries", "stream_seq", adv.StreamSeq, "err", err)
			}
		}()
	})
}

// recordDeadLetter writes the failed-record of the job at seq in the
// stream, which was delivered deliveries times, unless it is another
// run's or done.
func (n *NATS) recordDeadLetter(ctx context.Context, bucket runstate.Bucket, seq, deliveries uint64) error {
	s, err := n.Conn.JS.Stream(ctx, broker.Stream)
	if err != nil {
		return err
	}
	raw, err := s.GetMsg(ctx, seq)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil // acked after all: a work queue keeps no finished job
	}
	if err != nil {
		return err
	}
	var j jobs.Job
	if raw.Subject != broker.Subject(n.Run) || json.Unmarshal(raw.Data, &j) != nil {
		return nil
	}
	if _, done, err := bucket.Done(ctx, j.Key()); err != nil || done {
		return err
	}
	reason := fmt.Sprintf("delivered %d times without finishing: its workers died or stopped heartbeating", deliveries)
	return bucket.PutFailed(ctx, j.Key(), reason)
}

// ackPending is the number of jobs delivered to workers and not finished.
func (n *NATS) ackPending(ctx context.Context) int {
	c, err := n.Conn.JS.Consumer(ctx, broker.Stream, broker.Consumer)
	if err != nil {
		return 0
	}
	info, err := c.Info(ctx)
	if err != nil {
		return 0
	}
	return info.NumAckPending
}

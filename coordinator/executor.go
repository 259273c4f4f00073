package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
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
}

var _ Executor = (*NATS)(nil)

// Execute publishes the jobs of the batch that have no done-record yet and
// waits until every job has one. It fails as soon as a job of the batch has
// a failed-record.
func (n *NATS) Execute(ctx context.Context, batch []jobs.Job) ([]jobs.Result, error) {
	if n.Relist == 0 {
		n.Relist = 2 * time.Second
	}
	log := n.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	index := make(map[string]int, len(batch))
	for i, j := range batch {
		index[j.Key()] = i
	}
	results := make([]jobs.Result, len(batch))
	have := make([]bool, len(batch))
	left := len(batch)

	// Watch before listing and publishing, so no record slips between. The
	// watch is a shortcut: the periodic re-list alone would do, so a watch
	// that cannot start now is tried again later.
	var updates <-chan jetstream.KeyValueEntry
	var watcher jetstream.KeyWatcher
	watch := func() {
		w, err := n.KV.WatchFiltered(ctx, []string{"done.>", "failed.>"}, jetstream.UpdatesOnly())
		if err != nil {
			log.Warn("watch run bucket", "err", err)
			watcher, updates = nil, nil
			return
		}
		watcher, updates = w, w.Updates()
	}
	watch()
	defer func() {
		if watcher != nil {
			watcher.Stop()
		}
	}()
	if dead, err := n.watchDeadLetters(ctx); err != nil {
		log.Warn("watch dead letters", "err", err)
	} else {
		defer dead.Unsubscribe()
	}

	take := func(key string, value []byte) error {
		kind, jobKey, _ := strings.Cut(key, ".")
		i, ok := index[jobKey]
		if !ok {
			return nil
		}
		if kind == "failed" {
			return fmt.Errorf("%w: %s: %s", ErrJobFailed, batch[i].ID(), value)
		}
		if have[i] {
			return nil
		}
		if err := json.Unmarshal(value, &results[i]); err != nil {
			return fmt.Errorf("done-record of %s: %w", batch[i].ID(), err)
		}
		have[i] = true
		left--
		return nil
	}
	relist := func() error {
		for i, j := range batch {
			if have[i] {
				continue
			}
			for _, kind := range []string{"failed.", "done."} {
				e, err := n.KV.Get(ctx, kind+j.Key())
				if errors.Is(err, jetstream.ErrKeyNotFound) {
					continue
				}
				if err != nil {
					return fmt.Errorf("read run bucket: %w", err)
				}
				if err := take(e.Key(), e.Value()); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := relist(); errors.Is(err, ErrJobFailed) {
		return nil, err
	} else if err != nil {
		log.Warn("list run bucket", "err", err)
	}
	if err := n.publish(ctx, batch, have); err != nil {
		return nil, err
	}
	ticker := time.NewTicker(n.Relist)
	defer ticker.Stop()
	running := 0
	for left > 0 {
		if n.Waiting != nil {
			n.Waiting(len(batch)-left, running, len(batch))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case e, ok := <-updates:
			if !ok {
				// The watcher ended (a reconnect): start another.
				watch()
				continue
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				continue
			}
			if err := take(e.Key(), e.Value()); err != nil {
				return nil, err
			}
		case <-ticker.C:
			if watcher == nil {
				watch()
			}
			running = n.ackPending(ctx)
			if err := relist(); err != nil {
				log.Warn("re-list run bucket", "err", err)
				if errors.Is(err, ErrJobFailed) {
					return nil, err
				}
			}
		}
	}
	if n.Waiting != nil {
		n.Waiting(len(batch), 0, len(batch))
	}
	return results, nil
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
			case <-p.f.Err():
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
// deliveries (its workers kept dying or timing out) into a failed-record.
func (n *NATS) watchDeadLetters(ctx context.Context) (*nats.Subscription, error) {
	subject := fmt.Sprintf("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.%s.%s", broker.Stream, broker.Consumer)
	return n.Conn.NC.Subscribe(subject, func(m *nats.Msg) {
		var adv struct {
			StreamSeq  uint64 `json:"stream_seq"`
			Deliveries uint64 `json:"deliveries"`
		}
		if json.Unmarshal(m.Data, &adv) != nil {
			return
		}
		gctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s, err := n.Conn.JS.Stream(gctx, broker.Stream)
		if err != nil {
			return
		}
		raw, err := s.GetMsg(gctx, adv.StreamSeq)
		if err != nil || raw.Subject != broker.Subject(n.Run) {
			return
		}
		var j jobs.Job
		if json.Unmarshal(raw.Data, &j) != nil {
			return
		}
		reason := fmt.Sprintf("delivered %d times without finishing: its workers died or stopped heartbeating", adv.Deliveries)
		n.KV.Put(gctx, "failed."+j.Key(), []byte(reason))
	})
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

// Package worker pulls census jobs from NATS JetStream and runs them: one
// job at a time per slot, heartbeating while it runs, recording the result
// in the run's bucket, then acknowledging.
package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/store"
)

// Config is what a worker needs.
type Config struct {
	Conn *broker.Conn
	// Jobs is how many jobs run at once.
	Jobs int
	// OpenStore opens the store a job's spec names.
	OpenStore func(ctx context.Context, url string) (store.Store, error)
	Log       *slog.Logger
	// AckWait is how long a job may go without a heartbeat before it is
	// delivered to another worker, set on the workers' consumer when this
	// worker creates it; zero means broker.DefaultAckWait.
	AckWait time.Duration
	// Heartbeat is how often a running job is reported in progress;
	// zero means a third of AckWait.
	Heartbeat time.Duration
	// RetryDelay is how long a failed job waits before its next attempt,
	// times the attempts so far; zero means DefaultRetryDelay.
	RetryDelay time.Duration
	// Metrics, when set, count what the worker does.
	Metrics *Metrics
}

// Outcomes of a job, as an Observer is told them.
const (
	OutcomeDone     = "done"
	OutcomeRetry    = "retry"
	OutcomeFailed   = "failed"
	OutcomeHandBack = "handed_back"
	OutcomeSkipped  = "already_done"
)

// Worker runs jobs until its context ends.
type Worker struct {
	cfg     Config
	cons    jetstream.Consumer
	mu      sync.Mutex
	buckets map[string]runstate.Bucket
	stores  map[string]store.Store
	// tables lets the worker's solve jobs share the next tier's table.
	tables *jobs.TableCache
}

// New opens the workers' consumer and returns a worker. It looks the
// consumer up first, so that a worker whose NATS user may only use it (see
// deploy/nats) runs once a coordinator has set up the job stream; when there
// is no stream yet it creates one, or, when its user may not, waits for a
// coordinator to. It fails when ctx ends or NATS keeps failing for two
// minutes.
func New(ctx context.Context, cfg Config) (*Worker, error) {
	if cfg.Jobs < 1 {
		cfg.Jobs = 1
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.AckWait == 0 {
		cfg.AckWait = broker.DefaultAckWait
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = cfg.AckWait / 3
	}
	if cfg.RetryDelay == 0 {
		cfg.RetryDelay = DefaultRetryDelay
	}
	// Several processes creating the stream at once on a new cluster can
	// time out while its servers agree: try again for a while.
	var cons jetstream.Consumer
	var err error
	waiting := false
	for wait, deadline := 250*time.Millisecond, time.Now().Add(2*time.Minute); ; wait = min(2*wait, 5*time.Second) {
		cons, err = openConsumer(ctx, cfg.Conn, cfg.AckWait)
		if err == nil {
			break
		}
		switch {
		case ctx.Err() != nil:
			return nil, err
		case errors.Is(err, broker.ErrDenied):
			// Not a fault: the coordinator sets the stream up.
			if !waiting {
				cfg.Log.Info("no job stream yet and this NATS user may not create it: waiting for a coordinator", "err", err)
				waiting = true
			}
			deadline = time.Now().Add(2 * time.Minute)
		case time.Now().After(deadline):
			return nil, err
		default:
			cfg.Log.Warn("set up the job stream, will retry", "err", err)
		}
		sleep(ctx, wait)
	}
	return &Worker{cfg: cfg, cons: cons, buckets: map[string]runstate.Bucket{}, stores: map[string]store.Store{},
		tables: jobs.NewTableCache(cfg.Jobs)}, nil
}

// openConsumer looks up the workers' consumer, and creates it with its
// stream when either is missing.
func openConsumer(ctx context.Context, conn *broker.Conn, ackWait time.Duration) (jetstream.Consumer, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var cons jetstream.Consumer
	err := conn.Do(ctx, func(ctx context.Context) error {
		var err error
		cons, err = conn.JS.Consumer(ctx, broker.Stream, broker.Consumer)
		if errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrConsumerNotFound) {
			cons, err = broker.Setup(ctx, conn.JS, broker.Replicas(ctx, conn), ackWait)
		}
		return err
	})
	return cons, err
}

// Run pulls and runs jobs on cfg.Jobs slots until ctx ends. A job running
// when ctx ends is handed back unfinished (never acknowledged) so that
// another worker takes it.
func (w *Worker) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for slot := 0; slot < w.cfg.Jobs; slot++ {
		wg.Go(func() { w.loop(ctx, slot) })
	}
	wg.Wait()
}

func (w *Worker) loop(ctx context.Context, slot int) {
	for ctx.Err() == nil {
		// One job at a time: a prefetched job's AckWait would run out
		// while it waits.
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		msg, err := w.cons.Next(jetstream.FetchContext(fctx))
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) {
				w.cfg.Log.Warn("fetch job", "slot", slot, "err", err)
				sleep(ctx, time.Second)
			}
			continue
		}
		w.handle(ctx, msg)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// handle runs one job message to its end: done and acknowledged, failed
// and terminated, retried later, or handed back on shutdown.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) {
	var j jobs.Job
	if err := json.Unmarshal(msg.Data(), &j); err != nil || j.Spec() == nil {
		w.cfg.Log.Error("drop undecodable job", "subject", msg.Subject(), "err", err)
		w.reply(w.cfg.Log, "term", msg.TermWithReason("undecodable job message"))
		return
	}
	spec := j.Spec()
	log := w.cfg.Log.With("run", spec.Run, "job", j.ID())
	opCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kv, err := w.bucket(opCtx, spec.Run)
	if err != nil {
		// A job of a run whose bucket is gone can never be recorded.
		log.Error("drop job of unknown run", "err", err)
		w.reply(log, "term", msg.TermWithReason("run bucket missing"))
		return
	}
	if doneElsewhere(opCtx, kv, j) {
		w.observe(j, jobs.Result{}, OutcomeSkipped, 0)
		w.reply(log, "ack", msg.DoubleAck(opCtx))
		return
	}
	st, err := w.store(opCtx, spec.Store)
	if err != nil {
		w.retryOrFail(opCtx, msg, kv, j, fmt.Errorf("open store %s: %w", spec.Store, err), log)
		return
	}
	if w.cfg.Metrics != nil {
		w.cfg.Metrics.JobStarted(j)
	}
	began := time.Now()
	res, err := w.runWithHeartbeat(ctx, msg, st, j)
	took := time.Since(began)
	// The job may have run for hours: fresh time for recording it.
	opCtx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	switch {
	case err == nil:
		if err := kv.PutDone(opCtx, j.Key(), res); err != nil {
			log.Warn("record result", "err", err)
			w.reply(log, "nak", msg.NakWithDelay(time.Second))
			w.observe(j, res, OutcomeRetry, took)
			return
		}
		w.reply(log, "ack", msg.DoubleAck(opCtx))
		w.observe(j, res, OutcomeDone, took)
		log.Debug("job done", "took", took)
	case ctx.Err() != nil:
		// Shutting down: hand the job back unfinished.
		w.reply(log, "nak", msg.Nak())
		w.observe(j, jobs.Result{}, OutcomeHandBack, took)
		log.Info("job handed back on shutdown")
	case doneElsewhere(opCtx, kv, j):
		// Another delivery of the job finished it while this one ran, and
		// its inputs, read by no job again, may be gone: nothing failed.
		w.reply(log, "ack", msg.DoubleAck(opCtx))
		w.observe(j, jobs.Result{}, OutcomeSkipped, took)
		log.Info("job done by another delivery", "err", err)
	case errors.Is(err, jobs.ErrInvalid) || errors.Is(err, jobs.ErrCorrupt):
		w.fail(opCtx, msg, kv, j, err, log)
		w.observe(j, jobs.Result{}, OutcomeFailed, took)
	default:
		w.retryOrFail(opCtx, msg, kv, j, err, log)
		w.observe(j, jobs.Result{}, OutcomeRetry, took)
	}
}

func (w *Worker) observe(j jobs.Job, res jobs.Result, outcome string, took time.Duration) {
	if w.cfg.Metrics != nil {
		w.cfg.Metrics.JobFinished(j, res, outcome, took)
	}
}

// runWithHeartbeat runs the job, telling JetStream it is in progress every
// Heartbeat so that it is not redelivered while it runs.
func (w *Worker) runWithHeartbeat(ctx context.Context, msg jetstream.Msg, st store.Store, j jobs.Job) (jobs.Result, error) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(w.cfg.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if err := msg.InProgress(); err != nil {
					w.cfg.Log.Warn("report job in progress", "subject", msg.Subject(), "err", err)
				}
			}
		}
	}()
	res, err := jobs.RunMeasured(ctx, st, j, jobs.Options{Tables: w.tables})
	close(done)
	return res, err
}

// retryOrFail retries a job that failed for a reason that may pass, unless
// it has used up its deliveries.
func (w *Worker) retryOrFail(ctx context.Context, msg jetstream.Msg, kv runstate.Bucket, j jobs.Job, err error, log *slog.Logger) {
	md, merr := msg.Metadata()
	if merr == nil && md.NumDelivered >= broker.MaxDeliver {
		w.fail(ctx, msg, kv, j, fmt.Errorf("gave up after %d attempts: %w", md.NumDelivered, err), log)
		return
	}
	delay := w.cfg.RetryDelay
	if merr == nil {
		delay *= time.Duration(md.NumDelivered)
	}
	log.Warn("job failed, will retry", "err", err, "delay", delay)
	w.reply(log, "nak", msg.NakWithDelay(delay))
}

// doneElsewhere tells whether j has a done-record.
func doneElsewhere(ctx context.Context, kv runstate.Bucket, j jobs.Job) bool {
	_, done, err := kv.Done(ctx, j.Key())
	return err == nil && done
}

// DefaultRetryDelay is the wait before a failed job's second attempt; the
// waits grow by as much again with every attempt (2s, 4s, 6s, 8s), so that a
// fault that lasts, a full disk, fails the run within about 20 seconds.
const DefaultRetryDelay = 2 * time.Second

// fail records why a job can never succeed, which fails its run, and
// terminates its message.
func (w *Worker) fail(ctx context.Context, msg jetstream.Msg, kv runstate.Bucket, j jobs.Job, err error, log *slog.Logger) {
	log.Error("job failed", "err", err)
	if perr := kv.PutFailed(ctx, j.Key(), err.Error()); perr != nil {
		log.Error("record failure", "err", perr)
	}
	w.reply(log, "term", msg.TermWithReason(truncate(err.Error(), 200)))
}

// reply logs a failed acknowledgement (ack, nak or term): the server then
// redelivers the job after AckWait, which is safe but slow, and worth
// knowing about.
func (w *Worker) reply(log *slog.Logger, what string, err error) {
	if err != nil {
		log.Warn("reply to job message", "reply", what, "err", err)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

func (w *Worker) bucket(ctx context.Context, run string) (runstate.Bucket, error) {
	w.mu.Lock()
	kv, ok := w.buckets[run]
	w.mu.Unlock()
	if ok {
		return kv, nil
	}
	bkv, err := broker.OpenRunBucket(ctx, w.cfg.Conn.JS, run)
	if err != nil {
		return runstate.Bucket{}, err
	}
	kv = runstate.New(w.cfg.Conn.JS, bkv)
	w.mu.Lock()
	w.buckets[run] = kv
	w.mu.Unlock()
	return kv, nil
}

func (w *Worker) store(ctx context.Context, url string) (store.Store, error) {
	w.mu.Lock()
	st, ok := w.stores[url]
	w.mu.Unlock()
	if ok {
		return st, nil
	}
	st, err := w.cfg.OpenStore(ctx, url)
	if err != nil {
		return nil, err
	}
	if w.cfg.Metrics != nil {
		read, written := w.cfg.Metrics.StoreBytes()
		st = store.Counting(st, read, written)
	}
	w.mu.Lock()
	w.stores[url] = st
	w.mu.Unlock()
	return st, nil
}

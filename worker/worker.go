// Package worker pulls census jobs from NATS JetStream and runs them: one
// job at a time per slot, heartbeating while it holds the job, recording the
// result in the run's bucket, then acknowledging.
//
// A job's deliveries (broker.MaxDeliver) are spent by jobs that fail and by
// workers that die, never by NATS electing a leader. A worker that holds a
// job and finds NATS failing a call the job needs (opening the run's bucket,
// storing the done-record or the failure, acknowledging) keeps the job: it
// goes on heartbeating it with InProgress, which JetStream allows without
// limit, and tries the call again with growing pauses for up to
// Config.NATSWait (DefaultNATSWait, two minutes: what the coordinator rides
// out too). An election, a few seconds, so costs no delivery; only NATS
// failing for longer than NATSWait gives the job back with a delayed Nak,
// and it takes broker.MaxDeliver such outages in a row to fail a run. This
// is the simplest design that works whatever AckWait and MaxDeliver are:
// sizing MaxDeliver to outlast an outage would depend on the Nak delays and
// the job's run time, and would let a job that truly fails run longer before
// the run fails. Waiting is safe because a job is idempotent: its outputs
// are a pure function of its inputs, so a record stored twice, or a job run
// again elsewhere meanwhile (a worker cut off from NATS loses the job after
// AckWait), holds the same result.
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
	// NATSWait is how long a worker holding a job keeps trying a NATS
	// call the job needs while NATS fails it, heartbeating the job
	// meanwhile, before it gives the job back; zero means DefaultNATSWait.
	NATSWait time.Duration
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
	if cfg.NATSWait == 0 {
		cfg.NATSWait = DefaultNATSWait
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

// sleep waits d, or less when ctx ends first; false then.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// handle runs one job message to its end: done and acknowledged, failed
// and terminated, retried later, or handed back on shutdown. The worker
// heartbeats the job from the moment it decodes it until it replies, and
// waits for NATS (waitForNATS) rather than give the job back when NATS
// fails a call the job needs.
func (w *Worker) handle(ctx context.Context, msg jetstream.Msg) {
	var j jobs.Job
	if err := json.Unmarshal(msg.Data(), &j); err != nil || j.Spec() == nil {
		w.cfg.Log.Error("drop undecodable job", "subject", msg.Subject(), "err", err)
		w.reply(w.cfg.Log, "term", msg.TermWithReason("undecodable job message"))
		return
	}
	spec := j.Spec()
	log := w.cfg.Log.With("run", spec.Run, "job", j.ID())
	stop := w.heartbeat(msg, log)
	defer stop()
	var kv runstate.Bucket
	err := w.waitForNATS(ctx, log, OpOpenBucket, func(ctx context.Context) (err error) {
		kv, err = w.bucket(ctx, spec.Run)
		return err
	})
	switch {
	case errors.Is(err, jetstream.ErrBucketNotFound):
		// A job of a run whose bucket is gone can never be recorded.
		log.Error("drop job of unknown run", "err", err)
		w.reply(log, "term", msg.TermWithReason("run bucket missing"))
		return
	case err != nil:
		w.giveBack(ctx, msg, log, fmt.Errorf("open the run's bucket: %w", err))
		return
	}
	opCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if doneElsewhere(opCtx, kv, j) {
		w.observe(j, jobs.Result{}, OutcomeSkipped, 0)
		w.ack(ctx, msg, log)
		return
	}
	st, err := w.store(opCtx, spec.Store)
	if err != nil {
		w.retryOrFail(ctx, msg, kv, j, fmt.Errorf("open store %s: %w", spec.Store, err), log)
		return
	}
	if w.cfg.Metrics != nil {
		w.cfg.Metrics.JobStarted(j)
	}
	began := time.Now()
	res, err := jobs.RunMeasured(ctx, st, j, jobs.Options{Tables: w.tables})
	took := time.Since(began)
	// The job may have run for hours: fresh time for what follows.
	opCtx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	switch {
	case err == nil:
		w.finish(ctx, msg, kv, j, res, took, log)
	case ctx.Err() != nil:
		// Shutting down: hand the job back unfinished.
		w.reply(log, "nak", msg.Nak())
		w.observe(j, jobs.Result{}, OutcomeHandBack, took)
		log.Info("job handed back on shutdown")
	case doneElsewhere(opCtx, kv, j):
		// Another delivery of the job finished it while this one ran, and
		// its inputs, read by no job again, may be gone: nothing failed.
		w.ack(ctx, msg, log)
		w.observe(j, jobs.Result{}, OutcomeSkipped, took)
		log.Info("job done by another delivery", "err", err)
	case errors.Is(err, jobs.ErrInvalid) || errors.Is(err, jobs.ErrCorrupt):
		w.fail(ctx, msg, kv, j, err, log)
		w.observe(j, jobs.Result{}, OutcomeFailed, took)
	default:
		w.retryOrFail(ctx, msg, kv, j, err, log)
		w.observe(j, jobs.Result{}, OutcomeRetry, took)
	}
}

// finish stores the done-record of a job that ran, then acknowledges the
// job. While NATS fails the record it keeps the job (see waitForNATS), so
// that a leader election costs the job none of its deliveries; on shutdown
// it hands the job back, and when NATS refuses the record or fails it for
// longer than NATSWait it retries the job later, as a failed job.
func (w *Worker) finish(ctx context.Context, msg jetstream.Msg, kv runstate.Bucket, j jobs.Job, res jobs.Result, took time.Duration, log *slog.Logger) {
	err := w.waitForNATS(ctx, log, OpRecordDone, func(ctx context.Context) error {
		return kv.PutDone(ctx, j.Key(), res)
	})
	switch {
	case err == nil:
		w.ack(ctx, msg, log)
		w.observe(j, res, OutcomeDone, took)
		log.Debug("job done", "took", took)
	case ctx.Err() != nil:
		w.reply(log, "nak", msg.Nak())
		w.observe(j, jobs.Result{}, OutcomeHandBack, took)
		log.Info("job handed back on shutdown, its result not recorded", "err", err)
	default:
		w.retryOrFail(ctx, msg, kv, j, fmt.Errorf("record result: %w", err), log)
		w.observe(j, res, OutcomeRetry, took)
	}
}

func (w *Worker) observe(j jobs.Job, res jobs.Result, outcome string, took time.Duration) {
	if w.cfg.Metrics != nil {
		w.cfg.Metrics.JobFinished(j, res, outcome, took)
	}
}

// ack acknowledges a job whose done-record is stored, waiting for NATS as
// for the record. An acknowledgement that never gets through costs the job
// a delivery, which finds the record and acknowledges it.
func (w *Worker) ack(ctx context.Context, msg jetstream.Msg, log *slog.Logger) {
	if err := w.waitForNATS(ctx, log, OpAck, msg.DoubleAck); err != nil {
		log.Warn("acknowledge job: its next delivery will find it done", "err", err)
	}
}

// giveBack hands back a job the worker could not start: at once on
// shutdown, else after RetryDelay.
func (w *Worker) giveBack(ctx context.Context, msg jetstream.Msg, log *slog.Logger, err error) {
	if ctx.Err() != nil {
		w.reply(log, "nak", msg.Nak())
		return
	}
	log.Warn("give the job back, will retry", "err", err, "delay", w.cfg.RetryDelay)
	w.reply(log, "nak", msg.NakWithDelay(w.cfg.RetryDelay))
}

// heartbeat reports the job of msg in progress every Heartbeat until the
// returned stop is called, so that JetStream does not give the job to
// another worker while this one holds it: while the job runs, and while
// the worker waits for NATS to record it. JetStream takes any number of
// these reports.
func (w *Worker) heartbeat(msg jetstream.Msg, log *slog.Logger) (stop func()) {
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(w.cfg.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				// A job replied to meanwhile is no longer this worker's.
				if err := msg.InProgress(); err != nil && !errors.Is(err, jetstream.ErrMsgAlreadyAckd) {
					log.Warn("report job in progress", "err", err)
				}
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// The NATS calls a worker waits for, as its log and metrics name them.
const (
	OpOpenBucket   = "open_bucket"
	OpRecordDone   = "record_done"
	OpRecordFailed = "record_failed"
	OpAck          = "ack"
)

// DefaultNATSWait is how long a worker holding a job waits for NATS to
// answer a call the job needs: two minutes, as long as the coordinator
// retries its own calls. A leader election takes seconds.
const DefaultNATSWait = 2 * time.Minute

// ErrNATSWait is returned when NATS kept failing a call for NATSWait.
var ErrNATSWait = errors.New("NATS kept failing")

// The pauses between attempts of a NATS call, and the deadline of one
// attempt, as the coordinator's (coordinator/retry.go). A call to a stream
// whose leader has just gone fails at once (no responders), or, when a
// leader has lost its quorum, runs into its deadline: the first deadline is
// short so that the call is tried again soon after, and it doubles with
// each failed attempt so that a server slow under load is given time.
const (
	pauseFirst   = 250 * time.Millisecond
	pauseMax     = 5 * time.Second
	attemptFirst = 3 * time.Second
	attemptMax   = 15 * time.Second
)

// waitForNATS calls call, each time with a deadline of its own, until it
// succeeds, fails in a way that waiting cannot fix (natsPermanent), ctx
// ends (the worker shuts down: the first attempt is made even then, as a
// job that finished as the worker stopped should still be recorded), or
// NATS has been failing it for NATSWait. Meanwhile the caller keeps the job and
// its heartbeat. The worker logs when it starts waiting and when it stops,
// and op names the call in the log and the metrics. It returns nil, call's
// permanent error, ctx's error, or call's last error wrapped with
// ErrNATSWait.
func (w *Worker) waitForNATS(ctx context.Context, log *slog.Logger, op string, call func(context.Context) error) error {
	began := time.Now()
	waiting := false
	pause := pauseFirst
	for attempt, deadline := 1, attemptFirst; ; attempt, deadline = attempt+1, min(2*deadline, attemptMax) {
		parent := ctx
		if attempt == 1 {
			parent = context.WithoutCancel(ctx)
		}
		actx, cancel := context.WithTimeout(parent, min(deadline, w.cfg.NATSWait))
		err := w.cfg.Conn.Do(actx, call)
		cancel()
		if err == nil || natsPermanent(err) {
			if waiting {
				w.waited(log, op, began, attempt, err)
			}
			return err
		}
		if !waiting {
			waiting = true
			log.Warn("NATS is failing a call the job needs: keeping the job and waiting for NATS",
				"op", op, "err", err, "at_most", w.cfg.NATSWait)
			if w.cfg.Metrics != nil {
				w.cfg.Metrics.NATSWaitBegan(op)
			}
		}
		left := w.cfg.NATSWait - time.Since(began)
		if left <= 0 {
			w.waited(log, op, began, attempt, err)
			return fmt.Errorf("%w for %v (%d attempts): %w", ErrNATSWait, w.cfg.NATSWait, attempt, err)
		}
		if !sleep(ctx, min(pause, left)) {
			w.waited(log, op, began, attempt, ctx.Err())
			return ctx.Err()
		}
		pause = min(2*pause, pauseMax)
	}
}

// waited ends a wait for NATS: it logs how it ended and counts its time.
func (w *Worker) waited(log *slog.Logger, op string, began time.Time, attempts int, err error) {
	took := time.Since(began)
	if w.cfg.Metrics != nil {
		w.cfg.Metrics.NATSWaitEnded(op, took)
	}
	if err == nil {
		log.Info("NATS answered again: the job goes on", "op", op, "waited", took.Round(time.Millisecond), "attempts", attempts)
		return
	}
	log.Warn("stopped waiting for NATS", "op", op, "waited", took.Round(time.Millisecond), "attempts", attempts, "err", err)
}

// natsPermanent tells the errors of a NATS call that waiting cannot fix:
// the server's word that its store is full or that this user may not, a
// run's bucket that is gone, a connection closed for good, and a message
// the worker can no longer reply to.
func natsPermanent(err error) bool {
	return broker.StoreFull(err) != nil || errors.Is(err, broker.ErrDenied) ||
		errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, nats.ErrConnectionClosed) ||
		errors.Is(err, jetstream.ErrMsgAlreadyAckd) || errors.Is(err, jetstream.ErrMsgNotBound) ||
		errors.Is(err, jetstream.ErrMsgNoReply)
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
// terminates its message. A failure that cannot be recorded, even after
// waiting for NATS, gives the job back instead: terminated unrecorded, it
// would leave its run waiting for ever, while a job given back fails again
// or runs out of deliveries, which the coordinator records.
func (w *Worker) fail(ctx context.Context, msg jetstream.Msg, kv runstate.Bucket, j jobs.Job, err error, log *slog.Logger) {
	log.Error("job failed", "err", err)
	perr := w.waitForNATS(ctx, log, OpRecordFailed, func(ctx context.Context) error {
		return kv.PutFailed(ctx, j.Key(), err.Error())
	})
	if perr != nil {
		log.Error("record failure: giving the job back", "err", perr)
		w.reply(log, "nak", msg.NakWithDelay(w.cfg.RetryDelay))
		return
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

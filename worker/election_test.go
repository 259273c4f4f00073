package worker_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/test/election"
	"github.com/census-cgt/census/worker"
)

// TestJobOutlastsElection reproduces issue #51 on a real cluster of three
// servers, the job stream and the run's bucket in three copies: the server
// leading the run's bucket is killed (test/election) while a job runs, so
// that the job finishes into a bucket without a leader, which answers "no
// response from stream" until the other two elect one, four to nine
// seconds later. A worker that gave the job back with a Nak at each failed
// record spent one of the job's five deliveries a second and could run out
// of them. The worker must keep the job through the election, heartbeating
// it, and record it once NATS answers: one delivery, one done-record, one
// acknowledgement.
func TestJobOutlastsElection(t *testing.T) {
	for _, tc := range []struct {
		name string
		// consumerToo puts the workers' consumer's leader on the killed
		// server too; else it is on another.
		consumerToo bool
		// ackWait is the consumer's. Shorter than the election, it fails
		// a worker that does not heartbeat the job while it waits. A
		// consumer that elects a leader too loses the heartbeats sent
		// meanwhile, so it gets more than an election's time.
		ackWait time.Duration
	}{
		{"bucket leader killed", false, 3 * time.Second},
		{"bucket and consumer leader killed", true, 20 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outlastElection(t, tc.consumerToo, tc.ackWait)
		})
	}
}

func outlastElection(t *testing.T, consumerToo bool, ackWait time.Duration) {
	c := election.Start(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const run = "election"
	admin := connect(t, c.URL(0))
	if _, err := broker.Setup(ctx, admin.JS, 3, ackWait); err != nil {
		t.Fatal(err)
	}
	if _, err := broker.RunBucket(ctx, admin.JS, run, 3); err != nil {
		t.Fatal(err)
	}
	bucketStream := "KV_" + broker.Bucket(run)
	victim, err := c.StreamLeader(ctx, admin.JS, bucketStream)
	if err != nil {
		t.Fatal(err)
	}
	consumerAt := victim
	if !consumerToo {
		consumerAt = (victim + 1) % 3
	}
	if err := c.MoveConsumerLeader(ctx, admin.NC, admin.JS, broker.Stream, broker.Consumer, consumerAt); err != nil {
		t.Fatal(err)
	}
	if at, err := c.StreamLeader(ctx, admin.JS, bucketStream); err != nil || at != victim {
		t.Fatalf("the bucket's leader moved from n%d to n%d (%v)", victim, at, err)
	}
	t.Logf("n%d leads the run's bucket and is to be killed; n%d leads the workers' consumer", victim, consumerAt)
	// The worker and the test look from the two servers that stay.
	wconn := connect(t, c.URL((victim+1)%3))
	look := connect(t, c.URL((victim+2)%3))

	dir, err := store.NewDir(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	spec := jobs.Spec{Run: run, Game: "clobber", Board: "3x3", Store: dir.Root(), MemBudget: 64 << 20}
	start, err := jobs.WriteStart(ctx, dir, spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	job := jobs.Job{Tier: &jobs.TierJob{Spec: spec, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: []jobs.Blob{start}}}
	data, err := json.Marshal(job)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.JS.Publish(ctx, broker.Subject(run), data); err != nil {
		t.Fatal(err)
	}

	// The job kills the leader with its first write, and finishes once
	// the leader is down: its result is ready while there is none.
	killed := make(chan time.Time, 1)
	st := &onFirstWrite{Store: dir, do: func() {
		c.Kill(victim)
		killed <- time.Now()
		t.Logf("n%d killed", victim)
	}}
	var logs lockedBuffer
	m := worker.NewMetrics(prometheus.NewRegistry())
	w, err := worker.New(ctx, worker.Config{
		Conn: wconn, Jobs: 1, AckWait: ackWait, Metrics: m,
		Log: slog.New(slog.NewTextHandler(io.MultiWriter(testWriter{t}, &logs), nil)),
		OpenStore: func(context.Context, string) (store.Store, error) {
			return st, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		w.Run(wctx)
		close(stopped)
	}()
	defer func() {
		stop()
		<-stopped
	}()

	// The job is over when it has been delivered and the work queue has
	// let go of it: acknowledged, or out of deliveries. (Right after the
	// publish the consumer may not count the job pending yet.)
	ci, si := jobState(ctx, t, look.JS)
	for ci == nil || si == nil || ci.Delivered.Consumer == 0 || si.State.Msgs > 0 && (ci.NumAckPending > 0 || ci.NumPending > 0) {
		if ctx.Err() != nil {
			t.Fatalf("the job did not end within 90s: consumer %+v, stream %+v", ci, si)
		}
		time.Sleep(200 * time.Millisecond)
		ci, si = jobState(ctx, t, look.JS)
	}
	var killedAt time.Time
	select {
	case killedAt = <-killed:
	default:
		t.Fatal("the job made no write: nothing was killed")
	}
	t.Logf("the job ended %v after the kill", time.Since(killedAt).Round(time.Millisecond))

	if ci.Delivered.Consumer != 1 || ci.NumRedelivered != 0 {
		t.Errorf("the job was delivered %d times (%d redelivered), want once: the election cost it deliveries",
			ci.Delivered.Consumer, ci.NumRedelivered)
	}
	if si.State.Msgs != 0 || ci.NumAckPending != 0 || ci.AckFloor.Consumer != ci.Delivered.Consumer {
		t.Errorf("the job was not acknowledged: %d in the work queue, %d pending, ack floor %d of %d deliveries",
			si.State.Msgs, ci.NumAckPending, ci.AckFloor.Consumer, ci.Delivered.Consumer)
	}
	kv, err := broker.OpenRunBucket(ctx, look.JS, run)
	if err != nil {
		t.Fatal(err)
	}
	res, done, err := runstate.New(look.JS, kv).Done(ctx, job.Key())
	if err != nil || !done || res.Tier == nil || res.Tier.Stats.Positions != 1 {
		t.Errorf("done-record: %+v, %v, %v; want the start's one position", res.Tier, done, err)
	}
	// The bucket holds nothing but the job's records: one write.
	if s, err := look.JS.Stream(ctx, bucketStream); err != nil {
		t.Error(err)
	} else if n := s.CachedInfo().State.LastSeq; n != 1 {
		t.Errorf("the run's bucket took %d writes, want the one done-record", n)
	}

	for _, want := range []struct {
		name string
		got  float64
		want float64
	}{
		{"jobs finished done", testutil.ToFloat64(m.JobsFinished.WithLabelValues("tier", worker.OutcomeDone)), 1},
		{"jobs finished retry", testutil.ToFloat64(m.JobsFinished.WithLabelValues("tier", worker.OutcomeRetry)), 0},
		{"waits to record the result", testutil.ToFloat64(m.NATSWaits.WithLabelValues(worker.OpRecordDone)), 1},
		{"jobs waiting now", testutil.ToFloat64(m.NATSWaiting), 0},
	} {
		if want.got != want.want {
			t.Errorf("%s: %v, want %v", want.name, want.got, want.want)
		}
	}
	if s := testutil.ToFloat64(m.NATSWaitSeconds.WithLabelValues(worker.OpRecordDone)); s <= 0 || s > time.Since(killedAt).Seconds() {
		t.Errorf("waited %.3fs to record the result, want more than nothing and less than since the kill", s)
	}
	if !strings.Contains(logs.String(), "waiting for NATS") {
		t.Error("the worker did not log that it was waiting for NATS")
	}
}

// jobState is the workers' consumer and the job stream, or nil while NATS
// does not answer.
func jobState(ctx context.Context, t *testing.T, js jetstream.JetStream) (*jetstream.ConsumerInfo, *jetstream.StreamInfo) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	cons, err := js.Consumer(ctx, broker.Stream, broker.Consumer)
	if err != nil {
		return nil, nil
	}
	ci, err := cons.Info(ctx)
	if err != nil {
		return nil, nil
	}
	s, err := js.Stream(ctx, broker.Stream)
	if err != nil {
		return ci, nil
	}
	return ci, s.CachedInfo()
}

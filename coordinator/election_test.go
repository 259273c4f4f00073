package coordinator

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/test/election"
)

// TestWritesOutlastElection: the coordinator's own writes ride out the
// election that follows the kill of their streams' leader (issue #51), on a
// cluster of three with the job stream and the run's bucket in three
// copies: a record of the run's bucket written through state (try), and a
// job published as NATS.publish publishes one the server did not confirm
// (retry). A single attempt of each fails right after the kill, so the
// streams were without a leader.
func TestWritesOutlastElection(t *testing.T) {
	c := election.Start(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const run = "election"
	admin, err := broker.Connect(ctx, broker.ConnOptions{URL: c.URL(0), Name: "election-test"})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := broker.Setup(ctx, admin.JS, 3, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := broker.RunBucket(ctx, admin.JS, run, 3); err != nil {
		t.Fatal(err)
	}
	victim, err := c.StreamLeader(ctx, admin.JS, "KV_"+broker.Bucket(run))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.MoveStreamLeader(ctx, admin.NC, admin.JS, broker.Stream, victim); err != nil {
		t.Fatal(err)
	}
	conn, err := broker.Connect(ctx, broker.ConnOptions{URL: c.URL((victim + 1) % 3), Name: "election-coordinator"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	kv, err := broker.OpenRunBucket(ctx, conn.JS, run)
	if err != nil {
		t.Fatal(err)
	}
	b := runstate.New(conn.JS, kv)
	status := Status{State: StateRunning, Stage: runstate.StageTier}
	publish := func(ctx context.Context) error {
		_, err := conn.JS.Publish(ctx, broker.Subject(run), []byte("{}"), jetstream.WithMsgID("election-1"))
		return err
	}

	c.Kill(victim)
	killed := time.Now()
	t.Logf("n%d, leader of the run's bucket and the job stream, killed", victim)
	once, cancelOnce := context.WithTimeout(ctx, 2*time.Second)
	if err := b.PutStatus(once, status); err == nil {
		t.Fatal("a status written right after the kill went through: the bucket had a leader")
	}
	if err := publish(once); err == nil {
		t.Fatal("a job published right after the kill went through: the job stream had a leader")
	}
	cancelOnce()

	// The stage says that it waits, in its log, its metrics and its
	// progress: the status record its tracker writes waits out the
	// election.
	var logged strings.Builder
	m := NewMetrics(prometheus.NewRegistry())
	ctx = withNATSWait(ctx, &natsWait{run: run, log: slog.New(slog.NewTextHandler(&logged, nil)), m: m})
	var told []Progress
	cfg := Config{Log: slog.New(slog.DiscardHandler), Progress: func(p Progress) { told = append(told, p) }}
	tr := newTracker(ctx, cfg, state{b}, 4, m.forRun(run, "clobber", "2x2", 4, false))
	tr.stage(runstate.StageTier, 0, 0)
	waited := slices.ContainsFunc(told, func(p Progress) bool { return p.NATSWait > 0 })
	if !waited || len(told) < 2 || told[len(told)-1].NATSWait != 0 {
		t.Errorf("progress told through the election: %+v; want a wait, then none", told)
	}
	if n := testutil.ToFloat64(m.NATSWaits.WithLabelValues(run)); n != 1 || testutil.ToFloat64(m.WaitingForNATS.WithLabelValues(run)) != 0 ||
		!strings.Contains(logged.String(), "NATS is not answering the coordinator") || !strings.Contains(logged.String(), "NATS answered the coordinator again") {
		t.Errorf("the wait through the election: %v waits counted, log:\n%s", n, logged.String())
	}
	if err := retry(ctx, publish); err != nil {
		t.Errorf("publish through the election: %v", err)
	}
	t.Logf("written %v after the kill", time.Since(killed).Round(time.Millisecond))
	got, found, err := b.Status(ctx)
	if err != nil || !found || got.State != StateRunning {
		t.Errorf("status after the election: %+v, %v, %v", got, found, err)
	}
}

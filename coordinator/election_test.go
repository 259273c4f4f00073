package coordinator

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
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
	victim, conn, b := runOnCluster(t, ctx, c, run)
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
	cfg := Config{Env: Env{Log: slog.New(slog.DiscardHandler)}, Progress: func(p Progress) { told = append(told, p) }}
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

// TestLeaseOutlastsElection holds a run's lease of 1 s on a cluster of
// three and kills the leader of the run's bucket: the election that
// follows takes longer than the lease, which lapses. The coordinator
// must not end the run: its calls to NATS wait while the lease has
// lapsed, and once the bucket has a leader again it renews the lease (as
// it left it, or expired with no one holding it) and goes on.
func TestLeaseOutlastsElection(t *testing.T) {
	c := election.Start(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const run = "lease-election"
	victim, _, b := runOnCluster(t, ctx, c, run)
	var logged syncBuffer
	lease, err := acquireLease(ctx, b, LeaseOptions{LeaseTTL: time.Second}, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	runCtx, lost := context.WithCancelCause(ctx)
	defer lost(nil)
	runCtx = withLeaseGate(runCtx, lease.renew(runCtx, lost))

	c.Kill(victim)
	t.Logf("n%d, leader of the run's bucket, killed", victim)
	status := Status{State: StateRunning, Stage: runstate.StageTier}
	if err := (state{b}).putStatus(runCtx, status); err != nil {
		t.Fatalf("status write through the election: %v (cause %v)", err, context.Cause(runCtx))
	}
	// The lease is renewed every third of its TTL: within a few seconds
	// of the election it is held again, and the run has not ended.
	time.Sleep(3 * time.Second)
	if err := context.Cause(runCtx); err != nil {
		t.Fatalf("the run ended: %v\nlog:\n%s", err, logged.String())
	}
	if !strings.Contains(logged.String(), "the run's lease lapsed") || !strings.Contains(logged.String(), "renewed the run's lease") {
		t.Errorf("the lease did not lapse and come back; log:\n%s", logged.String())
	}
	l, held, err := b.Lease(ctx)
	if err != nil || !held || l.PID != lease.me.PID {
		t.Errorf("lease after the election: %+v held %v err %v; want this coordinator's", l, held, err)
	}
	lease.release()
}

// syncBuffer is a strings.Builder that goroutines may write at once.
type syncBuffer struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}

// runOnCluster sets up the job stream and the run's bucket, three copies
// of each, on the cluster c, moves the job stream's leader to the node
// that leads the bucket, and returns that node and the bucket, reached
// through a connection to another node.
func runOnCluster(t *testing.T, ctx context.Context, c *election.Cluster, run string) (int, *broker.Conn, runstate.Bucket) {
	t.Helper()
	admin, err := broker.Connect(ctx, broker.ConnOptions{URL: c.URL(0), Name: "election-admin"})
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
	t.Cleanup(conn.Close)
	kv, err := broker.OpenRunBucket(ctx, conn.JS, run)
	if err != nil {
		t.Fatal(err)
	}
	return victim, conn, runstate.New(conn.JS, kv)
}

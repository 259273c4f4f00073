package nats

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/crypto/bcrypt"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/worker"
)

// passwords of the test's users. The worker's reaches the server as a
// bcrypt hash, as docs/security.md recommends; the others in clear.
var passwords = map[string]string{
	"coordinator": "coord-pw-7d1e",
	"worker":      "worker-pw-90ab",
	"status":      "status-pw-33c2",
}

// startAuthServer starts a NATS server from auth.conf, as committed, on a
// free port, with the passwords in the environment.
func startAuthServer(t *testing.T) string {
	t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte(passwords["worker"]), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CENSUS_COORDINATOR_PASSWORD", passwords["coordinator"])
	t.Setenv("CENSUS_WORKER_PASSWORD", string(hash))
	t.Setenv("CENSUS_STATUS_PASSWORD", passwords["status"])
	srv, err := broker.StartServer(broker.ServerOptions{ConfigFile: "auth.conf", Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	})
	return srv.ClientURL()
}

func connectAs(t *testing.T, url, user string) *broker.Conn {
	t.Helper()
	conn, err := broker.Connect(context.Background(), broker.ConnOptions{
		URL: url, Name: "census-" + user, User: user, Password: passwords[user]})
	if err != nil {
		t.Fatalf("connect as %s: %v", user, err)
	}
	t.Cleanup(conn.Close)
	return conn
}

// logBuffer is a log a test reads while others write it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestLeastPrivilege runs a census with the users of auth.conf, the worker
// started before the coordinator has set anything up, and checks that no
// user was denied anything on the way; then that each user is refused,
// with an error naming the subject, what its role does not need.
func TestLeastPrivilege(t *testing.T) {
	url := startAuthServer(t)
	cconn := connectAs(t, url, "coordinator")
	wconn := connectAs(t, url, "worker")
	sconn := connectAs(t, url, "status")
	st, err := store.NewDir(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}

	// The worker comes first: it may not create the job stream, so it
	// waits for the coordinator to.
	// A permission the census needs and lacks makes it hang, not fail:
	// bound it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wlog logBuffer
	ready := make(chan *worker.Worker, 1)
	go func() {
		w, err := worker.New(ctx, worker.Config{
			Conn: wconn, Jobs: 2, Log: slog.New(slog.NewTextHandler(&wlog, nil)),
			OpenStore: func(context.Context, string) (store.Store, error) { return st, nil },
		})
		if err != nil {
			t.Errorf("worker: %v", err)
			close(ready)
			return
		}
		ready <- w
	}()
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(wlog.String(), "waiting for a coordinator"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not wait for a coordinator; its log: %s", wlog.String())
		}
	}
	setupDenied := wconn.Denied()
	if !errors.Is(setupDenied, broker.ErrDenied) || !strings.Contains(setupDenied.Error(), "CENSUS_JOBS") {
		t.Errorf("worker setting up the stream: denied %v, want ErrDenied naming CENSUS_JOBS", setupDenied)
	}

	workerDone := make(chan struct{})
	go func() {
		defer close(workerDone)
		if w := <-ready; w != nil {
			w.Run(ctx)
		}
	}()
	defer func() {
		cancel()
		<-workerDone
	}()

	// Twice: the second run of the same census resets the finished run's
	// bucket, which the coordinator must be allowed to do.
	for i := range 2 {
		res, err := coordinator.Start(ctx, coordinator.Config{
			Census:  coordinator.Census{Game: "domineering", Board: "4x4"},
			Env:     coordinator.Env{Store: st, StoreURL: st.Root()},
			Tuning:  coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
			Outputs: coordinator.Outputs{Out: filepath.Join(t.TempDir(), "out"), Version: "test"},
		}, cconn)
		if err != nil {
			t.Fatalf("census %d as coordinator and worker: %v", i+1, err)
		}
		// census-spec.md: Domineering 4x4.
		if s := res.Summary; s.Positions != 5700 || s.Moves != 32464 {
			t.Errorf("census %d: positions, moves = %d, %d; want 5700, 32464", i+1, s.Positions, s.Moves)
		}
	}
	runs, err := coordinator.ListRuns(ctx, sconn)
	if err != nil {
		t.Fatalf("census status as status: %v", err)
	}
	if len(runs) == 0 {
		t.Fatal("status sees no runs")
	}
	if len(runs) != 1 || runs[0].Status.State != coordinator.StateDone || runs[0].Plan.Board != "4x4" {
		t.Errorf("runs as status sees them: %+v, want one, done, of 4x4", runs)
	}
	run := runs[0].Run
	// Nothing the run needed was denied (a denied request only times
	// out, and census would carry on slower or not at all).
	if err := cconn.Denied(); err != nil {
		t.Errorf("coordinator was denied: %v", err)
	}
	if err := sconn.Denied(); err != nil {
		t.Errorf("status was denied: %v", err)
	}
	if err := wconn.Denied(); err != setupDenied {
		t.Errorf("worker was denied during the run: %v", err)
	}

	job := []byte(`{"kind":"tier"}`)
	bucket := broker.Bucket(run)
	tests := []struct {
		user, what string
		op         func(ctx context.Context, js jetstream.JetStream) error
		// subject is what the refusal must name.
		subject string
	}{
		{"worker", "publish a job", func(ctx context.Context, js jetstream.JetStream) error {
			_, err := js.Publish(ctx, broker.Subject(run), job)
			return err
		}, broker.Subject(run)},
		{"worker", "delete the job stream", func(ctx context.Context, js jetstream.JetStream) error {
			return js.DeleteStream(ctx, broker.Stream)
		}, "$JS.API.STREAM.DELETE." + broker.Stream},
		{"worker", "purge the job stream", func(ctx context.Context, js jetstream.JetStream) error {
			s, err := js.Stream(ctx, broker.Stream)
			if err != nil {
				return err
			}
			return s.Purge(ctx)
		}, "$JS.API.STREAM.PURGE." + broker.Stream},
		{"worker", "delete the workers' consumer", func(ctx context.Context, js jetstream.JetStream) error {
			return js.DeleteConsumer(ctx, broker.Stream, broker.Consumer)
		}, "$JS.API.CONSUMER.DELETE." + broker.Stream},
		{"worker", "change the job stream", func(ctx context.Context, js jetstream.JetStream) error {
			_, err := js.UpdateStream(ctx, jetstream.StreamConfig{Name: broker.Stream, Subjects: []string{"census.jobs.>"}, MaxMsgs: 1})
			return err
		}, "$JS.API.STREAM.UPDATE." + broker.Stream},
		{"worker", "delete a run's bucket", func(ctx context.Context, js jetstream.JetStream) error {
			return js.DeleteKeyValue(ctx, bucket)
		}, "$JS.API.STREAM.DELETE.KV_" + bucket},
		{"worker", "create a bucket", func(ctx context.Context, js jetstream.JetStream) error {
			_, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: broker.Bucket("other")})
			return err
		}, "$JS.API.STREAM.CREATE.KV_" + broker.Bucket("other")},
		{"worker", "overwrite a run's status", func(ctx context.Context, js jetstream.JetStream) error {
			kv, err := js.KeyValue(ctx, bucket)
			if err != nil {
				return err
			}
			_, err = kv.Put(ctx, "status", []byte(`{"state":"done"}`))
			return err
		}, "$KV." + bucket + ".status"},
		{"status", "publish a job", func(ctx context.Context, js jetstream.JetStream) error {
			_, err := js.Publish(ctx, broker.Subject(run), job)
			return err
		}, broker.Subject(run)},
		{"status", "write a done-record", func(ctx context.Context, js jetstream.JetStream) error {
			kv, err := js.KeyValue(ctx, bucket)
			if err != nil {
				return err
			}
			_, err = kv.Put(ctx, "done.tier.0000.00000", []byte(`{}`))
			return err
		}, "$KV." + bucket + ".done.tier.0000.00000"},
		{"status", "delete a run's bucket", func(ctx context.Context, js jetstream.JetStream) error {
			return js.DeleteKeyValue(ctx, bucket)
		}, "$JS.API.STREAM.DELETE.KV_" + bucket},
		{"coordinator", "delete the job stream", func(ctx context.Context, js jetstream.JetStream) error {
			return js.DeleteStream(ctx, broker.Stream)
		}, "$JS.API.STREAM.DELETE." + broker.Stream},
		{"coordinator", "delete the workers' consumer", func(ctx context.Context, js jetstream.JetStream) error {
			return js.DeleteConsumer(ctx, broker.Stream, broker.Consumer)
		}, "$JS.API.CONSUMER.DELETE." + broker.Stream},
	}
	conns := map[string]*broker.Conn{"coordinator": cconn, "worker": wconn, "status": sconn}
	for _, tc := range tests {
		t.Run(tc.user+" may not "+tc.what, func(t *testing.T) {
			conn := conns[tc.user]
			octx, ocancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer ocancel()
			began := time.Now()
			err := conn.Do(octx, func(ctx context.Context) error { return tc.op(ctx, conn.JS) })
			if !errors.Is(err, broker.ErrDenied) {
				t.Fatalf("err %v, want ErrDenied", err)
			}
			if !strings.Contains(err.Error(), `"`+tc.subject) {
				t.Errorf("err %q does not name %q", err, tc.subject)
			}
			if took := time.Since(began); took > 2*time.Second {
				t.Errorf("refusal took %v: it should not wait for a timeout", took)
			}
		})
	}

	// Nothing the refusals tried happened.
	info, err := cconn.JS.Stream(ctx, broker.Stream)
	if err != nil {
		t.Fatalf("job stream after the refusals: %v", err)
	}
	if info.CachedInfo().Config.MaxMsgs != -1 {
		t.Errorf("job stream MaxMsgs = %d after the refusals, want -1", info.CachedInfo().Config.MaxMsgs)
	}
	var names []string
	for n := range cconn.JS.KeyValueStoreNames(ctx).Name() {
		names = append(names, n)
	}
	if !slices.Equal(names, []string{bucket}) {
		t.Errorf("buckets after the refusals: %v, want %s alone", names, bucket)
	}
}

package coordinator_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/worker"
)

// freeAddr returns a 127.0.0.1 address whose port was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// testLog logs warnings and worse to the test's log, so that a failed run
// shows what the coordinator and the workers were retrying.
func testLog(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// startCluster starts n embedded servers routed to each other and waits
// until JetStream can place a stream on all of them.
func startCluster(t *testing.T, n int) []*server.Server {
	t.Helper()
	routes := make([]string, n)
	for i := range routes {
		routes[i] = freeAddr(t)
	}
	srvs := make([]*server.Server, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range srvs {
		var others []string
		for j, r := range routes {
			if j != i {
				others = append(others, "nats://"+r)
			}
		}
		// Together: a server of a JetStream cluster may wait for its
		// peers before it takes connections.
		wg.Go(func() {
			srvs[i], errs[i] = broker.StartServer(broker.ServerOptions{
				Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Name: fmt.Sprintf("n%d", i),
				ClusterName: "census-test", ClusterListen: routes[i], Routes: strings.Join(others, ","),
			})
		})
	}
	wg.Wait()
	for i, s := range srvs {
		if s != nil {
			t.Cleanup(func() {
				s.Shutdown()
				s.WaitForShutdown()
			})
		}
		if errs[i] != nil {
			t.Fatalf("server n%d: %v", i, errs[i])
		}
	}
	// The cluster is ready when JetStream answers (broker.Connect asks
	// for the account's JetStream usage, which needs a meta leader) and
	// an R3 stream can be made.
	began := time.Now()
	deadline := began.Add(60 * time.Second)
	for {
		err := probeCluster(srvs[0].ClientURL(), n)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster did not form within a minute: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("cluster of %d formed in %v", n, time.Since(began))
	return srvs
}

func probeCluster(url string, n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := broker.Connect(ctx, broker.ConnOptions{URL: url, Name: "census-test", Timeout: 2 * time.Second})
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "PROBE", Subjects: []string{"probe"}, Replicas: n}); err != nil {
		return err
	}
	return conn.JS.DeleteStream(ctx, "PROBE")
}

func connect(t *testing.T, url string) *broker.Conn {
	t.Helper()
	conn, err := broker.Connect(context.Background(), broker.ConnOptions{URL: url, Name: "census-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	return conn
}

// knowsServers waits until the connection has heard of n servers, which is
// what makes broker.Replicas choose three copies.
func knowsServers(t *testing.T, conn *broker.Conn, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(conn.NC.Servers()) < n; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the connection knows servers %v, want %d", conn.NC.Servers(), n)
		}
	}
}

// startWorker runs a worker with jobs slots on conn until the test ends.
func startWorker(t *testing.T, conn *broker.Conn, st *store.Dir, jobs int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := worker.New(ctx, worker.Config{
		Conn: conn, Jobs: jobs, Log: testLog(t).With("in", "worker"),
		OpenStore: func(ctx context.Context, url string) (store.Store, error) {
			if url != st.Root() {
				return nil, fmt.Errorf("store %s is not the test's %s", url, st.Root())
			}
			return st, nil
		},
	})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		w.Run(ctx)
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

func newDir(t *testing.T) *store.Dir {
	t.Helper()
	st, err := store.NewDir(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// replicas is the replica count of a stream.
func replicas(t *testing.T, conn *broker.Conn, stream string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := conn.JS.Stream(ctx, stream)
	if err != nil {
		t.Fatalf("stream %s: %v", stream, err)
	}
	return s.CachedInfo().Config.Replicas
}

// TestThreeNodeCluster runs a census on a cluster of three embedded
// servers, with the job stream and the run's bucket in three copies, and
// shuts down one server in the middle of the run: first one that neither
// the worker nor the coordinator is connected to, then the one they are
// connected to, so that they reconnect to the others. The census must come
// out the same as on one server.
func TestThreeNodeCluster(t *testing.T) {
	want, wantDir := census(t, "clobber", "4x4", "", 3, 2)
	wantPieces := readPieces(t, wantDir)
	for _, tc := range []struct {
		name string
		shut int // the server shut down; the clients connect to n0
	}{
		{"other server", 2},
		{"connected server", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srvs := startCluster(t, 3)
			url := srvs[0].ClientURL()
			wconn, cconn := connect(t, url), connect(t, url)
			knowsServers(t, wconn, 3)
			knowsServers(t, cconn, 3)
			st := newDir(t)
			startWorker(t, wconn, st, 2)
			if n := replicas(t, cconn, broker.Stream); n != 3 {
				t.Errorf("job stream has %d replicas, want 3 on a cluster of three", n)
			}

			// Shut the server down once a random tier of the middle of
			// the run is done, without holding up the coordinator: jobs
			// are running meanwhile.
			shutTier := 3 + rand.IntN(5)
			var once sync.Once
			shut := make(chan time.Time, 1)
			progress := func(p coordinator.Progress) {
				if p.Stage == "tier" && p.Tier >= shutTier {
					once.Do(func() {
						go func() {
							srvs[tc.shut].Shutdown()
							srvs[tc.shut].WaitForShutdown()
							shut <- time.Now()
						}()
					})
				}
			}
			out := filepath.Join(t.TempDir(), "out")
			const run = "three-nodes"
			// No deadline, as census coordinator has none: each
			// JetStream call has its own.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			timer := time.AfterFunc(4*time.Minute, cancel)
			defer timer.Stop()
			began := time.Now()
			res, err := coordinator.Start(ctx, coordinator.Config{
				Census:   coordinator.Census{Game: "clobber", Board: "4x4", Shards: 3},
				Env:      coordinator.Env{Run: run, Store: st, StoreURL: st.Root(), Log: testLog(t).With("in", "coordinator")},
				Tuning:   coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
				Outputs:  coordinator.Outputs{Out: out, Version: "test"},
				Progress: progress,
			}, cconn)
			finished := time.Now()
			var shutAt time.Time
			select {
			case shutAt = <-shut:
			case <-time.After(30 * time.Second):
			}
			when := "never"
			if !shutAt.IsZero() {
				when = fmt.Sprintf("%v into the run", shutAt.Sub(began).Round(time.Millisecond))
			}
			t.Logf("n%d shut down after tier %d, %s; the run ended after %v", tc.shut, shutTier, when, finished.Sub(began))
			if err != nil {
				t.Fatalf("census on the cluster: %v", err)
			}
			if shutAt.IsZero() || shutAt.After(finished) {
				t.Errorf("n%d was not shut down before the run finished", tc.shut)
			}
			if u := cconn.NC.ConnectedUrl(); tc.shut == 0 && (u == url || u == "") {
				t.Errorf("coordinator connected to %q after n0 went, want another server", u)
			}
			if n := replicas(t, cconn, "KV_"+broker.Bucket(run)); n != 3 {
				t.Errorf("run bucket has %d replicas, want 3 on a cluster of three", n)
			}
			if !reflect.DeepEqual(counts(res.Summary), counts(want)) {
				t.Errorf("summary on the cluster differs from one server:\n%+v\n%+v", res.Summary, want)
			}
			if got := readPieces(t, out); !reflect.DeepEqual(got, wantPieces) {
				t.Errorf("pieces on the cluster differ from one server: %d rows vs %d", len(got), len(wantPieces))
			}
		})
	}
}

// TestTwoRunsAtOnce runs two censuses at once on one server, with one
// worker and one store directory shared by both: each comes out as it
// does alone.
// startServer starts one NATS server for the test and returns its URL.
func startServer(t *testing.T, name string) string {
	t.Helper()
	srv, err := broker.StartServer(broker.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Name: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	})
	return srv.ClientURL()
}

// serverWithWorker starts a server of its own with a worker of two slots
// on a fresh store, and returns the store, a connection for the test's
// coordinator and a context that ends after 90 s or with the test.
func serverWithWorker(t *testing.T, name string) (context.Context, *broker.Conn, *store.Dir) {
	t.Helper()
	url := startServer(t, name)
	st := newDir(t)
	startWorker(t, connect(t, url), st, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx, connect(t, url), st
}

func TestTwoRunsAtOnce(t *testing.T) {
	url := startServer(t, "two-runs")
	st := newDir(t)
	startWorker(t, connect(t, url), st, 2)

	runs := []struct{ game, board string }{{"clobber", "3x4"}, {"domineering", "4x4"}}
	results := make([]*coordinator.Result, len(runs))
	errs := make([]error, len(runs))
	outs := make([]string, len(runs))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// When each run reported its first and its last tier. A run that
	// reports its first tier waits there until the other has reported its
	// own, so that the runs overlap however late one of them starts (on a
	// loaded machine a small run can be over before the other's first
	// tier); runs that could not go on side by side would never both get
	// there.
	first := make([]time.Time, len(runs))
	last := make([]time.Time, len(runs))
	var arrived sync.WaitGroup
	arrived.Add(len(runs))
	bothStarted := make(chan struct{})
	go func() { arrived.Wait(); close(bothStarted) }()
	var wg sync.WaitGroup
	for i, r := range runs {
		conn := connect(t, url)
		outs[i] = filepath.Join(t.TempDir(), "out")
		progress := func(p coordinator.Progress) {
			if p.Stage != "tier" {
				return
			}
			if first[i].IsZero() {
				first[i] = time.Now()
				arrived.Done()
				select {
				case <-bothStarted:
				case <-ctx.Done():
				}
			}
			last[i] = time.Now()
		}
		wg.Go(func() {
			results[i], errs[i] = coordinator.Start(ctx, coordinator.Config{
				Census:   coordinator.Census{Game: r.game, Board: r.board},
				Env:      coordinator.Env{Store: st, StoreURL: st.Root()},
				Tuning:   coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
				Outputs:  coordinator.Outputs{Out: outs[i], Version: "test"},
				Progress: progress,
			}, conn)
		})
	}
	wg.Wait()
	if !first[0].Before(last[1]) || !first[1].Before(last[0]) {
		t.Errorf("the runs did not overlap: %v to %v, and %v to %v", first[0], last[0], first[1], last[1])
	}
	for i, r := range runs {
		if errs[i] != nil {
			t.Errorf("%s %s: %v", r.game, r.board, errs[i])
			continue
		}
		want, wantDir := census(t, r.game, r.board, "", 0, 2)
		if !reflect.DeepEqual(counts(results[i].Summary), counts(want)) {
			t.Errorf("%s %s run beside another: summary differs from the run alone:\n%+v\n%+v", r.game, r.board, results[i].Summary, want)
		}
		if got, want := readPieces(t, outs[i]), readPieces(t, wantDir); !reflect.DeepEqual(got, want) {
			t.Errorf("%s %s run beside another: pieces differ from the run alone: %d rows vs %d", r.game, r.board, len(got), len(want))
		}
	}
}

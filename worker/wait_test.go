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

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/worker"
)

// TestNATSWaitEnds: a worker waiting for NATS to store a job's result
// (here the run's bucket is deleted while the job runs, so that the record
// finds no stream) gives the job back once NATSWait has passed, and hands
// it back at once when it shuts down; either way the wait is logged and
// counted, and no job is left counted as waiting.
func TestNATSWaitEnds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		natsWait time.Duration
		// shutdown stops the worker while it waits.
		shutdown bool
		outcome  string
	}{
		{"gives up after NATSWait", 2 * time.Second, false, worker.OutcomeRetry},
		{"hands back on shutdown", time.Minute, true, worker.OutcomeHandBack},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := broker.StartServer(broker.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Name: "wait"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			const run = "wait"
			admin := connect(t, srv.ClientURL())
			if _, err := broker.Setup(ctx, admin.JS, 1, 0); err != nil {
				t.Fatal(err)
			}
			if _, err := broker.RunBucket(ctx, admin.JS, run, 1); err != nil {
				t.Fatal(err)
			}
			dir, err := store.NewDir(filepath.Join(t.TempDir(), "blobs"))
			if err != nil {
				t.Fatal(err)
			}
			spec := jobs.Spec{Run: run, Game: "clobber", Board: "2x3", Store: dir.Root(), MemBudget: 64 << 20}
			start, err := jobs.WriteStart(ctx, dir, spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(jobs.Job{Tier: &jobs.TierJob{Spec: spec, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: []jobs.Blob{start}}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := admin.JS.Publish(ctx, broker.Subject(run), data); err != nil {
				t.Fatal(err)
			}
			st := &onFirstWrite{Store: dir, do: func() {
				if err := admin.JS.DeleteKeyValue(ctx, broker.Bucket(run)); err != nil {
					t.Errorf("delete the run's bucket: %v", err)
				}
			}}
			var logs lockedBuffer
			m := worker.NewMetrics(prometheus.NewRegistry())
			w, err := worker.New(ctx, worker.Config{
				Conn: connect(t, srv.ClientURL()), Jobs: 1, NATSWait: tc.natsWait, RetryDelay: time.Minute, Metrics: m,
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

			finished := m.JobsFinished.WithLabelValues("tier", tc.outcome)
			for testutil.ToFloat64(finished) == 0 {
				if tc.shutdown && testutil.ToFloat64(m.NATSWaiting) == 1 {
					time.Sleep(500 * time.Millisecond)
					stop()
					select {
					case <-stopped:
					case <-time.After(10 * time.Second):
						t.Fatal("the worker did not stop within 10s of its shutdown while it waited for NATS")
					}
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("no job finished %s within 60s", tc.outcome)
				}
				time.Sleep(50 * time.Millisecond)
			}
			for _, c := range []struct {
				name      string
				got, want float64
			}{
				{"jobs finished " + tc.outcome, testutil.ToFloat64(finished), 1},
				{"jobs finished done", testutil.ToFloat64(m.JobsFinished.WithLabelValues("tier", worker.OutcomeDone)), 0},
				{"waits to record the result", testutil.ToFloat64(m.NATSWaits.WithLabelValues(worker.OpRecordDone)), 1},
				{"jobs waiting now", testutil.ToFloat64(m.NATSWaiting), 0},
			} {
				if c.got != c.want {
					t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
				}
			}
			waited := testutil.ToFloat64(m.NATSWaitSeconds.WithLabelValues(worker.OpRecordDone))
			if !tc.shutdown && waited < tc.natsWait.Seconds() {
				t.Errorf("waited %.3fs for NATS, want NATSWait, %v", waited, tc.natsWait)
			}
			if waited <= 0 || waited > tc.natsWait.Seconds()+5 {
				t.Errorf("waited %.3fs for NATS, want more than nothing and about NATSWait at most", waited)
			}
			for _, want := range []string{"waiting for NATS", "stopped waiting for NATS"} {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("the worker did not log %q", want)
				}
			}
		})
	}
}

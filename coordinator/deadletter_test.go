package coordinator_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/jobs"
)

// TestDeadLetter runs a batch whose job a worker takes again and again and
// never finishes (it neither heartbeats nor acknowledges): once the job
// has used all its deliveries, the coordinator records it as failed and
// the batch fails, naming it, instead of waiting for ever.
func TestDeadLetter(t *testing.T) {
	url := startServer(t, "dead-letter")
	conn := connect(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const run = "dead-letter"
	cons, err := broker.Setup(ctx, conn.JS, 1, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := broker.RunBucket(ctx, conn.JS, run, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The worker that never finishes: it takes every delivery and drops it.
	taken := make(chan int, 1)
	go func() {
		n := 0
		for ctx.Err() == nil {
			batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
			if err != nil {
				continue
			}
			for range batch.Messages() {
				n++
			}
		}
		taken <- n
	}()
	exec := &coordinator.NATS{Conn: conn, KV: kv, Run: run, Log: testLog(t), Nonce: "1", Fresh: true}
	job := jobs.Job{Tier: &jobs.TierJob{Spec: jobs.Spec{Run: run, Game: "clobber", Board: "2x2", Store: t.TempDir()},
		Shards: 1, NextShards: 1, ReduceShards: 1}}
	_, err = exec.Execute(ctx, []jobs.Job{job}, nil)
	if err == nil || !strings.Contains(err.Error(), "delivered") || !strings.Contains(err.Error(), job.ID()) {
		t.Fatalf("Execute: %v; want the job's failure after its deliveries", err)
	}
	cancel()
	if n := <-taken; n != broker.MaxDeliver {
		t.Errorf("the job was delivered %d times, want %d", n, broker.MaxDeliver)
	}
}

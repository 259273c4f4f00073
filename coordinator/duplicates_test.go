package coordinator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/store"
)

// duplicating publishes every job of a batch twice more, last job first,
// before the NATS executor publishes it once more and waits: the workers
// see every job three times and out of order.
type duplicating struct {
	inner *coordinator.NATS
	js    jetstream.JetStream
	run   string
	n     int
}

func (d *duplicating) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	for i := len(batch) - 1; i >= 0; i-- {
		data, err := json.Marshal(batch[i])
		if err != nil {
			return nil, err
		}
		for copy := 0; copy < 2; copy++ {
			d.n++
			id := fmt.Sprintf("%s.dup.%d", d.run, d.n)
			if _, err := d.js.Publish(ctx, broker.Subject(d.run), data, jetstream.WithMsgID(id)); err != nil {
				return nil, err
			}
		}
	}
	return d.inner.Execute(ctx, batch, done)
}

// TestDuplicateDelivery delivers every job three times, out of order within
// each tier, and requires the same outputs as a plain run: jobs are
// idempotent, so at-least-once delivery gives exactly-once results.
func TestDuplicateDelivery(t *testing.T) {
	const run = "duplicates"
	ctx, conn, st, kv := natsRun(t, run)
	out := filepath.Join(t.TempDir(), "out")
	exec := &duplicating{inner: &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "test"}, js: conn.JS, run: run}
	res, err := coordinator.Run(ctx, coordinator.Config{
		Census:  coordinator.Census{Game: "clobber", Board: "3x4", Shards: 3},
		Env:     coordinator.Env{Run: run, Store: st, StoreURL: st.Root(), KV: kv, Exec: exec},
		Tuning:  coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
		Outputs: coordinator.Outputs{Out: out, Version: "test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if exec.n == 0 {
		t.Fatal("no job was published twice")
	}
	want, wantDir := census(t, "clobber", "3x4", "", 3, 2)
	if !reflect.DeepEqual(counts(res.Summary), counts(want)) {
		t.Errorf("summary with every job delivered three times differs:\n%+v\n%+v", res.Summary, want)
	}
	if got, want := readPieces(t, out), readPieces(t, wantDir); !reflect.DeepEqual(got, want) {
		t.Errorf("pieces with every job delivered three times differ: %d rows vs %d", len(got), len(want))
	}
}

// natsRun starts a server of its own with a worker of two slots on a fresh
// store, and sets up the job stream and the bucket of run, for tests that
// drive coordinator.Run with an executor of their own. The context ends
// after 90 s or with the test.
func natsRun(t *testing.T, run string) (context.Context, *broker.Conn, *store.Dir, jetstream.KeyValue) {
	t.Helper()
	ctx, conn, st := serverWithWorker(t, run)
	if _, err := broker.Setup(ctx, conn.JS, 1, 0); err != nil {
		t.Fatal(err)
	}
	kv, err := broker.RunBucket(ctx, conn.JS, run, 1)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, conn, st, kv
}

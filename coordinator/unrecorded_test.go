package coordinator

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/store"
)

// syncWatch is a directory store that defers its syncs and records the
// names each Sync is given.
type syncWatch struct {
	*store.Dir
	mu     sync.Mutex
	synced []string
}

func (s *syncWatch) Sync(ctx context.Context, names ...string) error {
	s.mu.Lock()
	s.synced = append(s.synced, names...)
	s.mu.Unlock()
	return s.Dir.Sync(ctx, names...)
}

// took returns the names synced so far and forgets them.
func (s *syncWatch) took() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.synced
	s.synced = nil
	slices.Sort(n)
	return n
}

// The jobs the coordinator runs itself are recorded at a flush, not as
// each ends: until then no done-record is stored, nothing they wrote is
// synced and the blobs they consumed stay in the store, so that a crash
// leaves a resumed run what it needs to run them again. The flush syncs
// what they wrote but for what they consumed, stores their done-records
// and lets the deletes of their inputs run; a drop leaves the inputs.
func TestCoordinatorJobsRecordedAtFlush(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := broker.StartServer(broker.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Name: "unrecorded"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	conn, err := broker.Connect(ctx, broker.ConnOptions{URL: srv.ClientURL(), Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const run = "unrecorded"
	if _, err := broker.Setup(ctx, conn.JS, 1, 0); err != nil {
		t.Fatal(err)
	}
	kv, err := broker.RunBucket(ctx, conn.JS, run, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := store.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st := &syncWatch{Dir: dir.DeferSync()}
	records := state{b: runstate.New(conn.JS, kv)}
	cfg := Config{Env: Env{Store: st, Run: run, Log: slog.New(slog.DiscardHandler)}, deletes: &deleter{}}
	later := &unrecorded{st: st, state: records, deletes: cfg.deletes}
	x := &inProcess{st: st, run: run, state: records, log: cfg.Log, parallel: 2, later: later}

	spec := jobs.Spec{Run: run, Game: "clobber", Board: "2x3", MemBudget: 64 << 20}
	start, err := jobs.WriteStart(ctx, st, spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	st.took()
	// tier runs tier t's job of one shard on inputs and returns it and
	// its result.
	tier := func(t0 int, inputs []jobs.Blob) (jobs.Job, jobs.Result) {
		t.Helper()
		batch := []jobs.Job{{Tier: &jobs.TierJob{Spec: spec, Tier: t0, Shard: 0, Shards: 1, NextShards: 1, ReduceShards: 2, Inputs: inputs}}}
		res, err := x.Execute(ctx, batch, cfg.forget(ctx, batch, nil))
		if err != nil {
			t.Fatal(err)
		}
		return batch[0], res[0]
	}
	exists := func(b jobs.Blob) bool {
		t.Helper()
		names, err := st.List(ctx, b.Name)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(names, b.Name)
	}
	recorded := func(j jobs.Job) bool {
		t.Helper()
		_, found, err := records.done(ctx, j.Key())
		if err != nil {
			t.Fatal(err)
		}
		return found
	}

	j0, r0 := tier(0, []jobs.Blob{start})
	j1, r1 := tier(1, r0.Tier.Next)
	cfg.deletes.wait()
	if recorded(j0) || recorded(j1) {
		t.Errorf("done-records stored before the flush: tier 0 %v, tier 1 %v", recorded(j0), recorded(j1))
	}
	if n := st.took(); len(n) > 0 {
		t.Errorf("synced before the flush: %q", n)
	}
	for _, b := range append([]jobs.Blob{start}, r0.Tier.Next...) {
		if !exists(b) {
			t.Errorf("%s, consumed by a job not recorded, was deleted", b.Name)
		}
	}

	if err := later.flush(ctx); err != nil {
		t.Fatal(err)
	}
	if !recorded(j0) || !recorded(j1) {
		t.Errorf("done-records after the flush: tier 0 %v, tier 1 %v; want both", recorded(j0), recorded(j1))
	}
	// Tier 0's successors were consumed by tier 1: only what tier 0 sent
	// the piece reduction, and all that tier 1 wrote, need a sync.
	var want []string
	for _, r := range []jobs.Result{r0, r1} {
		for _, n := range r.Produces() {
			if !slices.ContainsFunc(r0.Tier.Next, func(b jobs.Blob) bool { return b.Name == n }) {
				want = append(want, n)
			}
		}
	}
	slices.Sort(want)
	if got := st.took(); !slices.Equal(got, want) {
		t.Errorf("the flush synced %q, want %q", got, want)
	}
	cfg.deletes.wait()
	for _, b := range append([]jobs.Blob{start}, r0.Tier.Next...) {
		if exists(b) {
			t.Errorf("%s, consumed by a recorded job, is still in the store", b.Name)
		}
	}

	// A drop forgets the jobs and the deletes they held.
	j2, _ := tier(2, r1.Tier.Next)
	later.drop()
	cfg.deletes.wait()
	if recorded(j2) {
		t.Error("a dropped job was recorded")
	}
	for _, b := range r1.Tier.Next {
		if !exists(b) {
			t.Errorf("%s, consumed by a dropped job, was deleted", b.Name)
		}
	}
	if err := later.flush(ctx); err != nil || recorded(j2) || len(st.took()) > 0 {
		t.Errorf("a flush after a drop: %v; recorded %v", err, recorded(j2))
	}
}

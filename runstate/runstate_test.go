package runstate_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
)

// bucket starts a NATS server of its own and returns a run's bucket on it.
func bucket(t *testing.T) (context.Context, runstate.Bucket) {
	t.Helper()
	srv, err := broker.StartServer(broker.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Name: "runstate"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	conn, err := broker.Connect(ctx, broker.ConnOptions{URL: srv.ClientURL(), Name: "runstate-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	kv, err := broker.RunBucket(ctx, conn.JS, "test-run", 1)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, runstate.New(conn.JS, kv)
}

func TestRecords(t *testing.T) {
	ctx, b := bucket(t)
	plan := runstate.Plan{Game: "clobber", Board: "3x4", Shards: 2, ReduceShards: 4, Store: "/s"}
	if _, found, err := b.Plan(ctx); err != nil || found {
		t.Fatalf("plan of an empty bucket: found %v, %v", found, err)
	}
	if err := b.PutPlan(ctx, plan); err != nil {
		t.Fatal(err)
	}
	if got, found, err := b.Plan(ctx); err != nil || !found || got != plan {
		t.Errorf("plan = %+v, %v, %v; want %+v", got, found, err, plan)
	}
	tp := runstate.TierPlan{Shards: 3, NextShards: 5}
	if err := b.PutTierPlan(ctx, 7, tp); err != nil {
		t.Fatal(err)
	}
	if got, found, err := b.TierPlan(ctx, 7); err != nil || !found || got != tp {
		t.Errorf("tier plan 7 = %+v, %v, %v; want %+v", got, found, err, tp)
	}
	if _, found, _ := b.TierPlan(ctx, 6); found {
		t.Errorf("tier plan 6 found, none stored")
	}
	vp := runstate.ValuesPlan{Cap: 4096, ShardPieces: 200}
	if _, found, err := b.ValuesPlan(ctx); err != nil || found {
		t.Fatalf("values plan of an empty bucket: found %v, %v", found, err)
	}
	if err := b.PutValuesPlan(ctx, vp); err != nil {
		t.Fatal(err)
	}
	if got, found, err := b.ValuesPlan(ctx); err != nil || !found || got != vp {
		t.Errorf("values plan = %+v, %v, %v; want %+v", got, found, err, vp)
	}
	lv := runstate.ValueLevel{WallS: 1.5}
	if err := b.PutValueLevel(ctx, 9, lv); err != nil {
		t.Fatal(err)
	}
	if got, found, err := b.ValueLevel(ctx, 9); err != nil || !found || got != lv {
		t.Errorf("level 9 = %+v, %v, %v; want %+v", got, found, err, lv)
	}
	if _, found, _ := b.ValueLevel(ctx, 8); found {
		t.Errorf("level 8 found, none stored")
	}

	w, err := b.WatchRecords(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	tierJob := jobs.Job{Tier: &jobs.TierJob{Tier: 2, Shard: 1}}
	pieceJob := jobs.Job{Piece: &jobs.PieceJob{Bucket: 3}}
	res := jobs.Result{Piece: &jobs.PieceResult{DeadFree: 9}}
	if err := b.PutDone(ctx, pieceJob.Key(), res); err != nil {
		t.Fatal(err)
	}
	if err := b.PutFailed(ctx, tierJob.Key(), "corrupt input"); err != nil {
		t.Fatal(err)
	}
	want := []runstate.Record{{Job: pieceJob.Key(), Result: res}, {Job: tierJob.Key(), Failed: true, Reason: "corrupt input"}}
	for i, wr := range want {
		select {
		case r := <-w.Records():
			if !reflect.DeepEqual(r, wr) {
				t.Errorf("record %d watched = %+v, want %+v", i, r, wr)
			}
		case <-ctx.Done():
			t.Fatal("no record watched")
		}
	}
	if got, done, err := b.Done(ctx, pieceJob.Key()); err != nil || !done || !reflect.DeepEqual(got, res) {
		t.Errorf("done-record = %+v, %v, %v", got, done, err)
	}
	recs, err := b.Records(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(recs.Done, map[string]bool{pieceJob.Key(): true}) || !reflect.DeepEqual(recs.Failed, map[string]bool{tierJob.Key(): true}) {
		t.Errorf("records = %+v", recs)
	}
	if err := b.ClearFailures(ctx); err != nil {
		t.Fatal(err)
	}
	if _, failed, _ := b.Failed(ctx, tierJob.Key()); failed {
		t.Errorf("failed-record left after ClearFailures")
	}
}

func TestLease(t *testing.T) {
	ctx, b := bucket(t)
	a := runstate.Lease{Host: "a", PID: 1, Since: time.Now().UTC(), TTL: time.Second}
	other := runstate.Lease{Host: "b", PID: 2, Since: time.Now().UTC(), TTL: time.Second}
	rev, err := b.TakeLease(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	var held *runstate.HeldError
	if _, err := b.TakeLease(ctx, other); !errors.As(err, &held) || held.Lease.Holder() != "a/1" {
		t.Fatalf("take a held lease: %v, want a HeldError naming a/1", err)
	}
	// Renewed for longer than its TTL, it stays a's.
	for range 4 {
		time.Sleep(a.TTL / 2)
		if rev, err = b.RenewLease(ctx, rev, a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.TakeLease(ctx, other); !errors.Is(err, runstate.ErrLeaseHeld) {
		t.Fatalf("take a renewed lease: %v, want ErrLeaseHeld", err)
	}
	// A renewal that landed but whose answer was lost is tried again with
	// the revision before it: the lease is still a's, at its revision now.
	landed, err := b.RenewLease(ctx, rev, a)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := b.RenewLease(ctx, rev, a); err != nil || again != landed {
		t.Fatalf("renewal tried again after it landed: revision %d, %v; want %d", again, err, landed)
	}
	// So is a take whose answer was lost.
	if again, err := b.TakeLease(ctx, a); err != nil || again != landed {
		t.Fatalf("take tried again after it landed: revision %d, %v; want %d", again, err, landed)
	}
	rev = landed
	// Not renewed, it expires (the server checks TTLs about every second).
	deadline := time.Now().Add(5 * time.Second)
	var orev uint64
	for {
		orev, err = b.TakeLease(ctx, other)
		if err == nil {
			break
		}
		if !errors.Is(err, runstate.ErrLeaseHeld) || time.Now().After(deadline) {
			t.Fatalf("take an expired lease: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := b.RenewLease(ctx, rev, a); !errors.Is(err, runstate.ErrLeaseLost) {
		t.Errorf("renew a lease taken by another: %v, want ErrLeaseLost", err)
	}
	// Released, it is free at once.
	if err := b.ReleaseLease(ctx, orev); err != nil {
		t.Fatal(err)
	}
	if _, err := b.TakeLease(ctx, a); err != nil {
		t.Fatalf("take a released lease: %v", err)
	}
	// Reset empties the bucket but for the lease.
	if err := b.PutPlan(ctx, runstate.Plan{Game: "clobber"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if _, found, err := b.Plan(ctx); found || err != nil {
		t.Errorf("plan after Reset: found %v, %v", found, err)
	}
	if _, err := b.TakeLease(ctx, other); !errors.Is(err, runstate.ErrLeaseHeld) {
		t.Errorf("lease after Reset: %v, want it held", err)
	}
}

// TestLeaseExpiredUntaken lets a lease expire without anyone taking it,
// as a holder that stalls for longer than the TTL does: its renewal takes
// it again, and it is held once more.
func TestLeaseExpiredUntaken(t *testing.T) {
	ctx, b := bucket(t)
	a := runstate.Lease{Host: "a", PID: 1, Since: time.Now().UTC(), TTL: time.Second}
	rev, err := b.TakeLease(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	// The server checks TTLs about every second.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, held, err := b.Lease(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lease did not expire")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if rev, err = b.RenewLease(ctx, rev, a); err != nil {
		t.Fatalf("renew a lease that expired untaken: %v", err)
	}
	var held *runstate.HeldError
	if _, err := b.TakeLease(ctx, runstate.Lease{Host: "b", PID: 2, TTL: time.Second}); !errors.As(err, &held) || held.Lease.Holder() != "a/1" {
		t.Fatalf("take the lease after its holder renewed it: %v, want a HeldError naming a/1", err)
	}
	if _, err := b.RenewLease(ctx, rev, a); err != nil {
		t.Fatalf("renew it again: %v", err)
	}
}

// TestLeaseOnOlderBucket opens, as a run bucket, a bucket made without
// message TTLs (as census made them before the lease): the lease must work
// on it.
func TestLeaseOnOlderBucket(t *testing.T) {
	srv, err := broker.StartServer(broker.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Name: "older"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := broker.Connect(ctx, broker.ConnOptions{URL: srv.ClientURL(), Name: "older-test"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.JS.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: broker.Bucket("old-run"), History: 1}); err != nil {
		t.Fatal(err)
	}
	kv, err := broker.RunBucket(ctx, conn.JS, "old-run", 1)
	if err != nil {
		t.Fatalf("open an older bucket as a run bucket: %v", err)
	}
	b := runstate.New(conn.JS, kv)
	l := runstate.Lease{Host: "a", PID: 1, TTL: time.Second}
	if _, err := b.TakeLease(ctx, l); err != nil {
		t.Fatalf("take the lease on an older bucket: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := b.TakeLease(ctx, runstate.Lease{Host: "b", PID: 2, TTL: time.Second})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lease on an older bucket did not expire: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

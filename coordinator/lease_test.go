package coordinator_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/runstate"
)

// holdRun takes the lease of run as a coordinator on another host that
// never renews it, and returns the lease.
func holdRun(t *testing.T, ctx context.Context, conn *broker.Conn, run string, ttl time.Duration) runstate.Lease {
	t.Helper()
	if _, err := broker.Setup(ctx, conn.JS, 1, 0); err != nil {
		t.Fatal(err)
	}
	kv, err := broker.RunBucket(ctx, conn.JS, run, 1)
	if err != nil {
		t.Fatal(err)
	}
	l := runstate.Lease{Host: "elsewhere.invalid", PID: 4242, Since: time.Now().UTC(), TTL: ttl}
	if _, err := runstate.New(conn.JS, kv).TakeLease(ctx, l); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLeaseExpires holds a run by a coordinator that stops renewing: a
// second coordinator with --no-wait refuses at once naming the holder;
// one that waits says once who holds the run and takes it when the lease
// expires, within the TTL and a second of polling (and a little slack for
// a busy machine), then keeps it while it runs, for several times its TTL.
func TestLeaseExpires(t *testing.T) {
	ctx, conn, st := serverWithWorker(t, "lease")
	run, err := coordinator.RunID("clobber", "3x4", "", 0, false, false)
	if err != nil {
		t.Fatal(err)
	}
	const ttl = 3 * time.Second
	held := holdRun(t, ctx, conn, run, ttl)
	cfg := coordinator.Config{
		Census:       coordinator.Census{Game: "clobber", Board: "3x4"},
		Env:          coordinator.Env{Store: st, StoreURL: st.Root()},
		Tuning:       coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20},
		Outputs:      coordinator.Outputs{Out: filepath.Join(t.TempDir(), "out"), Version: "test"},
		LeaseOptions: coordinator.LeaseOptions{LeaseTTL: time.Second},
	}

	noWait := cfg
	noWait.NoWait = true
	began := time.Now()
	_, err = coordinator.Start(ctx, noWait, conn)
	var he *runstate.HeldError
	if !errors.Is(err, coordinator.ErrRunHeld) || !errors.As(err, &he) || he.Lease.Holder() != "elsewhere.invalid/4242" {
		t.Fatalf("start with NoWait on a held run: %v; want ErrRunHeld naming elsewhere.invalid/4242", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("start with NoWait took %v to refuse", took)
	}

	var told []runstate.Lease
	var tookAt time.Duration
	checked, stolen := false, false
	other := runstate.Lease{Host: "thief.invalid", PID: 7, TTL: time.Second}
	began = time.Now()
	cfg.OnHeld = func(l runstate.Lease) { told = append(told, l) }
	cfg.Progress = func(p coordinator.Progress) {
		if checked {
			return
		}
		checked = true
		tookAt = time.Since(began)
		// The run stands still here for several of its lease's TTLs: the
		// coordinator must still hold the run, renewing the lease.
		time.Sleep(4 * cfg.LeaseTTL)
		kv, err := broker.OpenRunBucket(ctx, conn.JS, run)
		if err != nil {
			t.Error(err)
			return
		}
		_, err = runstate.New(conn.JS, kv).TakeLease(ctx, other)
		stolen = !errors.Is(err, runstate.ErrLeaseHeld)
	}
	res, err := coordinator.Start(ctx, cfg, conn)
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || told[0].Holder() != held.Holder() || !told[0].Since.Equal(held.Since) {
		t.Errorf("told of holders %+v, want once %+v", told, held)
	}
	if tookAt < ttl-time.Second || tookAt > ttl+time.Second+5*time.Second {
		t.Errorf("took the run after %v; the lease lasted %v", tookAt, ttl)
	}
	if !checked || stolen {
		t.Errorf("another coordinator could take the lease while the run ran (checked %v)", checked)
	}
	// Clobber 3x4 of census-spec.md.
	if res.Summary.Positions != 35772 {
		t.Errorf("positions %d, want 35772", res.Summary.Positions)
	}
}

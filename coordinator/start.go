package coordinator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/runstate"
)

// RunID names a run by what determines its outputs, so that the same
// command names the same run and continues it after a crash. A run that
// writes the positions table is another run than one that does not: its
// tier jobs have other outputs.
func RunID(game, board, start string, shards int, noSymmetry, positions bool) (string, error) {
	g, err := all.New(game, board, start)
	if err != nil {
		return "", err
	}
	h := fnv.New32a()
	fmt.Fprintf(h, "%s|%d", start, shards)
	if noSymmetry {
		fmt.Fprint(h, "|plain")
	}
	if positions {
		fmt.Fprint(h, "|positions")
	}
	return fmt.Sprintf("%s-%s-%08x", g.Name(), g.Board(), h.Sum32()), nil
}

// Start runs a census over NATS: it sets up the job stream and the run's
// bucket (onNATS), takes the run's lease (waiting while another
// coordinator holds it, or failing with ErrRunHeld under cfg.NoWait), then
// coordinates the run with jobs published to the workers. A run whose
// bucket says it finished is started afresh. An error of a NATS server
// whose store is full wraps broker.ErrStoreFull and names the server.
func Start(ctx context.Context, cfg Config, conn *broker.Conn) (*Result, error) {
	id, err := cfg.ID()
	if err != nil {
		return nil, err
	}
	cfg.Run = id
	return onNATS(ctx, conn, &cfg.Env, "run", func(ctx context.Context, s natsStage) (*Result, error) {
		return startHeld(ctx, cfg, s.st)
	})
}

// startHeld runs the census of cfg, whose bucket st holds, once it holds
// the run's lease.
func startHeld(ctx context.Context, cfg Config, st state) (*Result, error) {
	lease, err := acquireLease(ctx, st.b, cfg.LeaseOptions, cfg.Log)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", cfg.Run, err)
	}
	defer lease.release()
	ctx, lost := context.WithCancelCause(ctx)
	defer lost(nil)
	ctx = withLeaseGate(ctx, lease.renew(ctx, lost))
	if err := restartFinished(ctx, cfg, st, lease); err != nil {
		return nil, err
	}
	res, err := Run(ctx, cfg)
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, runstate.ErrLeaseLost) {
		return nil, cause
	}
	return res, err
}

// restartFinished resets the bucket st of a run that finished, so that
// it starts afresh, unless the run's name is taken by other work; it fails
// with a *FinishedError when the coordinator this one waited for (lease)
// finished the run meanwhile.
func restartFinished(ctx context.Context, cfg Config, st state, lease *heldLease) error {
	status, found, err := st.status(ctx)
	switch {
	case err != nil:
		return err
	case !found || status.State != StateDone:
		return nil
	case lease.waitedFor != nil && status.Updated.After(lease.began):
		// The coordinator this one waited for finished the run: doing
		// it again is not what the second start was for.
		return &FinishedError{Run: cfg.Run, By: *lease.waitedFor}
	}
	if plan, found, err := st.loadPlan(ctx); err != nil {
		return err
	} else if found {
		if err := clash(cfg.Run, plan, cfg.Census.plan()); err != nil {
			return err
		}
	}
	if err := try(ctx, st.b.Reset); err != nil {
		return fmt.Errorf("reset finished run %s: %w", cfg.Run, err)
	}
	return nil
}

// FinishedError is returned by Start when the coordinator it waited for
// finished the run meanwhile; the outputs are where that one wrote them.
type FinishedError struct {
	Run string
	By  runstate.Lease
}

func (e *FinishedError) Error() string {
	return fmt.Sprintf("run %s was finished meanwhile by coordinator %s, which wrote its outputs", e.Run, e.By.Holder())
}

// deniedIsPermanent makes a permission violation final: a user without
// the coordinator's permissions (see deploy/nats) keeps lacking them.
func deniedIsPermanent(err error) error {
	if errors.Is(err, broker.ErrDenied) {
		return permanent(err)
	}
	return err
}

// nonce tells this coordinator's job messages from those of an earlier
// start of the same run, which the stream's duplicate window remembers.
func nonce() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ErrUnknownRun is returned by LoadPlan for a run that NATS does not know.
var ErrUnknownRun = errors.New("unknown run")

// LoadPlan reads the plan of an existing run, for --resume.
func LoadPlan(ctx context.Context, conn *broker.Conn, run string) (Plan, error) {
	if err := broker.CheckRun(run); err != nil {
		return Plan{}, err
	}
	kv, err := conn.JS.KeyValue(ctx, broker.Bucket(run))
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return Plan{}, fmt.Errorf("%w %q: no bucket %s on this NATS (see census status)", ErrUnknownRun, run, broker.Bucket(run))
	}
	if err != nil {
		return Plan{}, fmt.Errorf("open run %s: %w", run, err)
	}
	p, found, err := (state{runstate.New(conn.JS, kv)}).loadPlan(ctx)
	if err != nil {
		return Plan{}, err
	}
	if !found {
		return Plan{}, fmt.Errorf("%w %q: its bucket holds no plan", ErrUnknownRun, run)
	}
	return p, nil
}

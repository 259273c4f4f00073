package coordinator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrRunClash is returned when a run ID is already taken by a run of
// another game, board, start or sharding.
var ErrRunClash = errors.New("run id already names another run")

// Plan is what fixes a run's outputs; it is stored once, when the run
// starts, and a restarted coordinator continues with it.
type Plan struct {
	Game         string `json:"game"`
	Board        string `json:"board"`
	Start        string `json:"start"`
	Shards       int    `json:"shards"`
	ReduceShards int    `json:"reduce_shards"`
	MemBudget    int64  `json:"mem_budget"`
	Store        string `json:"store"`
	NoSymmetry   bool   `json:"no_symmetry,omitempty"`
	Positions    bool   `json:"positions,omitempty"`
}

// TierPlan is the sharding of one tier, stored before its jobs are
// published so that a restarted coordinator publishes the same jobs.
type TierPlan struct {
	Shards     int `json:"shards"`
	NextShards int `json:"next_shards"`
}

// Status is the run's progress as `census status` shows it.
type Status struct {
	State     string    `json:"state"` // running, done, failed
	Stage     string    `json:"stage"` // tier, pieces, classes, outputs
	Tier      int       `json:"tier"`
	MaxTier   int       `json:"max_tier"`
	Positions uint64    `json:"positions"`
	Error     string    `json:"error,omitempty"`
	Updated   time.Time `json:"updated"`
}

// Status states.
const (
	StateRunning = "running"
	StateDone    = "done"
	StateFailed  = "failed"
)

// state keeps a run's plan, tier plans and status in its bucket.
type state struct {
	kv jetstream.KeyValue
}

func (s state) get(ctx context.Context, key string, v any) (bool, error) {
	var found bool
	err := retry(ctx, func(ctx context.Context) error {
		e, err := s.kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			found = false
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		return permanent(json.Unmarshal(e.Value(), v))
	})
	if err != nil {
		return false, fmt.Errorf("read %s: %w", key, err)
	}
	return found, nil
}

func (s state) put(ctx context.Context, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	err = retry(ctx, func(ctx context.Context) error {
		_, err := s.kv.Put(ctx, key, data)
		return err
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", key, err)
	}
	return nil
}

// plan stores p as the run's plan, or returns the stored plan when the run
// exists; it fails with ErrRunClash when the stored plan is for other work.
func (s state) plan(ctx context.Context, run string, p Plan) (Plan, bool, error) {
	var old Plan
	found, err := s.get(ctx, "plan", &old)
	if err != nil {
		return p, false, err
	}
	if !found {
		return p, false, s.put(ctx, "plan", p)
	}
	if err := clash(run, old, p); err != nil {
		return p, false, err
	}
	return old, true, nil
}

// clash fails with ErrRunClash when the plans are for different work.
func clash(run string, old, p Plan) error {
	if old.Game != p.Game || old.Board != p.Board || old.Start != p.Start || old.Shards != p.Shards || old.NoSymmetry != p.NoSymmetry || old.Positions != p.Positions {
		return fmt.Errorf("%w: %s is %s %s (start %q, shards %d, symmetry %v, positions %v), not %s %s (start %q, shards %d, symmetry %v, positions %v)",
			ErrRunClash, run, old.Game, old.Board, old.Start, old.Shards, !old.NoSymmetry, old.Positions, p.Game, p.Board, p.Start, p.Shards, !p.NoSymmetry, p.Positions)
	}
	return nil
}

// clearFailures removes the failed-records of an earlier attempt, so that
// a restarted run gives those jobs another chance.
func (s state) clearFailures(ctx context.Context) error {
	return retry(ctx, func(ctx context.Context) error {
		lister, err := s.kv.ListKeysFiltered(ctx, "failed.>")
		if err != nil {
			return err
		}
		for k := range lister.Keys() {
			if err := s.kv.Purge(ctx, k); err != nil {
				return err
			}
		}
		return nil
	})
}

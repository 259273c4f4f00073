package coordinator

import (
	"context"
	"fmt"
	"hash/fnv"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/games/all"
)

// RunID names a run by what determines its outputs, so that the same
// command names the same run and continues it after a crash.
func RunID(game, board, start string, shards int) (string, error) {
	g, err := all.New(game, board, start)
	if err != nil {
		return "", err
	}
	h := fnv.New32a()
	fmt.Fprintf(h, "%s|%d", start, shards)
	return fmt.Sprintf("%s-%s-%08x", g.Name(), g.Board(), h.Sum32()), nil
}

// Start runs a census over NATS: it sets up the job stream and the run's
// bucket, then coordinates the run with jobs published to the workers. A
// run whose bucket says it finished is started afresh.
func Start(ctx context.Context, cfg Config, conn *broker.Conn) (*Result, error) {
	if cfg.Run == "" {
		id, err := RunID(cfg.Game, cfg.Board, cfg.Start, cfg.Shards)
		if err != nil {
			return nil, err
		}
		cfg.Run = id
	}
	if err := broker.CheckRun(cfg.Run); err != nil {
		return nil, err
	}
	replicas := broker.Replicas(ctx, conn)
	if _, err := broker.Setup(ctx, conn.JS, replicas); err != nil {
		return nil, err
	}
	kv, err := broker.RunBucket(ctx, conn.JS, cfg.Run, replicas)
	if err != nil {
		return nil, err
	}
	var status Status
	if found, err := (state{kv}).get(ctx, "status", &status); err != nil {
		return nil, err
	} else if found && status.State == StateDone {
		if err := conn.JS.DeleteKeyValue(ctx, broker.Bucket(cfg.Run)); err != nil {
			return nil, fmt.Errorf("reset finished run %s: %w", cfg.Run, err)
		}
		if kv, err = broker.RunBucket(ctx, conn.JS, cfg.Run, replicas); err != nil {
			return nil, err
		}
	}
	cfg.KV = kv
	cfg.Exec = &NATS{Conn: conn, KV: kv, Run: cfg.Run, Log: cfg.Log}
	return Run(ctx, cfg)
}

package embedded

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/worker"
)

// SolveOptions configure the solve stage of a finished run in this
// process.
type SolveOptions struct {
	// Dir is the run's output directory, OUT/GAME-BOARD; it holds the
	// kept positions and is the stage's store.
	Dir string
	// Data holds the NATS store; the same Data resumes an interrupted
	// stage.
	Data string
	// Workers is the solve jobs run at once.
	Workers int
	// MemBudget is the bytes one solve job may hold.
	MemBudget int64
	// KeepData keeps the stage's bucket and outcome tables after it
	// finishes.
	KeepData bool
	Log      *slog.Logger
	// Progress, when set, is told how the stage is going.
	Progress func(coordinator.SolveProgress)
	// Metrics, when set, are the metrics of the worker and the
	// coordinator: the census's, when both run in one process.
	Metrics *Metrics
}

// RunSolve runs the solve stage of the finished run in o.Dir as jobs on an
// embedded NATS server with o.Workers workers in this process. It fails
// before starting anything when o.Dir cannot be solved
// (coordinator.CheckSolveDir).
func RunSolve(ctx context.Context, o SolveOptions) (*schema.Solved, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	m, _, err := coordinator.CheckSolveDir(o.Dir)
	if err != nil {
		return nil, err
	}
	srv, ctx, shutdown, err := startServer(ctx, o.Data, "census-embedded-solve", o.Log)
	if err != nil {
		return nil, err
	}
	defer shutdown()

	url, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	st, err := store.NewDir(url)
	if err != nil {
		return nil, err
	}
	stopWorker, err := startWorker(ctx, srv, worker.Config{Jobs: max(o.Workers, 1), Log: o.Log, Metrics: o.Metrics.worker()}, url, st)
	if err != nil {
		return nil, err
	}
	defer stopWorker(false)
	cconn, err := broker.Connect(ctx, broker.ConnOptions{URL: srv.ClientURL(), Name: "census-coordinator"})
	if err != nil {
		return nil, err
	}
	defer cconn.Close()
	solved, err := coordinator.StartSolve(ctx, coordinator.SolveConfig{
		Dir: o.Dir, Run: coordinator.SolveRunID(m), Store: st, StoreURL: url, MemBudget: o.MemBudget,
		Log: o.Log, KeepBlobs: o.KeepData, Progress: o.Progress, Metrics: o.Metrics.coordinator(),
	}, cconn)
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, ErrNATSStore) {
		return nil, cause
	}
	return solved, err
}

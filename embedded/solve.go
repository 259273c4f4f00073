package embedded

import (
	"context"
	"log/slog"
	"path/filepath"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/schema"
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
// embedded NATS server with o.Workers workers in this process (runStage).
// It fails before starting anything when o.Dir cannot be solved
// (coordinator.CheckStageDir).
func RunSolve(ctx context.Context, o SolveOptions) (*schema.Solved, error) {
	d, err := coordinator.CheckStageDir(o.Dir, coordinator.SolveStage)
	if err != nil {
		return nil, err
	}
	url, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	s := stage{data: o.Data, name: "census-embedded-solve", url: url,
		env:    coordinator.Env{Log: o.Log, Metrics: o.Metrics.coordinator(), KeepBlobs: o.KeepData},
		worker: worker.Config{Jobs: max(o.Workers, 1), Metrics: o.Metrics.worker()}}
	return runStage(ctx, s, func(ctx context.Context, conn *broker.Conn, env coordinator.Env) (*schema.Solved, error) {
		return coordinator.StartSolve(ctx, coordinator.SolveConfig{Env: env, Dir: d, MemBudget: o.MemBudget, Progress: o.Progress}, conn)
	})
}

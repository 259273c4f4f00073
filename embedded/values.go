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

// ValuesOptions configure the values stage of a finished run in this
// process.
type ValuesOptions struct {
	// Dir is the run's output directory, OUT/GAME-BOARD.
	Dir string
	// Data holds the NATS store and the stage's blobs; the same Data
	// resumes an interrupted stage.
	Data string
	// Workers is the value jobs run at once.
	Workers int
	// Cap is the node cap of a canonical form (0 for the default).
	Cap int
	// ShardPieces is the pieces of one value job (0 for the default).
	ShardPieces int
	// KeepData keeps the stage's bucket and blobs after it finishes; a
	// partial stage keeps them whatever it says.
	KeepData bool
	// MaxSize, when positive, values only the pieces of up to MaxSize
	// stones or squares (coordinator.ValuesConfig.MaxSize).
	MaxSize int
	Log     *slog.Logger
	// Progress, when set, is told how the stage is going.
	Progress func(coordinator.ValuesProgress)
}

// RunValues runs the values stage of the finished run in o.Dir as jobs on
// an embedded NATS server with o.Workers workers in this process, as Run
// does for a census. It fails before starting anything when o.Dir is not a
// finished run of this schema version (coordinator.CheckValuesDir).
func RunValues(ctx context.Context, o ValuesOptions) (*schema.Values, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	m, err := coordinator.CheckValuesDir(o.Dir)
	if err != nil {
		return nil, err
	}
	srv, ctx, shutdown, err := startServer(ctx, o.Data, "census-embedded-values", o.Log)
	if err != nil {
		return nil, err
	}
	defer shutdown()

	url, err := filepath.Abs(filepath.Join(o.Data, "blobs"))
	if err != nil {
		return nil, err
	}
	st, err := store.NewDir(url)
	if err != nil {
		return nil, err
	}
	stopWorker, err := startWorker(ctx, srv, worker.Config{Jobs: max(o.Workers, 1), Log: o.Log}, url, st)
	if err != nil {
		return nil, err
	}
	defer stopWorker(false)
	cconn, err := broker.Connect(ctx, broker.ConnOptions{URL: srv.ClientURL(), Name: "census-coordinator"})
	if err != nil {
		return nil, err
	}
	defer cconn.Close()
	vals, err := coordinator.StartValues(ctx, coordinator.ValuesConfig{
		Dir: o.Dir, Run: coordinator.ValuesRunID(m), Cap: o.Cap, ShardPieces: o.ShardPieces,
		Store: st, StoreURL: url, Log: o.Log, KeepBlobs: o.KeepData, MaxSize: o.MaxSize, Progress: o.Progress,
	}, cconn)
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, ErrNATSStore) {
		return nil, cause
	}
	return vals, err
}

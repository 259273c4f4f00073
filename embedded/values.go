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
// does for a census (runStage). It fails before starting anything when
// o.Dir is not a finished run of this schema version
// (coordinator.CheckStageDir).
func RunValues(ctx context.Context, o ValuesOptions) (*schema.Values, error) {
	d, err := coordinator.CheckStageDir(o.Dir, coordinator.ValuesStage)
	if err != nil {
		return nil, err
	}
	url, err := filepath.Abs(filepath.Join(o.Data, "blobs"))
	if err != nil {
		return nil, err
	}
	s := stage{data: o.Data, name: "census-embedded-values", url: url,
		env:    coordinator.Env{Log: o.Log, KeepBlobs: o.KeepData},
		worker: worker.Config{Jobs: max(o.Workers, 1)}}
	return runStage(ctx, s, func(ctx context.Context, conn *broker.Conn, env coordinator.Env) (*schema.Values, error) {
		return coordinator.StartValues(ctx, coordinator.ValuesConfig{Env: env, Dir: d, Cap: o.Cap, ShardPieces: o.ShardPieces,
			MaxSize: o.MaxSize, Progress: o.Progress}, conn)
	})
}

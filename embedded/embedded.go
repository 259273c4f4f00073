// Package embedded runs a whole census in one process: a real NATS server
// with JetStream, a worker with one slot per job, and the coordinator, all
// over real NATS connections — the code path of a cluster, on one machine.
package embedded

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/worker"
)

// Options are a census to run in this process.
type Options struct {
	Game, Board, Start string
	// Run names the run; empty derives it from the game, board, start and
	// shards, so the same command continues the same run.
	Run string
	// Out is the directory the outputs land in (OUT/GAME-BOARD).
	Out string
	// Data holds the NATS server's store (Data/nats) and, unless StoreURL
	// is set, the blobs (Data/blobs). It survives a crash: the same
	// command resumes.
	Data string
	// StoreURL and OpenStore, when set, put the blobs elsewhere (an
	// s3:// URL); OpenStore opens a store by URL.
	StoreURL  string
	OpenStore func(ctx context.Context, url string) (store.Store, error)
	// Workers is how many jobs run at once.
	Workers int
	Shards  int
	// MemBudget is the memory one job may use.
	MemBudget int64
	// AckWait and RetryDelay set the worker's (see worker.Config); zero
	// takes their defaults.
	AckWait, RetryDelay time.Duration
	Version             string
	// KeepData keeps the fragments after the run.
	KeepData bool
	// NoSymmetry turns the symmetry reduction off.
	NoSymmetry bool
	// Positions writes the positions table.
	Positions bool
	// Keep keeps every tier's positions for the solve stage.
	Keep bool
	// PiecesCodec compresses the pieces table's pages; zero is zstd.
	PiecesCodec schema.Codec
	// Forward is coordinator.Config.Forward.
	Forward bool
	// NoSpaceCheck skips the free-space estimate before each stage
	// (coordinator.Config.NoSpaceCheck); otherwise Data and a directory
	// store are checked.
	NoSpaceCheck bool
	// CompactMin is coordinator.Config.CompactMin: zero takes the default.
	CompactMin uint64
	Log        *slog.Logger
	Progress   func(coordinator.Progress)
	// Metrics, when set, are the metrics of the worker and the
	// coordinator (NewMetrics).
	Metrics *Metrics
	// OnServer, when set, is called with the NATS client URL once the
	// server runs (for metrics, tests, or a second worker process).
	OnServer func(url string)
}

// ErrNATSStore is returned when the embedded server cannot write its store
// (a full or read-only disk): it then stops taking jobs and records, and
// the run could only wait.
var ErrNATSStore = errors.New("the NATS server cannot write its store")

// Run runs the census and returns its result.
func Run(ctx context.Context, o Options) (*coordinator.Result, error) {
	s := stage{data: o.Data, name: "census-embedded", url: o.StoreURL, open: o.OpenStore, onServer: o.OnServer,
		env:    coordinator.Env{Run: o.Run, Log: o.Log, Metrics: o.Metrics.coordinator(), KeepBlobs: o.KeepData, AckWait: o.AckWait},
		worker: worker.Config{Jobs: o.Workers, Metrics: o.Metrics.worker(), AckWait: o.AckWait, RetryDelay: o.RetryDelay}}
	if s.url == "" {
		url, err := filepath.Abs(filepath.Join(o.Data, "blobs"))
		if err != nil {
			return nil, err
		}
		s.url, s.open = url, openDeferSync
	}
	return runStage(ctx, s, func(ctx context.Context, conn *broker.Conn, env coordinator.Env) (*coordinator.Result, error) {
		return coordinator.Start(ctx, o.config(env), conn)
	})
}

// KeptOutputs is coordinator.KeptOutputs of the census o: the manifest of
// o.Out when it holds the finished outputs of that census with its kept
// positions, whose solve can start without running it again.
func (o Options) KeptOutputs() (schema.Manifest, bool) {
	return coordinator.KeptOutputs(o.config(coordinator.Env{Run: o.Run}))
}

// openDeferSync opens the directory store at url, whose blobs each job
// syncs at once, when it is done, before its done-record: as durable as a
// sync per blob, without waiting for the disk once per blob.
func openDeferSync(ctx context.Context, url string) (store.Store, error) {
	d, err := store.NewDir(url)
	if err != nil {
		return nil, err
	}
	return d.DeferSync(), nil
}

// config is the coordinator's configuration of the census o, which runs
// with env.
func (o Options) config(env coordinator.Env) coordinator.Config {
	return coordinator.Config{
		Census: coordinator.Census{Game: o.Game, Board: o.Board, Start: o.Start, Shards: o.Shards,
			NoSymmetry: o.NoSymmetry, Positions: o.Positions, Keep: o.Keep, PiecesCodec: o.PiecesCodec},
		Env: env,
		Tuning: coordinator.Tuning{Parallelism: o.Workers, MemBudget: o.MemBudget, Forward: o.Forward, CompactMin: o.CompactMin,
			// The coordinator shares the machine with the workers: small
			// tiers cost it no more than them, without a barrier each.
			InProcessBelow: coordinator.DefaultInProcessBelow},
		// The run lives and dies with this process: no other coordinator
		// takes it over.
		Outputs:    coordinator.Outputs{Out: o.Out, Version: o.Version, TablesToOut: true},
		SpaceCheck: coordinator.SpaceCheck{SpaceDirs: []string{o.Data}, NoSpaceCheck: o.NoSpaceCheck},
		Progress:   o.Progress,
	}
}

// dropConsumer deletes the workers' consumer once the run is done and its
// worker stopped. The worker's last fetch is still pending on the server,
// and a server shutting down with a pull request pending sleeps 50 ms
// (nats-server's signalPullConsumers) and waits for the consumer's store
// to flush: a tenth of a small board's run. A run that is done has no
// jobs left, and the next run on this store sets the consumer up again.
func dropConsumer(ctx context.Context, c *broker.Conn, log *slog.Logger) {
	err := c.Do(ctx, func(ctx context.Context) error {
		return c.JS.DeleteConsumer(ctx, broker.Stream, broker.Consumer)
	})
	if err != nil {
		log.Warn("delete the workers' consumer at the end of the run", "err", err)
	}
}

// startServer starts the embedded NATS server, its store under
// data/nats, and returns it with a context derived from ctx that the
// server's logger cancels (with ErrNATSStore) when the server reports its
// store unusable. shutdown cancels that context and stops the server.
func startServer(ctx context.Context, data, name string, log *slog.Logger) (*server.Server, context.Context, func(), error) {
	srv, err := broker.StartServer(broker.ServerOptions{
		Listen:   "127.0.0.1:0",
		StoreDir: filepath.Join(data, "nats"),
		Name:     name,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, stop := context.WithCancelCause(ctx)
	srv.SetLoggerV2(&serverLog{log: log, stop: stop}, false, false, false)
	return srv, ctx, func() {
		stop(nil)
		srv.Shutdown()
		srv.WaitForShutdown()
	}, nil
}

// startWorker runs a worker of cfg on a connection of its own to srv,
// serving st as the store at url (the only store this process has), until
// the returned stop is called; stop waits for the worker and closes its
// connection: drained, unless the run is finished (no job is left for
// the worker to take, see broker.Conn.Finish).
func startWorker(ctx context.Context, srv *server.Server, cfg worker.Config, url string, st store.Store) (stop func(finished bool), err error) {
	conn, err := broker.Connect(ctx, broker.ConnOptions{URL: srv.ClientURL(), Name: "census-worker"})
	if err != nil {
		return nil, err
	}
	cfg.Conn = conn
	cfg.OpenStore = func(ctx context.Context, u string) (store.Store, error) {
		if u != url {
			return nil, fmt.Errorf("store %s is not this process's %s", u, url)
		}
		return st, nil
	}
	w, err := worker.New(ctx, cfg)
	if err != nil {
		conn.Close()
		return nil, err
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		w.Run(wctx)
		close(done)
	}()
	return func(finished bool) {
		cancel()
		<-done
		if finished {
			conn.Finish()
		} else {
			conn.Close()
		}
	}, nil
}

// serverLog passes the embedded server's warnings and errors to the run's
// log, and ends the run when the server reports that it cannot write its
// store: a stream that met a write error takes no more messages and
// answers no publisher, so the run would wait for ever.
type serverLog struct {
	log  *slog.Logger
	stop context.CancelCauseFunc
}

func (l *serverLog) Noticef(format string, v ...any) {}
func (l *serverLog) Debugf(format string, v ...any)  {}
func (l *serverLog) Tracef(format string, v ...any)  {}

func (l *serverLog) Warnf(format string, v ...any) {
	l.log.Warn("NATS: " + fmt.Sprintf(format, v...))
}

func (l *serverLog) Fatalf(format string, v ...any) { l.Errorf(format, v...) }

func (l *serverLog) Errorf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	l.log.Error("NATS: " + msg)
	// The server's words for a store it cannot write: a stream's or
	// consumer's "critical write error", or JetStream turned off for want
	// of space.
	if strings.Contains(msg, "critical write error") || strings.Contains(msg, "will be DISABLED") {
		l.stop(fmt.Errorf("%w: %s; make room there and run the same command again", ErrNATSStore, msg))
	}
}

// Metrics are the metrics of the worker and the coordinator of this
// process, which a census and its stages share: census run --solve serves
// both stages' on one endpoint.
type Metrics struct {
	Worker      *worker.Metrics
	Coordinator *coordinator.Metrics
}

// NewMetrics creates the metrics of a worker and a coordinator and
// registers them with reg; nil, no metrics, when reg is nil.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	if reg == nil {
		return nil
	}
	return &Metrics{Worker: worker.NewMetrics(reg), Coordinator: coordinator.NewMetrics(reg)}
}

func (m *Metrics) worker() *worker.Metrics {
	if m == nil {
		return nil
	}
	return m.Worker
}

func (m *Metrics) coordinator() *coordinator.Metrics {
	if m == nil {
		return nil
	}
	return m.Coordinator
}

// Clean removes what a finished run kept in its data directory (the NATS
// store and the blobs), and the directories themselves when that leaves
// them empty. A directory that holds other files or is a mount point
// stays: census did not make it.
func Clean(data string) error {
	for _, sub := range []string{"nats", "blobs"} {
		p := filepath.Join(data, sub)
		entries, err := os.ReadDir(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		for _, e := range entries {
			if err := os.RemoveAll(filepath.Join(p, e.Name())); err != nil {
				return fmt.Errorf("remove %s: %w", p, err)
			}
		}
		os.Remove(p)
	}
	os.Remove(data)
	return nil
}

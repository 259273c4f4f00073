package embedded

import (
	"context"
	"errors"
	"log/slog"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/worker"
)

// stage is a stage in this process, the census or one after it: an
// embedded NATS server, a store, a worker serving it and the stage's
// coordinator, over real NATS connections.
type stage struct {
	// data holds the NATS server's store (data/nats); name names the
	// server.
	data, name string
	// url locates the store and open opens it: a directory store when
	// open is nil.
	url  string
	open func(ctx context.Context, url string) (store.Store, error)
	// env is the coordinator's Env but for the store, which runStage
	// opens; its Log is the server's and the worker's too.
	env coordinator.Env
	// worker is the worker's configuration but for its connection, its
	// store and its log.
	worker worker.Config
	// onServer, when set, is told the server's client URL once it runs.
	onServer func(url string)
}

// runStage runs the stage s in this process: it starts the embedded NATS
// server, opens the store, starts a worker serving it and connects the
// coordinator, then runs coordinate, the coordinator's part, with the
// connection and the stage's Env. A stage that coordinate ends without an
// error stops its worker as finished and drops the workers' consumer
// (dropConsumer). When the server reports that it cannot write its
// store, runStage fails with ErrNATSStore.
func runStage[T any](ctx context.Context, s stage, coordinate func(context.Context, *broker.Conn, coordinator.Env) (T, error)) (T, error) {
	var zero T
	if s.env.Log == nil {
		s.env.Log = slog.New(slog.DiscardHandler)
	}
	srv, ctx, shutdown, err := startServer(ctx, s.data, s.name, s.env.Log)
	if err != nil {
		return zero, err
	}
	defer shutdown()
	res, err := onServer(ctx, s, srv, coordinate)
	if cause := context.Cause(ctx); err != nil && errors.Is(cause, ErrNATSStore) {
		return zero, cause
	}
	return res, err
}

// onServer is runStage once the server srv runs.
func onServer[T any](ctx context.Context, s stage, srv *server.Server, coordinate func(context.Context, *broker.Conn, coordinator.Env) (T, error)) (T, error) {
	var zero T
	if s.onServer != nil {
		s.onServer(srv.ClientURL())
	}
	open := s.open
	if open == nil {
		open = func(ctx context.Context, url string) (store.Store, error) { return store.NewDir(url) }
	}
	st, err := open(ctx, s.url)
	if err != nil {
		return zero, err
	}
	s.worker.Log = s.env.Log
	stopWorker, err := startWorker(ctx, srv, s.worker, s.url, st)
	if err != nil {
		return zero, err
	}
	var stopped bool
	stop := func(finished bool) {
		if !stopped {
			stopped = true
			stopWorker(finished)
		}
	}
	defer stop(false)
	conn, err := broker.Connect(ctx, broker.ConnOptions{URL: srv.ClientURL(), Name: "census-coordinator"})
	if err != nil {
		return zero, err
	}
	var finished bool
	defer func() {
		if finished {
			conn.Finish()
		} else {
			conn.Close()
		}
	}()
	s.env.Store, s.env.StoreURL = st, s.url
	res, err := coordinate(ctx, conn, s.env)
	if err == nil {
		stop(true)
		dropConsumer(ctx, conn, s.env.Log)
		finished = true
	}
	return res, err
}

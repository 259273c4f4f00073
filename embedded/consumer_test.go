package embedded_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/embedded"
	"github.com/nats-io/nats.go/jetstream"
)

// TestFinishedRunDropsConsumer checks that a finished run leaves no
// workers' consumer on its server (whose pending fetch would hold up the
// server's shutdown), and that a second run on the same data directory
// sets it up again and finishes with the same positions.
func TestFinishedRunDropsConsumer(t *testing.T) {
	tmp := t.TempDir()
	data := filepath.Join(tmp, "data")
	runOnce := func(run string) uint64 {
		res, err := embedded.Run(context.Background(), embedded.Options{
			Game: "clobber", Board: "2x4", Run: run, Out: filepath.Join(tmp, run),
			Data: data, Workers: 2, Shards: 2, MemBudget: 16 << 20,
		})
		if err != nil {
			t.Fatalf("run %s: %v", run, err)
		}
		return res.Summary.Positions
	}
	first := runOnce("first")
	// The server is gone with the run: start it again on the same store
	// and look for the consumer.
	srv, err := broker.StartServer(broker.ServerOptions{Listen: "127.0.0.1:0", StoreDir: filepath.Join(data, "nats"), Name: "check"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := broker.Connect(context.Background(), broker.ConnOptions{URL: srv.ClientURL(), Name: "check"})
	if err != nil {
		t.Fatal(err)
	}
	_, consumerErr := c.JS.Consumer(context.Background(), broker.Stream, broker.Consumer)
	c.Close()
	srv.Shutdown()
	srv.WaitForShutdown()
	if !errors.Is(consumerErr, jetstream.ErrConsumerNotFound) {
		t.Fatalf("after a finished run, looking up the workers' consumer gave %v, want %v", consumerErr, jetstream.ErrConsumerNotFound)
	}
	if second := runOnce("second"); second != first || first == 0 {
		t.Fatalf("a second run on the same store counted %d positions, the first %d", second, first)
	}
}

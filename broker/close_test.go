package broker

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// closeServer starts a server for the test, stopped at its end, and
// returns its URL and a context that bounds the test.
func closeServer(t *testing.T) (string, context.Context) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Name: "close"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return srv.ClientURL(), ctx
}

// TestCloseWaits checks that Close returns only once the connection is
// closed, its subscriptions drained.
func TestCloseWaits(t *testing.T) {
	url, ctx := closeServer(t)
	c, err := Connect(ctx, ConnOptions{URL: url, Name: "close-test"})
	if err != nil {
		t.Fatal(err)
	}
	// A subscriber slow to handle its messages: draining waits for it.
	handled := 0
	if _, err := c.NC.Subscribe("close.test", func(m *nats.Msg) {
		time.Sleep(time.Millisecond)
		handled++
	}); err != nil {
		t.Fatal(err)
	}
	const n = 200
	for range n {
		if err := c.NC.Publish("close.test", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.NC.Flush(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if !c.NC.IsClosed() {
		t.Errorf("Close returned before the connection was closed")
	}
	if handled != n {
		t.Errorf("Close returned with %d of %d messages handled", handled, n)
	}
}

// TestFinishDelivers checks that Finish leaves the connection closed and
// that what was published before it reaches the server: a subscriber on
// another connection gets every message.
func TestFinishDelivers(t *testing.T) {
	url, ctx := closeServer(t)
	recv, err := Connect(ctx, ConnOptions{URL: url, Name: "finish-receiver"})
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	got := make(chan struct{}, 1)
	const n = 2000
	var count atomic.Int64
	if _, err := recv.NC.Subscribe("finish.test", func(m *nats.Msg) {
		if count.Add(1) == n {
			got <- struct{}{}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := recv.NC.Flush(); err != nil {
		t.Fatal(err)
	}
	c, err := Connect(ctx, ConnOptions{URL: url, Name: "finish-sender"})
	if err != nil {
		t.Fatal(err)
	}
	// A subscription of its own, which a drain would wait for.
	if _, err := c.NC.Subscribe("finish.other", func(*nats.Msg) {}); err != nil {
		t.Fatal(err)
	}
	payload := make([]byte, 1024)
	for range n {
		if err := c.NC.Publish("finish.test", payload); err != nil {
			t.Fatal(err)
		}
	}
	c.Finish()
	if !c.NC.IsClosed() {
		t.Errorf("Finish returned before the connection was closed")
	}
	select {
	case <-got:
	case <-ctx.Done():
		t.Fatalf("the receiver got %d of %d messages published before Finish", count.Load(), n)
	}
}

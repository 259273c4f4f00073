package broker

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestCloseWaits checks that Close returns only once the connection is
// closed, its subscriptions drained.
func TestCloseWaits(t *testing.T) {
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Name: "close"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Connect(ctx, ConnOptions{URL: srv.ClientURL(), Name: "close-test"})
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

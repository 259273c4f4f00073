package serve

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestListenAndServe serves on a free port, answers over the network, and
// returns nil once its context is cancelled.
func TestListenAndServe(t *testing.T) {
	h, _, _ := testServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- ListenAndServe(ctx, "127.0.0.1:0", h, func(a net.Addr) { addrs <- a }) }()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("ListenAndServe: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("not ready in 10s")
	}
	client := &http.Client{Timeout: 5 * time.Second}
	res, err := client.Get("http://" + addr.String() + "/api/v1/runs")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "clobber-2x3") {
		t.Errorf("GET /api/v1/runs: %d %s", res.StatusCode, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after cancel: %v, want nil", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("no shutdown in 15s")
	}
	if _, err := client.Get("http://" + addr.String() + "/api/v1/runs"); err == nil {
		t.Error("still serving after shutdown")
	}
}

func TestListenAndServeBadAddr(t *testing.T) {
	called := false
	err := ListenAndServe(context.Background(), "127.0.0.1:notaport", http.NotFoundHandler(), func(net.Addr) { called = true })
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:notaport") {
		t.Errorf("ListenAndServe on a bad address: %v, want an error naming it", err)
	}
	if called {
		t.Error("ready called though nothing listens")
	}
}

package worker_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/store"
)

// onFirstWrite is a store that calls do before its first Create returns.
type onFirstWrite struct {
	store.Store
	once sync.Once
	do   func()
}

func (s *onFirstWrite) Create(ctx context.Context, name string) (store.Writer, error) {
	s.once.Do(s.do)
	return s.Store.Create(ctx, name)
}

func connect(t *testing.T, url string) *broker.Conn {
	t.Helper()
	conn, err := broker.Connect(context.Background(), broker.ConnOptions{URL: url, Name: "election-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	return conn
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

package main

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/test/election"
)

// TestFind names the leaders of a stream of three replicas and of its
// consumer as the servers report them, and, once the stream's leader is
// killed, the server elected in its place.
func TestFind(t *testing.T) {
	c := election.Start(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nc, err := nats.Connect(c.URL(0))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "JOBS", Subjects: []string{"jobs.>"}, Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, "JOBS", jetstream.ConsumerConfig{Durable: "workers", AckPolicy: jetstream.AckExplicitPolicy, Replicas: 3}); err != nil {
		t.Fatal(err)
	}
	url := c.URL(0) + "," + c.URL(1) + "," + c.URL(2)
	for _, consumer := range []string{"", "workers"} {
		want, err := c.StreamLeader(ctx, js, "JOBS")
		if consumer != "" {
			want, err = c.ConsumerLeader(ctx, js, "JOBS", consumer)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got, err := find(url, "JOBS", consumer, 10*time.Second); err != nil || got != c.Servers[want].Name() {
			t.Errorf("leader of JOBS %q: %q, %v; want %s", consumer, got, err, c.Servers[want].Name())
		}
	}
	if _, err := find(url, "NONE", "", time.Second); err == nil {
		t.Error("a stream that does not exist has a leader")
	}

	victim, err := c.StreamLeader(ctx, js, "JOBS")
	if err != nil {
		t.Fatal(err)
	}
	c.Kill(victim)
	got, err := find(url, "JOBS", "", 30*time.Second)
	if err != nil || got == "" || got == c.Servers[victim].Name() {
		t.Errorf("leader after %s was killed: %q, %v", c.Servers[victim].Name(), got, err)
	}
}

// Command leader prints the name of the NATS server that leads a JetStream
// stream, or a consumer of it, for test/chaos/chaos.sh, whose leader-kill
// fault kills that server:
//
//	leader [--nats URL] [--timeout 10s] STREAM [CONSUMER]
//
// It waits up to --timeout for a leader, and exits 1 when there is none by
// then or NATS does not answer, 2 on bad usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func main() {
	url := flag.String("nats", nats.DefaultURL, "NATS server URL, or several comma separated")
	timeout := flag.Duration("timeout", 10*time.Second, "how long to wait for an answer and a leader")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: leader [--nats URL] [--timeout 10s] STREAM [CONSUMER]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 && flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	leader, err := find(*url, flag.Arg(0), flag.Arg(1), *timeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "leader:", err)
		os.Exit(1)
	}
	fmt.Println(leader)
}

// find asks NATS at url for the leader of stream, or of its consumer when
// consumer is not empty, until it names one or timeout has passed.
func find(url, stream, consumer string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	nc, err := nats.Connect(url, nats.Name("census-chaos-leader"), nats.Timeout(timeout))
	if err != nil {
		return "", fmt.Errorf("connect to %s: %w", url, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return "", err
	}
	what := "stream " + stream
	if consumer != "" {
		what = fmt.Sprintf("consumer %s of stream %s", consumer, stream)
	}
	for {
		// A stream without a leader leaves the request unanswered: each
		// attempt has a deadline of its own.
		actx, acancel := context.WithTimeout(ctx, 2*time.Second)
		c, err := cluster(actx, js, stream, consumer)
		acancel()
		if err == nil {
			if c != nil && c.Leader != "" {
				return c.Leader, nil
			}
			err = errors.New("no leader")
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("%s: %w", what, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// cluster is the cluster information of stream, or of its consumer.
func cluster(ctx context.Context, js jetstream.JetStream, stream, consumer string) (*jetstream.ClusterInfo, error) {
	if consumer == "" {
		s, err := js.Stream(ctx, stream)
		if err != nil {
			return nil, err
		}
		return s.CachedInfo().Cluster, nil
	}
	c, err := js.Consumer(ctx, stream, consumer)
	if err != nil {
		return nil, err
	}
	return c.CachedInfo().Cluster, nil
}

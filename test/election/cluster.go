// Package election starts, inside a test's process, a cluster of NATS
// JetStream servers one of which the test can kill the way SIGKILL kills a
// process: at once, leaving its peers to elect new leaders for what it led.
//
// Server.Shutdown alone is no such kill: it first steps down every stream,
// consumer and meta group the server leads, handing each to a peer in a
// moment, which a killed process never does. So here the routes between
// the servers run through proxies in the test's process, and Kill cuts
// every route of the server (its peers see the connections drop, as when
// its process dies) before it shuts the server down: its hand-over goes
// nowhere, and the peers elect new leaders only once their election timers
// run out, some four to nine seconds later, as on a real cluster. During
// that time a call to a stream the server led finds no responders ("no
// response from stream").
package election

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Cluster is n embedded servers in one JetStream cluster, named n0, n1,
// ..., whose routes run through proxies.
type Cluster struct {
	Servers []*server.Server

	proxies []net.Listener
	mu      sync.Mutex
	dead    []bool
	links   map[*link]struct{}
}

// link is one route connection through a proxy: from the server that
// dialled it (-1 until its CONNECT is read) to the one behind the proxy.
type link struct {
	from, to int
	in, out  net.Conn
}

func (l *link) close() {
	l.in.Close()
	l.out.Close()
}

// Start starts n servers (three for a cluster that survives a kill), waits
// until the cluster can place a stream of n replicas, and shuts everything
// down when the test ends.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{Servers: make([]*server.Server, n), proxies: make([]net.Listener, n), dead: make([]bool, n),
		links: map[*link]struct{}{}}
	for i := range c.proxies {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		c.proxies[i] = ln
	}
	for i := range c.Servers {
		var routes []string
		for j, p := range c.proxies {
			if j != i {
				routes = append(routes, "nats://"+p.Addr().String())
			}
		}
		opts := &server.Options{
			ServerName: fmt.Sprintf("n%d", i), Host: "127.0.0.1", Port: server.RANDOM_PORT,
			JetStream: true, StoreDir: t.TempDir(), MaxPayload: 8 << 20,
			NoSigs: true, NoLog: true, DisableJetStreamBanner: true,
			Cluster: server.ClusterOpts{
				Name: "election", Host: "127.0.0.1", Port: server.RANDOM_PORT,
				// Gossip names the proxy too, so that no route
				// bypasses it.
				Advertise: c.proxies[i].Addr().String(),
				// Plain text, so that the proxy can read the CONNECT
				// that names the dialling server.
				Compression: server.CompressionOpts{Mode: server.CompressionOff},
			},
			Routes: server.RoutesFromStr(strings.Join(routes, ",")),
		}
		s, err := server.NewServer(opts)
		if err != nil {
			t.Fatal(err)
		}
		c.Servers[i] = s
	}
	t.Cleanup(c.stop)
	for i := range c.proxies {
		go c.accept(i)
	}
	for _, s := range c.Servers {
		go s.Start()
	}
	for _, s := range c.Servers {
		if !s.ReadyForConnections(30 * time.Second) {
			t.Fatalf("server %s did not start within 30s", s.Name())
		}
	}
	began := time.Now()
	for {
		err := c.probe(n)
		if err == nil {
			break
		}
		if time.Since(began) > time.Minute {
			t.Fatalf("the cluster did not form within a minute: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("cluster of %d formed in %v", n, time.Since(began).Round(time.Millisecond))
	return c
}

// probe creates and deletes a stream of n replicas.
func (c *Cluster) probe(n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	nc, err := nats.Connect(c.Servers[0].ClientURL(), nats.Timeout(2*time.Second))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "ELECTION_PROBE", Subjects: []string{"election.probe"}, Replicas: n}); err != nil {
		return err
	}
	return js.DeleteStream(ctx, "ELECTION_PROBE")
}

func (c *Cluster) stop() {
	for i, s := range c.Servers {
		c.mu.Lock()
		dead := c.dead[i]
		c.mu.Unlock()
		if s != nil && !dead {
			s.Shutdown()
			s.WaitForShutdown()
		}
	}
	c.mu.Lock()
	for l := range c.links {
		l.close()
	}
	c.mu.Unlock()
	for _, p := range c.proxies {
		p.Close()
	}
}

// URL is the client URL of server i.
func (c *Cluster) URL(i int) string { return c.Servers[i].ClientURL() }

// Index is the index of the server named name, or -1.
func (c *Cluster) Index(name string) int {
	for i, s := range c.Servers {
		if s.Name() == name {
			return i
		}
	}
	return -1
}

// Kill cuts every route of server i, as its process dying would, then
// shuts it down and waits until it is down. Its clients lose their
// connection and reconnect to the others.
func (c *Cluster) Kill(i int) {
	c.mu.Lock()
	c.dead[i] = true
	var cut []*link
	for l := range c.links {
		// A link whose dialler is not known yet may be the killed
		// server's: cut it too, a healthy server dials again.
		if l.to == i || l.from == i || l.from < 0 {
			cut = append(cut, l)
		}
	}
	c.mu.Unlock()
	c.proxies[i].Close()
	for _, l := range cut {
		l.close()
	}
	c.Servers[i].Shutdown()
	c.Servers[i].WaitForShutdown()
}

// accept forwards the route connections made to proxy i to server i.
func (c *Cluster) accept(i int) {
	for {
		in, err := c.proxies[i].Accept()
		if err != nil {
			return
		}
		go c.forward(i, in)
	}
}

func (c *Cluster) forward(to int, in net.Conn) {
	addr := c.Servers[to].ClusterAddr()
	c.mu.Lock()
	dead := c.dead[to]
	c.mu.Unlock()
	if addr == nil || dead {
		in.Close()
		return
	}
	out, err := net.Dial("tcp", addr.String())
	if err != nil {
		in.Close()
		return
	}
	l := &link{from: -1, to: to, in: in, out: out}
	c.mu.Lock()
	c.links[l] = struct{}{}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.links, l)
		c.mu.Unlock()
		l.close()
	}()
	go func() {
		io.Copy(in, out)
		l.close()
	}()
	r := bufio.NewReader(in)
	if !c.sniff(l, r) {
		return
	}
	io.Copy(out, r)
}

// sniff forwards what the dialling server sends up to its CONNECT, and
// learns from it which server dialled; false when that server is dead or
// the connection ended.
func (c *Cluster) sniff(l *link, r *bufio.Reader) bool {
	for n := 0; n < 1<<16; {
		line, err := r.ReadBytes('\n')
		n += len(line)
		if _, werr := l.out.Write(line); err != nil || werr != nil {
			return false
		}
		rest, ok := bytes.CutPrefix(line, []byte("CONNECT "))
		if !ok {
			continue
		}
		var connect struct {
			Name string `json:"name"` // the server's ID
		}
		if json.Unmarshal(bytes.TrimSpace(rest), &connect) != nil {
			return true
		}
		from := -1
		for i, s := range c.Servers {
			if s.ID() == connect.Name {
				from = i
			}
		}
		c.mu.Lock()
		l.from = from
		dead := from >= 0 && c.dead[from]
		c.mu.Unlock()
		return !dead
	}
	return true
}

// StreamLeader waits up to a minute for stream to have a leader, and
// returns the index of the server leading it.
func (c *Cluster) StreamLeader(ctx context.Context, js jetstream.JetStream, stream string) (int, error) {
	return c.leader(ctx, func(ctx context.Context) (*jetstream.ClusterInfo, error) {
		s, err := js.Stream(ctx, stream)
		if err != nil {
			return nil, err
		}
		return s.CachedInfo().Cluster, nil
	})
}

// ConsumerLeader waits up to a minute for the consumer to have a leader,
// and returns the index of the server leading it.
func (c *Cluster) ConsumerLeader(ctx context.Context, js jetstream.JetStream, stream, consumer string) (int, error) {
	return c.leader(ctx, func(ctx context.Context) (*jetstream.ClusterInfo, error) {
		cons, err := js.Consumer(ctx, stream, consumer)
		if err != nil {
			return nil, err
		}
		return cons.CachedInfo().Cluster, nil
	})
}

func (c *Cluster) leader(ctx context.Context, info func(context.Context) (*jetstream.ClusterInfo, error)) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		ictx, icancel := context.WithTimeout(ctx, 5*time.Second)
		ci, err := info(ictx)
		icancel()
		if err == nil && ci != nil {
			if i := c.Index(ci.Leader); i >= 0 {
				return i, nil
			}
			err = fmt.Errorf("leader %q", ci.Leader)
		}
		if err == nil {
			err = errors.New("no cluster info")
		}
		select {
		case <-ctx.Done():
			return -1, fmt.Errorf("no leader: %w", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// MoveStreamLeader asks the stream's leader to step down in favour of
// server to, and waits until to leads it.
func (c *Cluster) MoveStreamLeader(ctx context.Context, nc *nats.Conn, js jetstream.JetStream, stream string, to int) error {
	return c.move(ctx, nc, "$JS.API.STREAM.LEADER.STEPDOWN."+stream, "stream "+stream, to, func(ctx context.Context) (int, error) {
		return c.StreamLeader(ctx, js, stream)
	})
}

// MoveConsumerLeader asks the consumer's leader to step down in favour of
// server to, and waits until to leads it.
func (c *Cluster) MoveConsumerLeader(ctx context.Context, nc *nats.Conn, js jetstream.JetStream, stream, consumer string, to int) error {
	return c.move(ctx, nc, fmt.Sprintf("$JS.API.CONSUMER.LEADER.STEPDOWN.%s.%s", stream, consumer), "consumer "+consumer, to,
		func(ctx context.Context) (int, error) { return c.ConsumerLeader(ctx, js, stream, consumer) })
}

// move sends stepdown requests to subject until server to leads what.
func (c *Cluster) move(ctx context.Context, nc *nats.Conn, subject, what string, to int, leader func(context.Context) (int, error)) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	req, _ := json.Marshal(map[string]any{"placement": map[string]string{"preferred": c.Servers[to].Name()}})
	for {
		if at, err := leader(ctx); err != nil {
			return err
		} else if at == to {
			return nil
		}
		rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := nc.RequestWithContext(rctx, subject, req)
		rcancel()
		if ctx.Err() != nil {
			return fmt.Errorf("move the leader of %s to %s: %v", what, c.Servers[to].Name(), err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

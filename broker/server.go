package broker

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure a NATS server with JetStream run from the
// embedded library.
type ServerOptions struct {
	// Listen is the client address, host:port; port 0 picks a free one.
	Listen string
	// StoreDir holds JetStream's streams and buckets.
	StoreDir string
	// Name names the server; a cluster needs distinct names.
	Name string
	// ClusterName, ClusterListen and Routes join a cluster: the route
	// address this server listens on and the routes of the others
	// (nats://host:port, comma separated).
	ClusterName   string
	ClusterListen string
	Routes        string
	// ConfigFile, when set, is a nats-server configuration file read
	// first (accounts, users and permissions, TLS); the fields above
	// override it where set.
	ConfigFile string
	// Token, when set, is required of every client.
	Token string
	// Logs turns on the server's own log on standard error.
	Logs bool
}

// StartServer starts a server and waits until it takes connections. The
// caller shuts it down with Shutdown and WaitForShutdown.
func StartServer(o ServerOptions) (*server.Server, error) {
	opts := &server.Options{}
	if o.ConfigFile != "" {
		var err error
		if opts, err = server.ProcessConfigFile(o.ConfigFile); err != nil {
			return nil, fmt.Errorf("read NATS config %s: %w", o.ConfigFile, err)
		}
	}
	if o.Listen != "" {
		host, port, err := splitHostPort(o.Listen, "--listen")
		if err != nil {
			return nil, err
		}
		opts.Host, opts.Port = host, port
		if port == 0 {
			opts.Port = server.RANDOM_PORT
		}
	}
	opts.JetStream = true
	if o.StoreDir != "" {
		opts.StoreDir = o.StoreDir
	}
	if o.Name != "" {
		opts.ServerName = o.Name
	}
	if o.Token != "" {
		opts.Authorization = o.Token
	}
	if opts.MaxPayload == 0 {
		// Job messages and done-records of jobs with thousands of
		// fragments exceed the default 1MiB.
		opts.MaxPayload = 8 << 20
	}
	if o.ClusterListen != "" {
		host, port, err := splitHostPort(o.ClusterListen, "--cluster")
		if err != nil {
			return nil, err
		}
		opts.Cluster.Host, opts.Cluster.Port = host, port
		opts.Cluster.Name = o.ClusterName
		if opts.Cluster.Name == "" {
			opts.Cluster.Name = "census"
		}
	}
	if o.Routes != "" {
		opts.Routes = server.RoutesFromStr(o.Routes)
	}
	opts.NoSigs = true
	opts.NoLog = !o.Logs
	opts.DisableJetStreamBanner = true
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("start NATS server: %w", err)
	}
	if o.Logs {
		s.ConfigureLogger()
	}
	go s.Start()
	if !ready(s, 30*time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("NATS server at %s did not start within 30s", o.Listen)
	}
	return s, nil
}

// ready waits up to d for s to accept connections, looking every
// millisecond. ReadyForConnections looks every 25 ms when it may wait
// longer than that, and the server with JetStream is ready in some 7 ms:
// an embedded run waited for the 25th millisecond.
func ready(s *server.Server, d time.Duration) bool {
	end := time.Now().Add(d)
	for {
		// Given under 25 ms, it looks without sleeping until the time is
		// up: a short time makes it one look.
		if s.ReadyForConnections(50 * time.Microsecond) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
}

func splitHostPort(addr, flag string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("%s %q: want host:port: %v", flag, addr, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("%s %q: bad port %q", flag, addr, p)
	}
	return strings.Trim(host, "[]"), port, nil
}

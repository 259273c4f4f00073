// Package seaweed runs a SeaweedFS server (master, volume server, filer and
// S3 gateway in one `weed server` process) on 127.0.0.1 for tests that want
// a real S3 service: the binary internal/testbin builds and caches
// (scripts/seaweedfs.sh), free ports, data in a directory of the test's own,
// identities with static keys from an -s3.config file.
//
// Without the binary a test that asks for it skips, except with CI=true,
// where it fails (the project's convention for tests that need a tool).
package seaweed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/census-cgt/census/internal/testbin"
)

// Region is the region the server answers for.
const Region = "us-east-1"

// Identity is an S3 user of the server: its keys and the SeaweedFS actions
// it may take ("Admin", "Read", "Write", "List", "Tagging", each optionally
// limited to a bucket as "Read:bucket").
type Identity struct {
	Name, AccessKey, SecretKey string
	Actions                    []string
}

// Admin is the identity every server has, allowed everything.
var Admin = Identity{
	Name:      "census-admin",
	AccessKey: "census-test-access",
	SecretKey: "census-test-secret-0123456789",
	Actions:   []string{"Admin", "Read", "Write", "List", "Tagging"},
}

// Binary is the path of the weed binary. Without one it skips t, or fails
// it when CI=true.
func Binary(t testing.TB) string {
	t.Helper()
	bin, err := testbin.SeaweedFSBinary()
	if err != nil {
		if errors.Is(err, testbin.ErrNoSeaweedFS) && os.Getenv("CI") != "true" {
			t.Skipf("no SeaweedFS S3 server: %v", err)
		}
		t.Fatalf("CI=true and the SeaweedFS S3 server is needed: %v", err)
	}
	return bin
}

// Server is a running SeaweedFS. Its methods may be called from one
// goroutine at a time.
type Server struct {
	// Endpoint is the S3 gateway's host:port, plain HTTP.
	Endpoint string
	dir      string
	args     []string
	bin      string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	log  *os.File
}

// Start starts a server with Admin and the extra identities, its data in a
// temporary directory of t's, and waits until its S3 gateway answers. The
// server is stopped when t ends.
func Start(t testing.TB, extra ...Identity) *Server {
	t.Helper()
	s, err := start(Binary(t), t.TempDir(), extra)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	return s
}

// StartMain is Start for TestMain, which has no t: dir holds the data and
// the caller stops the server. It returns testbin.ErrNoSeaweedFS (wrapped)
// when there is no binary.
func StartMain(dir string, extra ...Identity) (*Server, error) {
	bin, err := testbin.SeaweedFSBinary()
	if err != nil {
		return nil, err
	}
	return start(bin, dir, extra)
}

func start(bin, dir string, extra []Identity) (*Server, error) {
	type cred struct {
		AccessKey string `json:"accessKey"`
		SecretKey string `json:"secretKey"`
	}
	type ident struct {
		Name        string   `json:"name"`
		Credentials []cred   `json:"credentials"`
		Actions     []string `json:"actions"`
	}
	var cfg struct {
		Identities []ident `json:"identities"`
	}
	for _, id := range append([]Identity{Admin}, extra...) {
		cfg.Identities = append(cfg.Identities, ident{id.Name, []cred{{id.AccessKey, id.SecretKey}}, id.Actions})
	}
	raw, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "s3.json")
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(conf, raw, 0o600); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, err
	}
	ports, err := freePorts(8)
	if err != nil {
		return nil, err
	}
	p := func(i int) string { return strconv.Itoa(ports[i]) }
	s := &Server{
		Endpoint: "127.0.0.1:" + p(6),
		dir:      dir,
		bin:      bin,
		args: []string{"server",
			"-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-dir=" + data,
			"-master.port=" + p(0), "-master.port.grpc=" + p(1),
			"-master.volumeSizeLimitMB=64", "-master.telemetry=false",
			"-volume.port=" + p(2), "-volume.port.grpc=" + p(3), "-volume.max=0",
			"-filer", "-filer.port=" + p(4), "-filer.port.grpc=" + p(5),
			"-filer.localSocket=" + filepath.Join(dir, "filer.sock"),
			"-s3", "-s3.port=" + p(6), "-s3.port.grpc=" + p(7), "-s3.config=" + conf,
			"-s3.localSocket=" + filepath.Join(dir, "s3.sock"),
			"-s3.port.iceberg=0", "-s3.port.lance=0",
		},
	}
	if err := s.Restart(); err != nil {
		return nil, err
	}
	return s, nil
}

// freePorts asks the kernel for n free ports on 127.0.0.1.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// startTimeout bounds a start on a busy machine; an idle one takes a few
// seconds.
const startTimeout = 2 * time.Minute

// Restart starts the server process (after Stop or Kill: the same ports
// and data) and waits until the S3 gateway answers with the data it had.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("seaweed: server already running")
	}
	log, err := os.OpenFile(filepath.Join(s.dir, "weed.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.bin, s.args...)
	cmd.Dir = s.dir
	// weed puts its log files and the master's socket in the temporary
	// directory: the server's own, so that nothing outlives the test.
	cmd.Env = append(os.Environ(), "TMPDIR="+s.dir)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("start %s: %w", s.bin, err)
	}
	s.cmd, s.log, s.done = cmd, log, make(chan struct{})
	go func(done chan struct{}) { cmd.Wait(); close(done) }(s.done)

	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	c := s.Client(Admin)
	var last error
	for {
		lctx, lcancel := context.WithTimeout(ctx, 5*time.Second)
		_, last = c.ListBuckets(lctx)
		lcancel()
		if last == nil {
			return nil
		}
		select {
		case <-s.done:
			s.cmd = nil
			log.Close()
			return fmt.Errorf("SeaweedFS exited at start (%v); its log:\n%s", cmd.ProcessState, s.tail())
		case <-ctx.Done():
			cmd.Process.Kill()
			<-s.done
			s.cmd = nil
			log.Close()
			return fmt.Errorf("SeaweedFS's S3 gateway at %s did not answer within %s (last: %v); its log:\n%s", s.Endpoint, startTimeout, last, s.tail())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Stop stops the server (SIGTERM, SIGKILL after 20 seconds) and waits for
// it to exit. Stopping a stopped server does nothing.
func (s *Server) Stop() { s.stop(syscall.SIGTERM) }

// Kill kills the server with SIGKILL and waits for it to exit.
func (s *Server) Kill() { s.stop(syscall.SIGKILL) }

func (s *Server) stop(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(sig)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
	s.log.Close()
}

// tail is the end of the server's log.
func (s *Server) tail() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "weed.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(bytes.TrimSpace(b))
}

// Log is the server's log so far, for a failing test to print.
func (s *Server) Log() string { return s.tail() }

// URL is the http:// URL of the S3 gateway.
func (s *Server) URL() string { return "http://" + s.Endpoint }

// Client is a minio client of the gateway acting as id.
func (s *Server) Client(id Identity) *minio.Client {
	c, err := minio.New(s.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(id.AccessKey, id.SecretKey, ""),
		Region: Region,
	})
	if err != nil {
		panic(err) // only a malformed endpoint fails, and ours is not
	}
	return c
}

// CreateBucket makes a bucket and waits until an object can be written to
// it: SeaweedFS grows the volumes of a new bucket's collection on its
// first write.
func (s *Server) CreateBucket(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	c := s.Client(Admin)
	if err := c.MakeBucket(ctx, name, minio.MakeBucketOptions{Region: Region}); err != nil {
		return fmt.Errorf("make bucket %s: %w", name, err)
	}
	const probe = ".census-probe"
	var last error
	for {
		_, last = c.PutObject(ctx, name, probe, strings.NewReader("probe"), 5, minio.PutObjectOptions{DisableContentSha256: true})
		if last == nil {
			return c.RemoveObject(ctx, name, probe, minio.RemoveObjectOptions{})
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("bucket %s takes no writes within %s: %v; the log:\n%s", name, startTimeout, last, s.tail())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

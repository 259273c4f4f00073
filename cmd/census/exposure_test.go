package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/schema"
)

// listeners returns the addresses pid listens on for TCP, read from
// /proc: the sockets among its open files that are in state LISTEN.
func listeners(t *testing.T, pid int) []string {
	t.Helper()
	inodes := map[string]bool{}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	var addrs []string
	for _, table := range []string{"tcp", "tcp6"} {
		f, err := os.Open(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Scan() // the header
		for sc.Scan() {
			// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || fields[3] != "0A" || !inodes[fields[9]] {
				continue
			}
			addrs = append(addrs, procAddr(t, fields[1]))
		}
		f.Close()
	}
	return addrs
}

// procAddr decodes an address of /proc/net/tcp: the IP in hex, 32-bit
// words in host order (little endian here), then the port.
func procAddr(t *testing.T, s string) string {
	t.Helper()
	ipHex, portHex, _ := strings.Cut(s, ":")
	raw, err := hex.DecodeString(ipHex)
	if err != nil {
		t.Fatalf("/proc address %q: %v", s, err)
	}
	for i := 0; i+4 <= len(raw); i += 4 {
		raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
	}
	port, _ := strconv.ParseUint(portHex, 16, 16)
	return net.JoinHostPort(net.IP(raw).String(), strconv.Itoa(int(port)))
}

// TestListenersLocal starts every census command that opens a listener,
// with its defaults, and checks that each listens on 127.0.0.1 alone.
func TestListenersLocal(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads listening sockets from /proc")
	}
	srv := startServer(t)
	serverArgs := []string{"server", "--store-dir", t.TempDir()}
	if ln, err := net.Listen("tcp", "127.0.0.1:4222"); err != nil {
		// The default client port is taken (another server on this
		// machine): the default listen address is checked as a flag.
		t.Logf("127.0.0.1:4222 is taken; census server gets --listen 127.0.0.1:0")
		serverArgs = append(serverArgs, "--listen", "127.0.0.1:0")
	} else {
		ln.Close()
	}
	tests := []struct {
		name string
		args []string
		// want is how many listeners the process opens.
		want int
	}{
		// The metrics and the embedded NATS server; clobber 4x4 runs for
		// long enough to be seen.
		{"run", []string{"run", "clobber", "4x4", "--quiet", "--out", t.TempDir(), "--jobs", "1"}, 2},
		// No worker: it waits, serving metrics.
		{"coordinator", []string{"coordinator", "--nats", srv.url, "--store", t.TempDir(), "clobber", "2x2", "--out", t.TempDir(), "--quiet"}, 1},
		{"worker", []string{"worker", "--nats", srv.url, "--jobs", "1", "--quiet"}, 1},
		{"server", serverArgs, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := startCensus(t, tc.name, nil, tc.args...)
			var addrs []string
			for deadline := time.Now().Add(20 * time.Second); len(addrs) < tc.want; time.Sleep(20 * time.Millisecond) {
				if p.exited() || time.Now().After(deadline) {
					t.Fatalf("census %s listens on %v, want %d listeners; output: %s", tc.name, addrs, tc.want, p.output())
				}
				addrs = listeners(t, p.cmd.Process.Pid)
			}
			for _, a := range addrs {
				if host, _, _ := net.SplitHostPort(a); host != "127.0.0.1" {
					t.Errorf("census %s listens on %s: want 127.0.0.1 only", tc.name, a)
				}
			}
			t.Logf("census %s listens on %v", tc.name, addrs)
			p.kill()
		})
	}
	if stdout, _, code := census(t, "server", "--help"); code != 0 || !strings.Contains(stdout, `(default "127.0.0.1:4222")`) {
		t.Errorf("census server --help: want the default --listen 127.0.0.1:4222; got %s", stdout)
	}
}

// leakSecret is the password and token of TestNoSecretLeaks: distinctive,
// so that finding it anywhere is a leak.
const leakSecret = "s3cr3t-PW-4a9f"

// TestNoSecretLeaks runs censuses with the secret given through every
// channel census takes (a password in the URL and from the environment, a
// token as a flag, from the environment and in the URL) and looks for it
// in everything census writes or serves: standard output and error of
// every process, every output file, every record in NATS and the
// configuration of every stream, census status, and the metrics pages.
func TestNoSecretLeaks(t *testing.T) {
	sources := map[string][]byte{}
	var mu sync.Mutex
	keep := func(name string, data []byte) {
		mu.Lock()
		defer mu.Unlock()
		sources[name] = append(sources[name], data...)
	}

	// A server with the users of auth.conf, all with the secret as
	// password: the coordinator gives it in the URL, the worker in a list
	// of URLs (which it logs), status in the URL and from the
	// environment.
	users := startAuthServer(t, leakSecret)
	host := strings.TrimPrefix(users.url, "nats://")
	list := "nats://worker:" + leakSecret + "@" + host + ",nats://worker:" + leakSecret + "@" + strings.Replace(host, "127.0.0.1", "localhost", 1)
	userRun := leakyCensus(t, keep, "users", "domineering", "4x4",
		[]string{"--nats", "nats://coordinator:" + leakSecret + "@" + host}, nil, []string{"--nats", list})
	for i, args := range [][]string{
		{"status", "--nats", "nats://status:" + leakSecret + "@" + host},
		{"status", "--nats", "nats://status:" + leakSecret + "@" + host, "--json"},
		{"status", "--nats", users.url, "--nats-user", "status", userRun},
	} {
		stdout, stderr, code := censusWithin(t, 20*time.Second, []string{envPassword + "=" + leakSecret}, args...)
		if code != 0 {
			t.Errorf("census %v: exit %d: %s", args, code, stderr)
		}
		keep(fmt.Sprintf("census status %d", i), []byte(stdout+stderr))
	}
	dumpNATS(t, keep, "users", broker.ConnOptions{URL: users.url, User: "coordinator", Password: leakSecret})

	// A server that wants the secret as token: the coordinator gives it
	// as a flag, the worker from the environment, status in the URL.
	tokenSrv := startServer(t, "--token", leakSecret)
	leakyCensus(t, keep, "token", "clobber", "2x3",
		[]string{"--nats", tokenSrv.url, "--nats-token", leakSecret},
		[]string{envToken + "=" + leakSecret}, []string{"--nats", tokenSrv.url})
	stdout, stderr, code := census(t, "status", "--nats", "nats://"+leakSecret+"@"+strings.TrimPrefix(tokenSrv.url, "nats://"), "--json")
	if code != 0 {
		t.Errorf("census status with the token in the URL: exit %d: %s", code, stderr)
	}
	keep("census status, token", []byte(stdout+stderr))
	dumpNATS(t, keep, "token", broker.ConnOptions{URL: tokenSrv.url, Token: leakSecret})
	keep("server output, users", []byte(users.output()))
	keep("server output, token", []byte(tokenSrv.output()))

	for name, data := range sources {
		if len(data) == 0 && !strings.HasPrefix(name, "output file") {
			t.Errorf("%s: nothing captured, so nothing checked", name)
		}
		if i := bytes.Index(data, []byte(leakSecret)); i >= 0 {
			t.Errorf("%s gives away the secret: ...%s...", name, data[max(i-80, 0):min(i+80, len(data))])
		}
	}
	t.Logf("looked through %d sources", len(sources))
}

// leakyCensus runs a worker and a coordinator, each with a metrics page,
// to the end of a census, and keeps their output, every output file and
// every metrics page seen. It returns the run ID.
func leakyCensus(t *testing.T, keep func(string, []byte), name, game, board string, coordFlags, workerEnv, workerFlags []string) string {
	t.Helper()
	wMetrics := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cMetrics := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	// The most verbose log: every line is looked through.
	debug := "CENSUS_LOG=debug"
	w := startCensus(t, "worker-"+name, append(workerEnv, debug), append([]string{"worker", "--jobs", "2", "--metrics-addr", wMetrics}, workerFlags...)...)
	out := t.TempDir()
	run := "leak-" + name
	c := startCensus(t, "coordinator-"+name, []string{debug}, append([]string{"coordinator", "--store", t.TempDir(), "--run", run,
		game, board, "--out", out, "--metrics-addr", cMetrics}, coordFlags...)...)
	// The coordinator's page lives as long as it runs: read it until then.
	var last []byte
	for !c.exited() {
		if page := metricsPage(cMetrics); page != nil {
			last = page
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code := c.wait(time.Second); code != 0 {
		t.Fatalf("census coordinator %s %s: exit %d: %s", game, board, code, c.output())
	}
	keep("coordinator metrics, "+name, last)
	keep("worker metrics, "+name, metricsPage(wMetrics))
	keep("coordinator output, "+name, []byte(c.output()))
	w.kill()
	keep("worker output, "+name, []byte(w.output()))
	err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		keep("output file "+path, data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(schema.RunDir(out, game, board), schema.ManifestFile)); err != nil {
		t.Errorf("census %s %s: %v", game, board, err)
	}
	return run
}

func metricsPage(addr string) []byte {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil
	}
	return body
}

// dumpNATS keeps every record of every bucket and the configuration and
// state of every stream and consumer on a server.
func dumpNATS(t *testing.T, keep func(string, []byte), name string, o broker.ConnOptions) {
	t.Helper()
	ctx := context.Background()
	o.Name = "census-test"
	conn, err := broker.Connect(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var buckets []string
	for b := range conn.JS.KeyValueStoreNames(ctx).Name() {
		buckets = append(buckets, b)
	}
	if len(buckets) == 0 {
		t.Fatalf("%s: no buckets on the server", name)
	}
	for _, b := range buckets {
		kv, err := conn.JS.KeyValue(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		keys, err := kv.ListKeys(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for k := range keys.Keys() {
			e, err := kv.Get(ctx, k)
			if err != nil {
				t.Fatalf("bucket %s key %s: %v", b, k, err)
			}
			keep("NATS records, "+name, []byte(k+"="+string(e.Value())+"\n"))
		}
	}
	for info := range conn.JS.ListStreams(ctx).Info() {
		keep("NATS streams, "+name, fmt.Appendf(nil, "%+v\n", *info))
		s, err := conn.JS.Stream(ctx, info.Config.Name)
		if err != nil {
			t.Fatal(err)
		}
		for ci := range s.ListConsumers(ctx).Info() {
			keep("NATS streams, "+name, fmt.Appendf(nil, "%+v\n", *ci))
		}
		// Messages still in the stream: jobs not yet taken.
		if info.State.Msgs > 0 && info.Config.Name == broker.Stream {
			for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
				if m, err := s.GetMsg(ctx, seq); err == nil {
					keep("NATS streams, "+name, m.Data)
				}
			}
		}
	}
}

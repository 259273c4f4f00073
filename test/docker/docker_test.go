// Package docker_test checks the Docker packaging of census: the
// repository's Dockerfile and docker-compose.yml, and the test cluster of
// test/docker.
//
// TestCluster runs run.sh: a census on a three-node JetStream cluster in
// Docker must equal `census run` of the same board. It needs a Docker engine
// and docker-compose; without them it skips, except with CI=true, where it
// fails. -short or CENSUS_SKIP_DOCKER=1 skips it.
//
// The other tests need no Docker: they read the compose files and the
// Dockerfiles and check every command, flag, port and path in them against
// the real census binary (`census SUBCOMMAND --help`).
package docker_test

import (
	"bufio"
	"bytes"
	"context"
	goflag "flag"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/census-cgt/census/internal/testbin"
	"github.com/census-cgt/census/internal/testbin/seaweed"
)

// The ports census uses, and the Dockerfile exposes.
const (
	clientPort  = "4222" // census server --listen, census * --nats
	routePort   = "6222" // census server --cluster, --routes
	metricsPort = "9464" // --metrics-addr
	dataDir     = "/data"
)

var (
	here = mustAbs(".")
	root = mustAbs(filepath.Join("..", ".."))
)

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

// ---- the cluster test ----

func dockerUnavailable() string {
	if _, err := exec.LookPath("docker"); err != nil {
		return "no docker command"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := exec.CommandContext(ctx, "docker", "info").Run(); err != nil {
		return "the docker engine is not running (docker info: " + err.Error() + ")"
	}
	if _, err := exec.LookPath("docker-compose"); err == nil {
		return ""
	}
	if exec.CommandContext(ctx, "docker", "compose", "version").Run() == nil {
		return ""
	}
	return "neither docker-compose nor docker compose"
}

// TestCluster runs run.sh and wants its PASS line.
func TestCluster(t *testing.T) {
	runCluster(t, nil)
}

// TestClusterS3 runs run.sh --s3: the fragments in a SeaweedFS S3 server
// in a container of its own, no volume shared between the coordinator and
// the workers. Without the SeaweedFS binary (scripts/seaweedfs.sh) it
// skips, except with CI=true.
func TestClusterS3(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no Docker cluster")
	}
	weed := seaweed.Binary(t)
	runCluster(t, []string{"CENSUS_SEAWEEDFS=" + weed}, "--s3")
}

func runCluster(t *testing.T, env []string, args ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no Docker cluster")
	}
	if os.Getenv("CENSUS_SKIP_DOCKER") == "1" {
		t.Skip("CENSUS_SKIP_DOCKER=1")
	}
	if why := dockerUnavailable(); why != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and Docker is needed: %s", why)
		}
		t.Skip(why)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("run.sh needs bash:", err)
	}
	// The bound covers the image build, the cluster's start, the census
	// and the comparison, not the build of census and cmpout (TestMain's):
	// a few minutes on an idle machine, so eight leave room for a busy one.
	limit := 8 * time.Minute
	if d, ok := t.Deadline(); ok {
		limit = min(limit, time.Until(d)-30*time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{filepath.Join(here, "run.sh")}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CENSUS_BINARY="+static, "CENSUS_CMPOUT="+cmpout)
	cmd.Env = append(cmd.Env, env...)
	// On the deadline, SIGTERM the whole process group so that run.sh's
	// trap tears the cluster down; SIGKILL a minute later.
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return terminateGroup(cmd) }
	cmd.WaitDelay = time.Minute
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("run.sh %s(%s):\n%s", strings.Join(append(args, ""), " "), time.Since(start).Round(time.Second), out.String())
	last := lastLine(out.String())
	switch {
	case ctx.Err() != nil:
		t.Fatalf("run.sh did not finish within %s", limit)
	case err != nil:
		t.Fatalf("run.sh: %v: %s", err, last)
	case strings.HasPrefix(last, "SKIP"):
		t.Skip(last)
	case !strings.HasPrefix(last, "PASS"):
		t.Fatalf("run.sh exited 0 without a PASS line: %q", last)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// ---- the census binary and its flags ----

var (
	// binary is the census binary (a plain build) whose --help the tests
	// read; static and cmpout are what run.sh runs, built only when
	// TestCluster will run. TestMain builds them before any test starts,
	// or finds them built by another package of this go test run, so that
	// no test's time bound includes a build.
	binary, static, cmpout string
	helpMu                 sync.Mutex
	helps                  = map[string]*command{}
)

func censusBinary(t *testing.T) string {
	t.Helper()
	return binary
}

func TestMain(m *testing.M) {
	goflag.Parse()
	var err error
	if binary, err = testbin.Census(testbin.Plain); err == nil && clusterWanted() {
		if static, err = testbin.Census(testbin.Static); err == nil {
			cmpout, err = testbin.Build("./test/docker/cmpout", testbin.Plain)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// clusterWanted says whether TestCluster will run the cluster.
func clusterWanted() bool {
	return !testing.Short() && os.Getenv("CENSUS_SKIP_DOCKER") != "1" && dockerUnavailable() == ""
}

// command is what `census SUB --help` says of a subcommand.
type command struct {
	name  string
	args  []string        // the positional arguments of its usage line
	flags map[string]flag // by long name
}

type flag struct {
	typ string // "" for a boolean flag
	def string
}

var (
	flagLine = regexp.MustCompile(`^\s+(?:-\w, )?--([a-z0-9][a-z0-9-]*)(?: (\w+))?(?:\s{2,}(.*))?$`)
	defValue = regexp.MustCompile(`\(default "?([^")]*)"?\)$`)
)

func help(t *testing.T, sub string) *command {
	t.Helper()
	helpMu.Lock()
	defer helpMu.Unlock()
	if c, ok := helps[sub]; ok {
		return c
	}
	out, err := exec.Command(censusBinary(t), sub, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("census %s --help: %v\n%s", sub, err, out)
	}
	c := &command{name: sub, flags: map[string]flag{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	section := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasSuffix(line, ":") && !strings.HasPrefix(line, " "):
			section = line
		case section == "Usage:" && strings.HasPrefix(strings.TrimSpace(line), "census "+sub):
			for _, w := range strings.Fields(strings.TrimSpace(line))[2:] {
				if w = strings.Trim(w, "[]"); w != "flags" {
					c.args = append(c.args, w)
				}
			}
		case section == "Flags:":
			if m := flagLine.FindStringSubmatch(line); m != nil {
				f := flag{typ: m[2]}
				if d := defValue.FindStringSubmatch(m[3]); d != nil {
					f.def = d[1]
				}
				c.flags[m[1]] = f
			}
		}
	}
	if len(c.flags) == 0 {
		t.Fatalf("census %s --help lists no flags:\n%s", sub, out)
	}
	helps[sub] = c
	return c
}

// invocation is one census command line, parsed by its help.
type invocation struct {
	sub   string
	flags map[string]string
	args  []string
}

// parse checks argv (without the binary) against census's real flags.
func parse(t *testing.T, where string, argv []string) (invocation, bool) {
	t.Helper()
	if len(argv) == 0 || strings.HasPrefix(argv[0], "-") {
		t.Errorf("%s: %q starts with no census subcommand", where, argv)
		return invocation{}, false
	}
	c := help(t, argv[0])
	inv := invocation{sub: argv[0], flags: map[string]string{}}
	ok := true
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "--") {
			if strings.HasPrefix(a, "-") {
				t.Errorf("%s: census %s: write flags long, as --flag: %q", where, inv.sub, a)
				ok = false
			}
			inv.args = append(inv.args, a)
			continue
		}
		name, value, hasValue := strings.Cut(a[2:], "=")
		f, known := c.flags[name]
		if !known {
			t.Errorf("%s: census %s has no flag --%s (census %s --help)", where, inv.sub, name, inv.sub)
			ok = false
			continue
		}
		if _, dup := inv.flags[name]; dup {
			t.Errorf("%s: census %s: --%s given twice", where, inv.sub, name)
		}
		if f.typ != "" && !hasValue {
			if i+1 == len(argv) {
				t.Errorf("%s: census %s: --%s wants a %s value", where, inv.sub, name, f.typ)
				ok = false
				continue
			}
			i++
			value = argv[i]
		}
		if f.typ == "int" {
			if _, err := strconv.Atoi(value); err != nil {
				t.Errorf("%s: census %s --%s %q: want an int", where, inv.sub, name, value)
			}
		}
		inv.flags[name] = value
	}
	if len(inv.args) != 0 && len(inv.args) != len(c.args) {
		t.Errorf("%s: census %s takes %v, got arguments %q", where, inv.sub, c.args, inv.args)
		ok = false
	}
	return inv, ok
}

// ---- compose files ----

type compose struct {
	file     string
	Services map[string]*service `yaml:"services"`
	Volumes  map[string]any      `yaml:"volumes"`
	Networks map[string]any      `yaml:"networks"`
}

type service struct {
	name        string
	Image       string            `yaml:"image"`
	Build       any               `yaml:"build"`
	Command     []string          `yaml:"command"`
	Entrypoint  any               `yaml:"entrypoint"`
	User        string            `yaml:"user"`
	Volumes     []any             `yaml:"volumes"`
	Ports       []string          `yaml:"ports"`
	DependsOn   any               `yaml:"depends_on"`
	Environment map[string]string `yaml:"environment"`
	Healthcheck *struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
	inv invocation
}

// mount is one entry of a service's volumes.
type mount struct{ source, target string }

func (s *service) mounts(t *testing.T, file string) []mount {
	var ms []mount
	for _, v := range s.Volumes {
		switch v := v.(type) {
		case string:
			parts := strings.Split(v, ":")
			if len(parts) < 2 {
				t.Errorf("%s: service %s: volume %q has no target", file, s.name, v)
				continue
			}
			ms = append(ms, mount{parts[0], parts[1]})
		case map[string]any:
			src, _ := v["source"].(string)
			dst, _ := v["target"].(string)
			ms = append(ms, mount{src, dst})
		default:
			t.Errorf("%s: service %s: volume %v of type %T", file, s.name, v, v)
		}
	}
	return ms
}

// mountOf is the mount holding the container path p, the deepest one.
func mountOf(ms []mount, p string) (mount, bool) {
	var best mount
	found := false
	for _, m := range ms {
		if p == m.target || strings.HasPrefix(p, strings.TrimSuffix(m.target, "/")+"/") {
			if !found || len(m.target) > len(best.target) {
				best, found = m, true
			}
		}
	}
	return best, found
}

var variable = regexp.MustCompile(`\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-?]([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// interpolate replaces ${VAR:-default} by its default (not the
// environment's value, so that the checks do not depend on it), $$ by $.
func interpolate(s string) string {
	return variable.ReplaceAllStringFunc(s, func(m string) string {
		if m == "$$" {
			return "$"
		}
		return variable.FindStringSubmatch(m)[2]
	})
}

func loadCompose(t *testing.T, file string) *compose {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal([]byte(interpolate(string(raw))), &c); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	c.file, _ = filepath.Rel(root, file)
	if len(c.Services) == 0 {
		t.Fatalf("%s: no services", file)
	}
	for name, s := range c.Services {
		s.name = name
	}
	return &c
}

// censusServices are the services running the census image: those with a
// command, taken as census arguments (the image's entrypoint is /census).
func (c *compose) censusServices(isCensus func(*service) bool) []*service {
	var ss []*service
	for _, name := range slices.Sorted(maps.Keys(c.Services)) {
		if s := c.Services[name]; isCensus(s) {
			ss = append(ss, s)
		}
	}
	return ss
}

func splitAddr(t *testing.T, where, addr string) (host, port string) {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Errorf("%s: address %q: %v", where, addr, err)
	}
	return host, port
}

// natsURLs splits a comma-separated list of nats://host:port URLs.
func natsURLs(t *testing.T, where, list string) []*url.URL {
	t.Helper()
	var us []*url.URL
	for _, s := range strings.Split(list, ",") {
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil || u.Scheme != "nats" || u.Port() == "" {
			t.Errorf("%s: %q is not a nats://host:port URL", where, s)
			continue
		}
		us = append(us, u)
	}
	return us
}

// pathFlags are the flags whose values are paths in the container, and
// whether the process writes there.
var pathFlags = map[string]bool{
	"store-dir": true, "store": true, "out": true, "data": true,
	"config": false, "nats-creds": false, "tls-ca": false, "tls-cert": false, "tls-key": false,
}

// checkCompose checks every census command line of a compose file: flags
// exist, ports agree, paths are on volumes, URLs name servers of the file.
func checkCompose(t *testing.T, c *compose, isCensus func(*service) bool) {
	t.Helper()
	ss := c.censusServices(isCensus)
	if len(ss) == 0 {
		t.Fatalf("%s: no census services", c.file)
	}
	servers := map[string]string{} // service -> client port
	for _, s := range ss {
		where := c.file + ": service " + s.name
		if len(s.Command) == 0 {
			t.Errorf("%s: no command (the image's default is --help)", where)
			continue
		}
		if s.Entrypoint != nil {
			t.Errorf("%s: sets entrypoint; the checks assume the image's /census", where)
		}
		inv, ok := parse(t, where, s.Command)
		if !ok {
			continue
		}
		s.inv = inv
		if inv.sub == "server" {
			_, port := splitAddr(t, where+" --listen", inv.flags["listen"])
			servers[s.name] = port
		}
	}
	if len(servers) == 0 {
		t.Errorf("%s: no `census server` service", c.file)
	}

	listenDefault := help(t, "server").flags["listen"].def
	metricsDefault := help(t, "worker").flags["metrics-addr"].def
	if _, p, _ := net.SplitHostPort(listenDefault); p != clientPort {
		t.Errorf("census server --listen defaults to %q, not port %s", listenDefault, clientPort)
	}
	if _, p, _ := net.SplitHostPort(metricsDefault); p != metricsPort {
		t.Errorf("--metrics-addr defaults to %q, not port %s", metricsDefault, metricsPort)
	}

	for _, s := range ss {
		inv := s.inv
		if inv.sub == "" {
			continue
		}
		where := c.file + ": service " + s.name
		mounts := s.mounts(t, c.file)
		switch inv.sub {
		case "server":
			if h, p := splitAddr(t, where+" --listen", inv.flags["listen"]); h != "0.0.0.0" || p != clientPort {
				t.Errorf("%s: --listen %s: want 0.0.0.0:%s, reachable from the other containers", where, inv.flags["listen"], clientPort)
			}
			if v, ok := inv.flags["cluster"]; ok {
				if h, p := splitAddr(t, where+" --cluster", v); h != "0.0.0.0" || p != routePort {
					t.Errorf("%s: --cluster %s: want 0.0.0.0:%s", where, v, routePort)
				}
				if inv.flags["name"] == "" {
					t.Errorf("%s: a cluster node wants --name", where)
				}
			}
			if v, ok := inv.flags["routes"]; ok {
				if _, ok := inv.flags["cluster"]; !ok {
					t.Errorf("%s: --routes without --cluster", where)
				}
				for _, u := range natsURLs(t, where+" --routes", v) {
					if u.Port() != routePort {
						t.Errorf("%s: route %s: want port %s", where, u, routePort)
					}
					if o, ok := c.Services[u.Hostname()]; !ok || o.inv.sub != "server" {
						t.Errorf("%s: route %s names no census server service", where, u)
					} else if u.Hostname() == s.name {
						t.Errorf("%s: routes to itself", where)
					} else if _, ok := o.inv.flags["cluster"]; !ok {
						t.Errorf("%s: route %s: that server has no --cluster", where, u)
					}
				}
			}
			if _, ok := inv.flags["store-dir"]; !ok {
				t.Errorf("%s: no --store-dir: JetStream's state would be in the working directory, not on a named path", where)
			}
		case "worker", "coordinator", "status":
			for _, u := range natsURLs(t, where+" --nats", inv.flags["nats"]) {
				if port, ok := servers[u.Hostname()]; !ok {
					t.Errorf("%s: --nats %s names no census server service", where, u)
				} else if u.Port() != port {
					t.Errorf("%s: --nats %s: that server listens on port %s", where, u, port)
				}
			}
			if _, ok := inv.flags["nats"]; !ok {
				t.Errorf("%s: no --nats: the default %s is the container itself", where, help(t, inv.sub).flags["nats"].def)
			}
			if h, p := splitAddr(t, where+" --metrics-addr", inv.flags["metrics-addr"]); h != "0.0.0.0" || p != metricsPort {
				t.Errorf("%s: --metrics-addr %q: want 0.0.0.0:%s, for Prometheus in another container", where, inv.flags["metrics-addr"], metricsPort)
			}
		default:
			t.Errorf("%s: census %s: not a cluster service", where, inv.sub)
		}
		if inv.sub == "coordinator" {
			if len(inv.args) != 2 {
				t.Errorf("%s: the coordinator wants GAME BOARD, got %q", where, inv.args)
			} else {
				checkGameBoard(t, where, inv.args[0], inv.args[1])
			}
			if inv.flags["store"] == "" {
				t.Errorf("%s: the coordinator wants --store", where)
			}
		}
		// Paths: absolute, on a volume, writable ones under the image's
		// /data (the one directory the image's user owns).
		for name, writes := range pathFlags {
			v, ok := inv.flags[name]
			if !ok || strings.HasPrefix(v, "s3://") {
				continue
			}
			v = strings.TrimPrefix(v, "file://")
			if !path.IsAbs(v) {
				t.Errorf("%s: --%s %s: want an absolute path", where, name, v)
				continue
			}
			m, ok := mountOf(mounts, v)
			if !ok {
				t.Errorf("%s: --%s %s is on no volume: it would be lost with the container", where, name, v)
				continue
			}
			if writes && !(m.target == dataDir || strings.HasPrefix(m.target, dataDir+"/")) {
				t.Errorf("%s: --%s %s is on a volume at %s; only %s is the image user's", where, name, v, m.target, dataDir)
			}
		}
		// Volumes: named ones declared, bind sources present.
		for _, m := range mounts {
			switch {
			case strings.HasPrefix(m.source, ".") || strings.HasPrefix(m.source, "/"):
				src := m.source
				if !filepath.IsAbs(src) {
					src = filepath.Join(filepath.Dir(filepath.Join(root, c.file)), src)
				}
				if _, err := os.Stat(src); err != nil {
					t.Errorf("%s: bind mount %s: %v", where, m.source, err)
				}
			case m.source != "":
				if _, ok := c.Volumes[m.source]; !ok {
					t.Errorf("%s: volume %s is not declared under volumes:", where, m.source)
				}
			}
		}
		// The health check, when it is a census command.
		if s.Healthcheck != nil && len(s.Healthcheck.Test) > 2 && s.Healthcheck.Test[0] == "CMD" && s.Healthcheck.Test[1] == "/census" {
			hc, ok := parse(t, where+" healthcheck", s.Healthcheck.Test[2:])
			if ok && hc.sub == "status" {
				for _, u := range natsURLs(t, where+" healthcheck --nats", hc.flags["nats"]) {
					if (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost") || u.Port() != servers[s.name] {
						t.Errorf("%s: the health check asks %s, not this server on port %s", where, u, servers[s.name])
					}
				}
			}
		}
	}

	// The coordinator's store is where every worker finds it: the same
	// volume at the same place (workers are told the coordinator's path),
	// unless a worker says --store itself.
	var coord *service
	for _, s := range ss {
		if s.inv.sub == "coordinator" {
			coord = s
		}
	}
	if coord == nil {
		t.Errorf("%s: no coordinator service", c.file)
		return
	}
	store := coord.inv.flags["store"]
	cm, ok := mountOf(coord.mounts(t, c.file), store)
	if !ok {
		return
	}
	workers := 0
	for _, s := range ss {
		if s.inv.sub != "worker" {
			continue
		}
		workers++
		p := store
		if v, ok := s.inv.flags["store"]; ok {
			p = v
		}
		wm, ok := mountOf(s.mounts(t, c.file), p)
		_, own := s.inv.flags["store"]
		if !ok || wm.source != cm.source || (!own && wm.target != cm.target) {
			t.Errorf("%s: worker service %s does not see the coordinator's store %s (volume %s at %s)", c.file, s.name, store, cm.source, cm.target)
		}
	}
	if workers == 0 {
		t.Errorf("%s: no worker service", c.file)
	}
}

// checkGameBoard has census judge GAME and BOARD without running a census:
// `census run GAME BOARD --jobs 0` checks the game and the board first,
// then refuses --jobs 0.
func checkGameBoard(t *testing.T, where, game, board string) {
	t.Helper()
	out, err := exec.Command(censusBinary(t), "run", game, board, "--jobs", "0",
		"--out", t.TempDir(), "--metrics-addr", "", "--quiet").CombinedOutput()
	msg := strings.TrimSpace(string(out))
	if err == nil || !strings.Contains(msg, "--jobs 0") {
		t.Errorf("%s: census does not take %s %s: %s", where, game, board, msg)
	}
}

// composeConfig runs `docker-compose config -q` on file, when a compose
// command is installed (no engine needed).
func composeConfig(t *testing.T, file string) {
	t.Helper()
	composeConfigEnv(t, file)
}

// composeConfigEnv is composeConfig with extra environment, for the
// variables a file requires.
func composeConfigEnv(t *testing.T, file string, env ...string) {
	t.Helper()
	var cmd *exec.Cmd
	if p, err := exec.LookPath("docker-compose"); err == nil {
		cmd = exec.Command(p, "-f", file, "config", "-q")
	} else if exec.Command("docker", "compose", "version").Run() == nil {
		cmd = exec.Command("docker", "compose", "-f", file, "config", "-q")
	} else {
		t.Log("no docker-compose: compose's own validation not run")
		return
	}
	cmd.Env = append(os.Environ(), "COMPOSE_PROJECT_NAME=censuscheck")
	cmd.Env = append(cmd.Env, env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s config: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
}

func TestUserCompose(t *testing.T) {
	file := filepath.Join(root, "docker-compose.yml")
	c := loadCompose(t, file)
	composeConfig(t, file)
	isCensus := func(s *service) bool { return s.Build != nil }
	checkCompose(t, c, isCensus)

	var image string
	for _, s := range c.censusServices(isCensus) {
		if b, ok := s.Build.(map[string]any); ok {
			if ctx, _ := b["context"].(string); ctx != "." {
				t.Errorf("service %s: build context %q, want the repository (.)", s.name, ctx)
			}
		}
		if image == "" {
			image = s.Image
		} else if s.Image != image {
			t.Errorf("service %s: image %q, others %q: build once, run everywhere", s.name, s.Image, image)
		}
		if s.User == "0" || strings.HasPrefix(s.User, "0:") || s.User == "root" {
			t.Errorf("service %s runs as root", s.name)
		}
		if s.inv.sub == "server" {
			for _, p := range s.Ports {
				if _, container := lastTwo(p); container != clientPort {
					t.Errorf("service %s publishes %s; the server listens on %s", s.name, p, clientPort)
				}
			}
		}
	}
	// Prometheus scrapes coordinator:9464 and the name worker on 9464
	// (dashboards/prometheus.yml): the services must have those names.
	for _, name := range []string{"coordinator", "worker"} {
		if s, ok := c.Services[name]; !ok || s.inv.sub != name {
			t.Errorf("no service %q running census %s, which dashboards/prometheus.yml scrapes", name, name)
		}
	}
	mounts := map[string]string{}
	for _, name := range []string{"prometheus", "grafana"} {
		s, ok := c.Services[name]
		if !ok {
			t.Errorf("no service %s", name)
			continue
		}
		for _, m := range s.mounts(t, c.file) {
			mounts[m.source] = m.target
		}
	}
	for src, dst := range map[string]string{
		"./dashboards/prometheus.yml": "/etc/prometheus/prometheus.yml",
		"./dashboards/provisioning":   "/etc/grafana/provisioning",
		"./dashboards/census.json":    "/var/lib/grafana/dashboards/census.json",
	} {
		if got, ok := mounts[src]; !ok || got != dst {
			t.Errorf("%s should be mounted at %s, is at %q", src, dst, got)
		}
	}
	checkPrometheusTargets(t, c)
}

// lastTwo returns the last two colon-separated fields of a port mapping
// (host:container), ignoring a host IP and a /protocol.
func lastTwo(p string) (string, string) {
	p, _, _ = strings.Cut(p, "/")
	f := strings.Split(p, ":")
	if len(f) == 1 {
		return "", f[0]
	}
	return f[len(f)-2], f[len(f)-1]
}

// checkPrometheusTargets reads dashboards/prometheus.yml, when present, and
// wants its targets on the services' metrics port.
func checkPrometheusTargets(t *testing.T, c *compose) {
	raw, err := os.ReadFile(filepath.Join(root, "dashboards", "prometheus.yml"))
	if err != nil {
		t.Logf("dashboards/prometheus.yml: %v (targets not checked)", err)
		return
	}
	var cfg struct {
		ScrapeConfigs []struct {
			StaticConfigs []struct {
				Targets []string `yaml:"targets"`
			} `yaml:"static_configs"`
			DNSSDConfigs []struct {
				Names []string `yaml:"names"`
				Port  int      `yaml:"port"`
			} `yaml:"dns_sd_configs"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatalf("dashboards/prometheus.yml: %v", err)
	}
	found := 0
	for _, sc := range cfg.ScrapeConfigs {
		for _, st := range sc.StaticConfigs {
			for _, target := range st.Targets {
				host, port, _ := net.SplitHostPort(target)
				if s, ok := c.Services[host]; ok {
					found++
					if _, p, _ := net.SplitHostPort(s.inv.flags["metrics-addr"]); p != port {
						t.Errorf("dashboards/prometheus.yml scrapes %s; service %s serves metrics on %q", target, host, s.inv.flags["metrics-addr"])
					}
				}
			}
		}
		for _, d := range sc.DNSSDConfigs {
			for _, name := range d.Names {
				if s, ok := c.Services[name]; ok {
					found++
					if _, p, _ := net.SplitHostPort(s.inv.flags["metrics-addr"]); p != strconv.Itoa(d.Port) {
						t.Errorf("dashboards/prometheus.yml scrapes %s:%d; service %s serves metrics on %q", name, d.Port, name, s.inv.flags["metrics-addr"])
					}
				}
			}
		}
	}
	if found == 0 {
		t.Errorf("dashboards/prometheus.yml scrapes none of the services of %s", c.file)
	}
}

func TestTestCompose(t *testing.T) {
	file := filepath.Join(here, "docker-compose.test.yml")
	c := loadCompose(t, file)
	composeConfig(t, file)
	checkCompose(t, c, func(s *service) bool { return len(s.Command) > 0 })

	nodes := 0
	for _, s := range c.Services {
		if s.Build != nil {
			t.Errorf("service %s: builds; the test cluster runs the image run.sh builds", s.name)
		}
		if s.Image != "census-test:latest" {
			t.Errorf("service %s: image %q, want census-test:latest (what run.sh builds)", s.name, s.Image)
		}
		if len(s.Ports) > 0 {
			t.Errorf("service %s publishes ports %v: parallel runs would clash", s.name, s.Ports)
		}
		if s.inv.sub == "server" {
			nodes++
			if _, ok := s.inv.flags["routes"]; !ok {
				t.Errorf("service %s: a server outside the cluster", s.name)
			}
		}
		if s.inv.sub == "coordinator" || s.inv.sub == "worker" {
			if got := len(natsURLs(t, s.name, s.inv.flags["nats"])); got != 3 {
				t.Errorf("service %s: connects to %d servers, want all 3", s.name, got)
			}
		}
	}
	if nodes != 3 {
		t.Errorf("%d census server nodes, want 3", nodes)
	}
	for name, n := range c.Networks {
		if m, _ := n.(map[string]any); m["internal"] != true {
			t.Errorf("network %s is not internal: the test cluster should be private", name)
		}
	}
	// run.sh reads the coordinator's outputs from OUT/GAME-BOARD/.
	runsh, err := os.ReadFile(filepath.Join(here, "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if coord, ok := c.Services["coordinator"]; !ok || coord.inv.flags["out"] == "" {
		t.Error("no coordinator service with --out")
	} else if want := coord.inv.flags["out"] + "/$game-$board"; !bytes.Contains(runsh, []byte(want)) {
		t.Errorf("run.sh does not copy %s, where the coordinator writes", want)
	}
}

// TestS3Compose checks docker-compose.s3.yml, the cluster of run.sh --s3:
// the census services as TestTestCompose's, the S3 server service, the
// coordinator's store in its bucket on its port, credentials from the
// environment for every census process that opens the store, and no
// volume shared between census processes.
func TestS3Compose(t *testing.T) {
	file := filepath.Join(here, "docker-compose.s3.yml")
	c := loadCompose(t, file)
	composeConfigEnv(t, file, "CENSUS_S3_ACCESS_KEY=check", "CENSUS_S3_SECRET_KEY=check")
	isCensus := func(s *service) bool { return s.Image == "census-test:latest" }
	checkCompose(t, c, isCensus)

	s3, ok := c.Services["s3"]
	if !ok {
		t.Fatal("no service s3")
	}
	if s3.Image != "census-seaweedfs-test:latest" {
		t.Errorf("service s3: image %q, want census-seaweedfs-test:latest (seaweedfs-image.sh's, by CENSUS_SEAWEEDFS_IMAGE)", s3.Image)
	}
	if len(s3.Ports) > 0 {
		t.Errorf("service s3 publishes ports %v: parallel runs would clash", s3.Ports)
	}
	weedFlags := map[string]string{}
	for _, a := range s3.Command[1:] {
		k, v, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		weedFlags[k] = v
	}
	if len(s3.Command) == 0 || s3.Command[0] != "mini" {
		t.Errorf("service s3: command %q, want weed mini (one process that makes the bucket)", s3.Command)
	}
	coord, ok := c.Services["coordinator"]
	if !ok {
		t.Fatal("no coordinator service")
	}
	u, err := url.Parse(coord.inv.flags["store"])
	if err != nil || u.Scheme != "s3" {
		t.Fatalf("coordinator --store %q: want s3://bucket/prefix", coord.inv.flags["store"])
	}
	if weedFlags["bucket"] != u.Host {
		t.Errorf("the coordinator's bucket %q is not the one the S3 server makes (-bucket=%s)", u.Host, weedFlags["bucket"])
	}
	ep, err := url.Parse(u.Query().Get("endpoint"))
	if err != nil || ep.Hostname() != "s3" || ep.Port() != "8333" || ep.Scheme != "http" {
		t.Errorf("coordinator --store %s: want endpoint=http://s3:8333, the S3 service's port", u)
	}
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		if !strings.Contains(s3.Environment[k], "CENSUS_S3_") {
			t.Errorf("service s3: %s is not taken from the environment: %q", k, s3.Environment[k])
		}
	}
	owners := map[string]string{} // volume -> the census service mounting it
	for _, s := range c.censusServices(isCensus) {
		if s.inv.sub == "coordinator" || s.inv.sub == "worker" {
			for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
				if s.Environment[k] != s3.Environment[k] {
					t.Errorf("service %s: %s=%q, the S3 server's is %q", s.name, k, s.Environment[k], s3.Environment[k])
				}
			}
			if s.Environment["AWS_REGION"] == "" {
				t.Errorf("service %s: no AWS_REGION", s.name)
			}
		}
		if s.inv.sub == "worker" && len(s.Volumes) > 0 {
			t.Errorf("service %s: volumes %v; the workers of the S3 cluster have none", s.name, s.Volumes)
		}
		for _, m := range s.mounts(t, c.file) {
			if o, ok := owners[m.source]; ok {
				t.Errorf("services %s and %s share volume %s", o, s.name, m.source)
			}
			owners[m.source] = s.name
		}
	}
	runsh, err := os.ReadFile(filepath.Join(here, "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if want := coord.inv.flags["out"] + "/$game-$board"; !bytes.Contains(runsh, []byte(want)) {
		t.Errorf("run.sh does not copy %s, where the coordinator writes", want)
	}
}

// ---- Dockerfiles ----

type instruction struct {
	op   string
	args string
}

// stages splits a Dockerfile into its stages' instructions, joining
// continued lines and dropping comments.
func stages(t *testing.T, file string) [][]instruction {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]instruction
	var cur string
	for _, line := range strings.Split(string(raw), "\n") {
		trimmed := strings.TrimSpace(line)
		if cur == "" && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if strings.HasSuffix(trimmed, "\\") {
			cur += strings.TrimSuffix(trimmed, "\\") + " "
			continue
		}
		cur += trimmed
		op, args, _ := strings.Cut(cur, " ")
		cur = ""
		in := instruction{strings.ToUpper(op), strings.TrimSpace(args)}
		if in.op == "FROM" {
			out = append(out, nil)
		} else if len(out) == 0 {
			if in.op != "ARG" {
				t.Errorf("%s: %s before FROM", file, in.op)
			}
			continue
		}
		out[len(out)-1] = append(out[len(out)-1], in)
	}
	return out
}

// stageFrom is the arguments of a stage's FROM, its first instruction.
func stageFrom(st []instruction) string { return st[0].args }

func TestDockerfile(t *testing.T) {
	file := filepath.Join(root, "Dockerfile")
	ss := stages(t, file)
	if len(ss) != 2 {
		t.Fatalf("Dockerfile: %d stages, want build and runtime", len(ss))
	}
	if got := stageFrom(ss[0]); !regexp.MustCompile(`^golang:1\.26\S* AS build$`).MatchString(got) {
		t.Errorf("Dockerfile: first stage FROM %s, want golang:1.26 AS build", got)
	}
	if got := stageFrom(ss[1]); got != "scratch AS runtime" {
		t.Errorf("Dockerfile: last stage FROM %s, want scratch AS runtime (run.sh cuts the file there)", got)
	}
	build := ss[0]
	var buildLine string
	for _, in := range build {
		if in.op == "RUN" && strings.Contains(in.args, "go build") {
			buildLine = in.args
		}
	}
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "-X main.version=", "-o /census", "./cmd/census"} {
		if !strings.Contains(buildLine, want) {
			t.Errorf("Dockerfile: the go build line lacks %q: %q", want, buildLine)
		}
	}
	// The version variable the ldflags set exists.
	mainGo, err := os.ReadFile(filepath.Join(root, "cmd", "census", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^var version = `).Match(mainGo) {
		t.Error("cmd/census has no `var version =` for -X main.version")
	}

	// The runtime stage: only files from the build stage (which
	// Dockerfile.test stands in for), a numeric non-root user, the
	// entrypoint, the ports census uses, the data volume.
	provided := map[string]bool{}
	for _, in := range stages(t, filepath.Join(here, "Dockerfile.test"))[0][1:] {
		if in.op == "LABEL" {
			continue
		}
		if in.op != "COPY" {
			t.Errorf("Dockerfile.test: %s %s: only COPY and LABEL (no base image, nothing to run)", in.op, in.args)
			continue
		}
		f := strings.Fields(in.args)
		provided[strings.TrimSuffix(f[len(f)-1], "/")] = true
	}
	var user, entrypoint, volume string
	exposed := map[string]bool{}
	for _, in := range ss[1][1:] {
		switch in.op {
		case "COPY":
			f := strings.Fields(in.args)
			if !slices.Contains(f, "--from=build") {
				t.Errorf("Dockerfile runtime: COPY %s: not from the build stage", in.args)
				continue
			}
			src := strings.TrimSuffix(f[len(f)-2], "/")
			if !provided[src] {
				t.Errorf("Dockerfile runtime: COPY %s: test/docker/Dockerfile.test does not provide %s", in.args, src)
			}
		case "RUN", "ADD":
			t.Errorf("Dockerfile runtime: %s on scratch", in.op)
		case "USER":
			user = in.args
		case "ENTRYPOINT":
			entrypoint = in.args
		case "VOLUME":
			volume = in.args
		case "EXPOSE":
			for _, p := range strings.Fields(in.args) {
				exposed[strings.TrimSuffix(p, "/tcp")] = true
			}
		}
	}
	uid, _, _ := strings.Cut(user, ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		t.Errorf("Dockerfile: USER %q, want a numeric non-root user", user)
	}
	if entrypoint != `["/census"]` {
		t.Errorf(`Dockerfile: ENTRYPOINT %s, want ["/census"]`, entrypoint)
	}
	if !strings.Contains(volume, `"`+dataDir+`"`) && volume != dataDir {
		t.Errorf("Dockerfile: VOLUME %s, want %s", volume, dataDir)
	}
	for _, p := range []string{clientPort, routePort, metricsPort} {
		if !exposed[p] {
			t.Errorf("Dockerfile: does not EXPOSE %s", p)
		}
	}
	// The ports match the binary's defaults.
	if _, p, _ := net.SplitHostPort(help(t, "server").flags["listen"].def); !exposed[p] {
		t.Errorf("Dockerfile: the server's default port %s is not exposed", p)
	}
	if _, p, _ := net.SplitHostPort(help(t, "coordinator").flags["metrics-addr"].def); !exposed[p] {
		t.Errorf("Dockerfile: the default metrics port %s is not exposed", p)
	}
}

func TestDockerignore(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for _, needed := range []string{"go.mod", "go.sum", "cmd", "cmd/census"} {
			if ok, _ := filepath.Match(strings.TrimPrefix(line, "/"), needed); ok || line == needed {
				t.Errorf(".dockerignore: %q leaves %s out of the build context", line, needed)
			}
		}
	}
}

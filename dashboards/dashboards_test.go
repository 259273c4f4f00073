package dashboards_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/census-cgt/census/internal/testbin"
)

// The board every test census runs, and solves: about ten seconds with
// two job slots, long enough for Prometheus to scrape it many times; the
// coordinator is started again with a new run when it finishes.
const (
	testGame  = "clobber"
	testBoard = "3x6"
)

// Grafana variables and what they become in the tests. The scrape
// interval of the tests' Prometheus is 1s, so 10s covers ten scrapes.
var grafanaVars = map[string]string{
	"__rate_interval": "10s",
	"__interval":      "2s",
	"__range":         "1m",
}

// ---------------------------------------------------------------------------
// Tools, the census binary, processes.

// tool finds a program on PATH. Without it the test is skipped, except on
// CI (CI=true), where a missing tool is an install step missing and fails.
func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	msg := fmt.Sprintf("%s is not on PATH (Debian/Ubuntu: apt-get install -y prometheus, which brings prometheus and promtool)", name)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; CI=true, so this is a failure, not a skip")
	}
	t.Skip(msg)
	return ""
}

func heavy(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts census processes and Prometheus; skipped with -short")
	}
}

// buildBin is the census binary, built before any test starts (or found
// built by another package of this go test run), so that no test's time
// bound includes a build.
var buildBin string

func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Short() {
		var err error
		if buildBin, err = testbin.Census(testbin.Plain); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

// censusBinary is the census binary TestMain built.
func censusBinary(t *testing.T) string {
	t.Helper()
	if buildBin == "" {
		t.Fatal("no census binary: TestMain builds it only without -short")
	}
	return buildBin
}

// moduleRoot is the directory of the go.mod this package belongs to.
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		t.Fatalf("go env GOMOD: not in a module (%q)", gomod)
	}
	return filepath.Dir(gomod)
}

// freeAddr is a 127.0.0.1 address with a port nobody listened on a moment
// ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// proc is a started process whose output goes to a log file.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
}

// start starts a process and registers its end with t.Cleanup: killed and
// waited for, before the temporary directories it writes go away.
func start(t *testing.T, dir, name, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, log: filepath.Join(dir, name+".log"), done: make(chan struct{})}
	f, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = f, f
	if err := p.cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		p.cmd.Wait()
		f.Close()
		close(p.done)
	}()
	t.Cleanup(p.stop)
	return p
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *proc) stop() {
	if !p.exited() {
		p.cmd.Process.Kill()
	}
	<-p.done
}

func (p *proc) output() string {
	b, _ := os.ReadFile(p.log)
	if len(b) > 4000 {
		b = append([]byte("...\n"), b[len(b)-4000:]...)
	}
	return string(b)
}

// waitFor polls cond every 100ms until it holds or the timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

var httpClient = &http.Client{Timeout: 5 * time.Second}

func get(u string) (string, error) {
	resp, err := httpClient.Get(u)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return string(b), fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return string(b), nil
}

// cluster is a census cluster on this machine: `census server`, workers
// and a coordinator that runs one census after another, each process with
// its own metrics address.
type cluster struct {
	Workers     []string // metrics addresses of the workers
	Coordinator string   // metrics address of the coordinator
	procs       []*proc
	coord       *coordLoop
}

// coordLoop keeps a coordinator running: when one run ends, the next
// starts under a new run ID with the same metrics address, so that
// coordinator series exist for as long as the test runs.
type coordLoop struct {
	mu      sync.Mutex
	stopped bool
	cur     *exec.Cmd
	runs    int
	fails   []string
	done    chan struct{}
}

func (l *coordLoop) stop() {
	l.mu.Lock()
	l.stopped = true
	if l.cur != nil {
		l.cur.Process.Kill()
	}
	l.mu.Unlock()
	<-l.done
}

func startCluster(t *testing.T, workers int) *cluster {
	t.Helper()
	bin := censusBinary(t)
	dir := t.TempDir()
	c := &cluster{}

	natsAddr := freeAddr(t)
	srv := start(t, dir, "server", bin, "server", "--listen", natsAddr, "--store-dir", filepath.Join(dir, "nats"))
	c.procs = append(c.procs, srv)
	if !waitFor(20*time.Second, func() bool {
		conn, err := net.DialTimeout("tcp", natsAddr, time.Second)
		if err == nil {
			conn.Close()
		}
		return err == nil || srv.exited()
	}) || srv.exited() {
		t.Fatalf("census server did not come up on %s:\n%s", natsAddr, srv.output())
	}
	natsURL := "nats://" + natsAddr

	for i := range workers {
		addr := freeAddr(t)
		w := start(t, dir, fmt.Sprintf("worker%d", i+1), bin, "worker", "--nats", natsURL, "--jobs", "1",
			"--metrics-addr", addr, "--quiet")
		c.procs = append(c.procs, w)
		c.Workers = append(c.Workers, addr)
	}
	for i, addr := range c.Workers {
		w := c.procs[i+1]
		if !waitFor(20*time.Second, func() bool { _, err := get("http://" + addr + "/metrics"); return err == nil || w.exited() }) || w.exited() {
			t.Fatalf("census worker does not serve metrics on %s:\n%s", addr, w.output())
		}
	}

	// Before they are killed: the server and workers ran to the end.
	t.Cleanup(func() {
		for _, p := range c.procs {
			if p.exited() {
				t.Errorf("%s exited during the test:\n%s", p.name, p.output())
			}
		}
	})

	c.Coordinator = freeAddr(t)
	l := &coordLoop{done: make(chan struct{})}
	c.coord = l
	store, out := filepath.Join(dir, "store"), filepath.Join(dir, "out")
	logPath := filepath.Join(dir, "coordinator.log")
	go func() {
		defer close(l.done)
		for i := 1; ; i++ {
			f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
			if err != nil {
				l.mu.Lock()
				l.fails = append(l.fails, err.Error())
				l.mu.Unlock()
				return
			}
			// --solve: the solve's series, which the dashboard shows,
			// are there from the start of a run that keeps its
			// positions, and its jobs go through the workers.
			cmd := exec.Command(bin, "coordinator", "--nats", natsURL, "--store", store,
				"--out", filepath.Join(out, fmt.Sprint(i)), "--run", fmt.Sprintf("dash-%d", i),
				"--metrics-addr", c.Coordinator, "--quiet", "--solve", testGame, testBoard)
			cmd.Stdout, cmd.Stderr = f, f
			l.mu.Lock()
			if l.stopped {
				l.mu.Unlock()
				f.Close()
				return
			}
			err = cmd.Start()
			if err == nil {
				l.cur = cmd
			}
			l.mu.Unlock()
			if err == nil {
				err = cmd.Wait()
			}
			f.Close()
			l.mu.Lock()
			l.cur = nil
			stopped := l.stopped
			if !stopped {
				l.runs++
				if err != nil {
					l.fails = append(l.fails, fmt.Sprintf("run dash-%d: %v", i, err))
				}
			}
			l.mu.Unlock()
			if stopped {
				return
			}
			if err != nil {
				time.Sleep(200 * time.Millisecond)
			}
		}
	}()
	t.Cleanup(func() {
		l.stop()
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(l.fails) > 0 {
			b, _ := os.ReadFile(logPath)
			t.Errorf("coordinator runs failed: %s\n%s", strings.Join(l.fails, "; "), b)
		}
	})
	return c
}

// ---------------------------------------------------------------------------
// The dashboard.

type dsRef struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

// dsField is a datasource as Grafana writes it: an object {type, uid}, or
// (older schemas) a string.
type dsField struct {
	Set bool
	Str string
	Ref dsRef
}

func (d *dsField) UnmarshalJSON(b []byte) error {
	d.Set = string(b) != "null"
	if !d.Set {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &d.Str)
	}
	return json.Unmarshal(b, &d.Ref)
}

// IsVar tells whether the datasource is the ${datasource} variable.
func (d dsField) IsVar() bool {
	isVar := func(s string) bool { return s == "${datasource}" || s == "$datasource" }
	if d.Str != "" {
		return isVar(d.Str)
	}
	return isVar(d.Ref.UID)
}

type target struct {
	RefID      string  `json:"refId"`
	Expr       string  `json:"expr"`
	Datasource dsField `json:"datasource"`
	Instant    bool    `json:"instant"`
}

type panel struct {
	ID          int     `json:"id"`
	Type        string  `json:"type"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Datasource  dsField `json:"datasource"`
	GridPos     struct {
		X, Y, W, H int
	} `json:"gridPos"`
	Targets []target `json:"targets"`
	Panels  []panel  `json:"panels"` // a collapsed row's panels
}

type variable struct {
	Name       string          `json:"name"`
	Type       string          `json:"type"`
	Query      json.RawMessage `json:"query"`
	Definition string          `json:"definition"`
	Datasource dsField         `json:"datasource"`
}

// QueryString is the variable's query: a string, or the query field of
// the object newer Grafana versions write.
func (v variable) QueryString() string {
	var s string
	if json.Unmarshal(v.Query, &s) == nil {
		return s
	}
	var o struct {
		Query string `json:"query"`
	}
	if json.Unmarshal(v.Query, &o) == nil && o.Query != "" {
		return o.Query
	}
	return v.Definition
}

type dashboard struct {
	UID           string  `json:"uid"`
	Title         string  `json:"title"`
	SchemaVersion int     `json:"schemaVersion"`
	Panels        []panel `json:"panels"`
	Templating    struct {
		List []variable `json:"list"`
	} `json:"templating"`
}

func loadDashboard(t *testing.T) dashboard {
	t.Helper()
	b, err := os.ReadFile("census.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("census.json: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("census.json: trailing data after the dashboard object")
	}
	return d
}

// allPanels flattens rows.
func (d dashboard) allPanels() []panel {
	var out []panel
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			out = append(out, p)
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	return out
}

func (d dashboard) variable(name string) (variable, bool) {
	for _, v := range d.Templating.List {
		if v.Name == name {
			return v, true
		}
	}
	return variable{}, false
}

// query is one PromQL expression of the dashboard and where it is.
type query struct {
	Where string // panel title and refId
	Expr  string
}

func (d dashboard) queries() []query {
	var qs []query
	for _, p := range d.allPanels() {
		for _, tg := range p.Targets {
			qs = append(qs, query{Where: fmt.Sprintf("panel %q target %s", p.Title, tg.RefID), Expr: tg.Expr})
		}
	}
	return qs
}

// ---------------------------------------------------------------------------
// Metric names in PromQL, without a PromQL parser: strings, label
// matchers, range selectors, grouping label lists and Grafana variables
// are blanked out; of the identifiers left, those not followed by '(' and
// not keywords are metric names.

var (
	reString   = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`")
	reMatchers = regexp.MustCompile(`\{[^{}]*\}`)
	reRange    = regexp.MustCompile(`\[[^\[\]]*\]`)
	reGrouping = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)`)
	reVar      = regexp.MustCompile(`\$\{[^}]*\}|\$\w+|\[\[\w+\]\]`)
	// A number (with an exponent, or a duration such as 5m or 1h30m) or
	// an identifier, whichever starts here.
	reToken = regexp.MustCompile(`0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?:ms|[smhdwy])*|[A-Za-z_:][A-Za-z0-9_:]*`)
	reIdent = regexp.MustCompile(`^[A-Za-z_:][A-Za-z0-9_:]*$`)
)

var promqlKeywords = map[string]bool{
	"and": true, "or": true, "unless": true, "bool": true, "offset": true,
	"by": true, "without": true, "on": true, "ignoring": true,
	"group_left": true, "group_right": true, "inf": true, "nan": true, "atan2": true,
}

func metricNames(expr string) []string {
	s := reVar.ReplaceAllString(expr, " ")
	s = reString.ReplaceAllString(s, `""`)
	s = reMatchers.ReplaceAllString(s, " ")
	s = reRange.ReplaceAllString(s, " ")
	s = reGrouping.ReplaceAllString(s, " ")
	seen := map[string]bool{}
	var names []string
	for _, loc := range reToken.FindAllStringIndex(s, -1) {
		tok := s[loc[0]:loc[1]]
		if !reIdent.MatchString(tok) || promqlKeywords[strings.ToLower(tok)] {
			continue
		}
		if rest := strings.TrimLeft(s[loc[1]:], " \t\r\n"); strings.HasPrefix(rest, "(") {
			continue // a function or an aggregation
		}
		if !seen[tok] {
			seen[tok] = true
			names = append(names, tok)
		}
	}
	return names
}

func TestMetricNamesRegexp(t *testing.T) {
	for expr, want := range map[string][]string{
		`sum by (instance) (rate(census_worker_positions_total[$__rate_interval]))`:                      {"census_worker_positions_total"},
		`histogram_quantile(0.95, sum(rate(a_bucket{k="x(y)"}[5m])) by (le)) > 1e3`:                      {"a_bucket"},
		`time() - max(b{run=~"$run"}) / on(run) group_left(game) c offset 5m`:                            {"b", "c"},
		`x or y and bool z unless node_load1 * 2`:                                                        {"x", "y", "z", "node_load1"},
		`max by (a, b) (jetstream_x{consumer_name="census-workers"}) or nats_y`:                          {"jetstream_x", "nats_y"},
		`sum without (instance) (rate(m[1h30m])) + ignoring (job) n`:                                     {"m", "n"},
		`label_replace(up, "dst", "$1", "src", "(.*)") @ start()`:                                        {"up"},
		`count(count by (x) (q{a=~'b\'c'}))`:                                                             {"q"},
		`-0x1F + .5e-3 + v[${__range}:]`:                                                                 {"v"},
		`go_memstats_heap_inuse_bytes{job="census"} / process_resident_memory_bytes{job="census"} * 100`: {"go_memstats_heap_inuse_bytes", "process_resident_memory_bytes"},
	} {
		if got := metricNames(expr); !slices.Equal(got, want) {
			t.Errorf("metricNames(%s) = %q, want %q", expr, got, want)
		}
	}
}

// natsMetric tells whether a metric comes from prometheus-nats-exporter:
// its JetStream metrics are jetstream_* by default and nats_* with
// -prefix=nats. The dashboard queries both; census itself serves neither.
func natsMetric(name string) bool {
	return strings.HasPrefix(name, "nats_") || strings.HasPrefix(name, "jetstream_")
}

func usesNATS(expr string) bool {
	return slices.ContainsFunc(metricNames(expr), natsMetric)
}

// censusMetrics are the metric names the census binary serves, read from
// the sources that define them: every census_* name in
// worker/metrics.go and coordinator/metrics.go, a histogram's as its
// _bucket, _sum and _count series.
func censusMetrics(t *testing.T) map[string]bool {
	t.Helper()
	root := moduleRoot(t)
	reName := regexp.MustCompile(`"(census_[a-z0-9_]+)"`)
	reHist := regexp.MustCompile(`HistogramOpts\{\s*Name:\s*"(census_[a-z0-9_]+)"`)
	names := map[string]bool{}
	for _, f := range []string{"worker/metrics.go", "coordinator/metrics.go"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		hist := map[string]bool{}
		for _, m := range reHist.FindAllSubmatch(b, -1) {
			hist[string(m[1])] = true
		}
		for _, m := range reName.FindAllSubmatch(b, -1) {
			n := string(m[1])
			if hist[n] {
				names[n+"_bucket"], names[n+"_sum"], names[n+"_count"] = true, true, true
			} else {
				names[n] = true
			}
		}
	}
	if len(names) < 10 {
		t.Fatalf("found only %d census metric names in worker/metrics.go and coordinator/metrics.go: %v", len(names), names)
	}
	return names
}

func TestDashboardJSON(t *testing.T) {
	d := loadDashboard(t)
	if d.UID != "census" || d.Title != "census" {
		t.Errorf("uid %q title %q, want census and census", d.UID, d.Title)
	}
	if d.SchemaVersion < 36 {
		t.Errorf("schemaVersion %d: want a Grafana 9+ schema (36 or later)", d.SchemaVersion)
	}

	ds, ok := d.variable("datasource")
	if !ok || ds.Type != "datasource" || ds.QueryString() != "prometheus" {
		t.Errorf("want a template variable datasource of type datasource with query prometheus, got %+v", ds)
	}
	run, ok := d.variable("run")
	if !ok {
		t.Errorf("no template variable run")
	} else {
		if q := run.QueryString(); q != "label_values(census_coordinator_run_info, run)" {
			t.Errorf("variable run: query %q", q)
		}
		if !run.Datasource.IsVar() {
			t.Errorf("variable run: datasource %+v, want ${datasource}", run.Datasource)
		}
	}

	known := censusMetrics(t)
	ids := map[int]string{}
	used := map[string]bool{}
	nats := 0
	for _, p := range d.allPanels() {
		if p.Type == "row" {
			continue
		}
		if prev, dup := ids[p.ID]; dup || p.ID == 0 {
			t.Errorf("panel %q: id %d (also %q)", p.Title, p.ID, prev)
		}
		ids[p.ID] = p.Title
		if p.GridPos.W <= 0 || p.GridPos.H <= 0 || p.GridPos.X < 0 || p.GridPos.X+p.GridPos.W > 24 {
			t.Errorf("panel %q: gridPos %+v", p.Title, p.GridPos)
		}
		if !p.Datasource.IsVar() {
			t.Errorf("panel %q: datasource %+v, want ${datasource}", p.Title, p.Datasource)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q: no targets", p.Title)
		}
		refs := map[string]bool{}
		panelNATS := false
		for _, tg := range p.Targets {
			where := fmt.Sprintf("panel %q target %q", p.Title, tg.RefID)
			if tg.RefID == "" || refs[tg.RefID] {
				t.Errorf("%s: missing or repeated refId", where)
			}
			refs[tg.RefID] = true
			if tg.Datasource.Set && !tg.Datasource.IsVar() {
				t.Errorf("%s: datasource %+v, want ${datasource}", where, tg.Datasource)
			}
			if strings.TrimSpace(tg.Expr) == "" {
				t.Errorf("%s: no expr", where)
				continue
			}
			names := metricNames(tg.Expr)
			if len(names) == 0 {
				t.Errorf("%s: no metric in %s", where, tg.Expr)
			}
			for _, n := range names {
				used[n] = true
				switch {
				case known[n]:
				case strings.HasPrefix(n, "go_"), strings.HasPrefix(n, "process_"):
				case natsMetric(n):
					panelNATS = true
				default:
					t.Errorf("%s: metric %s is not one census serves (census_* of worker/metrics.go and coordinator/metrics.go, go_*, process_*) nor a NATS exporter metric", where, n)
				}
			}
		}
		if panelNATS {
			nats++
			if !strings.Contains(p.Description, "prometheus-nats-exporter") {
				t.Errorf("panel %q uses NATS exporter metrics; its description must say it needs prometheus-nats-exporter", p.Title)
			}
		}
	}
	if nats != 1 {
		t.Errorf("%d panels use NATS exporter metrics, want exactly the one NATS consumer panel", nats)
	}
	var unused []string
	for n := range known {
		if !used[n] && !strings.HasSuffix(n, "_sum") && !strings.HasSuffix(n, "_count") {
			unused = append(unused, n)
		}
	}
	sort.Strings(unused)
	if len(unused) > 0 {
		t.Logf("census metrics no panel shows: %s", strings.Join(unused, ", "))
	}
}

// substitute replaces the Grafana variables of expr; run is the value of
// $run.
func substitute(t *testing.T, expr, run string) string {
	t.Helper()
	vars := map[string]string{"run": run}
	for k, v := range grafanaVars {
		vars[k] = v
	}
	re := regexp.MustCompile(`\$\{(\w+)(?::\w+)?\}|\$(\w+)|\[\[(\w+)\]\]`)
	out := re.ReplaceAllStringFunc(expr, func(m string) string {
		sm := re.FindStringSubmatch(m)
		name := sm[1] + sm[2] + sm[3]
		v, ok := vars[name]
		if !ok {
			t.Errorf("expression %s: unknown Grafana variable %s", expr, m)
		}
		return v
	})
	return out
}

// ---------------------------------------------------------------------------
// Prometheus configuration.

// TestPromtoolCheckConfig checks the shipped scrape configuration.
func TestPromtoolCheckConfig(t *testing.T) {
	promtool := tool(t, "promtool")
	b, err := os.ReadFile("prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`(?m)^\s+scrape_interval:\s*5s\s*$`,
		`(?m)^\s+-\s*job_name:\s*census\s*$`,
		`(?m)^\s+-\s*coordinator:9464\s*$`,
		`(?m)^\s+dns_sd_configs:`,
		`(?m)^\s+-\s*worker\s*$`,
		`(?m)^\s+type:\s*A\s*$`,
		`(?m)^\s+port:\s*9464\s*$`,
	} {
		if !regexp.MustCompile(want).Match(b) {
			t.Errorf("prometheus.yml: no line matching %s", want)
		}
	}
	cp := filepath.Join(t.TempDir(), "prometheus.yml")
	if err := os.WriteFile(cp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "check", "config", cp).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool check config prometheus.yml: %v\n%s", err, out)
	}
	t.Logf("%s", bytes.TrimSpace(out))
}

// TestProvisioning checks what docker-compose relies on in the Grafana
// provisioning files.
func TestProvisioning(t *testing.T) {
	for file, wants := range map[string][]string{
		"provisioning/datasources/prometheus.yml": {
			`(?m)^apiVersion:\s*1\s*$`, `(?m)^\s+type:\s*prometheus\s*$`, `(?m)^\s+uid:\s*prometheus\s*$`,
			`(?m)^\s+url:\s*http://prometheus:9090\s*$`, `(?m)^\s+timeInterval:\s*5s\s*$`,
		},
		"provisioning/dashboards/census.yml": {
			`(?m)^apiVersion:\s*1\s*$`, `(?m)^\s+type:\s*file\s*$`, `(?m)^\s+path:\s*/var/lib/grafana/dashboards\s*$`,
		},
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Error(err)
			continue
		}
		if bytes.Contains(b, []byte("\t")) {
			t.Errorf("%s: a tab; YAML wants spaces", file)
		}
		for _, w := range wants {
			if !regexp.MustCompile(w).Match(b) {
				t.Errorf("%s: no line matching %s", file, w)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// The metrics census serves, linted by promtool.

// TestMetricsPromtoolLint fetches /metrics of a census worker and of a
// coordinator once every metric family has series, and lints each with
// `promtool check metrics`.
func TestMetricsPromtoolLint(t *testing.T) {
	heavy(t)
	promtool := tool(t, "promtool")
	c := startCluster(t, 1)
	for _, ep := range []struct {
		name, addr string
		want       []string
	}{
		{"worker", c.Workers[0], []string{"census_worker_positions_total{", "census_worker_moves_total{", "census_worker_jobs_finished_total{",
			"census_worker_job_duration_seconds_bucket{", "census_worker_store_read_bytes_total ", "census_worker_store_written_bytes_total ",
			"census_worker_jobs_in_flight ", "go_goroutines ", "process_resident_memory_bytes "}},
		{"coordinator", c.Coordinator, []string{"census_coordinator_run_info{", "census_coordinator_tier{", "census_coordinator_max_tier{",
			"census_coordinator_jobs{", "census_coordinator_positions{", "census_coordinator_eta_seconds{",
			"census_coordinator_last_tier_timestamp_seconds{", "census_coordinator_store_bytes{", "census_coordinator_solve_tier{",
			"census_coordinator_solve_tiers{", "census_coordinator_solve_tiers_done{", "census_coordinator_solve_positions{",
			"census_coordinator_solve_stored{", "go_goroutines ", "process_resident_memory_bytes "}},
	} {
		var body string
		var missing []string
		waitFor(40*time.Second, func() bool {
			b, err := get("http://" + ep.addr + "/metrics")
			if err != nil {
				return false
			}
			body, missing = b, nil
			for _, w := range ep.want {
				if !strings.Contains(body, "\n"+w) {
					missing = append(missing, strings.TrimRight(w, "{ "))
				}
			}
			return len(missing) == 0
		})
		if body == "" || len(missing) > 0 {
			t.Errorf("%s /metrics on %s: no series yet for %v", ep.name, ep.addr, missing)
			if body == "" {
				continue
			}
		}
		cmd := exec.Command(promtool, "check", "metrics")
		cmd.Stdin = strings.NewReader(body)
		out, err := cmd.CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("promtool check metrics on the %s's /metrics: %v\n%s", ep.name, err, out)
		} else {
			t.Logf("%s: %d lines of /metrics pass promtool check metrics", ep.name, strings.Count(body, "\n"))
		}
	}
}

// ---------------------------------------------------------------------------
// The dashboard against a real Prometheus scraping real census processes.

type apiResponse struct {
	Status    string          `json:"status"`
	ErrorType string          `json:"errorType"`
	Error     string          `json:"error"`
	Data      json.RawMessage `json:"data"`
}

func promAPI(base, path string, params url.Values) (json.RawMessage, error) {
	u := base + path
	if params != nil {
		u += "?" + params.Encode()
	}
	resp, err := httpClient.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	var r apiResponse
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("GET %s: %s: %s", u, resp.Status, b)
	}
	if r.Status != "success" {
		return nil, &promError{Type: r.ErrorType, Msg: r.Error}
	}
	return r.Data, nil
}

// promError is an error Prometheus answered with.
type promError struct{ Type, Msg string }

func (e *promError) Error() string { return e.Type + ": " + e.Msg }

type vectorSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// hasNumber tells whether the sample's value is a number, not NaN (a
// histogram quantile with no observations, or 0/0).
func (v vectorSample) hasNumber() bool {
	if v.Metric == nil && v.Value[1] == nil {
		return true // a scalar or string result
	}
	s, ok := v.Value[1].(string)
	return ok && s != "NaN"
}

// instant evaluates expr now. A PromQL error is returned as bad: the
// expression is wrong, waiting will not help.
func instant(base, expr string) (samples []vectorSample, resultType string, bad, err error) {
	data, err := promAPI(base, "/api/v1/query", url.Values{"query": {expr}})
	var pe *promError
	if errors.As(err, &pe) && (pe.Type == "bad_data" || pe.Type == "execution") {
		return nil, "", err, nil
	}
	if err != nil {
		return nil, "", nil, err
	}
	var r struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, "", nil, err
	}
	switch r.ResultType {
	case "vector":
		err = json.Unmarshal(r.Result, &samples)
	case "scalar", "string":
		samples = []vectorSample{{}}
	default:
		return nil, r.ResultType, fmt.Errorf("result type %s, want a vector", r.ResultType), nil
	}
	return samples, r.ResultType, nil, err
}

func TestDashboardAgainstRealPrometheus(t *testing.T) {
	heavy(t)
	prometheus := tool(t, "prometheus")
	began := time.Now()
	d := loadDashboard(t)
	c := startCluster(t, 2)
	t.Logf("census server, 2 workers and a coordinator started after %v", time.Since(began).Round(time.Millisecond))
	dir := t.TempDir()

	// The generated configuration: the shipped job, its targets replaced
	// by this test's processes, scraped every second.
	shipped, err := os.ReadFile("prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	job := regexp.MustCompile(`(?m)^\s+-\s*job_name:\s*(\S+)\s*$`).FindSubmatch(shipped)
	if job == nil {
		t.Fatal("prometheus.yml: no job_name")
	}
	targets := append([]string{c.Coordinator}, c.Workers...)
	cfg := fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: %s
    static_configs:
      - targets: ["%s"]
`, job[1], strings.Join(targets, `", "`))
	cfgPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	promAddr := freeAddr(t)
	prom := start(t, dir, "prometheus", prometheus,
		"--config.file="+cfgPath, "--storage.tsdb.path="+filepath.Join(dir, "tsdb"),
		"--web.listen-address="+promAddr, "--log.level=warn")
	base := "http://" + promAddr
	if !waitFor(30*time.Second, func() bool { _, err := get(base + "/-/ready"); return err == nil || prom.exited() }) || prom.exited() {
		t.Fatalf("prometheus did not get ready on %s:\n%s", promAddr, prom.output())
	}
	t.Logf("prometheus ready after %v", time.Since(began).Round(time.Millisecond))

	// Every target scraped and up.
	var health map[string]string
	if !waitFor(30*time.Second, func() bool {
		data, err := promAPI(base, "/api/v1/targets", url.Values{"state": {"active"}})
		if err != nil {
			return false
		}
		var r struct {
			ActiveTargets []struct {
				ScrapeURL string `json:"scrapeUrl"`
				Health    string `json:"health"`
				LastError string `json:"lastError"`
			} `json:"activeTargets"`
		}
		if json.Unmarshal(data, &r) != nil {
			return false
		}
		health = map[string]string{}
		up := 0
		for _, tg := range r.ActiveTargets {
			health[tg.ScrapeURL] = tg.Health + " " + tg.LastError
			if tg.Health == "up" {
				up++
			}
		}
		return up == len(targets)
	}) {
		t.Fatalf("targets not all up: %v\n%s", health, prom.output())
	}
	t.Logf("%d targets up after %v", len(targets), time.Since(began).Round(time.Millisecond))

	// Evaluate every expression until each has returned data once.
	type pending struct {
		query
		last string
	}
	var todo []*pending
	for _, q := range d.queries() {
		if usesNATS(q.Expr) {
			t.Logf("skipped (needs prometheus-nats-exporter): %s: %s", q.Where, q.Expr)
			continue
		}
		todo = append(todo, &pending{query: q})
	}
	runVar, _ := d.variable("run")
	runQuery := regexp.MustCompile(`^label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,\s*(\w+)\s*\)$`).FindStringSubmatch(runVar.QueryString())
	if runQuery == nil {
		t.Fatalf("variable run: query %q is not label_values(METRIC, LABEL)", runVar.QueryString())
	}
	wantNames := map[string]bool{}
	for _, q := range todo {
		for _, n := range metricNames(q.Expr) {
			wantNames[n] = true
		}
	}

	deadline := time.Now().Add(45 * time.Second)
	var runValues []string
	var missingNames []string
	for {
		// The run variable, as Grafana computes it: the values of the
		// label on the metric over the dashboard's time range.
		if data, err := promAPI(base, "/api/v1/label/"+runQuery[2]+"/values", url.Values{
			"match[]": {runQuery[1]}, "start": {fmt.Sprint(time.Now().Add(-time.Hour).Unix())},
		}); err == nil {
			runValues = nil
			json.Unmarshal(data, &runValues)
		}
		// A user picks a run: the one being computed now.
		run := ""
		if s, _, _, err := instant(base, runQuery[1]); err == nil && len(s) > 0 {
			run = s[0].Metric[runQuery[2]]
		}
		// Every metric the dashboard uses has been scraped.
		if data, err := promAPI(base, "/api/v1/label/__name__/values", nil); err == nil {
			var have []string
			json.Unmarshal(data, &have)
			missingNames = nil
			for n := range wantNames {
				if !slices.Contains(have, n) {
					missingNames = append(missingNames, n)
				}
			}
		}
		if run != "" {
			var still []*pending
			for _, q := range todo {
				expr := substitute(t, q.Expr, regexp.QuoteMeta(run))
				s, typ, bad, err := instant(base, expr)
				switch {
				case bad != nil:
					t.Errorf("%s: %s: %v", q.Where, expr, bad)
				case err != nil:
					q.last = err.Error()
					still = append(still, q)
				case len(s) == 0:
					q.last = "empty " + typ
					still = append(still, q)
				case !slices.ContainsFunc(s, vectorSample.hasNumber):
					q.last = fmt.Sprintf("%d series, all NaN", len(s))
					still = append(still, q)
				default:
					t.Logf("ok (%d series) %s: %s", len(s), q.Where, expr)
				}
			}
			todo = still
		}
		if (len(todo) == 0 && len(runValues) > 0 && len(missingNames) == 0) || time.Now().After(deadline) || t.Failed() {
			break
		}
		time.Sleep(time.Second)
	}
	if len(runValues) == 0 {
		t.Errorf("variable run: %s returned no values", runVar.QueryString())
	} else {
		t.Logf("variable run: %v", runValues)
	}
	sort.Strings(missingNames)
	for _, n := range missingNames {
		t.Errorf("metric %s: used by the dashboard, never scraped from census", n)
	}
	for _, q := range todo {
		t.Errorf("%s: no data in %v: %s (last: %s)", q.Where, time.Since(began).Round(time.Second), q.Expr, q.last)
	}
	c.coord.mu.Lock()
	t.Logf("coordinator runs finished: %d; took %v", c.coord.runs, time.Since(began).Round(time.Millisecond))
	c.coord.mu.Unlock()
	if t.Failed() {
		t.Logf("prometheus log:\n%s", prom.output())
	}
}

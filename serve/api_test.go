package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/probe/probetest"
)

// tables are the real tables the tests serve: Clobber and Amazons on 2x3,
// solved in memory once for the package's tests.
var tables = sync.OnceValues(func() ([]*probe.Table, error) {
	var out []*probe.Table
	for _, g := range []string{"clobber", "amazons"} {
		t, err := probetest.Table(g, "2x3", "", true)
		if err != nil {
			return nil, fmt.Errorf("%s 2x3: %w", g, err)
		}
		out = append(out, t)
	}
	return out, nil
})

// fakeRun is a Run whose answers a test chooses.
type fakeRun struct {
	info  probe.RunInfo
	probe func(diagram string, toMove probe.Player) (*probe.Answer, error)
}

func (f fakeRun) Info() probe.RunInfo { return f.info }
func (f fakeRun) Probe(d string, p probe.Player) (*probe.Answer, error) {
	return f.probe(d, p)
}

// testServer serves the real tables and two fakes: "corrupt-1x1", whose
// every answer is corrupt, and "panic-1x1", whose every answer panics.
func testServer(t *testing.T) (http.Handler, *prometheus.Registry, []*probe.Table) {
	t.Helper()
	s, reg, ts := newTestServer(t)
	return s.Handler(), reg, ts
}

func newTestServer(t *testing.T) (*Server, *prometheus.Registry, []*probe.Table) {
	t.Helper()
	ts, err := tables()
	if err != nil {
		t.Fatal(err)
	}
	var runs []Run
	for _, tb := range ts {
		runs = append(runs, tb)
	}
	runs = append(runs,
		fakeRun{info: probe.RunInfo{Name: "corrupt-1x1", Game: "clobber", Board: "1x1"},
			probe: func(string, probe.Player) (*probe.Answer, error) {
				return nil, fmt.Errorf("%w: a record of tier 0 is cut short", probe.ErrCorrupt)
			}},
		fakeRun{info: probe.RunInfo{Name: "panic-1x1", Game: "clobber", Board: "1x1"},
			probe: func(string, probe.Player) (*probe.Answer, error) { panic("the table fell over") }},
	)
	reg := prometheus.NewRegistry()
	s, err := New(runs, reg)
	if err != nil {
		t.Fatal(err)
	}
	return s, reg, ts
}

// do sends one request to h and returns the response's code and body.
func do(t *testing.T, h http.Handler, method, target string, body io.Reader) (int, http.Header, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, target, body)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Header(), rec.Body.Bytes()
}

// mustJSON is v as the API encodes it.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func positionURL(run, diagram, toMove string) string {
	q := url.Values{"diagram": {diagram}}
	if toMove != "" {
		q.Set("to_move", toMove)
	}
	return "/api/v1/runs/" + run + "/position?" + q.Encode()
}

// reachable lists some positions of tb: its start and the positions its
// moves lead to, breadth first, at most n.
func reachable(t *testing.T, tb *probe.Table, n int) []string {
	t.Helper()
	seen := map[string]bool{tb.Info().Start: true}
	queue := []string{tb.Info().Start}
	for i := 0; i < len(queue) && len(queue) < n; i++ {
		a, err := tb.Probe(queue[i], probe.Both)
		if err != nil {
			t.Fatal(err)
		}
		for _, moves := range a.Moves {
			for _, m := range moves {
				if !seen[m.Diagram] && len(queue) < n {
					seen[m.Diagram] = true
					queue = append(queue, m.Diagram)
				}
			}
		}
	}
	return queue
}

func TestRuns(t *testing.T) {
	h, _, ts := testServer(t)
	code, hdr, body := do(t, h, "GET", "/api/v1/runs", nil)
	if code != http.StatusOK {
		t.Fatalf("GET /api/v1/runs: %d %s", code, body)
	}
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var got runsReply
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != 4 {
		t.Fatalf("%d runs, want 4: %s", len(got.Runs), body)
	}
	for i, tb := range ts {
		if mustJSON(t, got.Runs[i]) != mustJSON(t, tb.Info()) {
			t.Errorf("run %d = %+v, want %+v", i, got.Runs[i], tb.Info())
		}
	}
	for _, tb := range ts {
		t.Run(tb.Info().Name, func(t *testing.T) {
			code, _, body := do(t, h, "GET", "/api/v1/runs/"+tb.Info().Name, nil)
			if code != http.StatusOK {
				t.Fatalf("%d %s", code, body)
			}
			if got, want := strings.TrimSpace(string(body)), mustJSON(t, tb.Info()); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// TestPosition checks that the API's answers are the table's, for either
// player to move and for both.
func TestPosition(t *testing.T) {
	h, _, ts := testServer(t)
	for _, tb := range ts {
		for _, d := range reachable(t, tb, 12) {
			for _, p := range []probe.Player{probe.Both, probe.Left, probe.Right} {
				t.Run(fmt.Sprintf("%s/%s/%s", tb.Info().Name, d, p), func(t *testing.T) {
					want, err := tb.Probe(d, p)
					if err != nil {
						t.Fatal(err)
					}
					code, _, body := do(t, h, "GET", positionURL(tb.Info().Name, d, p.String()), nil)
					if code != http.StatusOK {
						t.Fatalf("%d %s", code, body)
					}
					if got := strings.TrimSpace(string(body)); got != mustJSON(t, want) {
						t.Errorf("got %s\nwant %s", got, mustJSON(t, want))
					}
				})
			}
		}
	}
}

// TestErrors checks each error's status and that its body is one line of
// JSON naming what is wrong.
func TestErrors(t *testing.T) {
	h, _, _ := testServer(t)
	many := make([]string, MaxBatch+1)
	for i := range many {
		many[i] = "xox/oxo"
	}
	manyBody := mustJSON(t, map[string]any{"diagrams": many})
	hugeBody := `{"diagrams": ["` + strings.Repeat("x", MaxBody) + `"]}`
	tests := []struct {
		name, method, target, body string
		code                       int
		says                       string
	}{
		{"bad diagram", "GET", positionURL("clobber-2x3", "xo/ox", ""), "", 400, "bad diagram"},
		{"bad character", "GET", positionURL("clobber-2x3", "xoz/oxo", "left"), "", 400, "bad diagram"},
		{"amazons count", "GET", positionURL("amazons-2x3", "o.x/..x", "left"), "", 400, "amazons"},
		{"diagram too long", "GET", positionURL("clobber-2x3", strings.Repeat("x", probe.MaxDiagram+1), ""), "", 400, "at most 256"},
		{"missing diagram", "GET", "/api/v1/runs/clobber-2x3/position", "", 400, "missing diagram"},
		{"empty diagram", "GET", "/api/v1/runs/clobber-2x3/position?diagram=", "", 400, "missing diagram"},
		{"bad to_move", "GET", positionURL("clobber-2x3", "xox/oxo", "up"), "", 400, `"up"`},
		{"not in the run", "GET", positionURL("clobber-2x3", "xxx/ooo", "left"), "", 404, "not in the run"},
		{"unknown run", "GET", "/api/v1/runs/chess-8x8", "", 404, `"chess-8x8"`},
		{"unknown run position", "GET", positionURL("chess-8x8", "xox/oxo", ""), "", 404, "chess-8x8"},
		{"unknown API route", "GET", "/api/v2/runs", "", 404, "/api/v2/runs"},
		{"corrupt", "GET", positionURL("corrupt-1x1", "x", ""), "", 500, "corrupt"},
		{"panic", "GET", positionURL("panic-1x1", "x", ""), "", 500, "fell over"},
		{"post runs", "POST", "/api/v1/runs", "", 405, "POST"},
		{"delete run", "DELETE", "/api/v1/runs/clobber-2x3", "", 405, "DELETE"},
		{"post position", "POST", positionURL("clobber-2x3", "xox/oxo", ""), "", 405, "GET"},
		{"get positions", "GET", "/api/v1/runs/clobber-2x3/positions", "", 405, "POST"},
		{"post metrics", "POST", "/metrics", "", 405, "POST"},
		{"batch bad JSON", "POST", "/api/v1/runs/clobber-2x3/positions", `{"diagrams": [`, 400, "bad JSON"},
		{"batch unknown field", "POST", "/api/v1/runs/clobber-2x3/positions", `{"diagram": ["xox/oxo"]}`, 400, "bad JSON"},
		{"batch two values", "POST", "/api/v1/runs/clobber-2x3/positions", `{"diagrams": []} {}`, 400, "after the JSON"},
		{"batch no diagrams", "POST", "/api/v1/runs/clobber-2x3/positions", `{}`, 400, "missing diagrams"},
		{"batch bad to_move", "POST", "/api/v1/runs/clobber-2x3/positions", `{"diagrams": ["xox/oxo"], "to_move": "both"}`, 400, `"both"`},
		{"batch unknown run", "POST", "/api/v1/runs/go-19x19/positions", `{"diagrams": []}`, 404, "go-19x19"},
		{"batch too many", "POST", "/api/v1/runs/clobber-2x3/positions", manyBody, 413, "at most 1000"},
		{"batch body too large", "POST", "/api/v1/runs/clobber-2x3/positions", hugeBody, 413, "over 1048576 bytes"},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			code, hdr, body := do(t, h, c.method, c.target, strings.NewReader(c.body))
			if code != c.code {
				t.Errorf("%s %s: %d, want %d: %s", c.method, c.target, code, c.code, body)
			}
			if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			var e errorReply
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatalf("body %q: %v", body, err)
			}
			if !strings.Contains(e.Error, c.says) {
				t.Errorf("error %q does not say %q", e.Error, c.says)
			}
			if strings.Contains(e.Error, "\n") || strings.Count(strings.TrimSpace(string(body)), "\n") > 0 {
				t.Errorf("error %q is not one line", body)
			}
			if code == 405 && hdr.Get("Allow") == "" {
				t.Error("405 without an Allow header")
			}
		})
	}
	// The server goes on after all of that, the panic included.
	if code, _, body := do(t, h, "GET", positionURL("clobber-2x3", "xox/oxo", "left"), nil); code != 200 {
		t.Errorf("after the errors: %d %s", code, body)
	}
}

// TestBatch asks for a batch with bad diagrams among good ones: each is
// answered in place, in order.
func TestBatch(t *testing.T) {
	h, _, ts := testServer(t)
	for _, tb := range ts {
		name := tb.Info().Name
		good := reachable(t, tb, 3)
		long := strings.Repeat(".", probe.MaxDiagram+1)
		diagrams := []string{good[0], "no/such/board", good[1], "xxx/ooo", long, good[2]}
		for _, toMove := range []string{"", "left", "right"} {
			t.Run(name+"/"+toMove, func(t *testing.T) {
				p, err := probe.ParsePlayer(toMove)
				if err != nil {
					t.Fatal(err)
				}
				body := mustJSON(t, batchRequest{Diagrams: diagrams, ToMove: toMove})
				code, _, got := do(t, h, "POST", "/api/v1/runs/"+name+"/positions", strings.NewReader(body))
				if code != http.StatusOK {
					t.Fatalf("%d %s", code, got)
				}
				var reply struct {
					Answers []json.RawMessage `json:"answers"`
				}
				if err := json.Unmarshal(got, &reply); err != nil {
					t.Fatal(err)
				}
				if len(reply.Answers) != len(diagrams) {
					t.Fatalf("%d answers to %d diagrams", len(reply.Answers), len(diagrams))
				}
				for i, d := range diagrams {
					want, err := tb.Probe(d, p)
					var wantJSON string
					if err != nil {
						wantJSON = mustJSON(t, batchError{Diagram: d, Error: err.Error()})
					} else {
						wantJSON = mustJSON(t, want)
					}
					if string(reply.Answers[i]) != wantJSON {
						t.Errorf("answer %d (%.20s): got %s\nwant %s", i, d, reply.Answers[i], wantJSON)
					}
				}
				var bad batchError
				if err := json.Unmarshal(reply.Answers[1], &bad); err != nil || bad.Error == "" || bad.Diagram != diagrams[1] {
					t.Errorf("the bad diagram's answer %s: want its diagram and an error", reply.Answers[1])
				}
			})
		}
	}
	t.Run("empty", func(t *testing.T) {
		code, _, got := do(t, h, "POST", "/api/v1/runs/clobber-2x3/positions", strings.NewReader(`{"diagrams": []}`))
		if code != 200 || strings.TrimSpace(string(got)) != `{"answers":[]}` {
			t.Errorf("%d %s, want 200 {\"answers\":[]}", code, got)
		}
	})
	t.Run("corrupt", func(t *testing.T) {
		code, _, got := do(t, h, "POST", "/api/v1/runs/corrupt-1x1/positions", strings.NewReader(`{"diagrams": ["x"]}`))
		if code != 500 || !bytes.Contains(got, []byte("corrupt")) {
			t.Errorf("%d %s, want 500 naming the corruption", code, got)
		}
	})
}

func TestNew(t *testing.T) {
	ts, err := tables()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		runs []Run
		says string
	}{
		{"duplicate", []Run{ts[0], ts[1], ts[0]}, "two runs are named clobber-2x3"},
		{"no name", []Run{fakeRun{info: probe.RunInfo{Game: "clobber", Board: "1x1"}}}, "no name"},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.runs, prometheus.NewRegistry())
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Errorf("New: %v, want an error saying %q", err, c.says)
			}
		})
	}
	t.Run("registered twice", func(t *testing.T) {
		reg := prometheus.NewRegistry()
		if _, err := New(nil, reg); err != nil {
			t.Fatal(err)
		}
		if _, err := New(nil, reg); err == nil {
			t.Error("a second server on one registry: no error")
		}
	})
	t.Run("nil registerer", func(t *testing.T) {
		s, err := New([]Run{ts[0]}, nil)
		if err != nil {
			t.Fatal(err)
		}
		code, _, body := do(t, s.Handler(), "GET", "/metrics", nil)
		if code != 200 {
			t.Errorf("/metrics: %d %s", code, body)
		}
	})
}

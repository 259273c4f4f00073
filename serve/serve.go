// Package serve serves solved runs' tablebases over HTTP: a versioned JSON
// API that answers positions (what probe.Table.Probe answers), and a web
// page per run, the position explorer, that draws a position, lists its
// moves coloured by result and plays them, talking only to that API.
//
// The routes:
//
//	GET  /api/v1/runs                         {"runs": [RunInfo...]}
//	GET  /api/v1/runs/{run}                   RunInfo
//	GET  /api/v1/runs/{run}/position?diagram=D[&to_move=left|right]
//	                                          probe.Answer
//	POST /api/v1/runs/{run}/positions         {"diagrams": [...], "to_move": "left"}
//	                                          -> {"answers": [...]}
//	GET  /metrics                             Prometheus
//	GET  /                                    the index of the runs
//	GET  /runs/{run}/?d=D&to_move=left|right  the position explorer
//	GET  /static/...                          the pages' scripts and styles
//
// Every API error is JSON, {"error": "..."}, with its status: 400 for a
// bad question (diagram, to_move, JSON), 404 for an unknown run or a
// position the run does not hold, 405 for a wrong method, 413 for a
// request over the limits, 500 for a corrupt tablebase. The server reads
// no file a request names: its pages and assets are embedded.
package serve

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/census-cgt/census/probe"
)

// Run is a solved run that the server answers for. A *probe.Table is one.
// Its methods must be safe for concurrent use.
type Run interface {
	Info() probe.RunInfo
	Probe(diagram string, toMove probe.Player) (*probe.Answer, error)
}

var _ Run = (*probe.Table)(nil)

// The API's limits.
const (
	// MaxBatch is the most diagrams one POST .../positions asks for.
	MaxBatch = 1000
	// MaxBody is the largest request body the API reads.
	MaxBody = 1 << 20
)

// Server answers for a fixed set of runs. It is safe for concurrent use.
type Server struct {
	runs    map[string]Run
	names   []string // in the order given
	metrics *metrics
	mux     *http.ServeMux
	pages   *pages
	// patterns are the routes, as the metrics label them.
	patterns []string
}

// New returns a server of runs, each known by its RunInfo.Name. Its
// metrics are registered on reg and /metrics serves reg when reg is also
// a prometheus.Gatherer (a *prometheus.Registry is both); with reg nil
// the server keeps a registry of its own. It fails when two runs share a
// name, a run has none, or the metrics are already registered on reg.
func New(runs []Run, reg prometheus.Registerer) (*Server, error) {
	s := &Server{runs: map[string]Run{}}
	for _, r := range runs {
		name := r.Info().Name
		if name == "" {
			return nil, fmt.Errorf("serve: a run of %s %s has no name", r.Info().Game, r.Info().Board)
		}
		if _, dup := s.runs[name]; dup {
			return nil, fmt.Errorf("serve: two runs are named %s; serve one of them", name)
		}
		s.runs[name] = r
		s.names = append(s.names, name)
	}
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, err
	}
	s.metrics = m
	gather, ok := reg.(prometheus.Gatherer)
	if !ok {
		gather = prometheus.DefaultGatherer
	}
	p, err := newPages()
	if err != nil {
		return nil, err
	}
	s.pages = p
	s.routes(gather)
	return s, nil
}

// Handler is the server's HTTP handler: every route of the package doc.
func (s *Server) Handler() http.Handler { return s.mux }

// infos are the runs' infos in the order New was given them.
func (s *Server) infos() []probe.RunInfo {
	out := make([]probe.RunInfo, 0, len(s.names))
	for _, n := range s.names {
		out = append(out, s.runs[n].Info())
	}
	return out
}

// run is the run named in the request's path, or nil.
func (s *Server) run(r *http.Request) Run { return s.runs[r.PathValue("run")] }

// routes registers every route. Each API path also has a pattern of no
// method that answers 405 in JSON, since ServeMux's own 405 is plain text.
func (s *Server) routes(gather prometheus.Gatherer) {
	s.mux = http.NewServeMux()
	api := []struct {
		method, path string
		h            http.HandlerFunc
	}{
		{"GET", "/api/v1/runs", s.listRuns},
		{"GET", "/api/v1/runs/{run}", s.getRun},
		{"GET", "/api/v1/runs/{run}/position", s.position},
		{"POST", "/api/v1/runs/{run}/positions", s.positions},
	}
	for _, a := range api {
		s.handle(a.method+" "+a.path, a.h)
		s.handle(a.path, methodNotAllowed(a.method))
	}
	s.handle("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no API route %s; the routes are under /api/v1/runs", r.URL.Path))
	})
	s.handle("GET /metrics", metricsHandler(gather))
	s.handle("/metrics", methodNotAllowed(http.MethodGet))
	pages := []struct {
		path string
		h    http.HandlerFunc
	}{
		{"/{$}", s.index},
		{"/runs/{run}", s.explorerRedirect},
		{"/runs/{run}/{$}", s.explorer},
		{"/static/", s.pages.static()},
	}
	for _, p := range pages {
		s.handle("GET "+p.path, p.h)
		s.handle(p.path, methodNotAllowed(http.MethodGet))
	}
	s.handle("/", s.notFound)
}

// handle registers h on pattern, counted and timed under the pattern and
// kept from bringing the server down by a panic.
func (s *Server) handle(pattern string, h http.HandlerFunc) {
	s.mux.Handle(pattern, s.metrics.instrument(pattern, recoverer(h)))
	s.patterns = append(s.patterns, pattern)
}

// methodNotAllowed answers a request of another method than allow.
func methodNotAllowed(allow string) http.HandlerFunc {
	if allow == http.MethodGet {
		allow = "GET, HEAD"
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed on %s; use %s", r.Method, r.URL.Path, allow))
	}
}

// recoverer answers 500 when h panics, instead of dropping the
// connection; the server goes on.
func recoverer(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				writeError(w, http.StatusInternalServerError, fmt.Sprintf("internal error: %v", v))
			}
		}()
		h(w, r)
	}
}

// sortedNames is for messages: the runs' names, sorted.
func (s *Server) sortedNames() []string {
	out := slices.Clone(s.names)
	slices.Sort(out)
	return out
}

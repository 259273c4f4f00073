package serve

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
)

// TestMetrics counts requests by route and code: the route is the pattern,
// so that positions of many diagrams make one series.
func TestMetrics(t *testing.T) {
	s, reg, ts := newTestServer(t)
	h := s.Handler()
	const position = "GET /api/v1/runs/{run}/position"
	diagrams := reachable(t, ts[0], 5)
	for _, d := range diagrams {
		do(t, h, "GET", positionURL("clobber-2x3", d, "left"), nil)
	}
	do(t, h, "GET", positionURL("clobber-2x3", "xxx/ooo", "left"), nil)
	do(t, h, "GET", positionURL("clobber-2x3", "xo", "left"), nil)
	do(t, h, "GET", positionURL("panic-1x1", "x", "left"), nil)
	do(t, h, "POST", "/api/v1/runs/clobber-2x3/positions", strings.NewReader(`{"diagrams": ["xox/oxo"]}`))
	do(t, h, "GET", "/api/v1/runs/clobber-2x3/positions", nil)
	do(t, h, "GET", "/no/such/page", nil)
	do(t, h, "GET", "/runs/clobber-2x3/", nil)

	checks := []struct {
		route, code string
		want        float64
	}{
		{position, "200", float64(len(diagrams))},
		{position, "404", 1},
		{position, "400", 1},
		{position, "500", 1},
		{"POST /api/v1/runs/{run}/positions", "200", 1},
		{"/api/v1/runs/{run}/positions", "405", 1},
		{"/", "404", 1},
		{"GET /runs/{run}/{$}", "200", 1},
	}
	// One series a route and code, none a path. (Counted before the
	// checks, which would make the series they ask for.)
	if n := testutil.CollectAndCount(reg, "census_serve_requests_total"); n != len(checks) {
		t.Errorf("census_serve_requests_total has %d series, want %d", n, len(checks))
	}
	for _, c := range checks {
		t.Run(c.route+"/"+c.code, func(t *testing.T) {
			if got := testutil.ToFloat64(s.metrics.requests.WithLabelValues(c.route, c.code)); got != c.want {
				t.Errorf("census_serve_requests_total{route=%q,code=%q} = %v, want %v", c.route, c.code, got, c.want)
			}
		})
	}
	// The histogram has a series for every route from the start.
	if n := testutil.CollectAndCount(reg, "census_serve_request_duration_seconds"); n != len(s.patterns) {
		t.Errorf("census_serve_request_duration_seconds has %d series, want one a route (%d)", n, len(s.patterns))
	}
	if got := histogramCount(t, reg, position); got != uint64(len(diagrams)+3) {
		t.Errorf("census_serve_request_duration_seconds{route=%q} counts %d, want %d", position, got, len(diagrams)+3)
	}

	code, _, body := do(t, h, "GET", "/metrics", nil)
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{`census_serve_requests_total{code="200",route="GET /api/v1/runs/{run}/position"}`,
		`census_serve_request_duration_seconds_bucket{route="GET /api/v1/runs/{run}/position",le="5e-05"}`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// histogramCount is the number of requests timed under route.
func histogramCount(t *testing.T, reg *prometheus.Registry, route string) uint64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "census_serve_request_duration_seconds" {
			continue
		}
		for _, m := range f.GetMetric() {
			if label(m, "route") == route {
				return m.GetHistogram().GetSampleCount()
			}
		}
	}
	return 0
}

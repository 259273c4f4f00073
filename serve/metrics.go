package serve

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics counts and times the requests by route: the ServeMux pattern
// that took the request, never its path, so that the series are as few as
// the routes.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "census_serve_requests_total",
			Help: "HTTP requests answered by census serve, by route (the pattern that took the request) and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "census_serve_request_duration_seconds",
			Help: "Time to answer an HTTP request of census serve, by route.",
			// A probe of a table in memory takes tens of microseconds, a
			// batch or a cold read of a tablebase on disk up to a second.
			Buckets: prometheus.ExponentialBucketsRange(50e-6, 1, 12),
		}, []string{"route"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("serve: register metrics: %w", err)
		}
	}
	return m, nil
}

// instrument counts and times h's requests under route.
func (m *metrics) instrument(route string, h http.Handler) http.Handler {
	hist := m.duration.WithLabelValues(route)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			// Counted even when h panics with http.ErrAbortHandler.
			hist.Observe(time.Since(start).Seconds())
			m.requests.WithLabelValues(route, strconv.Itoa(sw.code())).Inc()
		}()
		h.ServeHTTP(sw, r)
	})
}

// metricsHandler serves g's metrics.
func metricsHandler(g prometheus.Gatherer) http.HandlerFunc {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{}).ServeHTTP
}

// statusWriter remembers the status code written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

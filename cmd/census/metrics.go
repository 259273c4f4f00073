package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/pflag"
)

// defaultMetricsAddr is where every census process serves /metrics unless
// told otherwise: localhost only.
const defaultMetricsAddr = "127.0.0.1:9464"

func registerMetricsFlag(fl *pflag.FlagSet, addr *string) {
	fl.StringVar(addr, "metrics-addr", defaultMetricsAddr, "address to serve Prometheus metrics on, at /metrics (empty: none)")
}

// metricsServer serves a registry with the Go runtime and process
// collectors on addr.
type metricsServer struct {
	Registry *prometheus.Registry
	srv      *http.Server
	Addr     string
}

// startMetrics listens on addr; with addr empty it returns a nil server
// and no metrics are kept.
func startMetrics(addr string) (*metricsServer, error) {
	if addr == "" {
		return nil, nil
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	ln, err := net.Listen("tcp", addr)
	if err != nil && addr == defaultMetricsAddr {
		// Several census processes on one machine: the first has the
		// default port, the others take any free one and say so.
		ln, err = net.Listen("tcp", "127.0.0.1:0")
		if err == nil {
			newLogger(false).Warn("metrics port taken, serving elsewhere", "wanted", defaultMetricsAddr, "addr", ln.Addr().String())
		}
	}
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "census: metrics at /metrics")
	})
	m := &metricsServer{Registry: reg, Addr: ln.Addr().String(),
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	go func() {
		if err := m.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			newLogger(false).Error("metrics server", "err", err)
		}
	}()
	return m, nil
}

// registerer is the registry, or nil when metrics are off.
func (m *metricsServer) registerer() prometheus.Registerer {
	if m == nil {
		return nil
	}
	return m.Registry
}

func (m *metricsServer) stop() {
	if m == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	m.srv.Shutdown(ctx)
}

package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/census-cgt/census/worker"
)

// TestMetricsEndpoint serves metrics over real HTTP and reads them back.
func TestMetricsEndpoint(t *testing.T) {
	ms, err := startMetrics("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ms.stop()
	m := worker.NewMetrics(ms.Registry)
	m.Positions.WithLabelValues("clobber", "4x4").Add(1809927)
	resp, err := http.Get("http://" + ms.Addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`census_worker_positions_total{board="4x4",game="clobber"} 1.809927e+06`,
		"go_goroutines", "process_resident_memory_bytes", "census_worker_jobs_in_flight 0",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestMetricsPortTaken: the default port taken by another census process
// moves the metrics elsewhere; an explicit address that is taken is an
// error naming it.
func TestMetricsPortTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := startMetrics(ln.Addr().String()); err == nil || !strings.Contains(err.Error(), ln.Addr().String()) {
		t.Errorf("taken explicit address: err %v, want one naming %s", err, ln.Addr())
	}
	if ms, err := startMetrics(""); ms != nil || err != nil {
		t.Errorf("empty address: %v, %v; want no server", ms, err)
	}
}

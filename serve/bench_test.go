package serve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/probe/probetest"
)

// BenchmarkHTTPPosition asks a real server over loopback HTTP for random
// positions of the solved run CENSUS_PROBE_RUN names (OUT/GAME-BOARD), one
// request at a time, each answer with all its moves and best lines, and
// reports the latency's median and 99th percentile; without it, it is
// skipped. scripts/probe-bench.sh runs it.
//
//	CENSUS_PROBE_RUN=OUT/clobber-5x5 go test -run '^$' -bench HTTP ./serve/
func BenchmarkHTTPPosition(b *testing.B) {
	dir := os.Getenv("CENSUS_PROBE_RUN")
	if dir == "" {
		b.Skip("CENSUS_PROBE_RUN names no solved run")
	}
	t, err := probe.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer t.Close()
	sample, err := probetest.Sample(dir, 20_000, 64, 3)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New([]Run{t}, prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	client := srv.Client()
	base := srv.URL + "/api/v1/runs/" + t.Info().Name + "/position?diagram="
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		began := time.Now()
		resp, err := client.Get(base + url.QueryEscape(sample[i%len(sample)]))
		if err != nil {
			b.Fatal(err)
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d, %v", resp.StatusCode, err)
		}
		lat = append(lat, time.Since(began))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-us")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-us")
}

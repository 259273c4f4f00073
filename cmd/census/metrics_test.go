package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
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

// TestSolveMetrics runs a census that keeps its positions and then its
// solve, each on an embedded NATS server, in this process with one
// metrics endpoint, as census run --solve does, and reads /metrics over
// HTTP: the solve's series are at zero after the census, follow the solve
// tier by tier, and at its end count every tier and stored position, and
// the worker counts the solve jobs by kind.
func TestSolveMetrics(t *testing.T) {
	ms, err := startMetrics("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ms.stop()
	metrics := embedded.NewMetrics(ms.Registry)
	tmp := t.TempDir()
	out := coordinator.OutputDir(filepath.Join(tmp, "out"), "clobber", "3x4")
	ctx := context.Background()
	if _, err := embedded.Run(ctx, embedded.Options{Game: "clobber", Board: "3x4", Out: out, Data: filepath.Join(tmp, "data"),
		Workers: 2, Shards: 3, MemBudget: 64 << 20, Version: "test", Keep: true, Metrics: metrics}); err != nil {
		t.Fatal(err)
	}
	d, err := coordinator.CheckStageDir(out, coordinator.SolveStage)
	if err != nil {
		t.Fatal(err)
	}
	m, idx := d.Manifest, d.Kept
	run := fmt.Sprintf("{run=%q}", m.Run)
	page := func() string {
		t.Helper()
		resp, err := http.Get("http://" + ms.Addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(body)
	}
	check := func(when, body string, want map[string]float64) {
		t.Helper()
		for series, v := range want {
			if got, ok := metricValue(body, series); !ok || got != v {
				t.Errorf("%s: %s = %v (found %v), want %v", when, series, got, ok, v)
			}
		}
	}
	check("after the census", page(), map[string]float64{
		"census_coordinator_solve_tiers" + run: 0, "census_coordinator_solve_tiers_done" + run: 0,
		"census_coordinator_solve_positions" + run: 0, "census_coordinator_solve_stored" + run: 0,
	})
	var stored uint64
	jobs := 0
	for _, kt := range idx.Tiers {
		for _, b := range kt.Blobs {
			stored += b.Count
			jobs++
		}
	}
	told := 0
	_, err = embedded.RunSolve(ctx, embedded.SolveOptions{Dir: out, Data: filepath.Join(tmp, "solve"), Workers: 2, MemBudget: 64 << 20, Metrics: metrics,
		Progress: func(sp coordinator.SolveProgress) {
			told++
			check(fmt.Sprintf("solving tier %d, %d tiers done", sp.Tier, sp.TiersDone), page(), map[string]float64{
				"census_coordinator_solve_tier" + run: float64(sp.Tier), "census_coordinator_solve_tiers" + run: float64(len(idx.Tiers)),
				"census_coordinator_solve_tiers_done" + run: float64(sp.TiersDone), "census_coordinator_solve_positions" + run: float64(sp.Positions),
				"census_coordinator_solve_stored" + run: float64(stored),
			})
		}})
	if err != nil {
		t.Fatal(err)
	}
	if told != 2*len(idx.Tiers) {
		t.Errorf("the solve told its progress %d times, want %d", told, 2*len(idx.Tiers))
	}
	body := page()
	check("after the solve", body, map[string]float64{
		"census_coordinator_solve_tier" + run: 0, "census_coordinator_solve_tiers" + run: float64(len(idx.Tiers)),
		"census_coordinator_solve_tiers_done" + run: float64(len(idx.Tiers)), "census_coordinator_solve_positions" + run: float64(stored),
		"census_coordinator_solve_stored" + run:                                 float64(stored),
		fmt.Sprintf("census_coordinator_jobs{run=%q,state=\"pending\"}", m.Run): 0,
		fmt.Sprintf("census_coordinator_jobs{run=%q,state=\"failed\"}", m.Run):  0,
		`census_worker_jobs_finished_total{kind="solve",result="done"}`:         float64(jobs),
	})
	if v, ok := metricValue(body, `census_worker_jobs_finished_total{kind="unknown",result="done"}`); ok {
		t.Errorf("after the solve: %v jobs of kind unknown", v)
	}
}

// metricValue is the value of series (a metric name and its labels, as
// /metrics spells them) on a /metrics page; false when the page does not
// have it.
func metricValue(page, series string) (float64, bool) {
	for line := range strings.Lines(page) {
		name, value, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && name == series {
			v, err := strconv.ParseFloat(value, 64)
			return v, err == nil
		}
	}
	return -1, false
}

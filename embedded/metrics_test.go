package embedded_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/census-cgt/census/embedded"
)

// TestMetrics runs a census with metrics on and checks their values
// against the spec's numbers for Clobber 2x6.
func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	tmp := t.TempDir()
	_, err := embedded.Run(context.Background(), embedded.Options{
		Game: "clobber", Board: "2x6", Run: "metrics-test", Out: filepath.Join(tmp, "out"),
		Data: filepath.Join(tmp, "data"), Workers: 2, Shards: 3, MemBudget: 16 << 20, Metrics: embedded.NewMetrics(reg),
	})
	if err != nil {
		t.Fatal(err)
	}
	run := map[string]string{"run": "metrics-test"}
	game := map[string]string{"game": "clobber", "board": "2x6"}
	kind := func(k, r string) map[string]string { return map[string]string{"kind": k, "result": r} }
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		// census-spec.md: Clobber 2x6 has 29,463 positions and 139,136 moves.
		{"census_worker_positions_total", game, 29463},
		{"census_worker_moves_total", game, 139136},
		{"census_coordinator_positions", run, 29463},
		// 2x6 has 11 tiers; the coordinator reports their number at the end.
		{"census_coordinator_tier", run, 11},
		{"census_coordinator_eta_seconds", run, 0},
		{"census_coordinator_run_info", map[string]string{"run": "metrics-test", "game": "clobber", "board": "2x6"}, 1},
		{"census_worker_jobs_in_flight", nil, 0},
		// 12 batches of 3 tier jobs (the 11 tiers and the empty one after
		// them), then 3 piece and 3 class jobs.
		{"census_worker_jobs_finished_total", kind("tier", "done"), 12 * 3},
		{"census_worker_jobs_finished_total", kind("piece", "done"), 3},
		{"census_worker_jobs_finished_total", kind("class", "done"), 3},
		{"census_worker_jobs_finished_total", kind("tier", "failed"), 0},
	}
	for _, c := range checks {
		got, ok := find(t, reg, c.name, c.labels)
		if !ok {
			t.Errorf("%s%v: no such series", c.name, c.labels)
		} else if got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	for _, name := range []string{"census_worker_store_written_bytes_total", "census_worker_store_read_bytes_total", "census_coordinator_store_bytes"} {
		if got, _ := find(t, reg, name, nil); got <= 0 {
			t.Errorf("%s = %v, want > 0", name, got)
		}
	}
	// One series per kind of job, from the worker's start: tier, piece,
	// class, value, compact, solve.
	if n := testutil.CollectAndCount(reg, "census_worker_job_duration_seconds"); n != 6 {
		t.Errorf("census_worker_job_duration_seconds has %d series, want one per job kind", n)
	}
}

// find returns the value of the series of name whose labels include want.
func find(t *testing.T, reg *prometheus.Registry, name string, want map[string]string) (float64, bool) {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range want {
				if have[k] != v {
					continue series
				}
			}
			return valueOf(f.GetType(), m), true
		}
	}
	return 0, false
}

func valueOf(typ dto.MetricType, m *dto.Metric) float64 {
	switch typ {
	case dto.MetricType_COUNTER:
		return m.GetCounter().GetValue()
	case dto.MetricType_GAUGE:
		return m.GetGauge().GetValue()
	}
	return m.GetUntyped().GetValue()
}

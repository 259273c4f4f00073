package coordinator

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the coordinator's Prometheus metrics, one series per run.
type Metrics struct {
	Info      *prometheus.GaugeVec
	Tier      *prometheus.GaugeVec
	MaxTier   *prometheus.GaugeVec
	Jobs      *prometheus.GaugeVec
	Positions *prometheus.GaugeVec
	ETA       *prometheus.GaugeVec
	LastTier  *prometheus.GaugeVec
}

// NewMetrics creates the coordinator metrics and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	gauge := func(name, help string, labels ...string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, append([]string{"run"}, labels...))
	}
	m := &Metrics{
		Info:      gauge("census_coordinator_run_info", "Always 1: the game and board of a run.", "game", "board"),
		Tier:      gauge("census_coordinator_tier", "The tier being computed (the number of tiers once the run is past them)."),
		MaxTier:   gauge("census_coordinator_max_tier", "An upper bound on the last tier of the run."),
		Jobs:      gauge("census_coordinator_jobs", "Jobs of the current stage by state: pending (published, not taken), running, done, failed.", "state"),
		Positions: gauge("census_coordinator_positions", "Positions of the finished tiers."),
		ETA:       gauge("census_coordinator_eta_seconds", "Estimated seconds until the run finishes: the time per tier so far times the tiers left (an upper estimate, since late tiers are small)."),
		LastTier:  gauge("census_coordinator_last_tier_timestamp_seconds", "Unix time at which the last tier finished."),
	}
	reg.MustRegister(m.Info, m.Tier, m.MaxTier, m.Jobs, m.Positions, m.ETA, m.LastTier)
	return m
}

// runMetrics keeps the series of one run up to date.
type runMetrics struct {
	m          *Metrics
	run        string
	began      time.Time
	maxTier    int
	tiersDone  int
	tierFrac   float64
	lastFinish time.Time
}

func (m *Metrics) forRun(run, game, board string, maxTier int) *runMetrics {
	if m == nil {
		return nil
	}
	m.Info.WithLabelValues(run, game, board).Set(1)
	m.MaxTier.WithLabelValues(run).Set(float64(maxTier))
	for _, s := range []string{"pending", "running", "done", "failed"} {
		m.Jobs.WithLabelValues(run, s).Set(0)
	}
	return &runMetrics{m: m, run: run, began: time.Now(), maxTier: maxTier}
}

func (r *runMetrics) progress(p Progress) {
	if r == nil {
		return
	}
	r.m.Tier.WithLabelValues(r.run).Set(float64(p.Tier))
	r.m.Positions.WithLabelValues(r.run).Set(float64(p.Positions))
	if p.Stage == "tier" && p.Tier > r.tiersDone {
		r.tiersDone, r.tierFrac = p.Tier, 0
		r.lastFinish = time.Now()
		r.m.LastTier.WithLabelValues(r.run).Set(float64(r.lastFinish.UnixNano()) / 1e9)
	}
	switch p.Stage {
	case "pieces", "classes", "outputs":
		r.tiersDone, r.tierFrac = r.maxTier+1, 0
	case "done":
		r.m.ETA.WithLabelValues(r.run).Set(0)
		return
	}
	r.eta()
}

// jobs records the state of the current batch.
func (r *runMetrics) jobs(done, running, total int) {
	if r == nil {
		return
	}
	running = min(running, total-done)
	r.m.Jobs.WithLabelValues(r.run, "done").Set(float64(done))
	r.m.Jobs.WithLabelValues(r.run, "running").Set(float64(running))
	r.m.Jobs.WithLabelValues(r.run, "pending").Set(float64(total - done - running))
	if total > 0 {
		r.tierFrac = float64(done) / float64(total)
	}
	r.eta()
}

func (r *runMetrics) failed(n int) {
	if r != nil {
		r.m.Jobs.WithLabelValues(r.run, "failed").Set(float64(n))
	}
}

func (r *runMetrics) eta() {
	progress := float64(r.tiersDone) + r.tierFrac
	if progress <= 0 {
		return
	}
	total := float64(r.maxTier + 1)
	left := max(total-progress, 0)
	perTier := time.Since(r.began).Seconds() / progress
	r.m.ETA.WithLabelValues(r.run).Set(perTier * left)
}

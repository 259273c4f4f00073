package coordinator

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/census-cgt/census/runstate"
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
	// StoreBytes is the bytes the run's fragments take in the store.
	StoreBytes *prometheus.GaugeVec
	// The solve stage's (solve.go), under the ID of the census run it
	// solves: the tier being solved, the run's tiers, the tiers solved,
	// and the stored positions solved of all to solve.
	SolveTier, SolveTiers, SolveTiersDone *prometheus.GaugeVec
	SolvePositions, SolveStored           *prometheus.GaugeVec
	// NATSWaits counts the waits for NATS that began (retry.go's
	// natsWait), WaitingForNATS is 1 during one.
	NATSWaits      *prometheus.CounterVec
	WaitingForNATS *prometheus.GaugeVec
}

// NewMetrics creates the coordinator metrics and registers them with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	gauge := func(name, help string, labels ...string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, append([]string{"run"}, labels...))
	}
	m := &Metrics{
		Info:       gauge("census_coordinator_run_info", "Always 1: the game and board of a run.", "game", "board"),
		Tier:       gauge("census_coordinator_tier", "The tier being computed (the number of tiers once the run is past them)."),
		MaxTier:    gauge("census_coordinator_max_tier", "An upper bound on the last tier of the run."),
		Jobs:       gauge("census_coordinator_jobs", "Jobs of the current stage by state: pending (published, not taken), running, done, failed.", "state"),
		Positions:  gauge("census_coordinator_positions", "Positions of the finished tiers."),
		ETA:        gauge("census_coordinator_eta_seconds", "Estimated seconds until the run finishes: the time per tier so far times the tiers left, the reductions counting as one (an upper estimate, since late tiers are small)."),
		LastTier:   gauge("census_coordinator_last_tier_timestamp_seconds", "Unix time at which the last tier finished."),
		StoreBytes: gauge("census_coordinator_store_bytes", "Bytes the run's working data takes in the store after the last finished tier: the next tier's fragments, the piece records of every tier so far and the positions parts."),

		SolveTier:      gauge("census_coordinator_solve_tier", "The tier being solved; the solve runs from the last tier back to tier 0."),
		SolveTiers:     gauge("census_coordinator_solve_tiers", "The tiers the solve stage solves: the run's tiers (0 for a run that keeps its positions until its solve begins)."),
		SolveTiersDone: gauge("census_coordinator_solve_tiers_done", "Tiers solved so far."),
		SolvePositions: gauge("census_coordinator_solve_positions", "Stored positions (one per orbit of the start's symmetries) of the tiers solved so far."),
		SolveStored:    gauge("census_coordinator_solve_stored", "Stored positions the solve stage solves in all: every tier's kept positions (0 until the solve begins)."),

		NATSWaits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "census_coordinator_nats_waits_total",
			Help: "Times a call of the coordinator to NATS failed and was tried again (a leader election, a stalled or lost server): the waits that began."}, []string{"run"}),
		WaitingForNATS: gauge("census_coordinator_waiting_for_nats", "1 while a call of the coordinator to NATS is failing and being tried again, else 0."),
	}
	reg.MustRegister(m.Info, m.Tier, m.MaxTier, m.Jobs, m.Positions, m.ETA, m.LastTier, m.StoreBytes,
		m.SolveTier, m.SolveTiers, m.SolveTiersDone, m.SolvePositions, m.SolveStored, m.NATSWaits, m.WaitingForNATS)
	return m
}

// runMetrics keeps the series of one run up to date.
type runMetrics struct {
	m        *Metrics
	run      string
	lastTier int
}

// forRun starts the series of a run; a run that keeps its positions, for
// a solve, has its solve's series at zero until the solve begins.
func (m *Metrics) forRun(run, game, board string, maxTier int, keep bool) *runMetrics {
	if m == nil {
		return nil
	}
	m.Info.WithLabelValues(run, game, board).Set(1)
	m.MaxTier.WithLabelValues(run).Set(float64(maxTier))
	// A run's waits for NATS are series from its start, at 0 until one
	// comes.
	m.NATSWaits.WithLabelValues(run)
	m.WaitingForNATS.WithLabelValues(run).Set(0)
	m.resetJobs(run)
	if keep {
		m.forSolve(run, game, board).progress(SolveProgress{})
	}
	return &runMetrics{m: m, run: run}
}

// resetJobs sets the job counts of run to zero.
func (m *Metrics) resetJobs(run string) {
	for _, s := range []string{"pending", "running", "done", "failed"} {
		m.Jobs.WithLabelValues(run, s).Set(0)
	}
}

func (r *runMetrics) progress(p Progress) {
	if r == nil {
		return
	}
	r.m.Tier.WithLabelValues(r.run).Set(float64(p.Tier))
	r.m.Positions.WithLabelValues(r.run).Set(float64(p.Positions))
	r.m.ETA.WithLabelValues(r.run).Set(p.ETA.Seconds())
	r.m.StoreBytes.WithLabelValues(r.run).Set(float64(p.StoreBytes))
	if p.Stage == runstate.StageTier && p.Tier > r.lastTier {
		r.lastTier = p.Tier
		r.m.LastTier.WithLabelValues(r.run).Set(float64(time.Now().UnixNano()) / 1e9)
	}
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
}

func (r *runMetrics) failed(n int) {
	if r != nil {
		r.m.Jobs.WithLabelValues(r.run, "failed").Set(float64(n))
	}
}

// solveMetrics keeps the solve series of one run up to date; its job
// counts are the run's census_coordinator_jobs, the solve being a stage
// of the run.
type solveMetrics struct {
	runMetrics
}

// forSolve starts the solve series of the census run run.
func (m *Metrics) forSolve(run, game, board string) *solveMetrics {
	if m == nil {
		return nil
	}
	m.Info.WithLabelValues(run, game, board).Set(1)
	m.resetJobs(run)
	return &solveMetrics{runMetrics{m: m, run: run}}
}

func (r *solveMetrics) progress(p SolveProgress) {
	if r == nil {
		return
	}
	r.m.SolveTier.WithLabelValues(r.run).Set(float64(p.Tier))
	r.m.SolveTiers.WithLabelValues(r.run).Set(float64(p.Tiers))
	r.m.SolveTiersDone.WithLabelValues(r.run).Set(float64(p.TiersDone))
	r.m.SolvePositions.WithLabelValues(r.run).Set(float64(p.Positions))
	r.m.SolveStored.WithLabelValues(r.run).Set(float64(p.Stored))
}

// jobs records the state of the current solve batch.
func (r *solveMetrics) jobs(done, running, total int) {
	if r != nil {
		r.runMetrics.jobs(done, running, total)
	}
}

// failed records a failed solve job.
func (r *solveMetrics) failed(n int) {
	if r != nil {
		r.runMetrics.failed(n)
	}
}

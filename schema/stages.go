package schema

// Stages says where a run's time went, stage by stage (summary.json only;
// summary.parquet has no such columns). Wall times are of the run's last
// start: a resumed run's earlier starts are not in them. CPU times add up
// the jobs' costs as their done-records keep them, so a resumed run's CPU
// includes the jobs that earlier starts finished.
type Stages struct {
	// Tiers is the tier jobs, from the first tier's batch to the end of
	// the last; the compactions run within it.
	Tiers StageTime `json:"tiers"`
	// Compactions is the compaction jobs; their wall time is the part of
	// the tiers' during which one was running.
	Compactions StageTime `json:"compactions"`
	// Pieces is the piece reduction, Classes the class reduction.
	Pieces  StageTime `json:"pieces"`
	Classes StageTime `json:"classes"`
	// Outputs is the writing of the output tables, up to summary.json; its
	// CPU time is the coordinator's.
	Outputs StageTime `json:"outputs"`
	// Solve is the solve stage (census run --solve, census solve): from
	// its first tier's batch to its outputs written; nil in a run that
	// was not solved.
	Solve *StageTime `json:"solve,omitempty"`
}

// StageTime is the time one stage took.
type StageTime struct {
	// WallSeconds is the stage's elapsed time in this start of the run;
	// a tier that an earlier start finished counts the time it took then,
	// when that was a second or more (see runstate.TierPlan).
	WallSeconds float64 `json:"wall_s"`
	// CPUSeconds adds up the CPU time of the stage's jobs, each measured
	// on the thread that ran it (user and system time).
	CPUSeconds float64 `json:"cpu_s"`
	// Jobs counts the stage's jobs, those replayed from the done-records
	// of an earlier start included; InCoordinator counts those that the
	// coordinator of this start ran itself (small tiers and reductions).
	Jobs          int `json:"jobs"`
	InCoordinator int `json:"in_coordinator,omitempty"`
}

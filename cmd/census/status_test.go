package main

import (
	"bytes"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/runstate"
)

// TestPrintRuns checks census status's table: a census run as it always
// was, a finished census being solved with its solve's progress (tiers
// solved of all, the jobs of the tier being solved), and a solve whose
// census ran elsewhere, which failed, on its own line and with its error.
func TestPrintRuns(t *testing.T) {
	census := coordinator.RunInfo{Run: "clobber-4x4-0a1b2c3d", Plan: coordinator.Plan{Game: "clobber", Board: "4x4"},
		Status:   coordinator.Status{State: runstate.StateRunning, Stage: runstate.StageTier, Tier: 5, MaxTier: 16, Positions: 1000, StoreBytes: 2048},
		JobsDone: 3, JobsPending: 5, Holder: "host/12"}
	solving := coordinator.RunInfo{Run: "clobber-3x4-16588a98-kept", Plan: coordinator.Plan{Game: "clobber", Board: "3x4"},
		Status:   coordinator.Status{State: runstate.StateDone, Stage: runstate.StageDone, Tier: 11, MaxTier: 12, Positions: 35772},
		JobsDone: 45,
		Solve: &coordinator.SolveInfo{Stage: "solve-9a98799cd44d0b4a", Status: runstate.SolveStatus{Run: "clobber-3x4-16588a98-kept",
			State: runstate.StateRunning, Tier: 6, Tiers: 11, TiersDone: 4, JobsDone: 1, JobsTotal: 3}}}
	alone := coordinator.RunInfo{Run: "clobber-2x3-00000000-kept", Plan: coordinator.Plan{Game: "clobber", Board: "2x3"},
		Solve: &coordinator.SolveInfo{Stage: "solve-0123456789abcdef", JobsFailed: 1, Status: runstate.SolveStatus{Run: "clobber-2x3-00000000-kept",
			State: runstate.StateFailed, Tier: 2, Tiers: 5, TiersDone: 2, JobsDone: 1, JobsTotal: 2, Error: "solve tier 2: job failed\n"}}}
	// A solve bucket kept from before, while the census runs again:
	// the census is shown.
	again := census
	again.Run, again.Solve = "clobber-4x4-0a1b2c3d-kept", solving.Solve

	tests := []struct {
		name string
		runs []coordinator.RunInfo
		want string
	}{
		{"census", []coordinator.RunInfo{census}, "" +
			"RUN                   GAME     BOARD  STATE    STAGE  TIER  POSITIONS  STORE    JOBS DONE  PENDING  FAILED  COORDINATOR\n" +
			"clobber-4x4-0a1b2c3d  clobber  4x4    running  tier   5/16  1000       2.0 KiB  3          5        0       host/12\n"},
		{"solving", []coordinator.RunInfo{solving, alone, again}, "" +
			"RUN                        GAME     BOARD  STATE    STAGE  TIER         POSITIONS  STORE    JOBS DONE  PENDING  FAILED  COORDINATOR\n" +
			"clobber-2x3-00000000-kept  clobber  2x3    failed   solve  2/5 solved   0          0 B      1          1        1       -\n" +
			"clobber-3x4-16588a98-kept  clobber  3x4    running  solve  4/11 solved  35772      0 B      1          2        0       -\n" +
			"clobber-4x4-0a1b2c3d-kept  clobber  4x4    running  tier   5/16         1000       2.0 KiB  3          5        0       host/12\n" +
			"clobber-2x3-00000000-kept: solve failed: solve tier 2: job failed\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			printRuns(&b, tc.runs)
			if b.String() != tc.want {
				t.Errorf("census status printed\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

package main

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/census-cgt/census/schema"
)

// registerJobs registers --jobs, the number of jobs run at once, on every
// command that runs or schedules jobs, and the older names of the same
// setting as deprecated aliases that still work and print a notice.
func registerJobs(fl *pflag.FlagSet, v *int, def int, usage string, aliases ...string) {
	fl.IntVar(v, "jobs", def, usage)
	for _, a := range aliases {
		fl.IntVar(v, a, def, usage)
		fl.MarkDeprecated(a, "use --jobs")
	}
	if len(aliases) > 0 {
		// The notice goes where errors go, not into the output.
		fl.SetOutput(os.Stderr)
	}
}

// checkJobs refuses, as bad usage, a --jobs of n below 1.
func checkJobs(n int) error {
	if n < 1 {
		return usagef("--jobs %d: want at least 1", n)
	}
	return nil
}

// memBudgetUsage says what --mem-budget means, the same on every command.
// A command may add a clause between it and memBudgetDefault.
const (
	memBudgetUsage   = "memory one job may hold in record buffers before spilling sorted runs, e.g. 256MiB; a process running --jobs jobs at once uses about --jobs times this"
	memBudgetDefault = " (default a quarter of physical memory shared by the --jobs jobs, at most 2GiB a job)"
)

// registerMemBudget adds --mem-budget to fl; extra, when not empty, is a
// clause of the command's own, appended to memBudgetUsage.
func registerMemBudget(fl *pflag.FlagSet, v *string, extra string) {
	fl.StringVar(v, "mem-budget", "", memBudgetUsage+extra+memBudgetDefault)
}

// registerPiecesCodec adds --pieces-codec to fl, the same on census run
// and census coordinator.
func registerPiecesCodec(fl *pflag.FlagSet, v *string) {
	fl.StringVar(v, "pieces-codec", string(schema.CodecZstd), "compression of the pieces table's pages: zstd (smallest files), snappy or lz4_raw (some 5% less CPU a run, 40-70% larger files; see docs/outputs.md); part of the run's ID")
}

// piecesCodec is the codec --pieces-codec names, or a usage error naming
// the value.
func piecesCodec(name string) (schema.Codec, error) {
	c, err := schema.ParseCodec(name)
	if err != nil {
		return "", usagef("--pieces-codec: %v", err)
	}
	return c, nil
}

// spaceCheckHelp describes --no-space-check, the same on census run and
// census coordinator.
const spaceCheckHelp = "do not compare each stage's estimated working data with the free space of the store and data directories (for filesystems that misreport it); a full disk then stops the run when a write fails"

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/schema"
)

// stageCmd is a command that runs a stage after the census on the
// finished run in DIR (census values, census solve): what those commands
// share around the stage itself.
type stageCmd struct {
	stage coordinator.Stage
	dir   string
	// data is the --data flag: the working data, by default defaultData
	// under DIR.
	data        *string
	defaultData string
	jobs        int
	json        bool
}

// run checks --jobs and DIR (checkStageDir), settles --data, and runs
// the stage with run until it is done or interrupted, then prints DIR's
// summary.json under --json.
func (c stageCmd) run(ctx context.Context, run func(ctx context.Context) error) error {
	if err := checkJobs(c.jobs); err != nil {
		return err
	}
	if _, err := checkStageDir(c.dir, c.stage); err != nil {
		return err
	}
	if *c.data == "" {
		*c.data = filepath.Join(c.dir, c.defaultData)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		return err
	}
	if !c.json {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(c.dir, schema.SummaryJSONFile))
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(data)
	return err
}

// checkStageDir refuses, as bad usage, a DIR that is no directory or that
// stage s cannot start from (coordinator.CheckStageDir), saying what to
// do instead.
func checkStageDir(dir string, s coordinator.Stage) (coordinator.StageDir, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return coordinator.StageDir{}, usagef("DIR %s: not a directory", dir)
	}
	d, err := coordinator.CheckStageDir(dir, s)
	switch {
	case err == nil:
		return d, nil
	case errors.Is(err, coordinator.ErrNotKept):
		return d, usagef("DIR %v; run the census again with --solve (census run GAME BOARD --solve)", err)
	case errors.Is(err, coordinator.ErrNotSolvable):
		return d, usagef("DIR %v; loopy games have their own retrograde analysis (docs/retrograde.md)", err)
	case errors.Is(err, coordinator.ErrNotFinished):
		// DIR may be OUT: name the runs under it.
		if runs, _ := filepath.Glob(filepath.Join(dir, "*", schema.ManifestFile)); len(runs) > 0 {
			return d, usagef("DIR %v; DIR is OUT/GAME-BOARD, e.g. %s", err, filepath.Dir(runs[0]))
		}
		return d, usagef("DIR %v", err)
	case errors.Is(err, coordinator.ErrOldSchema):
		return d, usagef("DIR %v", err)
	}
	return d, err
}

// stageEnd ends stage s run in this process with its working data in
// data: a stage interrupted says how to resume it, one that failed
// otherwise says what failed (what: the stage of its DIR), and one that
// is done has its data removed unless keep.
func stageEnd(err error, s coordinator.Stage, what, data string, keep bool) error {
	switch {
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("%s interrupted; run the same command again to resume from %s", s, data)
	case err != nil:
		return fmt.Errorf("%s: %w", what, err)
	case !keep:
		return embedded.Clean(data)
	}
	return nil
}

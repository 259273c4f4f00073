package coordinator

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
)

// RunInfo is one run as `census status` shows it.
type RunInfo struct {
	Run    string `json:"run"`
	Plan   Plan   `json:"plan"`
	Status Status `json:"status"`
	// JobsDone, JobsPending and JobsFailed count the jobs of the current
	// stage: the current tier's shards, the piece or the class
	// reduction; once the run is past its jobs, every job of the run.
	JobsDone    int `json:"jobs_done"`
	JobsPending int `json:"jobs_pending"`
	JobsFailed  int `json:"jobs_failed"`
	// Holder is the coordinator that holds the run (host/pid); empty when
	// none does.
	Holder string `json:"holder,omitempty"`
	// Solve is the run's solve stage, while it runs or while its bucket
	// is kept; nil otherwise.
	Solve *SolveInfo `json:"solve,omitempty"`
}

// SolveInfo is a run's solve stage as `census status` shows it.
type SolveInfo struct {
	// Stage is the stage's run ID, which names its bucket.
	Stage  string               `json:"stage"`
	Status runstate.SolveStatus `json:"status"`
	// JobsFailed counts the stage's jobs that can never succeed.
	JobsFailed int `json:"jobs_failed"`
}

// ListRuns reads every run on the NATS server. A solve stage, which has a
// bucket of its own, is shown as the Solve of the census run it solves,
// not as a run: on its own, with the game and board it names, when the
// server does not hold that run's bucket.
func ListRuns(ctx context.Context, conn *broker.Conn) ([]RunInfo, error) {
	var runs []RunInfo
	var solves []SolveInfo
	names := conn.JS.KeyValueStoreNames(ctx)
	for name := range names.Name() {
		// The stream behind a bucket is KV_<bucket>.
		bucket := strings.TrimPrefix(name, "KV_")
		if !strings.HasPrefix(bucket, broker.BucketPrefix) {
			continue
		}
		run := strings.TrimPrefix(bucket, broker.BucketPrefix)
		kv, err := broker.OpenRunBucket(ctx, conn.JS, run)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			// Deleted since it was listed: a solve stage that finished.
			continue
		}
		if err != nil {
			return nil, err
		}
		b := runstate.New(conn.JS, kv)
		if si, found, err := readSolve(ctx, b, run); err != nil {
			return nil, err
		} else if found {
			solves = append(solves, si)
			continue
		}
		info, err := readRun(ctx, b, run)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(run, solveRunPrefix) && info.Plan == (Plan{}) {
			// A solve stage that has not written its status yet.
			continue
		}
		runs = append(runs, info)
	}
	if err := names.Error(); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	for _, si := range solves {
		i := slices.IndexFunc(runs, func(r RunInfo) bool { return r.Run == si.Status.Run })
		if i < 0 {
			runs = append(runs, RunInfo{Run: si.Status.Run, Plan: Plan{Game: si.Status.Game, Board: si.Status.Board}})
			i = len(runs) - 1
		}
		runs[i].Solve = &si
	}
	return runs, nil
}

// readSolve reads the bucket of the solve stage run; false when the
// bucket is not a solve stage's.
func readSolve(ctx context.Context, b runstate.Bucket, run string) (SolveInfo, bool, error) {
	si := SolveInfo{Stage: run}
	var found bool
	var err error
	if si.Status, found, err = b.SolveStatus(ctx); err != nil || !found {
		return si, false, err
	}
	recs, err := b.Records(ctx)
	if err != nil {
		return si, false, err
	}
	si.JobsFailed = len(recs.Failed)
	return si, true, nil
}

func readRun(ctx context.Context, b runstate.Bucket, run string) (RunInfo, error) {
	info := RunInfo{Run: run}
	var err error
	if info.Plan, _, err = b.Plan(ctx); err != nil {
		return info, err
	}
	if info.Status, _, err = b.Status(ctx); err != nil {
		return info, err
	}
	if l, held, err := b.Lease(ctx); err != nil {
		return info, err
	} else if held {
		info.Holder = l.Holder()
	}
	recs, err := b.Records(ctx)
	if err != nil {
		return info, err
	}
	info.JobsFailed = len(recs.Failed)
	stage, err := stageJobs(ctx, b, info)
	if err != nil {
		return info, err
	}
	if stage == nil {
		// Past the jobs (or before any): every job of the run.
		info.JobsDone = len(recs.Done)
		return info, nil
	}
	for _, key := range stage {
		switch {
		case recs.Done[key]:
			info.JobsDone++
		case !recs.Failed[key]:
			info.JobsPending++
		}
	}
	return info, nil
}

// stageJobs lists the keys of the jobs of the run's current stage, or nil
// when the stage has no jobs (outputs, done) or is not known.
func stageJobs(ctx context.Context, b runstate.Bucket, info RunInfo) ([]string, error) {
	var keys []string
	switch info.Status.Stage {
	case runstate.StageTier:
		tp, found, err := b.TierPlan(ctx, info.Status.Tier)
		if err != nil || !found {
			return nil, err
		}
		for s := range tp.Shards {
			keys = append(keys, jobs.Job{Tier: &jobs.TierJob{Tier: info.Status.Tier, Shard: s}}.Key())
		}
	case runstate.StagePieces:
		for r := range info.Plan.ReduceShards {
			keys = append(keys, jobs.Job{Piece: &jobs.PieceJob{Bucket: r}}.Key())
		}
	case runstate.StageClasses:
		// As many class shards as reduce shards (see reduce).
		for c := range info.Plan.ReduceShards {
			keys = append(keys, jobs.Job{Class: &jobs.ClassJob{Bucket: c}}.Key())
		}
	}
	return keys, nil
}

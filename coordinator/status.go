package coordinator

import (
	"context"
	"fmt"
	"strings"

	"github.com/census-cgt/census/broker"
)

// RunInfo is one run as `census status` shows it.
type RunInfo struct {
	Run    string `json:"run"`
	Plan   Plan   `json:"plan"`
	Status Status `json:"status"`
	// JobsDone, JobsPending and JobsFailed count the jobs of the current
	// stage: the current tier's shards, or the reductions.
	JobsDone    int `json:"jobs_done"`
	JobsPending int `json:"jobs_pending"`
	JobsFailed  int `json:"jobs_failed"`
}

// ListRuns reads every run on the NATS server.
func ListRuns(ctx context.Context, conn *broker.Conn) ([]RunInfo, error) {
	var runs []RunInfo
	names := conn.JS.KeyValueStoreNames(ctx)
	for name := range names.Name() {
		// The stream behind a bucket is KV_<bucket>.
		bucket := strings.TrimPrefix(name, "KV_")
		if !strings.HasPrefix(bucket, broker.BucketPrefix) {
			continue
		}
		run := strings.TrimPrefix(bucket, broker.BucketPrefix)
		info, err := readRun(ctx, conn, run)
		if err != nil {
			return nil, err
		}
		runs = append(runs, info)
	}
	if err := names.Error(); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return runs, nil
}

func readRun(ctx context.Context, conn *broker.Conn, run string) (RunInfo, error) {
	info := RunInfo{Run: run}
	kv, err := broker.OpenRunBucket(ctx, conn.JS, run)
	if err != nil {
		return info, err
	}
	st := state{kv}
	if _, err := st.get(ctx, "plan", &info.Plan); err != nil {
		return info, err
	}
	if _, err := st.get(ctx, "status", &info.Status); err != nil {
		return info, err
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		return info, err
	}
	var tierPrefix, stage string
	switch info.Status.Stage {
	case "tier":
		tierPrefix = fmt.Sprintf("done.tier.%04d.", info.Status.Tier)
		var tp TierPlan
		if found, _ := st.get(ctx, fmt.Sprintf("plan.tier.%04d", info.Status.Tier), &tp); found {
			info.JobsPending = tp.Shards
		}
	case "pieces", "classes":
		stage = "done." + info.Status.Stage + "."
		info.JobsPending = info.Plan.ReduceShards
	}
	for k := range keys.Keys() {
		switch {
		case strings.HasPrefix(k, "failed."):
			info.JobsFailed++
		case tierPrefix != "" && strings.HasPrefix(k, tierPrefix), stage != "" && strings.HasPrefix(k, stage):
			info.JobsDone++
		}
	}
	info.JobsPending = max(info.JobsPending-info.JobsDone-info.JobsFailed, 0)
	return info, nil
}

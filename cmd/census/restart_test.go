package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/census-cgt/census/schema"
)

var (
	jobDone  = regexp.MustCompile(`msg="job done" run=\S+ job=(\S+)`)
	tierDone = regexp.MustCompile(`msg="tier done" tier=(\d+)`)
)

// doneJobs lists the jobs a census process logged as done (at level
// debug), in order.
func doneJobs(log string) []string {
	var ids []string
	for _, m := range jobDone.FindAllStringSubmatch(log, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// tiersDone is the set of tiers a census process logged as done.
func tiersDone(log string) map[int]bool {
	done := map[int]bool{}
	for _, m := range tierDone.FindAllStringSubmatch(log, -1) {
		n, _ := strconv.Atoi(m[1])
		done[n] = true
	}
	return done
}

// restartBoard is the census TestEmbeddedServerKilled runs: fourteen tiers
// and reductions that last long enough to be killed in, in a few seconds.
var restartBoard = []string{"clobber", "2x7", "--shards", "3"}

// killWhen kills p with SIGKILL as soon as its output satisfies at; false
// when p ended (or a minute passed) first.
func killWhen(p *proc, at func(log string) bool) bool {
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if p.exited() {
			return false
		}
		if at(p.output()) {
			p.kill()
			return true
		}
	}
	return false
}

// TestEmbeddedServerKilled kills `census run` — its embedded NATS server,
// workers and coordinator at once — with SIGKILL three times, early, in
// the middle of a tier and during the reductions, each time starting the
// same command again on the same --data. Every start must resume from the
// JetStream state on disk: a job done before a kill is never run again,
// and the outputs are those of an uninterrupted run.
func TestEmbeddedServerKilled(t *testing.T) {
	want, took := embeddedRun(t, restartBoard[0], restartBoard[1], restartBoard[2:]...)
	t.Logf("uninterrupted run took %v", took)
	tmp := t.TempDir()
	out, data := filepath.Join(tmp, "out"), filepath.Join(tmp, "data")
	args := append([]string{"run", "--out", out, "--data", data, "--jobs", "2", noMetrics}, restartBoard...)
	// Every finished job is logged at level debug, after its record is
	// in the run's bucket.
	env := []string{"CENSUS_LOG=debug"}

	kills := []struct {
		name string
		at   func(log string) bool
	}{
		{"early, once tier 1 is done", func(log string) bool { return tiersDone(log)[1] }},
		{"in the middle of a tier from tier 6 on, some of its jobs done", func(log string) bool {
			tiers := tiersDone(log)
			for _, id := range doneJobs(log) {
				var tier, shard int
				if n, _ := fmt.Sscanf(id, "tier-%d-shard-%d", &tier, &shard); n == 2 && tier >= 6 && !tiers[tier] {
					return true
				}
			}
			return false
		}},
		{"during the reductions, a piece job done", func(log string) bool {
			return strings.Contains(log, "job=piece-")
		}},
	}
	// doneIn is the life of the run in which each job was logged done.
	doneIn := map[string]int{}
	record := func(life int, log string) {
		for _, id := range doneJobs(log) {
			if first, ok := doneIn[id]; ok && first != life {
				t.Errorf("job %s, done before kill %d, ran again after it", id, first+1)
			}
			doneIn[id] = life
		}
		if life > 0 && !strings.Contains(log, "resuming run") {
			t.Errorf("start %d did not resume the run: %s", life+1, tail(log, 2000))
		}
	}
	for i, k := range kills {
		p := startCensus(t, fmt.Sprintf("run-%d", i), env, args...)
		if !killWhen(p, k.at) {
			t.Fatalf("census run ended (or hung) before it could be killed %s: %s", k.name, tail(p.output(), 2000))
		}
		log := p.output()
		record(i, log)
		t.Logf("killed %s after %d jobs done in this start", k.name, len(doneJobs(log)))
		if _, err := os.Stat(filepath.Join(out, "clobber-2x7", schema.ManifestFile)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a killed run left a manifest (%v)", err)
		}
	}
	_, stderr, code := censusWithin(t, 60*time.Second, env, args...)
	if code != 0 {
		t.Fatalf("census run after the kills: exit %d: %s", code, tail(stderr, 2000))
	}
	record(len(kills), stderr)
	t.Logf("the last start ran %d jobs, %d in all", len(doneJobs(stderr)), len(doneIn))
	sameOutputs(t, filepath.Join(out, "clobber-2x7"), want)
}

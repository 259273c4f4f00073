package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/jobs"
)

// stopping runs batches through its executor until it has run the given
// number, then stops as a coordinator that dies would: before the next
// batch, or (after) once the last batch's jobs are done but before the
// coordinator has taken in their results and deleted what they replace.
type stopping struct {
	inner   coordinator.Executor
	batches int
	after   bool
}

func (s *stopping) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	if s.batches == 0 {
		return nil, errCrash
	}
	s.batches--
	res, err := s.inner.Execute(ctx, batch, done)
	if err == nil && s.after && s.batches == 0 {
		return nil, errCrash
	}
	return res, err
}

// TestCompactionsResume stops a run that compacts beside every tier after
// each of its first batches, before and after the batch's jobs are done,
// and runs it again: the resumed run makes the same compactions, never
// asks for a fragment a finished compaction deleted, and its summary and
// pieces table equal those of a run that never compacts.
func TestCompactionsResume(t *testing.T) {
	want, wantDir := censusCompact(t, "clobber", "3x4", "", 2, 2, 1<<62)
	wantPieces := readPieces(t, wantDir)
	for _, after := range []bool{false, true} {
		for _, batches := range []int{2, 4, 7} {
			t.Run(fmt.Sprintf("after=%v/batches=%d", after, batches), func(t *testing.T) {
				run := fmt.Sprintf("compact-resume-%v-%d", after, batches)
				ctx, conn, st, kv := natsRun(t, run)
				out := filepath.Join(t.TempDir(), "out")
				cfg := coordinator.Config{
					Census:  coordinator.Census{Game: "clobber", Board: "3x4", Shards: 2},
					Env:     coordinator.Env{Run: run, Store: st, StoreURL: st.Root(), KV: kv},
					Tuning:  coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20, CompactMin: 1},
					Outputs: coordinator.Outputs{Out: out, Version: "test"},
				}
				first := cfg
				first.Exec = &stopping{batches: batches, after: after, inner: &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "first"}}
				if _, err := coordinator.Run(ctx, first); !errors.Is(err, errCrash) {
					t.Fatalf("first coordinator: %v, want the crash", err)
				}
				second := cfg
				second.CompactMin = 1 << 62 // the plan's threshold holds, not this one
				second.Exec = &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "second"}
				res, err := coordinator.Run(ctx, second)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Compactions) == 0 {
					t.Error("the resumed run made no compactions")
				}
				if !reflect.DeepEqual(counts(res.Summary), counts(want.Summary)) {
					t.Errorf("resumed summary differs:\n%+v\n%+v", res.Summary, want.Summary)
				}
				if p := readPieces(t, out); !reflect.DeepEqual(p, wantPieces) {
					t.Errorf("resumed pieces table differs (%d rows vs %d)", len(p), len(wantPieces))
				}
			})
		}
	}
}

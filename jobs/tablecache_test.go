package jobs

import (
	"context"
	"errors"
	"maps"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSolveSharedTables solves with one TableCache for every job: each
// tier's table is loaded once, not once a job, and the outcomes are those
// of the jobs that load their own.
func TestSolveSharedTables(t *testing.T) {
	for _, tc := range []struct{ game, board string }{{"clobber", "3x4"}, {"domineering", "4x4"}, {"amazons", "2x4"}} {
		t.Run(tc.game+"-"+tc.board, func(t *testing.T) {
			g := mustGame(t, tc.game, tc.board, "")
			spec := Spec{Run: "r", Game: tc.game, Board: tc.board, MemBudget: 1 << 20}
			own := keepAndSolve(t, newMemStore(), spec, 5)
			cache := NewTableCache(2)
			shared := keepAndSolveWith(t, newMemStore(), spec, 5, Options{Tables: cache})
			if !maps.Equal(own.records, shared.records) || own.positions != shared.positions || own.start != shared.start {
				t.Fatalf("outcomes with a shared table differ from those without")
			}
			checkAgainstReference(t, g, spec, shared)
			// One load a tier that has a next tier with positions.
			if got := cache.Loads(); got != shared.tiers || shared.jobs <= shared.tiers {
				t.Errorf("%d tables loaded for %d tiers and %d jobs", got, shared.tiers, shared.jobs)
			}
		})
	}
}

// TestTableCacheOneLoad has several jobs ask for the same table at once:
// one loads it, the others wait and share it; a failed load is not kept.
func TestTableCacheOneLoad(t *testing.T) {
	c := NewTableCache(2)
	ctx := context.Background()
	var loads atomic.Int32
	release := make(chan struct{})
	load := func() (*OutcomeTable, error) {
		loads.Add(1)
		<-release
		return &OutcomeTable{shards: 3}, nil
	}
	var wg sync.WaitGroup
	got := make([]*OutcomeTable, 4)
	for i := range got {
		wg.Go(func() {
			tb, err := c.get(ctx, "a", load)
			if err != nil {
				t.Error(err)
			}
			got[i] = tb
		})
	}
	close(release)
	wg.Wait()
	if loads.Load() != 1 || c.Loads() != 1 {
		t.Fatalf("%d loads for four jobs of one table", loads.Load())
	}
	for _, tb := range got {
		if tb != got[0] || tb == nil {
			t.Fatal("the jobs did not share one table")
		}
	}
	bad := errors.New("unreadable")
	if _, err := c.get(ctx, "b", func() (*OutcomeTable, error) { return nil, bad }); !errors.Is(err, bad) {
		t.Fatalf("failed load: %v", err)
	}
	tb, err := c.get(ctx, "b", func() (*OutcomeTable, error) { return &OutcomeTable{shards: 1}, nil })
	if err != nil || tb == nil || tb.shards != 1 {
		t.Fatalf("load after a failed one: %v, %v", tb, err)
	}
	if _, err := c.get(ctx, "a", func() (*OutcomeTable, error) { return &OutcomeTable{shards: 2}, nil }); err != nil || c.Loads() != 3 {
		t.Fatalf("evicted table not loaded again: %d loads, %v", c.Loads(), err)
	}
	c.drop()
	if _, err := c.get(ctx, "a", func() (*OutcomeTable, error) { return &OutcomeTable{shards: 2}, nil }); err != nil || c.Loads() != 4 {
		t.Fatalf("dropped table not loaded again: %d loads, %v", c.Loads(), err)
	}
	var none *TableCache
	none.drop()
}

// TestSolveSharedBudget has jobs whose own budget splits the next tier
// into passes share the tables that the budgets of the process's jobs
// together hold: more tables are loaded whole, once, than by a process of
// one job, and the outcomes are the whole-board solver's.
func TestSolveSharedBudget(t *testing.T) {
	g := mustGame(t, "clobber", "3x4", "")
	spec := Spec{Run: "r", Game: "clobber", Board: "3x4", MemBudget: 4 << 10}
	alone, shared := NewTableCache(1), NewTableCache(8)
	run := keepAndSolveWith(t, newMemStore(), spec, 5, Options{Tables: alone})
	if run.maxPasses < 2 {
		t.Fatalf("budget %d: at most %d pass a job on its own budget", spec.MemBudget, run.maxPasses)
	}
	run = keepAndSolveWith(t, newMemStore(), spec, 5, Options{Tables: shared})
	checkAgainstReference(t, g, spec, run)
	if a, s := alone.Loads(), shared.Loads(); s <= a || s > run.tiers {
		t.Errorf("tables loaded whole: %d by one job, %d shared by eight, of %d tiers", a, s, run.tiers)
	}
}

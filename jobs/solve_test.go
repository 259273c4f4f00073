package jobs

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/census-cgt/census/codec/kept"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/internal/refsolve"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/store"
)

func TestKeptRoundTrip(t *testing.T) {
	ctx := context.Background()
	st := newMemStore()
	for _, c := range []struct{ game, board string }{
		{"clobber", "2x3"}, {"clobber", "4x5"}, {"clobber", "4x8"}, {"domineering", "5x6"}, {"domineering", "6x6"}, {"domineering", "8x8"},
	} {
		game, board := c.game, c.board
		g := mustGame(t, game, board, "")
		r := rand.New(rand.NewPCG(1, uint64(len(board))))
		var codes []uint64
		s := squeeze(g)
		space := uint64(1) << (2 * min(s, 31))
		for range 1000 {
			// Codes of the board; the gaps of a few blocks are
			// large, of others 0.
			codes = append(codes, r.Uint64N(space))
		}
		for i := range uint64(300) {
			codes = append(codes, (codes[0]+i)%space)
		}
		slices.Sort(codes)
		codes = slices.Compact(codes)
		keys := make([]uint64, len(codes))
		for i, c := range codes {
			keys[i] = kept.Key(c, s)
		}
		b := keepKeys(t, st, "k", g, 3, 0, keys)
		got, err := readKept(ctx, st, b, g, 3)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, keys) || b.Count != uint64(len(keys)) {
			t.Fatalf("%s %s: %d keys back of %d", game, board, len(got), len(keys))
		}
		if _, err := readKept(ctx, st, b, g, 4); err == nil {
			t.Errorf("%s %s: read as tier 4", game, board)
		}
		data := st.blobs["k"]
		data[len(data)/2] ^= 1
		if _, err := readKept(ctx, st, b, g, 3); err == nil {
			t.Errorf("%s %s: a flipped bit went unnoticed", game, board)
		}
	}
}

func TestKeptAddOutOfOrder(t *testing.T) {
	kp, err := newKeeper(context.Background(), newMemStore(), "k", mustGame(t, "clobber", "2x2", ""), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := kp.add(5); err != nil {
		t.Fatal(err)
	}
	if err := kp.add(5); err == nil {
		t.Error("a repeated position was kept")
	}
}

// solvedRun is a run kept and solved through jobs: the records of its
// stored positions, from their tablebase shards, and the class counts.
type solvedRun struct {
	records   map[uint64]solve.Record // by stored representative
	positions solve.Counts
	start     solve.Record
	// tableBytes is the bytes of the tablebase shards.
	tableBytes int64
	keptBytes  int64
	stored     uint64
	// maxPasses is the most passes a solve job made over its positions.
	maxPasses int
	// tiers and jobs count the tiers and the solve jobs that had a next
	// tier to load.
	tiers, jobs int
}

// keepAndSolve runs the tiers of spec with their positions kept, with
// shards shards a tier, then solves them backwards.
func keepAndSolve(t *testing.T, st store.Store, spec Spec, shards int) solvedRun {
	t.Helper()
	return keepAndSolveWith(t, st, spec, shards, Options{})
}

// keepAndSolveWith is keepAndSolve with the solve jobs run with opts.
func keepAndSolveWith(t *testing.T, st store.Store, spec Spec, shards int, opts Options) solvedRun {
	t.Helper()
	ctx := context.Background()
	spec.Keep = true
	start, err := WriteStart(ctx, st, spec, shards)
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[int][]Blob{start.Bucket: {start}}
	var kept [][]Blob
	run := solvedRun{records: map[uint64]solve.Record{}}
	for tier := 0; len(inputs) > 0; tier++ {
		next := map[int][]Blob{}
		var tk []Blob
		for shard := 0; shard < shards; shard++ {
			j := &TierJob{Spec: spec, Tier: tier, Shard: shard, Shards: shards, NextShards: shards, ReduceShards: 1, Inputs: inputs[shard]}
			res, err := Run(ctx, st, Job{Tier: j}, Options{})
			if err != nil {
				t.Fatalf("tier %d shard %d: %v", tier, shard, err)
			}
			for _, b := range res.Tier.Next {
				next[b.Bucket] = append(next[b.Bucket], b)
			}
			if k := res.Tier.Kept; k != nil {
				if k.Count != res.Tier.Stats.Stored {
					t.Fatalf("tier %d shard %d kept %d of %d positions", tier, shard, k.Count, res.Tier.Stats.Stored)
				}
				tk = append(tk, *k)
				run.keptBytes += k.Size
				run.stored += k.Count
			} else if res.Tier.Stats.Stored != 0 {
				t.Fatalf("tier %d shard %d kept nothing", tier, shard)
			}
		}
		kept = append(kept, tk)
		inputs = next
	}
	g := mustGame(t, spec.Game, spec.Board, spec.Start)
	var nextKept, nextOut []Blob
	for tier := len(kept) - 1; tier >= 0; tier-- {
		var outs []Blob
		for _, kb := range kept[tier] {
			j := &SolveJob{Spec: spec, Tier: tier, Shard: kb.Bucket, Shards: shards, Kept: kb, NextShards: shards, NextKept: nextKept, Next: nextOut}
			if tier == len(kept)-1 {
				j.NextShards, j.NextKept, j.Next = 0, nil, nil
			}
			res, err := Run(ctx, st, Job{Solve: j}, opts)
			if err != nil {
				t.Fatalf("solve tier %d shard %d: %v", tier, kb.Bucket, err)
			}
			r := res.Solve
			if len(j.NextKept) > 0 {
				run.jobs++
			}
			run.maxPasses = max(run.maxPasses, len(solvePasses(j.NextKept, solveBudget(spec.MemBudget, int(kb.Count)))))
			outs = append(outs, r.Table)
			run.tableBytes += r.Table.Size
			run.positions.Add(r.Positions)
			if r.Start != nil {
				run.start = *r.Start
			}
			keys, err := readKept(ctx, st, kb, g, tier)
			if err != nil {
				t.Fatal(err)
			}
			sh, err := readTable(ctx, st, r.Table, g, tier)
			if err != nil {
				t.Fatal(err)
			}
			var tkeys []uint64
			var recs []solve.Record
			err = sh.All(func(code uint64, r solve.Record) bool {
				tkeys, recs = append(tkeys, TableKey(code, uint8(squeeze(g)))), append(recs, r)
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(keys, tkeys) {
				t.Fatalf("tier %d shard %d: the tablebase shard's %d positions are not the %d kept", tier, kb.Bucket, len(tkeys), len(keys))
			}
			for i, k := range keys {
				run.records[k] = recs[i]
			}
		}
		if len(nextKept) > 0 {
			run.tiers++
		}
		nextKept, nextOut = kept[tier], outs
	}
	return run
}

// TestSolveInPasses solves with budgets too small for the next tier's
// table, so that each job reads it in several passes, and checks the
// outcomes against the reference as the single pass is checked.
func TestSolveInPasses(t *testing.T) {
	for _, tc := range []struct {
		game, board string
		budget      int64
	}{
		{"clobber", "3x4", 4 << 10},
		{"clobber", "2x6", 16 << 10},
		{"domineering", "4x4", 2 << 10},
		{"amazons", "3x3", 1},
	} {
		t.Run(fmt.Sprintf("%s-%s-%d", tc.game, tc.board, tc.budget), func(t *testing.T) {
			g := mustGame(t, tc.game, tc.board, "")
			spec := Spec{Run: "r", Game: tc.game, Board: tc.board, MemBudget: tc.budget}
			run := keepAndSolve(t, newMemStore(), spec, 5)
			if run.maxPasses < 2 {
				t.Fatalf("budget %d: at most %d pass a job", tc.budget, run.maxPasses)
			}
			checkAgainstReference(t, g, spec, run)
		})
	}
}

func TestSolvePasses(t *testing.T) {
	kept := []Blob{{Count: 100}, {Count: 300}, {Count: 50}, {Count: 50}}
	// bytes is what a job holds of n positions of the next tier.
	bytes := func(n float64) int64 { return int64(math.Ceil(n * SolveBytesNext)) }
	for _, tc := range []struct {
		budget int64
		want   [][]int
	}{
		{0, [][]int{{0, 1, 2, 3}}},
		{-5, [][]int{{0, 1, 2, 3}}},
		{bytes(500), [][]int{{0, 1, 2, 3}}},
		{bytes(500) - 1, [][]int{{0, 1, 2}, {3}}},
		{bytes(300), [][]int{{0}, {1}, {2, 3}}},
		{bytes(100), [][]int{{0}, {1}, {2, 3}}},
		{bytes(100) - 1, [][]int{{0}, {1}, {2}, {3}}},
	} {
		if got := solvePasses(kept, tc.budget); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("budget %d: passes %v, want %v", tc.budget, got, tc.want)
		}
	}
}

// TestSolveAgainstWholeBoard checks the solve, position by position,
// against memoised minimax on whole boards without symmetry: every image
// of a stored position has the class and the remoteness for each player
// to move of the representative, with Left and Right exchanged by the
// maps that exchange them, and the counts by class weighted by orbit size
// are the whole-board counts.
func TestSolveAgainstWholeBoard(t *testing.T) {
	boards := map[string][]string{
		"clobber":     {"1x5", "2x2", "2x3", "3x3", "2x5", "3x4", "2x6", "4x4"},
		"domineering": {"2x2", "3x3", "2x5", "3x4", "4x4"},
		"amazons":     {"2x3", "3x3", "2x4"},
	}
	if testing.Short() {
		boards["clobber"] = boards["clobber"][:5]
	}
	for game, bs := range boards {
		for _, board := range bs {
			for _, sym := range []bool{true, false} {
				if board == "4x4" && game == "clobber" && !sym {
					continue // the slowest, 40 s; the plain run is checked on the others
				}
				t.Run(fmt.Sprintf("%s-%s-sym=%v", game, board, sym), func(t *testing.T) {
					g := mustGame(t, game, board, "")
					spec := Spec{Run: "r", Game: game, Board: board, NoSymmetry: !sym, MemBudget: 1 << 20}
					run := keepAndSolve(t, newMemStore(), spec, 3)
					checkAgainstReference(t, g, spec, run)
				})
			}
		}
	}
}

func checkAgainstReference(t *testing.T, g games.Game, spec Spec, run solvedRun) {
	t.Helper()
	ref := refsolve.New(g.(games.Mover))
	rec := refsolve.NewRecorder(g.(games.Mover))
	group := games.StartGroup(g, !spec.NoSymmetry)
	var want solve.Counts
	var n uint64
	var longest uint8
	for _, tier := range refsolve.Reachable(g) {
		for _, pos := range tier {
			o, wantRec := ref.Outcome(pos), rec.Record(pos)
			want[o]++
			canon, negated := group.CanonSign(pos)
			got, ok := run.records[canon]
			if !ok {
				t.Fatalf("%s: no record for the representative of\n%s", g.Board(), g.Format(pos))
			}
			if negated {
				got = got.Negate()
			}
			if got.Outcome() != o {
				t.Fatalf("outcome %s, whole board %s:\n%s", got.Outcome(), o, g.Format(pos))
			}
			if got != wantRec {
				t.Fatalf("remoteness left first %d, right first %d; whole board %d, %d:\n%s",
					got.Left, got.Right, wantRec.Left, wantRec.Right, g.Format(pos))
			}
			longest = max(longest, got.Left, got.Right)
			n++
		}
	}
	if run.positions != want {
		t.Errorf("counts by class %v, whole board %v", run.positions.Map(), want.Map())
	}
	if s := rec.Record(g.Start()); run.start != s {
		t.Errorf("start %+v, whole board %+v", run.start, s)
	}
	t.Logf("%d positions, %d stored, start %s %+v, %v, longest game %d; kept %.2f bytes a stored position, tablebase %.2f",
		n, run.stored, run.start.Outcome(), run.start, want.Map(), longest,
		float64(run.keptBytes)/float64(run.stored), float64(run.tableBytes)/float64(run.stored))
}

// TestOutcomeShard builds a shard's hash table from sorted keys and their
// outcomes and looks up every key and keys it does not hold, the largest
// keys included (the table's free slots hold a key that is not its own).
func TestOutcomeShard(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, top := range [][]uint64{nil, {math.MaxUint64}, {math.MaxUint64 - 2, math.MaxUint64 - 1, math.MaxUint64}} {
		for _, n := range []int{0, 1, 2, 5, 1000, 100_000} {
			set := map[uint64]bool{}
			for _, k := range top {
				set[k] = true
			}
			for len(set) < n+len(top) {
				set[r.Uint64()>>r.IntN(40)] = true
			}
			keys := slices.Sorted(maps.Keys(set))
			recs := make([]solve.Record, len(keys))
			want := make(map[uint64]solve.Record, len(keys))
			for i, k := range keys {
				recs[i] = solve.Record{Left: uint8(r.IntN(30)), Right: uint8(r.IntN(30))}
				want[k] = recs[i]
			}
			s := newOutcomeShard(keys, recs)
			for k, o := range want {
				if got, ok := s.lookup(k, mix(k)); !ok || got != o {
					t.Fatalf("%d keys, top %v: key %#x: got %v %v, want %v", len(keys), top, k, got, ok, o)
				}
			}
			for range 1000 {
				k := r.Uint64() >> r.IntN(40)
				if set[k] {
					continue
				}
				if got, ok := s.lookup(k, mix(k)); ok {
					t.Fatalf("%d keys, top %v: key %#x not held, got %v", len(keys), top, k, got)
				}
			}
			if len(keys) > 0 && s.empty != ^uint64(0)-uint64(len(top)) {
				t.Errorf("top %v: free slots hold %#x", top, s.empty)
			}
		}
	}
}

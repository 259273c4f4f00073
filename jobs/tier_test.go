package jobs

import (
	"context"
	"errors"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

func validTierJob() TierJob {
	return TierJob{
		Spec: Spec{Run: "run", Game: "clobber", Board: "2x2"},
		Tier: 0, Shard: 0, Shards: 1, NextShards: 1, ReduceShards: 1,
	}
}

func TestInvalidJobs(t *testing.T) {
	tier := func(f func(*TierJob)) Job {
		j := validTierJob()
		f(&j)
		return Job{Tier: &j}
	}
	piece := func(f func(*PieceJob)) Job {
		j := PieceJob{Spec: Spec{Run: "run", Game: "clobber", Board: "2x2"}, Bucket: 0, ClassShards: 1}
		f(&j)
		return Job{Piece: &j}
	}
	class := func(f func(*ClassJob)) Job {
		j := ClassJob{Spec: Spec{Run: "run", Game: "clobber", Board: "2x2"}, Bucket: 0}
		f(&j)
		return Job{Class: &j}
	}
	tests := []struct {
		name string
		job  Job
	}{
		{"no kind", Job{}},
		{"shard = shards", tier(func(j *TierJob) { j.Shards, j.Shard = 4, 4 })},
		{"shard > shards", tier(func(j *TierJob) { j.Shards, j.Shard = 4, 9 })},
		{"negative shard", tier(func(j *TierJob) { j.Shard = -1 })},
		{"no shards", tier(func(j *TierJob) { j.Shards = 0 })},
		{"negative tier", tier(func(j *TierJob) { j.Tier = -1 })},
		{"no next shards", tier(func(j *TierJob) { j.NextShards = 0 })},
		{"no reduce shards", tier(func(j *TierJob) { j.ReduceShards = 0 })},
		{"no run", tier(func(j *TierJob) { j.Run = "" })},
		{"unknown game", tier(func(j *TierJob) { j.Game = "chess" })},
		{"bad board", tier(func(j *TierJob) { j.Board = "4x" })},
		{"empty board", tier(func(j *TierJob) { j.Board = "0x4" })},
		{"board of three numbers", tier(func(j *TierJob) { j.Board = "4x4x4" })},
		{"board over the limit", tier(func(j *TierJob) { j.Board = "6x6" })},
		{"bad start", tier(func(j *TierJob) { j.Start = "xo/o" })},
		{"amazons 1x1", tier(func(j *TierJob) { j.Game, j.Board = "amazons", "1x1" })},
		{"piece: negative bucket", piece(func(j *PieceJob) { j.Bucket = -1 })},
		{"piece: no class shards", piece(func(j *PieceJob) { j.ClassShards = 0 })},
		{"piece: no run", piece(func(j *PieceJob) { j.Run = "" })},
		{"piece: bad game", piece(func(j *PieceJob) { j.Game = "go" })},
		{"class: negative bucket", class(func(j *ClassJob) { j.Bucket = -1 })},
		{"class: no run", class(func(j *ClassJob) { j.Run = "" })},
		{"class: bad board", class(func(j *ClassJob) { j.Board = "x" })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := newMemStore()
			res, err := Run(context.Background(), st, tc.job, Options{})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Run = %+v, %v; want an error wrapping ErrInvalid", res, err)
			}
			if !strings.Contains(err.Error(), tc.job.ID()) {
				t.Errorf("error %q does not name the job %s", err, tc.job.ID())
			}
			if len(st.blobs) != 0 {
				t.Errorf("an invalid job wrote %v", slices.Collect(maps.Keys(st.blobs)))
			}
		})
	}
}

// readKeysOf reads the key fragments among blobs of kind k.
func readKeysOf(t *testing.T, st store.Store, g games.Game, blobs []Blob, k Kind) []uint64 {
	t.Helper()
	var out []uint64
	for _, b := range blobs {
		if b.Kind != k {
			continue
		}
		keys, err := readBlob(st, b, k, g, (*fragment.Reader).NextKey)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, keys...)
	}
	slices.Sort(out)
	return out
}

// TestTierJobXO runs the census of x o on 1x2 by hand: the start has two
// captures, ". x" (Black on square 1: key 2) and "o ." (White on square 0:
// key 1<<32); both are a lone dead stone.
func TestTierJobXO(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	// Without the symmetry reduction: every position is stored.
	spec := Spec{Run: "xo", Game: "clobber", Board: "1x2", Start: "xo", NoSymmetry: true}
	g := mustGame(t, "clobber", "1x2", "xo")
	start, err := WriteStart(ctx, st, spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	if start.Bucket != 0 || start.Count != 1 {
		t.Fatalf("start blob %+v", start)
	}
	res0, err := Run(ctx, st, Job{Tier: &TierJob{Spec: spec, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: []Blob{start}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want0 := TierStats{Positions: 1, Stored: 1, Moves: 2, MovedPiece: []HistEntry{{N: 2, K: 2, Count: 2}}}
	if !reflect.DeepEqual(res0.Tier.Stats, want0) {
		t.Errorf("tier 0 stats %+v, want %+v", res0.Tier.Stats, want0)
	}
	if got := readKeysOf(t, st, g, res0.Tier.Next, KindPositions); !slices.Equal(got, []uint64{2, 1 << 32}) {
		t.Errorf("tier 1 positions %#x, want [0x2 0x100000000]", got)
	}
	// The start is its own dead-free board, and its one live piece is the
	// board itself (Black on 0, White on 1).
	if got := readKeysOf(t, st, g, res0.Tier.Pieces, KindDeadFree); !slices.Equal(got, []uint64{1 | 2<<32}) {
		t.Errorf("dead-free boards %#x", got)
	}
	if got := readKeysOf(t, st, g, res0.Tier.Pieces, KindInPlace); !slices.Equal(got, []uint64{1 | 2<<32}) {
		t.Errorf("in-place pieces %#x", got)
	}

	res1, err := Run(ctx, st, Job{Tier: &TierJob{Spec: spec, Tier: 1, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: res0.Tier.Next}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want1 := (TierStats{Positions: 2, Stored: 2, WithDead: 2}); !reflect.DeepEqual(res1.Tier.Stats, want1) {
		t.Errorf("tier 1 stats %+v, want %+v", res1.Tier.Stats, want1)
	}
	if len(res1.Tier.Next) != 0 {
		t.Errorf("tier 1 wrote successors %+v", res1.Tier.Next)
	}
	// Both dead stones delete to the empty board.
	if got := readKeysOf(t, st, g, res1.Tier.Pieces, KindDeadFree); !slices.Equal(got, []uint64{0}) {
		t.Errorf("tier 1 dead-free boards %#x, want [0]", got)
	}

	inputs := append(slices.Clone(res0.Tier.Pieces), res1.Tier.Pieces...)
	pr, err := Run(ctx, st, Job{Piece: &PieceJob{Spec: spec, ClassShards: 1, Inputs: inputs}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := pr.Piece
	if p.DeadFree != 2 || p.InPlace != 1 || p.Translated != 1 || !reflect.DeepEqual(p.BySize, map[int]uint64{2: 1}) || p.Table == nil {
		t.Errorf("piece result %+v, want 2 dead-free boards, 1 piece in place, 1 translated of size 2, a table", p)
	}
	cr, err := Run(ctx, st, Job{Class: &ClassJob{Spec: spec, Inputs: p.Classes}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// x o is one class under the symmetries, and its own negative.
	if c := cr.Class; c.Symmetric != 1 || c.Negation != 1 || c.SelfNegative != 1 {
		t.Errorf("class result %+v, want 1, 1, 1", c)
	}
}

// census is what a run of jobs over every tier found.
type census struct {
	stats                            TierStats
	byTier                           []uint64
	deadFree, inPlace, translated    uint64
	bySize                           map[int]uint64
	symmetric, negation, selfNegSyms uint64
	splitByTier                      []uint64
	// tables are the positions table parts of each tier.
	tables [][]Blob
	// pieceTables are the pieces table parts, by reduce bucket.
	pieceTables []Blob
	// imageRuns counts the runs the piece jobs spilled.
	imageRuns int
	// piecesByTier are the piece fragments each tier wrote, by reduce
	// bucket.
	piecesByTier [][][]Blob
}

// runJobs runs a whole census as a coordinator would, one job at a time:
// every shard of every tier (shardsFor(t) of tier t, empty ones included),
// then every reduce and class shard.
func runJobs(t *testing.T, st store.Store, spec Spec, shardsFor func(tier int) int, reduce, classShards int) census {
	t.Helper()
	ctx := context.Background()
	start, err := WriteStart(ctx, st, spec, shardsFor(0))
	if err != nil {
		t.Fatal(err)
	}
	c := census{bySize: map[int]uint64{}}
	inputs := map[int][]Blob{start.Bucket: {start}}
	pieceInputs := map[int][]Blob{}
	for tier := 0; len(inputs) > 0; tier++ {
		shards, next := shardsFor(tier), map[int][]Blob{}
		buckets := make([][]Blob, reduce)
		var positions, split uint64
		var tables []Blob
		for shard := 0; shard < shards; shard++ {
			j := &TierJob{Spec: spec, Tier: tier, Shard: shard, Shards: shards, NextShards: shardsFor(tier + 1), ReduceShards: reduce, Inputs: inputs[shard]}
			res, err := Run(ctx, st, Job{Tier: j}, Options{})
			if err != nil {
				t.Fatalf("tier %d shard %d: %v", tier, shard, err)
			}
			r := res.Tier
			if r.Tier != tier || r.Shard != shard {
				t.Fatalf("result of tier %d shard %d says %d, %d", tier, shard, r.Tier, r.Shard)
			}
			for _, b := range r.Next {
				if b.Bucket < 0 || b.Bucket >= j.NextShards || b.Kind != KindPositions {
					t.Fatalf("successor fragment %+v", b)
				}
				next[b.Bucket] = append(next[b.Bucket], b)
			}
			for _, b := range r.Pieces {
				if b.Bucket < 0 || b.Bucket >= reduce {
					t.Fatalf("piece fragment %+v", b)
				}
				pieceInputs[b.Bucket] = append(pieceInputs[b.Bucket], b)
				buckets[b.Bucket] = append(buckets[b.Bucket], b)
			}
			if r.Table != nil {
				tables = append(tables, *r.Table)
			}
			positions += r.Stats.Positions
			split += r.Stats.Split
			c.stats.Add(r.Stats)
		}
		c.byTier = append(c.byTier, positions)
		c.piecesByTier = append(c.piecesByTier, buckets)
		c.splitByTier = append(c.splitByTier, split)
		c.tables = append(c.tables, tables)
		inputs = next
	}
	classInputs := map[int][]Blob{}
	for b := 0; b < reduce; b++ {
		res, err := Run(ctx, st, Job{Piece: &PieceJob{Spec: spec, Bucket: b, ClassShards: classShards, Inputs: pieceInputs[b]}}, Options{})
		if err != nil {
			t.Fatalf("piece job %d: %v", b, err)
		}
		p := res.Piece
		if p.Table != nil {
			c.pieceTables = append(c.pieceTables, *p.Table)
		}
		c.imageRuns += p.ImageRuns
		c.deadFree += p.DeadFree
		c.inPlace += p.InPlace
		c.translated += p.Translated
		for size, n := range p.BySize {
			c.bySize[size] += n
		}
		for _, cb := range p.Classes {
			classInputs[cb.Bucket] = append(classInputs[cb.Bucket], cb)
		}
	}
	for b := 0; b < classShards; b++ {
		res, err := Run(ctx, st, Job{Class: &ClassJob{Spec: spec, Bucket: b, Inputs: classInputs[b]}}, Options{})
		if err != nil {
			t.Fatalf("class job %d: %v", b, err)
		}
		c.symmetric += res.Class.Symmetric
		c.negation += res.Class.Negation
		c.selfNegSyms += res.Class.SelfNegative
	}
	return c
}

// memoryClasses counts the classes of the translated live pieces of every
// position reachable in g, in memory.
func memoryClasses(g games.Game) (symmetric, negation, selfNeg int) {
	translated := map[games.PieceKey]bool{}
	seen := map[uint64]bool{g.Start(): true}
	queue := []uint64{g.Start()}
	for len(queue) > 0 {
		pos := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		pcs := g.Pieces(pos, nil)
		for _, p := range pcs {
			if p.Live {
				translated[g.Translate(p.Key)] = true
			}
		}
		for _, s := range g.Expand(pos, pcs, nil, games.NewMoveStats(false), 1) {
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	syms, negs := map[games.PieceKey]bool{}, map[games.PieceKey]bool{}
	for k := range translated {
		sym, neg, self := g.Classes(k)
		if !syms[sym] && self {
			selfNeg++
		}
		syms[sym], negs[neg] = true, true
	}
	return len(syms), len(negs), selfNeg
}

// TestCensusThroughJobs runs whole censuses through the job kernels, with
// the shard counts changing from tier to tier, and checks the figures of
// census-spec.md.
func TestCensusThroughJobs(t *testing.T) {
	t.Run("domineering 4x4", func(t *testing.T) {
		t.Parallel()
		spec := Spec{Run: "d44", Game: "domineering", Board: "4x4"}
		c := runJobs(t, newStore(t), spec, func(tier int) int { return 1 + tier%3 }, 3, 2)
		if c.stats.Positions != 5700 || c.stats.Moves != 32464 || c.stats.Joins != 0 {
			t.Errorf("%d positions, %d moves, %d joins; want 5700, 32464, 0", c.stats.Positions, c.stats.Moves, c.stats.Joins)
		}
		if want := []uint64{1, 24, 215, 912, 1911, 1868, 704, 64, 1}; !slices.Equal(c.byTier, want) {
			t.Errorf("positions by tier %v, want %v", c.byTier, want)
		}
		if share := float64(c.stats.Split) / float64(c.stats.Positions); math.Abs(share-0.470) > 0.0005 {
			t.Errorf("split share %.4f, want 0.470", share)
		}
		sym, neg, self := memoryClasses(mustGame(t, "domineering", "4x4", ""))
		if c.symmetric != uint64(sym) || c.negation != uint64(neg) || c.selfNegSyms != uint64(self) {
			t.Errorf("classes %d, %d, %d self-negative; counted in memory %d, %d, %d", c.symmetric, c.negation, c.selfNegSyms, sym, neg, self)
		}
	})
	t.Run("clobber 2x6", func(t *testing.T) {
		t.Parallel()
		spec := Spec{Run: "c26", Game: "clobber", Board: "2x6"}
		c := runJobs(t, newStore(t), spec, func(tier int) int { return 3 - tier%2 }, 4, 3)
		s := c.stats
		counts := []struct {
			name      string
			got, want uint64
		}{
			{"positions", s.Positions, 29463},
			{"moves", s.Moves, 139136},
			{"dead-free boards", c.deadFree, 13404},
			{"live pieces in place", c.inPlace, 5836},
			{"translated", c.translated, 4999},
			{"joins", s.Joins, 0},
		}
		for _, x := range counts {
			if x.got != x.want {
				t.Errorf("%s = %d, want %d", x.name, x.got, x.want)
			}
		}
		moved, _ := games.MeanFraction(DenseHist(s.MovedPiece))
		shares := []struct {
			name      string
			got, want float64
		}{
			{"split share", float64(s.Split) / float64(s.Positions), 0.2954},
			{"mean live pieces when split", float64(s.LiveWhenSplit) / float64(s.Split), 2.0260},
			{"share with a dead stone", float64(s.WithDead) / float64(s.Positions), 0.6976},
			{"moved-piece fraction", moved, 0.6894},
		}
		for _, x := range shares {
			if math.Abs(x.got-x.want) > 0.00005 {
				t.Errorf("%s = %.6f, want %.4f", x.name, x.got, x.want)
			}
		}
		var bySize uint64
		for _, n := range c.bySize {
			bySize += n
		}
		if bySize != c.translated {
			t.Errorf("pieces by size add up to %d, translated %d", bySize, c.translated)
		}
		sym, neg, self := memoryClasses(mustGame(t, "clobber", "2x6", ""))
		if c.symmetric != uint64(sym) || c.negation != uint64(neg) || c.selfNegSyms != uint64(self) {
			t.Errorf("classes %d, %d, %d self-negative; counted in memory %d, %d, %d", c.symmetric, c.negation, c.selfNegSyms, sym, neg, self)
		}
	})
}

// snapshot reads every blob of a store.
func snapshot(t *testing.T, st store.Store) map[string][]byte {
	t.Helper()
	names, err := st.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, n := range names {
		out[n] = readStore(t, st, n)
	}
	return out
}

// TestTierJobIdempotent runs the first tiers of a census twice in one store
// and once in another: the results, blob names, sums and sizes, and the
// bytes in the store must all be the same.
func TestTierJobIdempotent(t *testing.T) {
	ctx := context.Background()
	spec := Spec{Run: "idem", Game: "clobber", Board: "3x4", MemBudget: 1 << 20}
	runTiers := func(st store.Store) []*TierResult {
		start, err := WriteStart(ctx, st, spec, 2)
		if err != nil {
			t.Fatal(err)
		}
		inputs := map[int][]Blob{start.Bucket: {start}}
		var out []*TierResult
		for tier := 0; tier < 5; tier++ {
			next := map[int][]Blob{}
			for shard := 0; shard < 2; shard++ {
				res, err := Run(ctx, st, Job{Tier: &TierJob{Spec: spec, Tier: tier, Shard: shard, Shards: 2, NextShards: 2, ReduceShards: 3, Inputs: inputs[shard]}}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, res.Tier)
				for _, b := range res.Tier.Next {
					next[b.Bucket] = append(next[b.Bucket], b)
				}
			}
			inputs = next
		}
		return out
	}
	st1, st2 := newStore(t), newStore(t)
	first := runTiers(st1)
	files := snapshot(t, st1)
	again := runTiers(st1)
	if !reflect.DeepEqual(first, again) {
		t.Errorf("running the jobs again gave other results")
	}
	if !reflect.DeepEqual(files, snapshot(t, st1)) {
		t.Errorf("running the jobs again changed the store")
	}
	other := runTiers(st2)
	if !reflect.DeepEqual(first, other) {
		t.Errorf("the jobs gave other results in another store")
	}
	if !reflect.DeepEqual(files, snapshot(t, st2)) {
		t.Errorf("the jobs wrote other bytes in another store")
	}
	if len(files) < 10 {
		t.Errorf("only %d blobs written", len(files))
	}
}

var errInvalidOrCorrupt = errors.New("ErrInvalid or ErrCorrupt")

// TestTierJobBadInput feeds tier jobs inputs that can never work.
func TestTierJobBadInput(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	g := mustGame(t, "clobber", "2x2", "")
	spec := Spec{Run: "bad", Game: "clobber", Board: "2x2"}
	start := g.Start()                                                                   // x o / o x
	tier1 := g.Expand(start, g.Pieces(start, nil), nil, games.NewMoveStats(false), 1)[0] // three stones
	put := func(name string, h Header, keys []uint64) Blob {
		b, err := putKeys(ctx, st, name, h, keys)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	wrongTier := put("bad/wrong-tier.frag", headerFor(g, KindPositions, 0), []uint64{start, tier1})
	startFrag := put("bad/start.frag", headerFor(g, KindPositions, 0), []uint64{start})
	otherGame := put("bad/other-game.frag", headerFor(mustGame(t, "domineering", "2x2", ""), KindPositions, 0), []uint64{0})
	damaged := put("bad/damaged.frag", headerFor(g, KindPositions, 0), []uint64{start})
	data := readStore(t, st, damaged.Name)
	data[len(data)-9] ^= 1 // the last byte of the payload
	putBytes(t, st, damaged.Name, data)

	owner := Bucket(start, 2)
	tests := []struct {
		name   string
		shard  int
		shards int
		inputs []Blob
		want   error
	}{
		{"position of the wrong tier", 0, 1, []Blob{wrongTier}, ErrCorrupt},
		{"position of another shard", 1 - owner, 2, []Blob{startFrag}, ErrCorrupt},
		{"fragment of another game", 0, 1, []Blob{otherGame}, ErrCorrupt},
		{"damaged fragment", 0, 1, []Blob{damaged}, ErrCorrupt},
		{"missing fragment", 0, 1, []Blob{{Name: "bad/none.frag", Kind: KindPositions, Size: 30, Count: 1}}, store.ErrNotFound},
		// A tier job's inputs are position fragments; one labelled as
		// another kind must fail the job (as invalid or corrupt), not be
		// dropped without a word with its positions.
		{"input labelled dead-free", 0, 1, []Blob{func() Blob { b := startFrag; b.Kind = KindDeadFree; return b }()}, errInvalidOrCorrupt},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := &TierJob{Spec: spec, Shard: tc.shard, Shards: tc.shards, NextShards: 1, ReduceShards: 1, Inputs: tc.inputs}
			res, err := Run(ctx, st, Job{Tier: j}, Options{})
			ok := errors.Is(err, tc.want)
			if tc.want == errInvalidOrCorrupt {
				ok = errors.Is(err, ErrInvalid) || errors.Is(err, ErrCorrupt)
			}
			if !ok {
				t.Errorf("Run = %+v, %v; want an error wrapping %v", res, err, tc.want)
			}
		})
	}

	// The same fragment twice, or two fragments holding one position,
	// count it once.
	res, err := Run(ctx, st, Job{Tier: &TierJob{Spec: spec, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: []Blob{startFrag, startFrag, putAgain(t, st, g, start)}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tier.Stats.Positions != 1 || res.Tier.Stats.Moves != 8 {
		t.Errorf("stats %+v, want 1 position with 8 moves", res.Tier.Stats)
	}
}

// putAgain writes a second fragment holding just pos.
func putAgain(t *testing.T, st store.Store, g games.Game, pos uint64) Blob {
	b, err := putKeys(context.Background(), st, "bad/start-again.frag", headerFor(g, KindPositions, 0), []uint64{pos})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecentKeys checks that a key is a repeat only while it holds its
// slot, and that the zero key, which empty slots hold, never is.
func TestRecentKeys(t *testing.T) {
	var r recentKeys
	if r.repeat(0, mix(0)) || r.repeat(0, mix(0)) {
		t.Fatal("the zero key is a repeat")
	}
	if r.repeat(7, mix(7)) {
		t.Fatal("a key not sent before is a repeat")
	}
	if !r.repeat(7, mix(7)) {
		t.Fatal("a key sent just before is not a repeat")
	}
	// A key of the same slot takes it over.
	other := uint64(8)
	for mix(other)&(recentSlots-1) != mix(7)&(recentSlots-1) {
		other++
	}
	if r.repeat(other, mix(other)) {
		t.Fatalf("key %d, new, is a repeat", other)
	}
	if r.repeat(7, mix(7)) {
		t.Fatal("a key whose slot was taken over is a repeat")
	}
}

// A tier job writes the piece fragments it holds as it ends, of every
// kind, into one blob; what a small budget makes it spill before goes into
// parts of its own. The fragments of a blob lie end to end within it, and
// every kind is there.
func TestTierPiecesInOneBlob(t *testing.T) {
	ctx := context.Background()
	d, err := makeBenchTier()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		budget int64
		spills bool
	}{{"whole", 256 << 20, false}, {"spilled", 1 << 20, true}} {
		t.Run(tc.name, func(t *testing.T) {
			st := newMemStore()
			spec := Spec{Run: "one", Game: "clobber", Board: "4x4", MemBudget: tc.budget}
			in, err := putKeys(ctx, st, "one/input.frag", spec.header(d.g, KindPositions, d.tier), d.positions)
			if err != nil {
				t.Fatal(err)
			}
			j := TierJob{Spec: spec, Tier: d.tier, Shard: 0, Shards: 1, NextShards: 4, ReduceShards: 4, Inputs: []Blob{in}}
			res, err := runTier(ctx, st, &j, Options{})
			if err != nil {
				t.Fatal(err)
			}
			last := pieceLastBlob(spec.Run, d.tier, 0)
			byName := map[string][]Blob{}
			kinds := map[Kind]bool{}
			for _, b := range res.Pieces {
				byName[b.Name] = append(byName[b.Name], b)
				if b.Name == last {
					kinds[b.Kind] = true
				}
			}
			if !kinds[KindDeadFree] || !kinds[KindInPlace] || !kinds[KindPieces] {
				t.Errorf("the last blob %s holds the kinds %v, want all three", last, kinds)
			}
			if tc.spills != (len(byName) > 1) {
				t.Errorf("piece fragments in %d blobs (%v), want spilled parts %v", len(byName), slices.Collect(maps.Keys(byName)), tc.spills)
			}
			for name, frags := range byName {
				slices.SortFunc(frags, func(a, b Blob) int { return int(a.Offset - b.Offset) })
				var end int64
				for _, f := range frags {
					if f.Offset != end {
						t.Errorf("%s: fragment at %d, want %d", name, f.Offset, end)
					}
					end = f.Offset + f.Size
				}
				if size := int64(len(st.blobs[name])); size != end {
					t.Errorf("%s: %d bytes, its fragments end at %d", name, size, end)
				}
			}
		})
	}
}

// TestBackwardTierJobBadInput checks what a backward tier job refuses: a
// game without dense tiers, and inputs that are not the previous tier's.
func TestBackwardTierJobBadInput(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	clobber := Spec{Run: "bad", Game: "clobber", Board: "2x2", Backward: true}
	_, err := Run(ctx, st, Job{Tier: &TierJob{Spec: clobber, Shards: 1, NextShards: 1, ReduceShards: 1}}, Options{})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("backward Clobber: %v, want an error wrapping %v", err, ErrInvalid)
	}
	g := mustGame(t, "amazons", "2x3", "")
	spec := Spec{Run: "bad", Game: "amazons", Board: "2x3", Backward: true}
	start, err := putKeys(ctx, st, "bad/start.frag", headerFor(g, KindPositions, 0), []uint64{g.Start()})
	if err != nil {
		t.Fatal(err)
	}
	// Tier 2 reads tier 1's positions: the start is in tier 0.
	_, err = Run(ctx, st, Job{Tier: &TierJob{Spec: spec, Tier: 2, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: []Blob{start}}}, Options{})
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("backward tier 2 from tier 0's positions: %v, want an error wrapping %v", err, ErrCorrupt)
	}
	// Tier 1 from the start: every successor of the start, stored once an
	// orbit, and the start's moves counted as a forward job counts them.
	res, err := Run(ctx, st, Job{Tier: &TierJob{Spec: spec, Tier: 1, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: []Blob{start}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fwd, err := Run(ctx, st, Job{Tier: &TierJob{Spec: Spec{Run: "fwd", Game: "amazons", Board: "2x3"}, Tier: 0, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: []Blob{start}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := readKeysOf(t, st, g, fwd.Tier.Next, KindPositions)
	got := readKeysOf(t, st, g, res.Tier.Next, KindPositions)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("backward tier 1 stored %v, the start's successors are %v", got, want)
	}
}

// TestListedTierJob checks what a listed tier job refuses (a game whose
// tiers are not listed, inputs, a backward spec) and that the parts of a
// listed tier count what the forward tier job counts from the tier
// before's successors.
func TestListedTierJob(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	for name, spec := range map[string]Spec{
		"Clobber":  {Run: "bad", Game: "clobber", Board: "2x2", Listed: true},
		"backward": {Run: "bad", Game: "domineering", Board: "2x2", Listed: true, Backward: true},
	} {
		_, err := Run(ctx, st, Job{Tier: &TierJob{Spec: spec, Shards: 1, NextShards: 1, ReduceShards: 1}}, Options{})
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("listed %s: %v, want an error wrapping %v", name, err, ErrInvalid)
		}
	}
	g := mustGame(t, "domineering", "3x4", "")
	start, err := putKeys(ctx, st, "fwd/start.frag", headerFor(g, KindPositions, 0), []uint64{g.Start()})
	if err != nil {
		t.Fatal(err)
	}
	listed := Spec{Run: "list", Game: "domineering", Board: "3x4", Listed: true}
	_, err = Run(ctx, st, Job{Tier: &TierJob{Spec: listed, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: []Blob{start}}}, Options{})
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("listed tier job with inputs: %v, want an error wrapping %v", err, ErrInvalid)
	}
	// Forward: tiers 0 to 2, tier 2 from tier 1's successors.
	fwd := Spec{Run: "fwd", Game: "domineering", Board: "3x4"}
	in := []Blob{start}
	var want TierStats
	for tier := 0; tier <= 2; tier++ {
		res, err := Run(ctx, st, Job{Tier: &TierJob{Spec: fwd, Tier: tier, Shards: 1, NextShards: 1, ReduceShards: 1, Inputs: in}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		in, want = res.Tier.Next, res.Tier.Stats
	}
	// Listed: tier 2 alone, in three parts.
	var got TierStats
	for part := range 3 {
		res, err := Run(ctx, st, Job{Tier: &TierJob{Spec: listed, Tier: 2, Shard: part, Shards: 3, NextShards: 1, ReduceShards: 1}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tier.Next) > 0 {
			t.Errorf("listed part %d sent on %v", part, res.Tier.Next)
		}
		if res.Tier.Stats.Stored == 0 {
			t.Errorf("listed part %d stored nothing", part)
		}
		got.Add(res.Tier.Stats)
	}
	if want.Positions == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("listed tier 2 counts %+v, forward %+v", got, want)
	}
}

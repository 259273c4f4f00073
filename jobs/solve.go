package jobs

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"github.com/census-cgt/census/codec/kept"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/host/hugepages"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/tablebase"
)

// The solve stage runs the tiers backwards, one batch of solve jobs per
// tier, the last tier first. A solve job (tier t, shard s) loads the
// tablebase of tier t+1 (every shard's positions and their records, each a
// remoteness for each player to move), then reads the kept positions of
// (t, s) in order and, for each, looks every option of each player up in
// it: the options lie in tier t+1, and the representative of an option's
// orbit is in the shard Bucket names. A map that takes an option to its
// representative and exchanges the players (the colour swap; Domineering's
// transposes) exchanges Left's and Right's records too. The job writes the
// tablebase shard of its positions (package tablebase) and counts the
// classes, weighted by orbit size as the census counts positions.

// SolveJob solves one shard of one tier.
type SolveJob struct {
	Spec
	Tier  int `json:"tier"`
	Shard int `json:"shard"`
	// Shards is the number of shards of the tier.
	Shards int `json:"shards"`
	// Kept is the shard's kept positions.
	Kept Blob `json:"kept"`
	// NextShards is the number of shards of tier+1; NextKept and Next are
	// their kept positions and tablebase shards, Bucket naming the shard
	// (a shard without positions has neither).
	NextShards int    `json:"next_shards"`
	NextKept   []Blob `json:"next_kept,omitempty"`
	Next       []Blob `json:"next,omitempty"`
}

// SolveResult is a solved shard: its tablebase shard and class counts.
type SolveResult struct {
	Tier  int  `json:"tier"`
	Shard int  `json:"shard"`
	Table Blob `json:"table"`
	// Positions counts the positions by class (indexed by solve.Outcome)
	// weighted by orbit size; Stored counts the stored representatives.
	Positions solve.Counts `json:"positions"`
	Stored    solve.Counts `json:"stored"`
	// Start is the record of the start, set by the job that holds it.
	Start *solve.Record `json:"start,omitempty"`
}

// tableBlob names the tablebase shard of shard of tier.
func tableBlob(run string, tier, shard int) string {
	return fmt.Sprintf("%s/tablebase/%s", run, TableFile(tier, shard))
}

// TableFile is the name of the tablebase shard of shard of tier, as it
// lies in the tablebase's directory.
func TableFile(tier, shard int) string { return fmt.Sprintf("t%04d-s%05d.tb", tier, shard) }

func (j *SolveJob) validate() error {
	switch {
	case j.Tier < 0 || j.Shard < 0 || j.Shard >= j.Shards || j.NextShards < 0:
		return fmt.Errorf("%w: solve tier %d shard %d, next shards %d", ErrInvalid, j.Tier, j.Shard, j.NextShards)
	case j.Run == "":
		return fmt.Errorf("%w: no run id", ErrInvalid)
	}
	if err := pairBlobs(j.NextKept, j.Next, j.NextShards); err != nil {
		return fmt.Errorf("next tier: %w", err)
	}
	return nil
}

// OutcomeTable is a tier's solved positions: the positions of its
// shards and their records, each shard's in a hash table (outcomeShard).
// A solve job holds the next tier's whole; the coordinator reads one
// shard's at a time to give the positions table its outcome column.
type OutcomeTable struct {
	shards int
	group  games.Group
	sh     []outcomeShard
	// loaded, when set, says which shards the table answers for (see
	// part); when nil it answers for all.
	loaded []bool
}

// part makes t answer only for the shards of kept listed in pass (indexes
// into kept, the blobs it was read from) and for the shards of none of
// kept (which hold no positions): a solve job's pass.
func (t *OutcomeTable) part(kept []Blob, pass []int) {
	t.loaded = make([]bool, t.shards)
	for s := range t.loaded {
		t.loaded[s] = true
	}
	for _, b := range kept {
		t.loaded[b.Bucket] = false
	}
	for _, i := range pass {
		t.loaded[kept[i].Bucket] = true
	}
}

// holds says whether the table answers for the representative pos.
func (t *OutcomeTable) holds(pos uint64) bool {
	return t.shards == 0 || t.loaded == nil || t.loaded[Bucket(pos, t.shards)]
}

// lookup is the record of the representative pos, or false when the
// table does not hold it.
func (t *OutcomeTable) lookup(pos uint64) (solve.Record, bool) {
	if t.shards == 0 {
		return solve.Record{}, false
	}
	h := mix(pos)
	return t.sh[bucketOfMix(h, t.shards)].lookup(pos, h)
}

// Record returns the record of pos, a position of the tier: that of the
// representative of its orbit under the run's symmetries, with Left and
// Right exchanged when the map to it exchanges the players. It returns
// false when the table does not hold the representative.
func (t *OutcomeTable) Record(pos uint64) (solve.Record, bool) {
	r, _, ok := t.record(pos)
	return r, ok
}

// Outcome returns the class of pos, as Record finds it.
func (t *OutcomeTable) Outcome(pos uint64) (solve.Outcome, bool) {
	r, ok := t.Record(pos)
	return r.Outcome(), ok
}

// record is Record, and whether the table answers for the shard of pos's
// representative (held); ok is false when it does not, or when it does and
// has no such representative.
func (t *OutcomeTable) record(pos uint64) (r solve.Record, held, ok bool) {
	canon, negated := t.group.CanonSign(pos)
	if !t.holds(canon) {
		return r, false, false
	}
	r, ok = t.lookup(canon)
	if ok && negated {
		r = r.Negate()
	}
	return r, true, ok
}

// ReadOutcomeTable reads the solved positions of tier of the run spec
// from the tablebase shards of some of its shards (tables[i] is the shard
// that kept[i], its kept positions, names by Bucket) out of shards. It
// returns an error wrapping ErrInvalid when the blobs do not pair up,
// ErrCorrupt when a blob is damaged or the two of a shard disagree, and
// the store's error when a blob cannot be read.
func ReadOutcomeTable(ctx context.Context, st store.Store, spec Spec, tier, shards int, kept, tables []Blob) (*OutcomeTable, error) {
	g, err := spec.game()
	if err != nil {
		return nil, err
	}
	if err := pairBlobs(kept, tables, shards); err != nil {
		return nil, err
	}
	return readOutcomeTable(ctx, st, g, games.StartGroup(g, !spec.NoSymmetry), tier, shards, kept, tables)
}

// pairBlobs checks that kept and tables are the blobs of the same shards,
// of shards.
func pairBlobs(kept, tables []Blob, shards int) error {
	if len(kept) != len(tables) {
		return fmt.Errorf("%w: %d kept blobs for %d tablebase shards", ErrInvalid, len(kept), len(tables))
	}
	for i, b := range kept {
		if b.Bucket != tables[i].Bucket || b.Bucket < 0 || b.Bucket >= shards {
			return fmt.Errorf("%w: blobs %s and %s for shards %d and %d of %d", ErrInvalid, b.Name, tables[i].Name, b.Bucket, tables[i].Bucket, shards)
		}
	}
	return nil
}

func readOutcomeTable(ctx context.Context, st store.Store, g games.Game, group games.Group, tier, shards int, keptBlobs, tables []Blob) (*OutcomeTable, error) {
	t := &OutcomeTable{shards: shards, group: group, sh: make([]outcomeShard, shards)}
	for i, tb := range tables {
		sh, err := readTable(ctx, st, tb, g, tier)
		if err != nil {
			return nil, err
		}
		if n := sh.Len(); n != keptBlobs[i].Count {
			return nil, fmt.Errorf("tablebase shard %s: %w: %d positions, %d kept", tb.Name, ErrCorrupt, n, keptBlobs[i].Count)
		}
		b := newShardBuilder(int(sh.Len()))
		s := squeeze(g)
		err = sh.All(func(code uint64, r solve.Record) bool {
			b.add(kept.Key(code, s), r)
			return true
		})
		if err != nil {
			return nil, fmt.Errorf("tablebase shard %s: %w: %v", tb.Name, ErrCorrupt, err)
		}
		t.sh[tb.Bucket] = b.done()
	}
	return t, nil
}

// readTable reads a whole tablebase shard into memory and checks its
// header against g and tier.
func readTable(ctx context.Context, st store.Store, b Blob, g games.Game, tier int) (*tablebase.Shard, error) {
	data, err := readWhole(ctx, st, b)
	if err != nil {
		return nil, err
	}
	sh, err := tablebase.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("tablebase shard %s: %w: %v", b.Name, ErrCorrupt, err)
	}
	h, bd := sh.Header(), g.Board()
	if h.Game != g.Name() || h.Rows != bd.Rows || h.Cols != bd.Cols || h.Tier != tier || h.Coding != uint8(squeeze(g)) {
		return nil, fmt.Errorf("tablebase shard %s: %w: of %s %dx%d tier %d (coding %d), want %s %s tier %d",
			b.Name, ErrCorrupt, h.Game, h.Rows, h.Cols, h.Tier, h.Coding, g.Name(), bd, tier)
	}
	return sh, nil
}

// outcomeShard is one shard's positions and records in a hash table with
// linear probing: slots holds each position in the slot its hash names or
// the first free one after it (free slots hold empty, a key that is no
// position of the shard), recs the record of each slot's position. A
// lookup costs a miss to slots and one to recs, where a binary search of a
// sorted shard of millions of keys missed the caches at most of its
// twenty-odd steps. The table is at most four fifths full: SolveBytesNext
// a position.
type outcomeShard struct {
	slots []uint64
	recs  []solve.Record
	empty uint64
}

// newOutcomeShard builds the table of keys, sorted and unique, and their
// records recs, in the keys' order.
func newOutcomeShard(keys []uint64, recs []solve.Record) outcomeShard {
	b := newShardBuilder(len(keys))
	for i, k := range keys {
		b.add(k, recs[i])
	}
	return b.done()
}

// shardBuilder fills an outcomeShard with keys that arrive in increasing
// order, as a tablebase shard is read, without holding them elsewhere.
// Free slots hold ^0 until the last keys show whether a position takes
// that value: the keys within topKeys of it wait in top, and when there
// are any the free slots take the first value below them that is no key.
type shardBuilder struct {
	s       outcomeShard
	top     []uint64
	topRecs []solve.Record
}

// topKeys is how near the largest key a key waits: a shard holds at most
// so many keys above the free value its table picks.
const topKeys = 64

// newShardBuilder starts the table of a shard of n positions.
func newShardBuilder(n int) *shardBuilder {
	if n == 0 {
		return &shardBuilder{}
	}
	m := n + n/4 + 1
	s := outcomeShard{slots: make([]uint64, m), recs: make([]solve.Record, m), empty: ^uint64(0)}
	// Lookups land anywhere in the table: with huge pages most of them
	// miss the caches but not the TLB as well.
	hugepages.Advise(s.slots)
	hugepages.Advise(s.recs)
	for i := range s.slots {
		s.slots[i] = s.empty
	}
	return &shardBuilder{s: s}
}

// add puts key k, greater than every key added before, with record r.
func (b *shardBuilder) add(k uint64, r solve.Record) {
	if k >= ^uint64(0)-topKeys {
		b.top, b.topRecs = append(b.top, k), append(b.topRecs, r)
		return
	}
	b.s.put(k, r)
}

// done puts the keys that waited and returns the table.
func (b *shardBuilder) done() outcomeShard {
	if len(b.top) == 0 {
		return b.s
	}
	// The keys that waited are the shard's last: the first value below
	// them that is no key is free.
	empty := ^uint64(0)
	for i := len(b.top) - 1; i >= 0 && b.top[i] == empty; i-- {
		empty--
	}
	for i, v := range b.s.slots {
		if v == b.s.empty {
			b.s.slots[i] = empty
		}
	}
	b.s.empty = empty
	for i, k := range b.top {
		b.s.put(k, b.topRecs[i])
	}
	return b.s
}

// put puts key k and its record r into the first free slot from k's.
func (s *outcomeShard) put(k uint64, r solve.Record) {
	j := s.slot(mix(k))
	for s.slots[j] != s.empty {
		if j++; j == len(s.slots) {
			j = 0
		}
	}
	s.slots[j] = k
	s.recs[j] = r
}

// slot is the first slot to probe for a key whose mix is h. Its bits are
// the low half of h: the high half chose the shard (Bucket), so within a
// shard it hardly varies.
func (s *outcomeShard) slot(h uint64) int {
	j, _ := bits.Mul64(bits.RotateLeft64(h, 32), uint64(len(s.slots)))
	return int(j)
}

// lookup is the record of pos, whose mix is h, or false when the shard
// does not hold it.
func (s *outcomeShard) lookup(pos, h uint64) (solve.Record, bool) {
	if len(s.slots) == 0 {
		return solve.Record{}, false
	}
	return s.lookupFrom(pos, s.slot(h))
}

// lookupFrom is lookup from the slot j that pos's mix names.
func (s *outcomeShard) lookupFrom(pos uint64, j int) (solve.Record, bool) {
	if pos == s.empty {
		return solve.Record{}, false
	}
	for {
		switch s.slots[j] {
		case pos:
			return s.recs[j], true
		case s.empty:
			return solve.Record{}, false
		}
		if j++; j == len(s.slots) {
			j = 0
		}
	}
}

// runSolve solves the shard's kept positions.
func runSolve(ctx context.Context, st store.Store, j *SolveJob, opts Options) (*SolveResult, error) {
	if err := j.validate(); err != nil {
		return nil, err
	}
	g, err := j.game()
	if err != nil {
		return nil, err
	}
	mover, ok := g.(games.Mover)
	if !ok {
		return nil, fmt.Errorf("%w: %s does not list each player's moves", ErrInvalid, g.Name())
	}
	positions, err := readKept(ctx, st, j.Kept, g, j.Tier)
	if err != nil {
		return nil, fmt.Errorf("solve tier %d shard %d: %w", j.Tier, j.Shard, err)
	}
	group := games.StartGroup(g, !j.NoSymmetry)
	s := solver{g: mover, group: group, negates: group.Negates(), tier: j.Tier}
	// Each pass holds some of the next tier's shards and folds in the
	// options that lie in them; the combined outcomes of every position
	// are carried from pass to pass.
	passes := j.passes(opts, len(positions))
	combined := make([]sides, len(positions))
	for p, pass := range passes {
		next, err := j.loadPass(ctx, st, g, group, opts, pass, len(passes) == 1)
		if err != nil {
			return nil, fmt.Errorf("solve tier %d shard %d: load tier %d: %w", j.Tier, j.Shard, j.Tier+1, err)
		}
		s.next = next
		for i, pos := range positions {
			if err := s.fold(&combined[i], pos); err != nil {
				return nil, fmt.Errorf("solve tier %d shard %d: %w", j.Tier, j.Shard, err)
			}
			if (i+1)%progressEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if opts.Progress != nil {
					opts.Progress(uint64(p*len(positions)+i+1) / uint64(len(passes)))
				}
			}
		}
	}
	res, err := j.write(ctx, st, g, &s, positions, combined)
	if err != nil {
		return nil, fmt.Errorf("solve tier %d shard %d: %w", j.Tier, j.Shard, err)
	}
	return res, nil
}

// passes splits the next tier's shards into the passes of a job that
// holds n positions: one pass when the tables fit its budget, or the
// budgets of the jobs that share a table loaded whole (less their own
// positions).
func (j *SolveJob) passes(opts Options, n int) [][]int {
	passes := solvePasses(j.NextKept, solveBudget(j.MemBudget, n))
	if k := opts.Tables.sharers(); k > 1 && len(passes) > 1 {
		if whole := solvePasses(j.NextKept, solveBudget(j.MemBudget*int64(k), k*n)); len(whole) == 1 {
			passes = whole
		}
	}
	return passes
}

// loadPass loads the next tier's outcome table for the shards of one
// pass: from the process's shared cache when the job has one pass (only
// then is the table every job's), else for this job alone, holding only
// the pass's shards.
func (j *SolveJob) loadPass(ctx context.Context, st store.Store, g games.Game, group games.Group, opts Options, pass []int, only bool) (*OutcomeTable, error) {
	kept, tables := make([]Blob, len(pass)), make([]Blob, len(pass))
	for k, i := range pass {
		kept[k], tables[k] = j.NextKept[i], j.Next[i]
	}
	load := func() (*OutcomeTable, error) {
		return readOutcomeTable(ctx, st, g, group, j.Tier+1, j.NextShards, kept, tables)
	}
	if opts.Tables != nil && only && len(kept) > 0 {
		return opts.Tables.get(ctx, tableKey(j.Spec, j.Tier+1, j.NextShards, kept, tables), load)
	}
	next, err := load()
	if err != nil {
		return nil, err
	}
	if !only {
		next.part(j.NextKept, pass)
	}
	return next, nil
}

// write counts the classes of the job's positions from their combined
// outcomes and writes the shard's tablebase.
func (j *SolveJob) write(ctx context.Context, st store.Store, g games.Game, s *solver, positions []uint64, combined []sides) (*SolveResult, error) {
	res := &SolveResult{Tier: j.Tier, Shard: j.Shard}
	recs := make([]solve.Record, len(positions))
	for i, pos := range positions {
		recs[i] = combined[i].record()
		o := recs[i].Outcome()
		s.count(&res.Positions, pos, o)
		res.Stored[o]++
		if j.Tier == 0 {
			res.Start = &recs[i]
		}
	}
	h := tablebase.Header{Game: g.Name(), Rows: g.Board().Rows, Cols: g.Board().Cols,
		Tier: j.Tier, Shard: j.Shard, Shards: j.Shards, Coding: uint8(squeeze(g))}
	var err error
	res.Table, err = putTable(ctx, st, tableBlob(j.Run, j.Tier, j.Shard), h, positions, recs)
	if err != nil {
		return nil, err
	}
	res.Table.Bucket = j.Shard
	return res, nil
}

// sides is a position's records combined so far from its options, for
// each player to move.
type sides struct{ left, right solve.Side }

func (c *sides) record() solve.Record {
	return solve.Record{Left: c.left.Remoteness(), Right: c.right.Remoteness()}
}

// A solve job holds, for each of its own positions, the position (8 bytes),
// its record (2 bytes) and the records combined so far (4 bytes); for each
// position of the next tier's shards it has loaded, its slots in the hash
// table (SolveBytesNext).
const (
	solveBytesOwn = 8 + 2 + 4
	// SolveBytesNext is what a solve job holds a position of the next
	// tier's table it has loaded: eight bytes of key and two of record a
	// slot of an outcomeShard, five slots for four positions.
	SolveBytesNext = (8 + 2) * 5 / 4.0
)

// solveBudget is what a job with a memory budget of memBudget bytes (none
// when 0) and own positions may hold of the next tier's table: at least a
// byte when there is a budget, 0 when there is none.
func solveBudget(memBudget int64, own int) int64 {
	if memBudget <= 0 {
		return 0
	}
	return max(memBudget-int64(own)*solveBytesOwn, 1)
}

// solvePasses splits the next tier's shards, as listed in kept, into
// passes of which each holds at most budget bytes, in list order, each
// pass the indexes into kept of its shards; one pass holds them all when
// budget is not positive (no budget) or large enough. A shard larger than
// the budget is a pass of its own: the job cannot hold less.
func solvePasses(kept []Blob, budget int64) [][]int {
	all := make([]int, len(kept))
	var total float64
	for i, b := range kept {
		all[i] = i
		total += float64(b.Count) * SolveBytesNext
	}
	if budget <= 0 || total <= float64(budget) {
		return [][]int{all}
	}
	var passes [][]int
	var pass []int
	var bytes float64
	for i, b := range kept {
		n := float64(b.Count) * SolveBytesNext
		if len(pass) > 0 && bytes+n > float64(budget) {
			passes = append(passes, pass)
			pass, bytes = nil, 0
		}
		pass = append(pass, i)
		bytes += n
	}
	return append(passes, pass)
}

// TableCode is the code under which a tablebase shard whose header's
// Coding is coding stores the position key: the key squeezed as a kept
// blob squeezes it.
func TableCode(key uint64, coding uint8) uint64 { return kept.Code(key, uint(coding)) }

// TableKey is the position key whose code TableCode gives.
func TableKey(code uint64, coding uint8) uint64 { return kept.Key(code, uint(coding)) }

// putTable writes the tablebase shard of positions, sorted and unique,
// and their records to the store as name. It turns positions into their
// codes in place.
func putTable(ctx context.Context, st store.Store, name string, h tablebase.Header, positions []uint64, recs []solve.Record) (Blob, error) {
	codes := positions
	for i, pos := range positions {
		codes[i] = kept.Code(pos, uint(h.Coding))
	}
	w, err := st.Create(ctx, name)
	if err != nil {
		return Blob{}, err
	}
	info, err := tablebase.Write(w, h, codes, recs)
	if err != nil {
		w.Abort()
		return Blob{}, err
	}
	if err := w.Commit(); err != nil {
		return Blob{}, err
	}
	return Blob{Name: name, Kind: KindTable, Size: info.Size, Sum: info.Sum, Count: info.Count}, nil
}

// count counts the orbit of pos, whose outcome is o, into c: an image by
// a map that exchanges the players has the negated outcome. An N or P
// position is its own negative's class; an L or R position is fixed by no
// such map, so half its orbit is its negatives' when the group has them
// (see games.Group.Negates).
func (s *solver) count(c *solve.Counts, pos uint64, o solve.Outcome) {
	w := s.group.Orbit(pos)
	if o.Negate() == o || !s.negates {
		c[o] += w
		return
	}
	c[o] += w / 2
	c[o.Negate()] += w / 2
}

// solver solves positions of one tier from the next tier's table.
type solver struct {
	g       games.Mover
	group   games.Group
	negates bool // some map of the group exchanges the players
	next    *OutcomeTable
	tier    int
	opts    []uint64
	probes  []probe
	// sink takes the slots touched ahead of their lookups, so that the
	// loads are not left out.
	sink uint64
}

// fold combines into c the records of the options of pos that lie in the
// shards the table answers for.
//
// Nearly every lookup misses the caches, and a position has some ten
// options, so the lookups of all its options are begun before any is
// finished: each option's first slot (and its record) is loaded in one
// loop, whose loads do not depend on each other and so overlap, and the
// probes that follow find them in the cache.
func (s *solver) fold(c *sides, pos uint64) error {
	if c.left.Decided() && c.right.Decided() {
		return nil
	}
	s.opts = s.g.Options(pos, true, s.opts[:0])
	nLeft := len(s.opts)
	s.opts = s.g.Options(pos, false, s.opts)
	s.probes = slices.Grow(s.probes[:0], len(s.opts))[:len(s.opts)]
	for i, o := range s.opts {
		s.next.begin(o, &s.probes[i])
	}
	// The loads alone, in a loop of their own: the processor has them all
	// in flight at once.
	var sink uint64
	for i := range s.probes {
		if p := &s.probes[i]; p.j >= 0 {
			sink ^= p.sh.slots[p.j] ^ uint64(p.sh.recs[p.j].Left)
		}
	}
	s.sink ^= sink
	for i, o := range s.opts {
		side := &c.right
		if i < nLeft {
			side = &c.left
		}
		if side.Decided() {
			continue
		}
		r, held, ok := s.next.end(&s.probes[i])
		if held && !ok {
			return fmt.Errorf("%w: option %s of %s is not among the kept positions of tier %d",
				ErrCorrupt, s.g.Format(o), s.g.Format(pos), s.tier+1)
		}
		if !held {
			continue
		}
		// After Left's move Right is to move, and the other way round.
		if i < nLeft {
			side.Add(r.Right)
		} else {
			side.Add(r.Left)
		}
	}
	return nil
}

// probe is a lookup begun: the representative of a position's orbit,
// whether the map to it exchanges the players, and where its search
// starts (sh nil when the table does not answer for its shard).
type probe struct {
	canon   uint64
	negated bool
	sh      *outcomeShard
	j       int
}

// begin begins the lookup of pos's record into p: the representative,
// its shard and the slot its search starts at (j -1 when there is no slot
// to read), without reading the slot.
func (t *OutcomeTable) begin(pos uint64, p *probe) {
	p.canon, p.negated = t.group.CanonSign(pos)
	p.sh, p.j = nil, -1
	if t.shards == 0 || !t.holds(p.canon) {
		return
	}
	h := mix(p.canon)
	p.sh = &t.sh[bucketOfMix(h, t.shards)]
	if len(p.sh.slots) > 0 {
		p.j = p.sh.slot(h)
	}
}

// end finishes the lookup p: the record, whether the table answers for
// the shard (held) and whether it holds the position (ok), as record
// returns them.
func (t *OutcomeTable) end(p *probe) (r solve.Record, held, ok bool) {
	if p.sh == nil {
		return r, false, false
	}
	if p.j < 0 {
		return r, true, false
	}
	r, ok = p.sh.lookupFrom(p.canon, p.j)
	if ok && p.negated {
		r = r.Negate()
	}
	return r, true, ok
}

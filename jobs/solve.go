package jobs

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/bits"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/store"
)

// The solve stage runs the tiers backwards, one batch of solve jobs per
// tier, the last tier first. A solve job (tier t, shard s) loads the whole
// outcome table of tier t+1 (its kept positions and their outcomes), then
// reads the kept positions of (t, s) in order and, for each, looks every
// option of each player up in that table: the options lie in tier t+1, and
// the representative of an option's orbit is in the shard Bucket names. A
// map that takes an option to its representative and exchanges the
// players (the colour swap; Domineering's transposes) exchanges Left's and
// Right's outcomes too. The job writes the outcomes of its positions, two
// bits each in the order of the kept blob, and counts the classes,
// weighted by orbit size as the census counts positions.

// SolveJob solves one shard of one tier.
type SolveJob struct {
	Spec
	Tier  int `json:"tier"`
	Shard int `json:"shard"`
	// Kept is the shard's kept positions.
	Kept Blob `json:"kept"`
	// NextShards is the number of shards of tier+1; NextKept and Next are
	// their kept positions and outcome tables, Bucket naming the shard
	// (a shard without positions has neither).
	NextShards int    `json:"next_shards"`
	NextKept   []Blob `json:"next_kept,omitempty"`
	Next       []Blob `json:"next,omitempty"`
}

// SolveResult is a solved shard: its outcome table and class counts.
type SolveResult struct {
	Tier     int  `json:"tier"`
	Shard    int  `json:"shard"`
	Outcomes Blob `json:"outcomes"`
	// Positions counts the positions by class (indexed by solve.Outcome)
	// weighted by orbit size; Stored counts the stored representatives.
	Positions solve.Counts `json:"positions"`
	Stored    solve.Counts `json:"stored"`
	// Start is the outcome of the start, set by the job that holds it.
	Start *solve.Outcome `json:"start,omitempty"`
}

// outcomesBlob names the outcome table of shard of tier.
func outcomesBlob(run string, tier, shard int) string {
	return fmt.Sprintf("%s/outcomes/t%04d/s%05d.out", run, tier, shard)
}

// outcome table format: "CNSO" count:u64 outcomes:(count+3)/4 bytes
// (position i at bits 2*(i%4) of byte i/4) crc32c:u32 "OSNC".
const (
	outcomesMagic   = "CNSO"
	outcomesTrailer = "OSNC"
)

func (j *SolveJob) validate() error {
	switch {
	case j.Tier < 0 || j.Shard < 0 || j.NextShards < 0:
		return fmt.Errorf("%w: solve tier %d shard %d, next shards %d", ErrInvalid, j.Tier, j.Shard, j.NextShards)
	case j.Run == "":
		return fmt.Errorf("%w: no run id", ErrInvalid)
	}
	if err := pairBlobs(j.NextKept, j.Next, j.NextShards); err != nil {
		return fmt.Errorf("next tier: %w", err)
	}
	return nil
}

// OutcomeTable is a tier's solved positions: the kept positions of its
// shards and their outcomes, each shard's in a hash table (outcomeShard).
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

// lookup is the outcome of the representative pos, or false when the
// table does not hold it.
func (t *OutcomeTable) lookup(pos uint64) (solve.Outcome, bool) {
	if t.shards == 0 {
		return 0, false
	}
	h := mix(pos)
	return t.sh[bucketOfMix(h, t.shards)].lookup(pos, h)
}

// Outcome returns the outcome of pos, a position of the tier: that of the
// representative of its orbit under the run's symmetries, with Left and
// Right exchanged when the map to it exchanges the players. It returns
// false when the table does not hold the representative.
func (t *OutcomeTable) Outcome(pos uint64) (solve.Outcome, bool) {
	out, _, ok := t.outcome(pos)
	return out, ok
}

// outcome is Outcome, and whether the table answers for the shard of pos's
// representative (held); ok is false when it does not, or when it does and
// has no such representative.
func (t *OutcomeTable) outcome(pos uint64) (out solve.Outcome, held, ok bool) {
	canon, negated := t.group.CanonSign(pos)
	if !t.holds(canon) {
		return 0, false, false
	}
	out, ok = t.lookup(canon)
	if ok && negated {
		out = out.Negate()
	}
	return out, true, ok
}

// ReadOutcomeTable reads the outcome table of tier of the run spec from
// the kept positions and outcome tables of some of its shards (kept[i] and
// outcomes[i] are one shard's, which their Bucket names) out of shards.
// It returns an error wrapping ErrInvalid when the blobs do not pair up,
// ErrCorrupt when a blob is damaged or the two of a shard disagree, and
// the store's error when a blob cannot be read.
func ReadOutcomeTable(ctx context.Context, st store.Store, spec Spec, tier, shards int, kept, outcomes []Blob) (*OutcomeTable, error) {
	g, err := spec.game()
	if err != nil {
		return nil, err
	}
	if err := pairBlobs(kept, outcomes, shards); err != nil {
		return nil, err
	}
	return readOutcomeTable(ctx, st, g, games.StartGroup(g, !spec.NoSymmetry), tier, shards, kept, outcomes)
}

// pairBlobs checks that kept and outcomes are the blobs of the same
// shards, of shards.
func pairBlobs(kept, outcomes []Blob, shards int) error {
	if len(kept) != len(outcomes) {
		return fmt.Errorf("%w: %d kept blobs for %d outcome tables", ErrInvalid, len(kept), len(outcomes))
	}
	for i, b := range kept {
		if b.Bucket != outcomes[i].Bucket || b.Bucket < 0 || b.Bucket >= shards {
			return fmt.Errorf("%w: blobs %s and %s for shards %d and %d of %d", ErrInvalid, b.Name, outcomes[i].Name, b.Bucket, outcomes[i].Bucket, shards)
		}
	}
	return nil
}

func readOutcomeTable(ctx context.Context, st store.Store, g games.Game, group games.Group, tier, shards int, kept, outcomes []Blob) (*OutcomeTable, error) {
	t := &OutcomeTable{shards: shards, group: group, sh: make([]outcomeShard, shards)}
	for i, kb := range kept {
		keys, err := readKept(ctx, st, kb, g, tier)
		if err != nil {
			return nil, err
		}
		outs, err := readOutcomes(ctx, st, outcomes[i], uint64(len(keys)))
		if err != nil {
			return nil, err
		}
		t.sh[kb.Bucket] = newOutcomeShard(keys, outs)
	}
	return t, nil
}

// outcomeShard is one shard's positions and outcomes in a hash table with
// linear probing: slots holds each position in the slot its hash names or
// the first free one after it (free slots hold empty, a key that is no
// position of the shard), outs the outcome of each slot's position, two
// bits a slot as in an outcome table. A lookup costs a miss to slots and
// one to outs, where a binary search of a sorted shard of millions of keys
// missed the caches at most of its twenty-odd steps. The table is at most
// four fifths full: SolveBytesNext a position.
type outcomeShard struct {
	slots []uint64
	outs  []byte
	empty uint64
}

// newOutcomeShard builds the table of keys, sorted and unique, and their
// outcomes outs (two bits a key, in the keys' order).
func newOutcomeShard(keys []uint64, outs []byte) outcomeShard {
	if len(keys) == 0 {
		return outcomeShard{}
	}
	m := len(keys) + len(keys)/4 + 1
	s := outcomeShard{slots: make([]uint64, m), outs: make([]byte, (m+3)/4), empty: ^uint64(0)}
	// The keys are sorted: the keys at the top of the range that the shard
	// holds are its last ones, and the first value below them is free.
	for i := len(keys) - 1; i >= 0 && keys[i] == s.empty; i-- {
		s.empty--
	}
	for i := range s.slots {
		s.slots[i] = s.empty
	}
	for i, k := range keys {
		j := s.slot(mix(k))
		for s.slots[j] != s.empty {
			if j++; j == len(s.slots) {
				j = 0
			}
		}
		s.slots[j] = k
		s.outs[j/4] |= (outs[i/4] >> (2 * (i % 4)) & 3) << (2 * (j % 4))
	}
	return s
}

// slot is the first slot to probe for a key whose mix is h. Its bits are
// the low half of h: the high half chose the shard (Bucket), so within a
// shard it hardly varies.
func (s *outcomeShard) slot(h uint64) int {
	j, _ := bits.Mul64(bits.RotateLeft64(h, 32), uint64(len(s.slots)))
	return int(j)
}

// lookup is the outcome of pos, whose mix is h, or false when the shard
// does not hold it.
func (s *outcomeShard) lookup(pos, h uint64) (solve.Outcome, bool) {
	if len(s.slots) == 0 || pos == s.empty {
		return 0, false
	}
	for j := s.slot(h); ; {
		switch s.slots[j] {
		case pos:
			return solve.Outcome(s.outs[j/4] >> (2 * (j % 4)) & 3), true
		case s.empty:
			return 0, false
		}
		if j++; j == len(s.slots) {
			j = 0
		}
	}
}

func readOutcomes(ctx context.Context, st store.Store, b Blob, count uint64) ([]byte, error) {
	data, err := readWhole(ctx, st, b)
	if err != nil {
		return nil, err
	}
	n := len(data) - 8
	if n < 12 || string(data[:4]) != outcomesMagic || string(data[n+4:]) != outcomesTrailer ||
		crc32.Checksum(data[:n], castagnoli) != binary.LittleEndian.Uint32(data[n:]) {
		return nil, fmt.Errorf("outcomes %s: %w: bad header, trailer or checksum", b.Name, ErrCorrupt)
	}
	if c := binary.LittleEndian.Uint64(data[4:]); c != count || uint64(n-12) != (count+3)/4 {
		return nil, fmt.Errorf("outcomes %s: %w: %d outcomes for %d kept positions", b.Name, ErrCorrupt, c, count)
	}
	return data[12:n], nil
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
	passes := solvePasses(j.NextKept, solveBudget(j.MemBudget, len(positions)))
	if n := opts.Tables.sharers(); n > 1 && len(passes) > 1 {
		// The jobs of the process share a table loaded whole: it may
		// take their budgets together, less their own positions.
		if whole := solvePasses(j.NextKept, solveBudget(j.MemBudget*int64(n), n*len(positions))); len(whole) == 1 {
			passes = whole
		}
	}
	combined := make([]solve.Combine, len(positions))
	for i := range combined {
		combined[i] = solve.NewCombine()
	}
	for p, pass := range passes {
		kept, outs := make([]Blob, len(pass)), make([]Blob, len(pass))
		for k, i := range pass {
			kept[k], outs[k] = j.NextKept[i], j.Next[i]
		}
		load := func() (*OutcomeTable, error) {
			return readOutcomeTable(ctx, st, g, group, j.Tier+1, j.NextShards, kept, outs)
		}
		var next *OutcomeTable
		if opts.Tables != nil && len(passes) == 1 && len(kept) > 0 {
			next, err = opts.Tables.get(ctx, tableKey(j.Spec, j.Tier+1, j.NextShards, kept, outs), load)
		} else {
			next, err = load()
		}
		if err != nil {
			return nil, fmt.Errorf("solve tier %d shard %d: load tier %d: %w", j.Tier, j.Shard, j.Tier+1, err)
		}
		if len(passes) > 1 {
			next.part(j.NextKept, pass)
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
	res := &SolveResult{Tier: j.Tier, Shard: j.Shard}
	outs := make([]byte, (len(positions)+3)/4)
	for i, pos := range positions {
		o := combined[i].Outcome()
		outs[i/4] |= byte(o) << (2 * (i % 4))
		s.count(&res.Positions, pos, o)
		res.Stored[o]++
		if j.Tier == 0 {
			res.Start = &o
		}
	}
	res.Outcomes, err = putOutcomes(ctx, st, outcomesBlob(j.Run, j.Tier, j.Shard), outs, uint64(len(positions)))
	if err != nil {
		return nil, fmt.Errorf("solve tier %d shard %d: %w", j.Tier, j.Shard, err)
	}
	res.Outcomes.Bucket = j.Shard
	return res, nil
}

// A solve job holds, for each of its own positions, the position (8 bytes),
// its outcome (2 bits) and the outcome combined so far (2 bytes); for each
// position of the next tier's shards it has loaded, its slots in the hash
// table (SolveBytesNext).
const (
	solveBytesOwn = 8 + 1 + 2
	// SolveBytesNext is what a solve job holds a position of the next
	// tier's table it has loaded: eight bytes of key and a quarter byte of
	// outcome a slot of an outcomeShard, five slots for four positions.
	SolveBytesNext = (8 + 0.25) * 5 / 4
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

func putOutcomes(ctx context.Context, st store.Store, name string, outs []byte, count uint64) (Blob, error) {
	data := append([]byte(outcomesMagic), binary.LittleEndian.AppendUint64(nil, count)...)
	data = append(data, outs...)
	sum := crc32.Checksum(data, castagnoli)
	data = binary.LittleEndian.AppendUint32(data, sum)
	data = append(data, outcomesTrailer...)
	w, err := st.Create(ctx, name)
	if err != nil {
		return Blob{}, err
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return Blob{}, err
	}
	if err := w.Commit(); err != nil {
		return Blob{}, err
	}
	return Blob{Name: name, Kind: KindOutcomes, Size: int64(len(data)), Sum: sum, Count: count}, nil
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
}

// fold combines into c the outcomes of the options of pos that lie in the
// shards the table answers for, until c is decided for each player.
func (s *solver) fold(c *solve.Combine, pos uint64) error {
	if err := s.foldSide(pos, true, c.Left, c.LeftDone); err != nil {
		return err
	}
	return s.foldSide(pos, false, c.Right, c.RightDone)
}

// foldSide adds the outcomes of one player's options of pos (Left's when
// left) until done.
func (s *solver) foldSide(pos uint64, left bool, add func(solve.Outcome), done func() bool) error {
	if done() {
		return nil
	}
	s.opts = s.g.Options(pos, left, s.opts[:0])
	for _, o := range s.opts {
		out, ok, err := s.option(pos, o)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if add(out); done() {
			break
		}
	}
	return nil
}

// option is the outcome of the option o of pos, false when the table does
// not answer for the shard of its representative.
func (s *solver) option(pos, o uint64) (solve.Outcome, bool, error) {
	out, held, ok := s.next.outcome(o)
	if held && !ok {
		return 0, false, fmt.Errorf("%w: option %s of %s is not among the kept positions of tier %d",
			ErrCorrupt, s.g.Format(o), s.g.Format(pos), s.tier+1)
	}
	return out, held, nil
}

package jobs

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"

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
// shards, in key order, and their outcomes. A solve job holds the next
// tier's whole; the coordinator reads one shard's at a time to give the
// positions table its outcome column.
type OutcomeTable struct {
	shards int
	group  games.Group
	keys   [][]uint64
	outs   [][]byte
}

// lookup is the outcome of the representative pos, or false when the
// table does not hold it.
func (t *OutcomeTable) lookup(pos uint64) (solve.Outcome, bool) {
	if t.shards == 0 {
		return 0, false
	}
	s := Bucket(pos, t.shards)
	i, ok := slices.BinarySearch(t.keys[s], pos)
	if !ok {
		return 0, false
	}
	return solve.Outcome(t.outs[s][i/4] >> (2 * (i % 4)) & 3), true
}

// Outcome returns the outcome of pos, a position of the tier: that of the
// representative of its orbit under the run's symmetries, with Left and
// Right exchanged when the map to it exchanges the players. It returns
// false when the table does not hold the representative.
func (t *OutcomeTable) Outcome(pos uint64) (solve.Outcome, bool) {
	canon, negated := t.group.CanonSign(pos)
	out, ok := t.lookup(canon)
	if ok && negated {
		out = out.Negate()
	}
	return out, ok
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
	t := &OutcomeTable{shards: shards, group: group, keys: make([][]uint64, shards), outs: make([][]byte, shards)}
	for i, kb := range kept {
		keys, err := readKept(ctx, st, kb, g, tier)
		if err != nil {
			return nil, err
		}
		outs, err := readOutcomes(ctx, st, outcomes[i], uint64(len(keys)))
		if err != nil {
			return nil, err
		}
		t.keys[kb.Bucket], t.outs[kb.Bucket] = keys, outs
	}
	return t, nil
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
	group := games.StartGroup(g, !j.NoSymmetry)
	next, err := readOutcomeTable(ctx, st, g, group, j.Tier+1, j.NextShards, j.NextKept, j.Next)
	if err != nil {
		return nil, fmt.Errorf("solve tier %d shard %d: load tier %d: %w", j.Tier, j.Shard, j.Tier+1, err)
	}
	positions, err := readKept(ctx, st, j.Kept, g, j.Tier)
	if err != nil {
		return nil, fmt.Errorf("solve tier %d shard %d: %w", j.Tier, j.Shard, err)
	}
	s := solver{g: mover, group: group, negates: group.Negates(), next: next, tier: j.Tier}
	res := &SolveResult{Tier: j.Tier, Shard: j.Shard}
	outs := make([]byte, (len(positions)+3)/4)
	for i, pos := range positions {
		o, err := s.outcome(pos)
		if err != nil {
			return nil, fmt.Errorf("solve tier %d shard %d: %w", j.Tier, j.Shard, err)
		}
		outs[i/4] |= byte(o) << (2 * (i % 4))
		s.count(&res.Positions, pos, o)
		res.Stored[o]++
		if j.Tier == 0 {
			res.Start = &o
		}
		if (i+1)%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if opts.Progress != nil {
				opts.Progress(uint64(i + 1))
			}
		}
	}
	res.Outcomes, err = putOutcomes(ctx, st, outcomesBlob(j.Run, j.Tier, j.Shard), outs, uint64(len(positions)))
	if err != nil {
		return nil, fmt.Errorf("solve tier %d shard %d: %w", j.Tier, j.Shard, err)
	}
	res.Outcomes.Bucket = j.Shard
	return res, nil
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

// outcome is the outcome of pos from its options' outcomes.
func (s *solver) outcome(pos uint64) (solve.Outcome, error) {
	c := solve.NewCombine()
	s.opts = s.g.Options(pos, true, s.opts[:0])
	for _, o := range s.opts {
		out, err := s.option(pos, o)
		if err != nil {
			return 0, err
		}
		if c.Left(out); c.LeftDone() {
			break
		}
	}
	s.opts = s.g.Options(pos, false, s.opts[:0])
	for _, o := range s.opts {
		out, err := s.option(pos, o)
		if err != nil {
			return 0, err
		}
		if c.Right(out); c.RightDone() {
			break
		}
	}
	return c.Outcome(), nil
}

// option is the outcome of the option o of pos.
func (s *solver) option(pos, o uint64) (solve.Outcome, error) {
	out, ok := s.next.Outcome(o)
	if !ok {
		return 0, fmt.Errorf("%w: option %s of %s is not among the kept positions of tier %d",
			ErrCorrupt, s.g.Format(o), s.g.Format(pos), s.tier+1)
	}
	return out, nil
}

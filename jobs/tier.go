package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

func (j *TierJob) validate() error {
	switch {
	case j.Tier < 0 || j.Shards < 1 || j.Shard < 0 || j.Shard >= j.Shards:
		return fmt.Errorf("%w: tier %d shard %d of %d", ErrInvalid, j.Tier, j.Shard, j.Shards)
	case j.NextShards < 1 || j.ReduceShards < 1:
		return fmt.Errorf("%w: next shards %d, reduce shards %d", ErrInvalid, j.NextShards, j.ReduceShards)
	case j.Run == "":
		return fmt.Errorf("%w: no run id", ErrInvalid)
	}
	for _, b := range j.Inputs {
		if b.Kind != KindPositions {
			return fmt.Errorf("%w: input %s holds %s, not positions", ErrInvalid, b.Name, b.Kind)
		}
	}
	return nil
}

// runTier merges the shard's fragments, measures every position and writes
// its successors and piece keys.
func runTier(ctx context.Context, st store.Store, j *TierJob, opts Options) (*TierResult, error) {
	if err := j.validate(); err != nil {
		return nil, err
	}
	g, err := j.game()
	if err != nil {
		return nil, err
	}
	// A quarter of the budget for piece records, the rest for successors;
	// each key needs itself and a radix scratch slot.
	budget := j.budget()
	var scratch []uint64
	keyWriter := func(h Header) func(io.Writer, []uint64) (Blob, error) {
		return func(w io.Writer, keys []uint64) (Blob, error) {
			keys, scratch = sortUnique(keys, scratch)
			return writeKeys(w, h, keys)
		}
	}
	next := newSpiller(ctx, st, j.NextShards, int(budget*3/4/16), func(part int) string {
		return fmt.Sprintf("%s/t%04d/s%05d-p%03d.frag", j.Run, j.Tier+1, j.Shard, part)
	}, keyWriter(j.header(g, KindPositions, j.Tier+1)))
	keySpiller := func(k Kind) *spiller[uint64] {
		return newSpiller(ctx, st, j.ReduceShards, int(budget/8/16), j.pieceName(k), keyWriter(j.header(g, k, j.Tier)))
	}
	deadFree, inPlace := keySpiller(KindDeadFree), keySpiller(KindInPlace)
	pieces := newSpiller(ctx, st, j.ReduceShards, int(budget/8/32), j.pieceName(KindPieces), func(w io.Writer, recs []PieceRecord) (Blob, error) {
		return writePieces(w, j.header(g, KindPieces, j.Tier), sortPieces(recs))
	})

	// Positions are stored one per orbit of the start's symmetry group,
	// each standing for its orbit; every count is weighted by the orbit's
	// size, so the totals are those of the plain enumeration.
	group := games.StartGroup(g, !j.NoSymmetry)
	// Few distinct pieces occur in many positions: remember their
	// representatives, up to a sixteenth of the budget.
	canonPiece := newPieceCache(group, int(j.budget()/16/64))
	var table *positionTable
	if j.Positions {
		table = newPositionTable(ctx, st, j, g, group)
		defer table.abort()
	}
	var stats TierStats
	moves := games.NewMoveStats(g.Name() == "clobber")
	var pcs []games.Piece
	var succ []uint64
	var seen []games.PieceKey
	err = mergeUnique(ctx, st, j.Inputs, KindPositions, g, j.budget(), func(pos uint64) error {
		if t := g.Tier(pos); t != j.Tier {
			return fmt.Errorf("%w: position %s is in tier %d, not %d", ErrCorrupt, g.Format(pos), t, j.Tier)
		}
		if b := Bucket(pos, j.Shards); b != j.Shard {
			return fmt.Errorf("%w: position %s belongs to shard %d, not %d", ErrCorrupt, g.Format(pos), b, j.Shard)
		}
		canon, w := group.CanonOrbit(pos)
		if canon != pos {
			return fmt.Errorf("%w: position %s is not the representative of its orbit", ErrCorrupt, g.Format(pos))
		}
		stats.Stored++
		stats.Positions += w
		if table != nil {
			if err := table.add(pos); err != nil {
				return err
			}
		}
		if stats.Stored%progressEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if opts.Progress != nil {
				opts.Progress(stats.Stored)
			}
		}
		pcs = g.Pieces(pos, pcs[:0])
		live, dead := 0, false
		seen = seen[:0]
		for _, p := range pcs {
			if !p.Live {
				dead = true
				continue
			}
			live++
			ip := group.Canon(p.Key)
			if err := inPlace.add(Bucket(ip, j.ReduceShards), ip); err != nil {
				return err
			}
			k := g.Translate(p.Key)
			if containsKey(seen, k) {
				continue // counted once per position
			}
			seen = append(seen, k)
			// The orbit of pos holds w positions; their pieces make up
			// the orbit of k, which the piece job spreads them over.
			c := canonPiece.get(k)
			rec := PieceRecord{Key: c, Positions: w, FirstTier: int32(j.Tier)}
			if err := pieces.add(pieceBucket(c, j.ReduceShards), rec); err != nil {
				return err
			}
		}
		if live >= 2 {
			stats.Split += w
			stats.LiveWhenSplit += w * uint64(live)
		}
		if dead {
			stats.WithDead += w
		}
		df := group.Canon(g.DeadFree(pos, pcs))
		if err := deadFree.add(Bucket(df, j.ReduceShards), df); err != nil {
			return err
		}
		succ = g.Expand(pos, pcs, succ[:0], moves, w)
		for _, s := range succ {
			s = group.Canon(s)
			if err := next.add(Bucket(s, j.NextShards), s); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrCorrupt) {
		// A record that fails its checks may come from a fragment whose
		// checksum, checked only at its end, was not reached yet: name
		// that fragment when there is one.
		if bad := verify(ctx, st, j.Inputs, KindPositions, g); bad != nil {
			err = bad
		}
	}
	if err != nil {
		return nil, fmt.Errorf("tier %d shard %d: %w", j.Tier, j.Shard, err)
	}
	stats.Moves, stats.Joins, stats.EdgeRuleJoins = moves.Moves, moves.Joins, moves.EdgeRuleJoins
	stats.MovedPiece = sparseHist(moves.MovedPiece)
	stats.MovedPieceSplit = sparseHist(moves.MovedPieceSplit)

	res := &TierResult{Tier: j.Tier, Shard: j.Shard, Stats: stats}
	if res.Next, err = next.close(); err != nil {
		return nil, err
	}
	for _, s := range []*spiller[uint64]{deadFree, inPlace} {
		blobs, err := s.close()
		if err != nil {
			return nil, err
		}
		res.Pieces = append(res.Pieces, blobs...)
	}
	blobs, err := pieces.close()
	if err != nil {
		return nil, err
	}
	res.Pieces = append(res.Pieces, blobs...)
	if table != nil {
		if res.Table, err = table.commit(stats.Positions); err != nil {
			return nil, fmt.Errorf("tier %d shard %d: %w", j.Tier, j.Shard, err)
		}
	}
	return res, nil
}

// pieceName names the parts of one kind of piece fragments of the job.
func (j *TierJob) pieceName(k Kind) func(part int) string {
	return func(part int) string {
		return fmt.Sprintf("%s/pieces/t%04d/%s-s%05d-p%03d.frag", j.Run, j.Tier, k, j.Shard, part)
	}
}

func containsKey(keys []games.PieceKey, k games.PieceKey) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

func sparseHist(h []uint64) []HistEntry {
	var out []HistEntry
	for i, c := range h {
		if c != 0 {
			out = append(out, HistEntry{N: i / games.MovedPieceStride, K: i % games.MovedPieceStride, Count: c})
		}
	}
	return out
}

// DenseHist turns a sparse moved-piece histogram back into the layout of
// games.MoveStats.
func DenseHist(h []HistEntry) []uint64 {
	out := make([]uint64, games.MovedPieceStride*games.MovedPieceStride)
	for _, e := range h {
		out[e.N*games.MovedPieceStride+e.K] += e.Count
	}
	return out
}

// WriteStart writes the start position of a run as the one fragment of
// tier 0, for the shard of shards that owns it.
func WriteStart(ctx context.Context, st store.Store, s Spec, shards int) (Blob, error) {
	g, err := s.game()
	if err != nil {
		return Blob{}, err
	}
	start := g.Start()
	b := Bucket(start, shards)
	name := fmt.Sprintf("%s/t0000/b%05d/start.frag", s.Run, b)
	blob, err := putKeys(ctx, st, name, s.header(g, KindPositions, 0), []uint64{start})
	blob.Bucket = b
	return blob, err
}

// pieceCache remembers the representatives of the orbits of pieces; when
// full it starts afresh.
type pieceCache struct {
	group games.Group
	m     map[games.PieceKey]games.PieceKey
	limit int
}

func newPieceCache(group games.Group, limit int) *pieceCache {
	return &pieceCache{group: group, m: make(map[games.PieceKey]games.PieceKey), limit: max(limit, 1024)}
}

func (c *pieceCache) get(k games.PieceKey) games.PieceKey {
	if c.group.Size() == 1 {
		return k
	}
	if r, ok := c.m[k]; ok {
		return r
	}
	if len(c.m) >= c.limit {
		clear(c.m)
	}
	r := c.group.CanonPiece(k)
	c.m[k] = r
	return r
}

package jobs

import (
	"context"
	"fmt"
	"io"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// positionTable writes the part of the positions table that one tier job
// owns: every position of its shard, sorted by key. The job streams one
// representative per orbit of the start's symmetries; the table holds every
// position, so each representative is expanded to its orbit. The images
// of sorted representatives are not sorted: they are gathered, spilled to
// the store as sorted runs when they outgrow their share of the budget,
// and merged when the job's stream ends. Without symmetries the stream is
// already the table and goes straight into the part.
type positionTable struct {
	ctx    context.Context
	st     store.Store
	g      games.Game
	group  games.Group
	name   string
	shard  int
	budget int64 // the job's memory budget
	rows   int64 // row-group size of the part
	// images gathers the images of the representatives; nil when the
	// rows are written as they come.
	images  *spiller[uint64]
	scratch []uint64
	orbit   []uint64
	pcs     []games.Piece

	w     *blobWriter
	pw    *schema.PositionWriter
	count uint64
	last  uint64
}

func newPositionTable(ctx context.Context, st store.Store, j *TierJob, g games.Game, group games.Group) *positionTable {
	budget, shares := j.budget(), tierBudget(true)
	t := &positionTable{
		ctx: ctx, st: st, g: g, group: group, shard: j.Shard, budget: budget,
		name: positionsTableBlob(j.Run, j.Tier, j.Shard),
		rows: int64(shares.PositionRows.records(budget, positionRowBytes)),
	}
	if group.Size() > 1 {
		// The runs lie beside the tier's input fragments, which the
		// coordinator deletes once the tier is done.
		t.images = newSpiller(ctx, st, 1, shares.PositionImages.records(budget, keyBytes), func(part int) string {
			return positionImagesBlob(j.Run, j.Tier, j.Shard, part)
		}, func(w io.Writer, keys []uint64) (Blob, error) {
			keys, t.scratch = sortUnique(keys, t.scratch)
			return writeKeys(w, j.header(g, KindPositions, j.Tier), keys)
		})
	}
	return t
}

// add takes the representative pos of its orbit.
func (t *positionTable) add(pos uint64) error {
	if t.images == nil {
		return t.write(pos)
	}
	t.orbit = t.group.Images(pos, t.orbit[:0])
	for _, k := range t.orbit {
		if err := t.images.add(0, k); err != nil {
			return err
		}
	}
	return nil
}

// write appends the row of pos, which must follow every row written so far.
func (t *positionTable) write(pos uint64) error {
	if t.pw == nil {
		w, err := newBlobWriter(t.ctx, t.st, t.name)
		if err != nil {
			return err
		}
		t.w = w
		if t.pw, err = schema.NewPositionWriter(w, t.rows); err != nil {
			return fmt.Errorf("start positions table %s: %w", t.name, err)
		}
	} else if pos <= t.last {
		return fmt.Errorf("positions table %s: position %s after %s", t.name, t.g.Format(pos), t.g.Format(t.last))
	}
	t.pcs = t.g.Pieces(pos, t.pcs[:0])
	var live, dead int32
	for _, p := range t.pcs {
		if p.Live {
			live++
		} else {
			dead++
		}
	}
	t.count++
	t.last = pos
	if t.count%progressEvery == 0 {
		if err := t.ctx.Err(); err != nil {
			return err
		}
	}
	err := t.pw.Write(schema.Position{Key: pos, LivePieces: live, DeadPieces: dead, Picture: t.g.Format(pos)})
	if err != nil {
		return fmt.Errorf("write positions table %s: %w", t.name, err)
	}
	return nil
}

// commit writes the gathered images in key order and finishes the part,
// which must hold the shard's positions, as many as the job counted. It
// returns the part's blob, whose Bucket is the shard and Count its rows, or
// nil when the shard held no position.
func (t *positionTable) commit(positions uint64) (*Blob, error) {
	if t.images != nil {
		if err := t.writeImages(); err != nil {
			return nil, err
		}
	}
	if t.count != positions {
		return nil, fmt.Errorf("positions table %s holds %d rows for %d positions", t.name, t.count, positions)
	}
	if t.pw == nil {
		return nil, nil
	}
	if err := t.pw.Close(); err != nil {
		return nil, fmt.Errorf("finish positions table %s: %w", t.name, err)
	}
	t.pw = nil
	b, err := t.w.commit()
	if err != nil {
		return nil, err
	}
	b.Bucket, b.Count = t.shard, t.count
	return &b, nil
}

// writeImages writes the gathered images: straight from memory when they
// never outgrew it, else merged from the sorted runs in the store.
func (t *positionTable) writeImages() error {
	s := t.images
	if s.parts == 0 {
		keys := s.bufs[0]
		keys, t.scratch = sortUnique(keys, t.scratch)
		for _, k := range keys {
			if err := t.write(k); err != nil {
				return err
			}
		}
		return nil
	}
	runs, err := s.close()
	if err != nil {
		return err
	}
	return mergeUnique(t.ctx, t.st, runs, KindPositions, t.g, tierBudget(true).ReadBuffers.of(t.budget), t.write)
}

// abort discards a part not committed.
func (t *positionTable) abort() {
	if t.w != nil {
		t.w.abort()
	}
}

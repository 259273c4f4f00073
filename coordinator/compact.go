package coordinator

import (
	"context"
	"fmt"

	"github.com/census-cgt/census/jobs"
)

// compactions keeps the piece fragments of a run (dead-free and in-place
// keys, piece records, by reduce bucket) and decides when to compact them.
// Every tier writes piece records for its positions, most of them of
// pieces that earlier tiers met too, so the fragments grow with the
// positions while what is distinct grows far slower. When the fragments
// written since the last compaction outweigh the runs it made (and at
// least min bytes), the next tier's batch also holds one compaction job
// per bucket, which folds the bucket's runs and fragments into one run
// per kind; each compaction's inputs, the fragments and the old runs,
// are deleted once it is done (Config.forget), and what a failed delete
// left is swept once the batch is done. Each compaction rewrites at most the bytes written since the
// one before it plus as many again, so the work of compacting is at most
// about twice the bytes the tiers write, and the store holds at most about
// twice the distinct records plus what one tier writes.
//
// Every decision follows from the results of the tiers and compactions
// before it, which a resumed run replays from their done-records, and
// the threshold is in the run's plan: a resumed run makes the same
// compactions, and a batch that an earlier start finished is not run
// again, so fragments it deleted are never asked for.
type compactions struct {
	spec    jobs.Spec
	buckets int
	min     uint64
	// runs are the compacted runs, made after tier runsTier (-1: none).
	runs     []jobs.Blob
	runsTier int
	// fresh are the fragments of the tiers from freshFrom on, written
	// since the last compaction.
	fresh     []jobs.Blob
	freshFrom int
	made      []Compaction
}

// Compaction is one compaction of a run's piece fragments: it folded the
// fragments of the tiers up to AfterTier, Read bytes of fragments and
// runs, into runs of Written bytes.
type Compaction struct {
	AfterTier     int
	Read, Written uint64
}

func newCompactions(spec jobs.Spec, buckets int, min uint64) *compactions {
	return &compactions{spec: spec, buckets: buckets, min: min, runsTier: -1}
}

// blobs are every piece fragment and run of the run so far.
func (c *compactions) blobs() []jobs.Blob {
	return append(append([]jobs.Blob(nil), c.runs...), c.fresh...)
}

// due are the compaction jobs to run beside tier t: none unless the
// fragments written since the last compaction are due for one.
func (c *compactions) due(t int) []jobs.Job {
	fresh := blobBytes(c.fresh)
	if c.min == 0 || t == 0 || fresh < c.min || fresh < blobBytes(c.runs) {
		return nil
	}
	byBucket := make([][]jobs.Blob, c.buckets)
	for _, b := range c.blobs() {
		byBucket[b.Bucket] = append(byBucket[b.Bucket], b)
	}
	var batch []jobs.Job
	for b, in := range byBucket {
		if len(in) > 0 {
			batch = append(batch, jobs.Job{Compact: &jobs.CompactJob{Spec: c.spec, Tier: t - 1, Bucket: b, Inputs: in}})
		}
	}
	return batch
}

// compacting is the bytes the compaction jobs read.
func (c *compactions) compacting(batch []jobs.Job) uint64 {
	var n uint64
	for _, j := range batch {
		n += blobBytes(j.Compact.Inputs)
	}
	return n
}

// done takes in the results of tier t's batch: its tier jobs' piece
// fragments and, when the batch compacted, the new runs, after which it
// sweeps what they replace (deleted already as each compaction finished,
// unless a delete failed).
func (c *compactions) done(ctx context.Context, cfg Config, t int, tiers, compacted []jobs.Result) error {
	if len(compacted) > 0 {
		var runs []jobs.Blob
		for _, r := range compacted {
			if r.Compact == nil || r.Compact.Tier != t-1 {
				return fmt.Errorf("tier %d: a compaction reported %+v", t, r)
			}
			runs = append(runs, r.Compact.Outputs...)
		}
		m := Compaction{AfterTier: t - 1, Read: blobBytes(c.runs) + blobBytes(c.fresh), Written: blobBytes(runs)}
		c.made = append(c.made, m)
		cfg.Log.Info("compacted piece fragments", "after_tier", m.AfterTier, "read", m.Read, "written", m.Written)
		if !cfg.KeepBlobs {
			c.delete(ctx, cfg, t)
		}
		c.runs, c.runsTier, c.fresh, c.freshFrom = runs, t-1, nil, t
	}
	for _, r := range tiers {
		c.fresh = append(c.fresh, r.Tier.Pieces...)
	}
	return nil
}

// delete removes the fragments and runs that the compaction beside tier t
// replaced. A blob left behind by a failed delete is only wasted space:
// nothing reads it again, and the run's prefix is deleted at its end.
func (c *compactions) delete(ctx context.Context, cfg Config, t int) {
	runsTier, freshFrom := c.runsTier, c.freshFrom
	cfg.deletes.do(func() {
		if runsTier >= 0 {
			if err := cfg.Store.DeletePrefix(ctx, jobs.CompactPrefix(c.spec.Run, runsTier)); err != nil {
				cfg.Log.Warn("delete compacted piece runs", "tier", runsTier, "err", err)
			}
		}
		for tier := freshFrom; tier < t; tier++ {
			if err := cfg.Store.DeletePrefix(ctx, jobs.PieceTierPrefix(c.spec.Run, tier)); err != nil {
				cfg.Log.Warn("delete compacted piece fragments", "tier", tier, "err", err)
			}
		}
	})
}

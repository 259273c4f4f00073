package jobs

import (
	"context"
	"fmt"

	"github.com/census-cgt/census/store"
)

// CompactJob folds the piece fragments of one reduce bucket, written by
// the tiers so far, into one run per kind: the distinct dead-free and
// in-place keys, and the piece records with one record per piece
// (positions added up, the least first tier). The piece job of the
// bucket reads the runs as it would the fragments they replace, so the
// store holds about what is distinct instead of every record since tier
// 0. The coordinator runs a compaction of every bucket after a tier
// (Tier) once the fragments written since the last one outweigh the runs
// it made.
type CompactJob struct {
	Spec
	Tier   int    `json:"tier"`
	Bucket int    `json:"bucket"`
	Inputs []Blob `json:"inputs"`
}

// CompactResult names the runs a compaction wrote: one blob holding a
// fragment of each kind that had records, Bucket naming the reduce
// bucket.
type CompactResult struct {
	Tier    int    `json:"tier"`
	Bucket  int    `json:"bucket"`
	Outputs []Blob `json:"outputs"`
}

func (j *CompactJob) validate() error {
	if j.Tier < 0 || j.Bucket < 0 || j.Run == "" {
		return fmt.Errorf("%w: compaction after tier %d of bucket %d, run %q", ErrInvalid, j.Tier, j.Bucket, j.Run)
	}
	for _, b := range j.Inputs {
		if b.Kind != KindDeadFree && b.Kind != KindInPlace && b.Kind != KindPieces {
			return fmt.Errorf("%w: compaction input %s holds %s, not piece keys or records", ErrInvalid, b.Name, b.Kind)
		}
		if b.Bucket != j.Bucket {
			return fmt.Errorf("%w: compaction input %s is for bucket %d, not %d", ErrInvalid, b.Name, b.Bucket, j.Bucket)
		}
	}
	return nil
}

// runCompact merges each kind of the job's inputs twice: once to count the
// distinct records (a fragment's header holds its count) and once to
// write them, so that its memory is the read buffers alone, however many
// records the bucket holds.
func runCompact(ctx context.Context, st store.Store, j *CompactJob, opts Options) (*CompactResult, error) {
	if err := j.validate(); err != nil {
		return nil, err
	}
	g, err := j.game()
	if err != nil {
		return nil, err
	}
	reads := compactBudget().ReadBuffers.of(j.budget())
	res := &CompactResult{Tier: j.Tier, Bucket: j.Bucket}
	bw, err := newBlobWriter(ctx, st, compactBlob(j.Run, j.Tier, j.Bucket))
	if err != nil {
		return nil, err
	}
	defer bw.abort()
	var offset int64
	var done uint64
	add := func(b Blob, err error) error {
		if err != nil {
			return err
		}
		b.Name, b.Bucket, b.Offset = bw.name, j.Bucket, offset
		offset += b.Size
		res.Outputs = append(res.Outputs, b)
		done += b.Count
		if opts.Progress != nil {
			opts.Progress(done)
		}
		return ctx.Err()
	}
	// merge merges the inputs of kind k and writes the distinct records to
	// fw, or only counts them when fw is nil.
	merge := func(k Kind, fw *fragWriter) (n uint64, err error) {
		if k == KindPieces {
			err = mergePieces(ctx, st, j.Inputs, g, reads, func(r PieceRecord) error {
				if fw != nil {
					fw.pieceRecord(r)
				}
				n++
				return nil
			})
			return n, err
		}
		err = mergeUnique(ctx, st, j.Inputs, k, g, reads, func(key uint64) error {
			if fw != nil {
				fw.key(key)
			}
			n++
			return nil
		})
		return n, err
	}
	for _, k := range []Kind{KindDeadFree, KindInPlace, KindPieces} {
		n, err := merge(k, nil)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			continue
		}
		h := j.header(g, k, j.Tier)
		h.Count = n
		err = add(writeFragmentErr(bw, h, func(fw *fragWriter) error {
			_, err := merge(k, fw)
			return err
		}))
		if err != nil {
			return nil, err
		}
	}
	if len(res.Outputs) == 0 {
		return res, nil
	}
	if _, err := bw.commit(); err != nil {
		return nil, err
	}
	return res, nil
}

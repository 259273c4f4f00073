package jobs

import (
	"cmp"
	"context"
	"fmt"
	"sync"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
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

// runCompact merges each kind of the job's inputs and writes the distinct
// records as one fragment, whose header holds their count. The records
// are encoded into memory as they are merged, and written once the count
// is known: one merge. A kind whose records outgrow the budget's Output
// share is merged twice instead, once to count and once to write, so
// that the job's memory stays the read buffers and that share however
// many records the bucket holds. Both ways write the same bytes.
func runCompact(ctx context.Context, st store.Store, j *CompactJob, opts Options) (*CompactResult, error) {
	return compactHolding(ctx, st, j, opts, compactBudget().Output.of(j.budget()))
}

// compactHolding is runCompact holding at most output bytes of a kind's
// records in memory.
func compactHolding(ctx context.Context, st store.Store, j *CompactJob, opts Options, output int64) (*CompactResult, error) {
	if err := j.validate(); err != nil {
		return nil, err
	}
	g, err := j.game()
	if err != nil {
		return nil, err
	}
	bw, err := newBlobWriter(ctx, st, compactBlob(j.Run, j.Tier, j.Bucket))
	if err != nil {
		return nil, err
	}
	defer bw.abort()
	c := &compaction{
		ctx: ctx, st: st, j: j, g: g, opts: opts, bw: bw,
		reads: compactBudget().ReadBuffers.of(j.budget()),
		res:   &CompactResult{Tier: j.Tier, Bucket: j.Bucket},
	}
	out := &payload{limit: output}
	defer out.drop()
	for _, k := range []Kind{KindDeadFree, KindInPlace, KindPieces} {
		if err := c.kind(k, out); err != nil {
			return nil, err
		}
	}
	if len(c.res.Outputs) == 0 {
		return c.res, nil
	}
	if _, err := bw.commit(); err != nil {
		return nil, err
	}
	return c.res, nil
}

// compaction is one compaction job under way: its output blob, and the
// fragments written to it so far.
type compaction struct {
	ctx   context.Context
	st    store.Store
	j     *CompactJob
	g     games.Game
	opts  Options
	reads int64
	bw    *blobWriter
	res   *CompactResult
	// offset is where the next fragment starts in bw; done counts the
	// records written.
	offset int64
	done   uint64
}

// kind compacts the inputs of kind k into one fragment of the output,
// holding the records in out while they fit, and merging the inputs again
// to write them when they do not.
func (c *compaction) kind(k Kind, out *payload) error {
	out.reset()
	pw := fragment.NewPayloadWriter(out)
	n, err := c.merge(k, pw, out)
	if err == nil {
		err = pw.Flush()
	}
	pw.Release()
	if err != nil || n == 0 {
		return err
	}
	h := c.j.header(c.g, k, c.j.Tier)
	h.Count = n
	return c.add(writeFragment(c.bw, h, func(fw *fragment.Writer) error {
		if out.room() {
			for _, b := range out.chunks {
				fw.Raw(b)
			}
			return nil
		}
		// The records outgrew the output share: merge them again.
		if m, err := c.merge(k, fw, nil); err != nil || m != n {
			return cmp.Or(err, fmt.Errorf("compaction of bucket %d: %d %s records, then %d", c.j.Bucket, n, k, m))
		}
		return nil
	}))
}

// merge merges the inputs of kind k and writes the distinct records to
// fw, unless hold is set and has run out of room; it returns how many
// there are.
func (c *compaction) merge(k Kind, fw *fragment.Writer, hold *payload) (n uint64, err error) {
	if k == KindPieces {
		err = mergePieces(c.ctx, c.st, c.j.Inputs, c.g, c.reads, func(r PieceRecord) error {
			if hold == nil || hold.room() {
				fw.Piece(r)
			}
			n++
			return nil
		})
		return n, err
	}
	err = mergeUnique(c.ctx, c.st, c.j.Inputs, k, c.g, c.reads, func(key uint64) error {
		if hold == nil || hold.room() {
			fw.Key(key)
		}
		n++
		return nil
	})
	return n, err
}

// add records a fragment written to the output blob.
func (c *compaction) add(b Blob, err error) error {
	if err != nil {
		return err
	}
	b.Name, b.Bucket, b.Offset = c.bw.name, c.j.Bucket, c.offset
	c.offset += b.Size
	c.res.Outputs = append(c.res.Outputs, b)
	c.done += b.Count
	if c.opts.Progress != nil {
		c.opts.Progress(c.done)
	}
	return c.ctx.Err()
}

// payload holds the encoded records of a fragment in memory, in chunks,
// while they take at most limit bytes; past that it only counts them.
type payload struct {
	chunks [][]byte
	size   int64
	limit  int64
}

// payloadChunk is the size of a payload's chunks.
const payloadChunk = 1 << 20

// payloadChunks keeps the chunks of the payloads done with.
var payloadChunks = sync.Pool{New: func() any { b := make([]byte, 0, payloadChunk); return &b }}

func (p *payload) Write(b []byte) (int, error) {
	p.size += int64(len(b))
	if !p.room() {
		p.drop() // what it holds is of no use now
		return len(b), nil
	}
	for rest := b; len(rest) > 0; {
		if len(p.chunks) == 0 || len(p.chunks[len(p.chunks)-1]) == payloadChunk {
			p.chunks = append(p.chunks, (*payloadChunks.Get().(*[]byte))[:0])
		}
		c := &p.chunks[len(p.chunks)-1]
		n := copy((*c)[len(*c):payloadChunk], rest)
		*c, rest = (*c)[:len(*c)+n], rest[n:]
	}
	return len(b), nil
}

// room reports whether the payload still holds every byte written to it.
func (p *payload) room() bool { return p.size <= p.limit }

// drop gives the payload's chunks back.
func (p *payload) drop() {
	for i, c := range p.chunks {
		payloadChunks.Put(&c)
		p.chunks[i] = nil
	}
	p.chunks = p.chunks[:0]
}

// reset empties the payload for the next fragment.
func (p *payload) reset() { p.drop(); p.size = 0 }

package jobs

import (
	"context"
	"fmt"
	"io"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// runPieces counts the distinct dead-free boards, in-place pieces and
// translated pieces of one reduce shard, writes a row of the pieces table
// for each translated piece, and sends its classes on to the class shards.
func runPieces(ctx context.Context, st store.Store, j *PieceJob, opts Options) (*PieceResult, error) {
	if j.Bucket < 0 || j.ClassShards < 1 || j.Run == "" {
		return nil, fmt.Errorf("%w: piece bucket %d, class shards %d, run %q", ErrInvalid, j.Bucket, j.ClassShards, j.Run)
	}
	g, err := j.game()
	if err != nil {
		return nil, err
	}
	res := &PieceResult{Bucket: j.Bucket, BySize: map[int]uint64{}}
	// Keys are representatives of orbits of the start's symmetries: each
	// stands for its whole orbit.
	group := games.StartGroup(g, !j.NoSymmetry)
	count := func(n *uint64) func(uint64) error {
		return func(key uint64) error { *n += group.Orbit(key); return nil }
	}
	if err := mergeUnique(ctx, st, j.Inputs, KindDeadFree, g, j.budget(), count(&res.DeadFree)); err != nil {
		return nil, err
	}
	if err := mergeUnique(ctx, st, j.Inputs, KindInPlace, g, j.budget(), count(&res.InPlace)); err != nil {
		return nil, err
	}

	classes := newSpiller(ctx, st, j.ClassShards, int(j.budget()/64), func(part int) string {
		return fmt.Sprintf("%s/classes/r%05d-p%03d.frag", j.Run, j.Bucket, part)
	}, func(w io.Writer, recs []ClassRecord) (Blob, error) {
		return writeClasses(w, j.header(g, KindClasses, 0), sortClasses(recs))
	})
	// The table writer holds a row group, some 100 bytes a row: a quarter
	// of the budget.
	table, err := newTableWriter(ctx, st, fmt.Sprintf("%s/tables/pieces/part-%05d.parquet", j.Run, j.Bucket), j.budget()/4/100)
	if err != nil {
		return nil, err
	}
	defer table.abort()

	var cur PieceRecord
	have := false
	var orbit []games.Image
	// finish writes the pieces of the orbit of the current representative:
	// the positions it stands for are spread evenly over them, as the
	// symmetries map the positions holding one onto those holding another.
	finish := func() error {
		if !have {
			return nil
		}
		orbit = group.PieceOrbit(cur.Key, orbit[:0])
		n := uint64(len(orbit))
		if cur.Positions%n != 0 {
			return fmt.Errorf("%w: piece %s occurs in %d positions, not a multiple of its orbit of %d", ErrCorrupt, g.Picture(cur.Key), cur.Positions, n)
		}
		// The symmetries of the start keep a piece's classes, or take it
		// to its negative's: two class computations serve the orbit.
		plain := pieceClasses(g, cur.Key)
		var negated *pieceClassesOf
		for _, im := range orbit {
			cl := plain
			if im.Negates {
				if negated == nil {
					c := pieceClasses(g, im.Key)
					negated = &c
				}
				cl = *negated
			}
			if err := writePiece(g, table.pw, classes, j.ClassShards, res, im.Key, cl, cur.Positions/n, cur.FirstTier); err != nil {
				return err
			}
		}
		if res.Translated%progressEvery < n && opts.Progress != nil {
			opts.Progress(res.Translated)
		}
		return nil
	}
	srcs, closeAll, err := sources(ctx, st, j.Inputs, KindPieces, g, j.budget(), (*fragReader).nextPiece)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	err = mergeSorted(srcs, func(a, b PieceRecord) int { return comparePieceKeys(a.Key, b.Key) }, func(r PieceRecord) error {
		if have && r.Key == cur.Key {
			cur.Positions += r.Positions
			cur.FirstTier = min(cur.FirstTier, r.FirstTier)
			return nil
		}
		if err := finish(); err != nil {
			return err
		}
		cur, have = r, true
		return nil
	})
	if err == nil {
		err = finish()
	}
	if err != nil {
		return nil, err
	}
	if res.Translated > 0 {
		blob, err := table.commit()
		if err != nil {
			return nil, err
		}
		blob.Bucket = j.Bucket
		res.Table = &blob
	}
	if res.Classes, err = classes.close(); err != nil {
		return nil, err
	}
	return res, nil
}

// writePiece writes the row of one translated piece and sends its classes
// on.
func writePiece(g games.Game, pw *schema.PieceWriter, classes *spiller[ClassRecord], shards int, res *PieceResult, k games.PieceKey, cl pieceClassesOf, positions uint64, firstTier int32) error {
	res.Translated++
	size := g.Size(k)
	res.BySize[size]++
	sym, neg, self := cl.sym, cl.neg, cl.self
	rows, cols := k.Dims()
	row := schema.Piece{
		Game: g.Name(), Board: g.Board().String(),
		KeyHi: k.Hi, KeyLo: k.Lo,
		Rows: int32(rows), Cols: int32(cols), Size: int32(size),
		Picture:     g.Picture(k),
		CGSuite:     g.CGSuite(k),
		SymmetricHi: sym.Hi, SymmetricLo: sym.Lo,
		NegationHi: neg.Hi, NegationLo: neg.Lo,
		SelfNegative: self,
		Positions:    positions, FirstTier: firstTier,
	}
	if err := pw.Write(row); err != nil {
		return fmt.Errorf("write pieces table: %w", err)
	}
	return classes.add(pieceBucket(neg, shards), ClassRecord{Neg: neg, Sym: sym, SelfNegative: self})
}

// pieceClassesOf are the class keys of a translated piece.
type pieceClassesOf struct {
	sym, neg games.PieceKey
	self     bool
}

func pieceClasses(g games.Game, k games.PieceKey) pieceClassesOf {
	sym, neg, self := g.Classes(k)
	return pieceClassesOf{sym, neg, self}
}

// runClasses counts the distinct classes of one class shard. Every
// translated piece of one negation class lands in the same shard, so the
// symmetric classes (which refine it) are counted there too.
func runClasses(ctx context.Context, st store.Store, j *ClassJob, opts Options) (*ClassResult, error) {
	if j.Bucket < 0 || j.Run == "" {
		return nil, fmt.Errorf("%w: class bucket %d, run %q", ErrInvalid, j.Bucket, j.Run)
	}
	g, err := j.game()
	if err != nil {
		return nil, err
	}
	srcs, closeAll, err := sources(ctx, st, j.Inputs, KindClasses, g, j.budget(), (*fragReader).nextClass)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	res := &ClassResult{Bucket: j.Bucket}
	var prev ClassRecord
	first := true
	err = mergeSorted(srcs, compareClasses, func(r ClassRecord) error {
		if first || r.Neg != prev.Neg {
			res.Negation++
		}
		if first || r.Neg != prev.Neg || r.Sym != prev.Sym {
			res.Symmetric++
			if r.SelfNegative {
				res.SelfNegative++
			}
		}
		first, prev = false, r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// tableWriter writes a pieces table into the store as one blob.
type tableWriter struct {
	*blobWriter
	pw *schema.PieceWriter
}

func newTableWriter(ctx context.Context, st store.Store, name string, rowGroupRows int64) (*tableWriter, error) {
	bw, err := newBlobWriter(ctx, st, name)
	if err != nil {
		return nil, err
	}
	t := &tableWriter{blobWriter: bw}
	if t.pw, err = schema.NewPieceWriterRows(bw, rowGroupRows); err != nil {
		bw.abort()
		return nil, fmt.Errorf("start pieces table %s: %w", name, err)
	}
	return t, nil
}

// commit finishes the table and makes its blob visible.
func (t *tableWriter) commit() (Blob, error) {
	if err := t.pw.Close(); err != nil {
		return Blob{}, fmt.Errorf("finish pieces table %s: %w", t.name, err)
	}
	t.pw = nil
	return t.blobWriter.commit()
}

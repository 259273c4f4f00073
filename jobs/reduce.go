package jobs

import (
	"context"
	"fmt"
	"io"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// runPieces counts the distinct dead-free boards, in-place pieces and
// translated pieces of one reduce shard, writes a row of the pieces table
// for each translated piece, in key order, and sends its classes on to the
// class shards.
func runPieces(ctx context.Context, st store.Store, j *PieceJob, opts Options) (*PieceResult, error) {
	if j.Bucket < 0 || j.ClassShards < 1 || j.Run == "" {
		return nil, fmt.Errorf("%w: piece bucket %d, class shards %d, run %q", ErrInvalid, j.Bucket, j.ClassShards, j.Run)
	}
	g, err := j.game()
	if err != nil {
		return nil, err
	}
	budget, shares := j.budget(), pieceBudget()
	reads := shares.ReadBuffers.of(budget)
	res := &PieceResult{Bucket: j.Bucket, BySize: map[int]uint64{}}
	// Keys are representatives of orbits of the start's symmetries: each
	// stands for its whole orbit.
	group := games.StartGroup(g, !j.NoSymmetry)
	if err := countKeys(ctx, st, j, g, group, reads, res); err != nil {
		return nil, err
	}

	drainTierBufs()
	classes := newSpiller(ctx, st, j.ClassShards, shares.Classes.records(budget, classRecordBytes), func(part int) string {
		return classBlob(j.Run, j.Bucket, part)
	}, func(w io.Writer, recs []ClassRecord) (Blob, error) {
		return writeClasses(w, j.header(g, KindClasses, 0), sortClasses(recs))
	})
	classes.pool = classBufs
	defer classes.release()
	table, err := newTableWriter(ctx, st, piecesTableBlob(j.Run, j.Bucket), int64(shares.Rows.records(budget, pieceRowBytes)), schema.Codec(j.PiecesCodec))
	if err != nil {
		return nil, err
	}
	defer table.abort()
	// The pieces of the orbits of sorted representatives are not sorted:
	// they are gathered, spilled as sorted runs when they outgrow their
	// share, and written in key order once every orbit is in.
	// Each piece record of the inputs stands for at most one orbit (fewer
	// when a piece has records in several), of at most as many pieces as
	// the start has symmetries.
	images := newImageSet(ctx, st, shares.Images.of(budget), j.header(g, KindPieceRows, 0), j.Run, j.Bucket, j.pieceRecords(), group.Size())
	defer images.release()
	if err := gatherOrbits(ctx, st, j, g, group, reads, images, classes); err != nil {
		return nil, err
	}
	if err := writeRows(g, images, table, reads, res, opts); err != nil {
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
	res.ImageRuns = images.remove()
	if res.Classes, err = classes.close(); err != nil {
		return nil, err
	}
	return res, nil
}

// countKeys counts the dead-free boards and the pieces in place of the
// job's inputs, each key standing for its orbit under group.
func countKeys(ctx context.Context, st store.Store, j *PieceJob, g games.Game, group games.Group, reads int64, res *PieceResult) error {
	count := func(n *uint64) func(uint64) error {
		return func(key uint64) error { *n += group.Orbit(key); return nil }
	}
	if err := mergeUnique(ctx, st, j.Inputs, KindDeadFree, g, reads, count(&res.DeadFree)); err != nil {
		return err
	}
	return mergeUnique(ctx, st, j.Inputs, KindInPlace, g, reads, count(&res.InPlace))
}

// pieceRecords counts the piece records of the job's inputs.
func (j *PieceJob) pieceRecords() uint64 {
	var records uint64
	for _, b := range j.Inputs {
		if b.Kind == KindPieces {
			records += b.Count
		}
	}
	return records
}

// writeRows writes the pieces of the gathered orbits, in key order, as
// the rows of the pieces table, counting them in res.
func writeRows(g games.Game, images *imageSet, table *tableWriter, reads int64, res *PieceResult, opts Options) error {
	rows := newPieceRows(g, table.pw, res)
	err := images.each(g, reads, func(r fragment.PieceRow) error {
		if err := rows.write(r); err != nil {
			return err
		}
		if res.Translated%progressEvery == 0 && opts.Progress != nil {
			opts.Progress(res.Translated)
		}
		return nil
	})
	if err != nil {
		return err
	}
	rows.done()
	return nil
}

// gatherOrbits merges the piece records of the job, one per representative
// of an orbit of translated pieces, and adds every piece of each orbit,
// with its classes, to images: the positions the representative stands for
// are spread evenly over them, as the symmetries map the positions holding
// one onto those holding another. The classes of the orbit's pieces go to
// classes, once each.
func gatherOrbits(ctx context.Context, st store.Store, j *PieceJob, g games.Game, group games.Group, reads int64, images *imageSet, classes *spiller[ClassRecord]) error {
	var orbit []games.Image
	spread := func(rep PieceRecord) error {
		orbit = group.PieceOrbit(rep.Key, orbit[:0])
		n := uint64(len(orbit))
		if rep.Positions%n != 0 {
			return fmt.Errorf("%w: piece %s occurs in %d positions, not a multiple of its orbit of %d", ErrCorrupt, g.Picture(rep.Key), rep.Positions, n)
		}
		// The symmetries of the start keep a piece's classes, or take it
		// to its negative's: at most two class computations serve the
		// orbit.
		o := orbitRow{Positions: rep.Positions / n, FirstTier: rep.FirstTier, Plain: classesOf(g, rep.Key)}
		if err := classes.add(pieceBucket(o.Plain.Neg, j.ClassShards), o.Plain.record()); err != nil {
			return err
		}
		for _, im := range orbit {
			if im.Negates {
				o.Negated = negatedClasses(g, o.Plain, im.Key)
				if err := classes.add(pieceBucket(o.Negated.Neg, j.ClassShards), o.Negated.record()); err != nil {
					return err
				}
				break
			}
		}
		return images.add(o, orbit)
	}
	return mergePieces(ctx, st, j.Inputs, g, reads, spread)
}

// mergePieces merges the piece records of blobs and calls emit once per
// piece, in key order, with the positions of its records added up and the
// least of their first tiers.
func mergePieces(ctx context.Context, st store.Store, blobs []Blob, g games.Game, reads int64, emit func(PieceRecord) error) error {
	srcs, closeAll, err := sources(ctx, st, blobs, KindPieces, g, reads, (*fragment.Reader).NextPiece)
	if err != nil {
		return err
	}
	defer closeAll()
	var cur PieceRecord
	have := false
	err = mergeSorted(srcs, comparePieceRecords, func(r PieceRecord) error {
		if have && r.Key == cur.Key {
			cur.Positions += r.Positions
			cur.FirstTier = min(cur.FirstTier, r.FirstTier)
			return nil
		}
		if have {
			if err := emit(cur); err != nil {
				return err
			}
		}
		cur, have = r, true
		return nil
	})
	if err == nil && have {
		err = emit(cur)
	}
	return err
}

// classesOf is the classes of the translated piece k.
func classesOf(g games.Game, k games.PieceKey) pieceClasses {
	sym, neg, self := g.Classes(k)
	return pieceClasses{Sym: sym, Neg: neg, SelfNegative: self}
}

// negatedClasses is the classes of the translated piece k, which lies in
// the symmetric class of the negative of a piece of classes c. They share
// c's negation class and whether it is self-negative, and k's symmetric
// class is the negative's: c's own when c is self-negative, else the
// other of the two in the negation class, which is c.Neg when c.Sym is
// not. Only when c.Sym names the negation class is k's symmetric class
// unknown, and computed.
func negatedClasses(g games.Game, c pieceClasses, k games.PieceKey) pieceClasses {
	switch {
	case c.SelfNegative:
		return c
	case c.Sym != c.Neg:
		return pieceClasses{Sym: c.Neg, Neg: c.Neg}
	}
	return classesOf(g, k)
}

// pieceRows writes the rows of the pieces table of one piece job and
// counts them, by size too.
type pieceRows struct {
	g  games.Game
	pw *schema.UnvaluedPieceWriter
	// name and board are in every row: the strings are made once.
	name, board string
	// draw, when the game is one, draws each row's picture into picture,
	// reused from row to row.
	draw    games.PieceDrawer
	picture []byte
	res     *PieceResult
	// bySize counts the rows by size: a piece has at most 64 squares, and
	// an array spares a map update a row.
	bySize [65]uint64
}

func newPieceRows(g games.Game, pw *schema.UnvaluedPieceWriter, res *PieceResult) *pieceRows {
	t := &pieceRows{g: g, pw: pw, name: g.Name(), board: g.Board().String(), res: res}
	t.draw, _ = g.(games.PieceDrawer)
	return t
}

// write writes the row of one translated piece.
func (t *pieceRows) write(r fragment.PieceRow) error {
	k, g := r.Key, t.g
	t.res.Translated++
	size := g.Size(k)
	if size < 0 || size >= len(t.bySize) {
		return fmt.Errorf("%w: piece %s has size %d", ErrCorrupt, g.Picture(k), size)
	}
	t.bySize[size]++
	rows, cols := k.Dims()
	p := schema.Piece{
		Game: t.name, Board: t.board,
		KeyHi: k.Hi, KeyLo: k.Lo,
		Rows: int32(rows), Cols: int32(cols), Size: int32(size),
		SymmetricHi: r.Sym.Hi, SymmetricLo: r.Sym.Lo,
		NegationHi: r.Neg.Hi, NegationLo: r.Neg.Lo,
		SelfNegative: r.SelfNegative,
		Positions:    r.Positions, FirstTier: r.FirstTier,
	}
	var err error
	if t.draw != nil {
		t.picture = t.draw.AppendPicture(t.picture[:0], k)
		err = t.pw.WriteDrawn(&p, t.picture)
	} else {
		p.Picture = g.Picture(k)
		err = t.pw.Write(p)
	}
	if err != nil {
		return fmt.Errorf("write pieces table: %w", err)
	}
	return nil
}

// done adds the counts by size to the job's result.
func (t *pieceRows) done() {
	for size, n := range t.bySize {
		if n > 0 {
			t.res.BySize[size] += n
		}
	}
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
	for _, b := range j.Inputs {
		if b.Kind != KindClasses && b.Kind != kindClassPairs {
			return nil, fmt.Errorf("%w: class input %s holds %s, not classes", ErrInvalid, b.Name, b.Kind)
		}
	}
	reads := classBudget().ReadBuffers.of(j.budget())
	srcs, closeAll, err := sources(ctx, st, j.Inputs, KindClasses, g, reads, (*fragment.Reader).NextClass)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	pairs, closePairs, err := sources(ctx, st, j.Inputs, kindClassPairs, g, reads, (*fragment.Reader).NextClassPair)
	if err != nil {
		return nil, err
	}
	defer closePairs()
	srcs = append(srcs, pairs...)
	res := &ClassResult{Bucket: j.Bucket}
	var prev ClassRecord
	first := true
	err = mergeSorted(srcs, compareClasses, func(r ClassRecord) error {
		if first || r.Neg != prev.Neg {
			res.Negation++
		}
		if first || r.Neg != prev.Neg || r.Other != prev.Other {
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
	pw *schema.UnvaluedPieceWriter
}

func newTableWriter(ctx context.Context, st store.Store, name string, rowGroupRows int64, codec schema.Codec) (*tableWriter, error) {
	bw, err := newBlobWriter(ctx, st, name)
	if err != nil {
		return nil, err
	}
	t := &tableWriter{blobWriter: bw}
	if t.pw, err = schema.NewUnvaluedPieceWriter(bw, rowGroupRows, codec); err != nil {
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

package jobs

import (
	"context"
	"io"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/host/hugepages"
	"github.com/census-cgt/census/store"
)

// A piece job receives one representative per orbit of translated pieces,
// in key order, and writes a row for every piece of every orbit, in key
// order. The pieces of an orbit share their counts and, up to negation,
// their classes, so imageSet holds what they share once per orbit and
// each piece as its key and the index of its orbit: 24 bytes a piece and
// 80 an orbit, against 72 a piece for whole rows.

// image is a translated piece of an orbit: its key, its orbit's index in
// the set, and whether it takes the representative to its negative.
type image struct {
	Key     games.PieceKey
	orbit   uint32
	negates bool
}

// orbitRow is what the pieces of one orbit share: the positions and first
// tier of each, and the classes of those that keep the representative's
// colours (Plain) and of those that negate it (Negated).
type orbitRow struct {
	Positions      uint64
	Plain, Negated pieceClasses
	FirstTier      int32
}

// row is the full row of im.
func (s *imageSet) row(im image) fragment.PieceRow {
	o := &s.orbits[im.orbit]
	c := o.Plain
	if im.negates {
		c = o.Negated
	}
	return fragment.PieceRow{
		Piece: PieceRecord{Key: im.Key, Positions: o.Positions, FirstTier: o.FirstTier},
		Sym:   c.Sym, Neg: c.Neg, SelfNegative: c.SelfNegative,
	}
}

// imageSet gathers the pieces of orbits and hands them back in key order:
// from memory when they fit in its share of the budget, else as sorted
// runs spilled to the store and merged.
type imageSet struct {
	ctx    context.Context
	st     store.Store
	limit  int64 // bytes
	run    string
	bucket int
	header Header
	imgs   []image
	orbits []orbitRow
	runs   []Blob
}

// newImageSet gathers the pieces of the piece job of bucket of run, within
// limit bytes: of at most orbits orbits of at most orbitSize pieces each.
// Its buffers are sized for them up front (for as many as fit in limit,
// when they do not all), not grown by doubling as they come, which would
// copy them at each doubling.
func newImageSet(ctx context.Context, st store.Store, limit int64, header Header, run string, bucket int, orbits uint64, orbitSize int) *imageSet {
	s := &imageSet{ctx: ctx, st: st, limit: max(limit, 64<<10), run: run, bucket: bucket, header: header,
		imgs: imageBufs.get(), orbits: orbitBufs.get()}
	nOrbits, nImgs := float64(orbits), float64(orbits)*float64(max(orbitSize, 1))
	if bytes := nImgs*imageBytes + nOrbits*orbitRowBytes; bytes > float64(s.limit) {
		f := float64(s.limit) / bytes
		nOrbits, nImgs = nOrbits*f, nImgs*f
	}
	if n := int(nImgs); cap(s.imgs) < n {
		s.imgs = make([]image, 0, n)
		hugepages.Advise(s.imgs)
	}
	if n := int(nOrbits); cap(s.orbits) < n {
		s.orbits = make([]orbitRow, 0, n)
		hugepages.Advise(s.orbits)
	}
	return s
}

// add gathers one orbit: o, shared by the pieces in orbit. Spilling
// happens between orbits only, so that an orbit's pieces and their
// shared row are written together.
func (s *imageSet) add(o orbitRow, orbit []games.Image) error {
	if len(s.imgs) > 0 && int64(len(s.imgs)+len(orbit))*imageBytes+int64(len(s.orbits)+1)*orbitRowBytes > s.limit {
		if err := s.spill(); err != nil {
			return err
		}
	}
	idx := uint32(len(s.orbits))
	s.orbits = append(s.orbits, o)
	for _, im := range orbit {
		s.imgs = append(s.imgs, image{Key: im.Key, orbit: idx, negates: im.Negates})
	}
	return nil
}

// spill writes the pieces held as one sorted run of rows.
func (s *imageSet) spill() error {
	blob, err := putFragment(s.ctx, s.st, pieceImagesBlob(s.run, s.bucket, len(s.runs)), s.header, sortImages(s.imgs),
		func(w io.Writer, h Header, imgs []image) (Blob, error) {
			h.Count = uint64(len(imgs))
			return writeFragment(w, h, func(fw *fragment.Writer) error {
				return s.rows(imgs, func(r fragment.PieceRow) error { fw.PieceRow(r); return nil })
			})
		})
	if err != nil {
		return err
	}
	s.runs = append(s.runs, blob)
	s.imgs, s.orbits = s.imgs[:0], s.orbits[:0]
	return nil
}

// each calls write with every piece gathered, in key order.
func (s *imageSet) each(g games.Game, reads int64, write func(fragment.PieceRow) error) error {
	if len(s.runs) == 0 {
		return s.rows(sortImages(s.imgs), write)
	}
	if len(s.imgs) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	srcs, closeAll, err := sources(s.ctx, s.st, s.runs, KindPieceRows, g, reads, (*fragment.Reader).NextPieceRow)
	if err != nil {
		return err
	}
	defer closeAll()
	return mergeSorted(srcs, func(a, b fragment.PieceRow) int { return a.Key.Compare(b.Key) }, write)
}

// rowBatch is how many rows rows gathers before it writes them: some
// 18 KiB of rows, which stay in the first caches.
const rowBatch = 256

// rows calls write with the row of every piece of imgs, in order. The
// orbits of pieces in key order lie anywhere in s.orbits, so a piece's
// orbit is mostly a cache miss: the rows are gathered a batch at a time,
// in a loop of nothing but the loads, which the processor overlaps, and
// then written.
func (s *imageSet) rows(imgs []image, write func(fragment.PieceRow) error) error {
	var batch [rowBatch]fragment.PieceRow
	for len(imgs) > 0 {
		n := min(len(imgs), rowBatch)
		for i, im := range imgs[:n] {
			batch[i] = s.row(im)
		}
		for i := range batch[:n] {
			if err := write(batch[i]); err != nil {
				return err
			}
		}
		imgs = imgs[n:]
	}
	return nil
}

// remove deletes the runs spilled to the store, once the rows are written,
// and returns how many there were. A run left behind by a failed delete is
// only wasted space: nothing reads it again, and the run's prefix is
// deleted at its end.
func (s *imageSet) remove() int {
	if len(s.runs) > 0 {
		s.st.DeletePrefix(s.ctx, pieceImagesPrefix(s.run, s.bucket))
	}
	return len(s.runs)
}

// release hands the buffers back for the next piece job.
func (s *imageSet) release() {
	imageBufs.put(s.imgs)
	orbitBufs.put(s.orbits)
	s.imgs, s.orbits = nil, nil
}

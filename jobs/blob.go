package jobs

import (
	"context"
	"fmt"
	"io"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

// Blob names a fragment or table in the store, with what a reader checks it
// against. Job messages carry blobs, never their contents.
type Blob struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Bucket is the shard of the next tier, or the reduce bucket, that the
	// blob is for.
	Bucket int    `json:"bucket"`
	Size   int64  `json:"size"`
	Sum    uint32 `json:"crc32c"`
	Count  uint64 `json:"count"`
}

// putFragment writes a fragment of count records to the store under name.
func putFragment(ctx context.Context, st store.Store, name string, h Header, encode func(*fragWriter)) (Blob, error) {
	w, err := st.Create(ctx, name)
	if err != nil {
		return Blob{}, err
	}
	fw := newFragWriter(w, h)
	encode(fw)
	size, sum, err := fw.close()
	if err != nil {
		w.Abort()
		return Blob{}, fmt.Errorf("write fragment %s: %w", name, err)
	}
	if err := w.Commit(); err != nil {
		return Blob{}, err
	}
	return Blob{Name: name, Kind: h.Kind, Size: size, Sum: sum, Count: h.Count}, nil
}

func putKeys(ctx context.Context, st store.Store, name string, h Header, keys []uint64) (Blob, error) {
	h.Count = uint64(len(keys))
	return putFragment(ctx, st, name, h, func(fw *fragWriter) {
		for _, k := range keys {
			fw.key(k)
		}
	})
}

func putPieces(ctx context.Context, st store.Store, name string, h Header, recs []PieceRecord) (Blob, error) {
	h.Count = uint64(len(recs))
	return putFragment(ctx, st, name, h, func(fw *fragWriter) {
		for _, r := range recs {
			fw.pieceKey(r.Key)
			fw.uvarint(r.Positions)
			fw.uvarint(uint64(r.FirstTier))
		}
	})
}

func putClasses(ctx context.Context, st store.Store, name string, h Header, recs []ClassRecord) (Blob, error) {
	h.Count = uint64(len(recs))
	return putFragment(ctx, st, name, h, func(fw *fragWriter) {
		for _, r := range recs {
			fw.pieceKey(r.Neg)
			fw.uvarint(r.Sym.Hi)
			fw.uvarint(r.Sym.Lo)
			self := uint64(0)
			if r.SelfNegative {
				self = 1
			}
			fw.uvarint(self)
		}
	})
}

// openFragment opens a blob as a fragment of kind want for game g and
// checks its header against the blob and the game.
func openFragment(ctx context.Context, st store.Store, b Blob, want Kind, g games.Game) (*fragReader, io.Closer, error) {
	rc, err := st.Open(ctx, b.Name)
	if err != nil {
		return nil, nil, err
	}
	fr, err := newFragReader(b.Name, rc, want, b)
	if err != nil {
		rc.Close()
		return nil, nil, err
	}
	bd := g.Board()
	if fr.Game != g.Name() || fr.Rows != bd.Rows || fr.Cols != bd.Cols {
		rc.Close()
		return nil, nil, fr.corrupt(fmt.Sprintf("holds %s %dx%d, the job is %s %s", fr.Game, fr.Rows, fr.Cols, g.Name(), bd))
	}
	if fr.Count != b.Count {
		rc.Close()
		return nil, nil, fr.corrupt(fmt.Sprintf("holds %d records, the job expects %d", fr.Count, b.Count))
	}
	return fr, rc, nil
}

// nextPiece reads the next record of a pieces fragment.
func (fr *fragReader) nextPiece() (r PieceRecord, ok bool, err error) {
	if fr.left == 0 {
		return r, false, nil
	}
	prev, first := fr.prevK, fr.left == fr.Count
	r.Key = fr.pieceKey()
	r.Positions = fr.uvarint()
	r.FirstTier = int32(fr.uvarint())
	if !first && !prev.Less(r.Key) && fr.err == nil {
		return r, false, fr.corrupt("pieces out of order")
	}
	if err := fr.record(); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// nextClass reads the next record of a classes fragment.
func (fr *fragReader) nextClass() (r ClassRecord, ok bool, err error) {
	if fr.left == 0 {
		return r, false, nil
	}
	r.Neg = fr.pieceKey()
	r.Sym = games.PieceKey{Hi: fr.uvarint(), Lo: fr.uvarint()}
	r.SelfNegative = fr.uvarint() == 1
	if err := fr.record(); err != nil {
		return r, false, err
	}
	return r, true, nil
}

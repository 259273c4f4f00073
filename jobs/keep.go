package jobs

import (
	"context"
	"fmt"
	"io"

	"github.com/census-cgt/census/codec/kept"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

// This file keeps a tier shard's positions for the solve stage: a tier job
// of a run that is to be solved writes its unique positions, as it visits
// them in order, to one kept blob (codec/kept has its format).

// KindKept marks a blob of kept positions, KindTable a solved shard's
// tablebase shard. Neither is a fragment: Kind only names them in job
// specs.
const (
	KindKept  Kind = 64
	KindTable Kind = 65
)

// squeeze is the number of bits the low plane of g's keys takes in a code
// (kept.Squeeze).
func squeeze(g games.Game) uint { return kept.Squeeze(g.Board().Squares()) }

// keptHeader is the header of the kept positions of tier of g.
func keptHeader(g games.Game, tier int) kept.Header {
	b := g.Board()
	return kept.Header{Game: g.Name(), Rows: b.Rows, Cols: b.Cols, Tier: tier, Squeeze: squeeze(g)}
}

// keeper writes a kept blob into the store as positions arrive in
// increasing order.
type keeper struct {
	w    store.Writer
	kw   *kept.Writer
	name string
}

func newKeeper(ctx context.Context, st store.Store, name string, g games.Game, tier int) (*keeper, error) {
	w, err := st.Create(ctx, name)
	if err != nil {
		return nil, err
	}
	kw, err := kept.NewWriter(w, keptHeader(g, tier))
	if err != nil {
		w.Abort()
		return nil, err
	}
	return &keeper{w: w, kw: kw, name: name}, nil
}

// add keeps pos, which must be greater than every position kept before.
func (k *keeper) add(pos uint64) error {
	if err := k.kw.Add(pos); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return nil
}

// commit ends the blob and makes it visible.
func (k *keeper) commit() (Blob, error) {
	info, err := k.kw.Close()
	if err != nil {
		return Blob{}, err
	}
	if err := k.w.Commit(); err != nil {
		return Blob{}, err
	}
	return Blob{Name: k.name, Kind: KindKept, Size: info.Size, Sum: info.Sum, Count: info.Count}, nil
}

func (k *keeper) abort() { k.w.Abort() }

// readKept reads a whole kept blob and returns its positions, in
// increasing order. It checks the header against g and tier and the
// checksum.
func readKept(ctx context.Context, st store.Store, b Blob, g games.Game, tier int) ([]uint64, error) {
	data, err := readWhole(ctx, st, b)
	if err != nil {
		return nil, err
	}
	h, keys, err := kept.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("kept positions %s: %w: %w", b.Name, ErrCorrupt, err)
	}
	if want := keptHeader(g, tier); h != want {
		return nil, fmt.Errorf("kept positions %s: %w: header is not of %s %s tier %d", b.Name, ErrCorrupt, g.Name(), g.Board(), tier)
	}
	return keys, nil
}

// readWhole reads a whole blob.
func readWhole(ctx context.Context, st store.Store, b Blob) ([]byte, error) {
	rc, err := st.Open(ctx, b.Name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", b.Name, err)
	}
	return data, nil
}

// keptBlob names the kept positions of shard of tier. They lie outside the
// tier's prefix: they outlive the tier.
func keptBlob(run string, tier, shard int) string {
	return fmt.Sprintf("%s/kept/t%04d/s%05d.keep", run, tier, shard)
}

// KeptPrefix is the prefix of the kept positions of run.
func KeptPrefix(run string) string { return run + "/kept/" }

// keepPosition keeps pos when the spec asks for it, starting the blob with
// the shard's first position.
func (k *tierKernel) keepPosition(pos uint64) error {
	if !k.j.Keep {
		return nil
	}
	if k.keep == nil {
		kp, err := newKeeper(k.ctx, k.st, keptBlob(k.j.Run, k.j.Tier, k.j.Shard), k.g, k.j.Tier)
		if err != nil {
			return fmt.Errorf("keep positions: %w", err)
		}
		k.keep = kp
	}
	return k.keep.add(pos)
}

// commitKept commits the kept positions, if any.
func (k *tierKernel) commitKept() (*Blob, error) {
	if k.keep == nil {
		return nil, nil
	}
	b, err := k.keep.commit()
	if err != nil {
		return nil, fmt.Errorf("keep positions of tier %d shard %d: %w", k.j.Tier, k.j.Shard, err)
	}
	b.Bucket = k.j.Shard
	k.keep = nil
	return &b, nil
}

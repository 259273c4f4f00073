package jobs

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/values"
)

// ValueJob values one shard of one level of a finished run's pieces: the
// pieces of one size (stones for Clobber, squares for Domineering and
// Amazons), which every move shrinks. It loads the value tables of all
// smaller levels, values its pieces from their options (package values),
// and writes the values it computed as one value table: its own pieces, the
// symmetric and negation class representatives they were derived from, and
// any smaller piece missing from the tables (a sub-piece that occurs in the
// census only as a symmetric image), all in the encoding of
// values.Valuer.Append.
//
// Its memory is the values of every smaller level plus its own shard's;
// see the values stage in coordinator/values.go for the numbers and for how
// it extends past one worker's memory.
type ValueJob struct {
	Spec
	Level int `json:"level"`
	Shard int `json:"shard"`
	// Cap is the node cap of a canonical form (values.DefaultCap when 0).
	Cap int `json:"cap,omitempty"`
	// Keys holds the translated keys of the shard's pieces, 16 bytes each
	// (Hi then Lo, little-endian); Count is their number.
	Keys Blob `json:"keys"`
	// Tables are the value tables of every smaller level.
	Tables []Blob `json:"tables"`
}

// ValueResult is the value table a value job wrote.
type ValueResult struct {
	Level int `json:"level"`
	Shard int `json:"shard"`
	// Table is the value table; its Count is the values it holds.
	Table Blob `json:"table"`
	// Pieces is the number of the shard's pieces valued.
	Pieces int `json:"pieces"`
	// LoadNS is the wall time spent loading the value tables of the
	// smaller levels, before the first piece was valued.
	LoadNS int64 `json:"load_ns,omitempty"`
}

// PutValueKeys writes keys as the keys blob of shard of level.
func PutValueKeys(ctx context.Context, st store.Store, run string, level, shard int, keys []games.PieceKey) (Blob, error) {
	data := make([]byte, 0, 16*len(keys))
	for _, k := range keys {
		data = binary.LittleEndian.AppendUint64(data, k.Hi)
		data = binary.LittleEndian.AppendUint64(data, k.Lo)
	}
	b, err := putBlob(ctx, st, ValueKeysName(run, level, shard), data)
	if err != nil {
		return Blob{}, fmt.Errorf("write keys of level %d shard %d: %w", level, shard, err)
	}
	b.Count = uint64(len(keys))
	return b, nil
}

func putBlob(ctx context.Context, st store.Store, name string, data []byte) (Blob, error) {
	w, err := newBlobWriter(ctx, st, name)
	if err != nil {
		return Blob{}, err
	}
	if _, err := w.Write(data); err != nil {
		w.abort()
		return Blob{}, err
	}
	return w.commit()
}

// ReadBlob reads a whole blob and checks it against the size and checksum
// its writer recorded; a mismatch wraps ErrCorrupt.
func ReadBlob(ctx context.Context, st store.Store, b Blob) ([]byte, error) {
	rc, err := st.Open(ctx, b.Name)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", b.Name, err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	buf.Grow(int(b.Size))
	if _, err := io.Copy(&buf, rc); err != nil {
		return nil, fmt.Errorf("read %s: %w", b.Name, err)
	}
	data := buf.Bytes()
	if int64(len(data)) != b.Size || crc32.Checksum(data, castagnoli) != b.Sum {
		return nil, fmt.Errorf("%s: %w: %d bytes with crc32c %08x, its writer wrote %d bytes with crc32c %08x",
			b.Name, ErrCorrupt, len(data), crc32.Checksum(data, castagnoli), b.Size, b.Sum)
	}
	return data, nil
}

// LoadValueTables reads value tables into v.
func LoadValueTables(ctx context.Context, st store.Store, v *values.Valuer, tables []Blob) error {
	for _, t := range tables {
		data, err := ReadBlob(ctx, st, t)
		if err != nil {
			return err
		}
		if _, err := v.Load(data); err != nil {
			if errors.Is(err, values.ErrCorrupt) {
				err = fmt.Errorf("%w: %w", ErrCorrupt, err)
			}
			return fmt.Errorf("load value table %s: %w", t.Name, err)
		}
	}
	return nil
}

// runValues values the pieces of one value job.
func runValues(ctx context.Context, st store.Store, j *ValueJob, opts Options) (*ValueResult, error) {
	if j.Run == "" || j.Level < 0 || j.Shard < 0 || j.Cap < 0 {
		return nil, fmt.Errorf("%w: run %q, level %d, shard %d, cap %d", ErrInvalid, j.Run, j.Level, j.Shard, j.Cap)
	}
	v, err := values.New(j.Game, j.Cap)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	began := time.Now()
	if err := LoadValueTables(ctx, st, v, j.Tables); err != nil {
		return nil, err
	}
	loaded := time.Since(began)
	data, err := ReadBlob(ctx, st, j.Keys)
	if err != nil {
		return nil, err
	}
	if len(data)%16 != 0 || uint64(len(data)/16) != j.Keys.Count {
		return nil, fmt.Errorf("keys %s: %w: %d bytes for %d keys", j.Keys.Name, ErrCorrupt, len(data), j.Keys.Count)
	}
	for i := 0; i < len(data); i += 16 {
		if i%(16<<10) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if opts.Progress != nil {
				opts.Progress(uint64(i / 16))
			}
		}
		v.Value(games.PieceKey{Hi: binary.LittleEndian.Uint64(data[i:]), Lo: binary.LittleEndian.Uint64(data[i+8:])})
	}
	fresh := v.Fresh()
	t, err := putBlob(ctx, st, valueTableName(j.Run, j.Level, j.Shard), v.Append(nil, fresh))
	if err != nil {
		return nil, fmt.Errorf("write value table of level %d shard %d: %w", j.Level, j.Shard, err)
	}
	t.Count = uint64(len(fresh))
	return &ValueResult{Level: j.Level, Shard: j.Shard, Table: t, Pieces: len(data) / 16, LoadNS: loaded.Nanoseconds()}, nil
}

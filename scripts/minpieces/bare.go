package main

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/klauspost/compress/zstd"
)

// chunkBytes is the size of the chunks the bare writers compress one at a
// time: 1 MiB, the data page size of arrow-go and of the census.
const chunkBytes = 1 << 20

// newEncoder returns a zstd encoder at SpeedFastest (what zstd level 1
// maps to) with arrow-go's codec options, already warmed up, so that
// measurements that reuse it pay for no allocation of its tables.
func newEncoder() *zstd.Encoder {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithZeroFrames(true),
		zstd.WithEncoderConcurrency(1), zstd.WithAllLitEntropyCompression(true))
	if err != nil {
		panic(err) // the options are fixed and valid
	}
	warm := make([]byte, chunkBytes)
	for i := range warm {
		warm[i] = byte(i * i >> 7)
	}
	enc.EncodeAll(warm, nil)
	return enc
}

// bareCost is what the bare writer cost: making each column's plain
// bytes, and compressing them, in all and column by column.
type bareCost struct {
	plain   cost
	zstd    cost
	columns []cost
}

// writeBare writes, for each column in turn, its plain bytes (plainBytes)
// compressed with enc, chunkBytes at a time, one zstd frame a chunk, to
// path. Nothing else goes into the file: it is the floor of "zstd over
// these bytes". columns[i].bytes is column i's compressed bytes, plain's
// the plain bytes of all columns, zstd's the file's size.
func writeBare(t *table, path string, enc *zstd.Encoder) (bareCost, error) {
	var bc bareCost
	clock := startClock()
	f, err := os.Create(path)
	if err != nil {
		return bc, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	bc.zstd = clock.elapsed()
	var plain, dst []byte
	for _, c := range t.cols {
		clock = startClock()
		plain = plainBytes(plain[:0], c)
		p := clock.elapsed()
		p.bytes = int64(len(plain))
		bc.plain = bc.plain.add(p)

		clock = startClock()
		var out int64
		for rest := plain; len(rest) > 0; {
			n := min(len(rest), chunkBytes)
			dst = enc.EncodeAll(rest[:n], dst[:0])
			if _, err := bw.Write(dst); err != nil {
				f.Close()
				return bc, err
			}
			out += int64(len(dst))
			rest = rest[n:]
		}
		z := clock.elapsed()
		z.bytes = out
		bc.columns = append(bc.columns, z)
		bc.zstd = bc.zstd.add(z)
	}
	clock = startClock()
	err = bw.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return bc, fmt.Errorf("write %s: %w", path, err)
	}
	c, err := clock.stop(path)
	bc.zstd = bc.zstd.add(c)
	bc.zstd.bytes = c.bytes
	return bc, err
}

// plainBytes appends to dst the bytes a Parquet page of the column would
// hold, about: little-endian ints (8 bytes a uint64, 4 an int32), bools
// packed 8 to a byte, and strings with a 4-byte length before each. A
// column with a dictionary in the census's files (game, board, value) is
// given as its dictionary (its distinct strings, length-prefixed) and its
// indices as runs (a 4-byte count and a 4-byte index a run), which is
// what RLE_DICTIONARY holds of a column of few runs. Null rows add
// nothing, nor do their definition levels.
func plainBytes(dst []byte, c *column) []byte {
	n := c.rowCount()
	switch {
	// Without nulls an int column's bytes are its slice's, in the
	// machine's byte order: little-endian on amd64 and arm64.
	case c.field.Type.ID() == arrow.UINT64 && c.valid == nil:
		return append(dst, arrow.Uint64Traits.CastToBytes(c.u64)...)
	case c.field.Type.ID() == arrow.INT32 && c.valid == nil:
		return append(dst, arrow.Int32Traits.CastToBytes(c.i32)...)
	case c.field.Type.ID() == arrow.BOOL:
		var b []bool
		for i, v := range c.bools {
			if c.isValid(i) {
				b = append(b, v)
			}
		}
		return append(dst, packBits(b)...)
	case c.field.Type.ID() == arrow.STRING && slices.Contains(dictColumns, c.field.Name):
		return dictBytes(dst, c)
	}
	for i := range n {
		if !c.isValid(i) {
			continue
		}
		switch c.field.Type.ID() {
		case arrow.UINT64:
			dst = binary.LittleEndian.AppendUint64(dst, c.u64[i])
		case arrow.INT32:
			dst = binary.LittleEndian.AppendUint32(dst, uint32(c.i32[i]))
		case arrow.STRING:
			s := c.data[c.offsets[i]:c.offsets[i+1]]
			dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)))
			dst = append(dst, s...)
		}
	}
	return dst
}

// dictBytes appends a string column as its dictionary and runs of
// indices (plainBytes). The dictionary is looked up once a run.
func dictBytes(dst []byte, c *column) []byte {
	index := map[string]uint32{}
	var dict []string
	var runs []byte
	count, last := uint32(0), uint32(0)
	for i := range c.rowCount() {
		if !c.isValid(i) {
			continue
		}
		if count > 0 && c.str(i) == dict[last] {
			count++
			continue
		}
		if count > 0 {
			runs = binary.LittleEndian.AppendUint32(runs, count)
			runs = binary.LittleEndian.AppendUint32(runs, last)
		}
		s := c.str(i)
		k, ok := index[s]
		if !ok {
			k = uint32(len(dict))
			index[s] = k
			dict = append(dict, s)
		}
		count, last = 1, k
	}
	if count > 0 {
		runs = binary.LittleEndian.AppendUint32(runs, count)
		runs = binary.LittleEndian.AppendUint32(runs, last)
	}
	for _, s := range dict {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s)))
		dst = append(dst, s...)
	}
	return append(dst, runs...)
}

// rowCount returns the column's number of rows.
func (c *column) rowCount() int {
	switch c.field.Type.ID() {
	case arrow.UINT64:
		return len(c.u64)
	case arrow.INT32:
		return len(c.i32)
	case arrow.BOOL:
		return len(c.bools)
	}
	return len(c.offsets) - 1
}

// isValid tells whether row i holds a value.
func (c *column) isValid(i int) bool { return c.valid == nil || c.valid[i] }

// span is a byte range of a file: one column chunk, or what lies
// between the column chunks (the magic bytes and the footer), col -1.
type span struct {
	col        int
	start, end int64
}

// chunkSpans returns the column chunks of a Parquet file, in file order,
// and the bytes around them.
func chunkSpans(path string, size int64) ([]span, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	var spans []span
	for g := range pf.NumRowGroups() {
		rg := pf.MetaData().RowGroup(g)
		for i := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(i)
			if err != nil {
				return nil, err
			}
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() {
				start = min(start, cc.DictionaryPageOffset())
			}
			spans = append(spans, span{i, start, start + cc.TotalCompressedSize()})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var all []span
	at := int64(0)
	for _, s := range append(spans, span{-1, size, size}) {
		if s.start > at {
			all = append(all, span{-1, at, s.start})
		}
		if s.end > s.start {
			all = append(all, s)
		}
		at = max(at, s.end)
	}
	return all, nil
}

// zstdPages compresses the bytes of the Parquet file src, a column chunk
// (or the bytes between them) at a time, chunkBytes at a time within
// each, to the file dst, and returns what that cost in all and for each
// column, added up over the row groups. Over a file written
// UNCOMPRESSED, that is what zstd costs over exactly the bytes of the
// census's pages (with their headers). Reading src is not counted.
func zstdPages(src, dst string, enc *zstd.Encoder, ncols int) (cost, []cost, error) {
	in, err := os.ReadFile(src)
	if err != nil {
		return cost{}, nil, err
	}
	spans, err := chunkSpans(src, int64(len(in)))
	if err != nil {
		return cost{}, nil, err
	}
	cols := make([]cost, ncols)
	clock := startClock()
	f, err := os.Create(dst)
	if err != nil {
		return cost{}, nil, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	var out []byte
	for _, s := range spans {
		k := startClock()
		var n int64
		for rest := in[s.start:s.end]; len(rest) > 0 && err == nil; {
			out = enc.EncodeAll(rest[:min(len(rest), chunkBytes)], out[:0])
			_, err = bw.Write(out)
			n += int64(len(out))
			rest = rest[min(len(rest), chunkBytes):]
		}
		if s.col >= 0 {
			c := k.elapsed()
			c.bytes = n
			cols[s.col] = cols[s.col].add(c)
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return cost{}, nil, fmt.Errorf("write %s: %w", dst, err)
	}
	c, err := clock.stop(dst)
	return c, cols, err
}

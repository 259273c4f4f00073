package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// The encodings of the census's pieces files (schema/COLUMNS.md,
// "Encodings"): the columns below are DELTA_BINARY_PACKED, DELTA_LENGTH_
// BYTE_ARRAY or dictionary, without a dictionary but for the last, and
// every other column is PLAIN.
var (
	deltaColumns       = []string{"key_hi", "key_lo", "rows", "cols", "size", "symmetric_hi", "negation_hi", "first_tier"}
	deltaLengthColumns = []string{"picture"}
	dictColumns        = []string{"game", "board", "value"}
)

// rowGroupRows is the census's row group length: 1Mi rows.
const rowGroupRows = 1 << 20

// zstdLevel is the census's zstd level.
const zstdLevel = 1

// writerProps returns the Parquet properties the census writes its pieces
// files with, but for the codec: zstd is at level 1, as the census's.
func writerProps(codec compress.Compression) *parquet.WriterProperties {
	props := []parquet.WriterProperty{
		parquet.WithCompression(codec),
		parquet.WithMaxRowGroupLength(rowGroupRows),
		parquet.WithStats(true),
		parquet.WithDictionaryDefault(false),
		parquet.WithCreatedBy("minpieces (arrow-go parquet v18)"),
	}
	if codec == compress.Codecs.Zstd {
		props = append(props, parquet.WithCompressionLevel(zstdLevel))
	}
	for _, c := range dictColumns {
		props = append(props, parquet.WithDictionaryFor(c, true))
	}
	for _, c := range deltaColumns {
		props = append(props, parquet.WithEncodingFor(c, parquet.Encodings.DeltaBinaryPacked))
	}
	for _, c := range deltaLengthColumns {
		props = append(props, parquet.WithEncodingFor(c, parquet.Encodings.DeltaLengthByteArray))
	}
	return parquet.NewWriterProperties(props...)
}

// writeParquet writes the table to path with pqarrow's FileWriter, as one
// record batch that the writer cuts into row groups of rowGroupRows, and
// returns what it cost. The record batch is built over the column slices
// without copying them but for the bools, which Arrow packs into bits.
func writeParquet(t *table, path string, codec compress.Compression) (cost, error) {
	clock := startClock()
	f, err := os.Create(path)
	if err != nil {
		return cost{}, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	rec := t.record()
	fw, err := pqarrow.NewFileWriter(t.schema, bw, writerProps(codec), pqarrow.DefaultWriterProps())
	if err == nil {
		err = fw.Write(rec)
		if cerr := fw.Close(); err == nil {
			err = cerr
		}
	}
	rec.Release()
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return cost{}, fmt.Errorf("write %s: %w", path, err)
	}
	return clock.stop(path)
}

// record returns the table as one Arrow record batch over its slices.
func (t *table) record() arrow.RecordBatch {
	arrays := make([]arrow.Array, len(t.cols))
	for i, c := range t.cols {
		arrays[i] = c.array(t.rows)
	}
	rec := array.NewRecordBatch(t.schema, arrays, int64(t.rows))
	for _, a := range arrays {
		a.Release()
	}
	return rec
}

// array returns the column as an Arrow array of n rows.
func (c *column) array(n int) arrow.Array {
	var nulls *memory.Buffer
	nullN := 0
	if c.valid != nil {
		nulls = memory.NewBufferBytes(packBits(c.valid))
		nullN = n - bitutil.CountSetBits(nulls.Bytes(), 0, n)
	}
	var bufs []*memory.Buffer
	switch c.field.Type.ID() {
	case arrow.UINT64:
		bufs = []*memory.Buffer{nulls, memory.NewBufferBytes(arrow.Uint64Traits.CastToBytes(c.u64))}
	case arrow.INT32:
		bufs = []*memory.Buffer{nulls, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.i32))}
	case arrow.BOOL:
		bufs = []*memory.Buffer{nulls, memory.NewBufferBytes(packBits(c.bools))}
	case arrow.STRING:
		bufs = []*memory.Buffer{nulls, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offsets)), memory.NewBufferBytes(c.data)}
	default:
		panic("minpieces: column type " + c.field.Type.String()) // readTable refuses other types
	}
	data := array.NewData(c.field.Type, n, bufs, nil, nullN, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// packBits packs bools into an Arrow bitmap, least significant bit first.
func packBits(b []bool) []byte {
	out := make([]byte, bitutil.BytesForBits(int64(len(b))))
	for i, v := range b {
		if v {
			out[i>>3] |= 1 << (i & 7)
		}
	}
	return out
}

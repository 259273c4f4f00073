package parquetpages

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	pqschema "github.com/apache/arrow-go/v18/parquet/schema"
)

// kind is how a column's values are encoded: what its physical type,
// repetition and properties make of it (see columnKind).
type kind uint8

const (
	kindPlainBytes kind = iota // required BYTE_ARRAY, PLAIN
	kindPlainInt64             // required INT64, PLAIN
	kindPlainBool              // required BOOLEAN, PLAIN (bit-packed)
	kindDict                   // required BYTE_ARRAY, dictionary encoded
	kindDelta64                // required INT64, DELTA_BINARY_PACKED
	kindDelta32                // required INT32, DELTA_BINARY_PACKED
	kindNull                   // optional, null in every row
	kindNullDict               // optional, null in every row, dictionary encoded
	// required BYTE_ARRAY, DELTA_LENGTH_BYTE_ARRAY: the lengths
	// DELTA_BINARY_PACKED, then the bytes of every value one after another.
	kindDeltaLength
)

// typeEncoding is a physical type and an encoding.
type typeEncoding struct {
	typ parquet.Type
	enc parquet.Encoding
}

// requiredKinds are the kinds of the required columns without a
// dictionary.
var requiredKinds = map[typeEncoding]kind{
	{parquet.Types.ByteArray, parquet.Encodings.Plain}:                kindPlainBytes,
	{parquet.Types.ByteArray, parquet.Encodings.DeltaLengthByteArray}: kindDeltaLength,
	{parquet.Types.Int64, parquet.Encodings.Plain}:                    kindPlainInt64,
	{parquet.Types.Int64, parquet.Encodings.DeltaBinaryPacked}:        kindDelta64,
	{parquet.Types.Int32, parquet.Encodings.DeltaBinaryPacked}:        kindDelta32,
	{parquet.Types.Boolean, parquet.Encodings.Plain}:                  kindPlainBool,
}

// columnKind is the kind of the column descr under props, or an error
// for a column this package does not write.
func columnKind(descr *pqschema.Column, props *parquet.WriterProperties) (kind, error) {
	path := descr.Path()
	dict := props.DictionaryEnabledFor(path)
	enc := props.EncodingFor(path)
	switch {
	case descr.MaxRepetitionLevel() > 0 || descr.MaxDefinitionLevel() > 1:
		return 0, fmt.Errorf("column %s: repeated or nested optional columns are not written", path)
	case dict && props.DictionaryCostFallbackEnabledFor(path):
		// arrow-go's writer would weigh the dictionary against PLAIN
		// (by default when the column is not compressed); this one
		// always keeps it.
		return 0, fmt.Errorf("column %s: a dictionary with the cost fallback on is not written", path)
	case descr.MaxDefinitionLevel() == 1 && dict:
		return kindNullDict, nil
	case descr.MaxDefinitionLevel() == 1 && enc == parquet.Encodings.Plain:
		return kindNull, nil
	case descr.MaxDefinitionLevel() == 1:
		return 0, fmt.Errorf("column %s: an optional column is written PLAIN or with a dictionary, not %s", path, enc)
	}
	typ := descr.PhysicalType()
	if k, ok := requiredKinds[typeEncoding{typ, enc}]; ok && !dict {
		return k, nil
	}
	if typ == parquet.Types.ByteArray && dict {
		return kindDict, nil
	}
	return 0, fmt.Errorf("column %s: %s with encoding %s (dictionary %t) is not written", path, typ, enc, dict)
}

// Column is one column of the row group a Writer is writing: the values
// of its current page, encoded, with their least and greatest, and the
// compressed pages before it. Each row adds one value to every column,
// through the method of the column's physical type (AddBytes or
// AddString, AddInt64, AddInt32, AddBool), or AddNull for an optional
// column. A method of another type panics. A column is used in place,
// through the slice Columns returns: a copy is not the column.
type Column struct {
	descr    *pqschema.Column
	kind     kind
	unsigned bool // integers compare as unsigned
	codec    compress.Codec
	comp     compress.Compression
	level    int // the codec's compression level
	maxStats int // the most bytes of a min or max in the statistics
	// dictEnc is the encoding of a dictionary column's data pages:
	// RLE_DICTIONARY, or PLAIN_DICTIONARY in a Parquet 1.0 file.
	dictEnc parquet.Encoding
	n       int // values (or nulls) in the current page
	buf     []byte
	// The least and greatest value of the page: lo and hi for integers
	// and booleans (0, 1), slo and shi for byte arrays (copies, as the
	// bytes of a value written may be the caller's).
	lo, hi   int64
	slo, shi []byte
	// bits and nbits are the booleans not yet whole bytes in buf.
	bits  uint8
	nbits uint
	delta deltaEncoder
	dict  dictEncoder
	// page is the encoded page of a DELTA_LENGTH_BYTE_ARRAY column: the
	// lengths, then the bytes in buf.
	page []byte
	// The pages before this one of the chunk, compressed.
	chunk []byte
	pages []chunkPage
	rows  int64 // values of the chunk before the current page
}

// chunkPage is a compressed data page of a column chunk.
type chunkPage struct {
	start, end int // its bytes in the chunk
	values     int32
	rawBytes   int32 // before compression
	encoding   parquet.Encoding
	stats      pageStats
	firstRow   int64
}

// pageStats are a page's statistics: encoded for its header, typed for
// the chunk's.
type pageStats struct {
	encoded metadata.EncodedStatistics
	typed   metadata.TypedStatistics
}

// size is the bytes of the current page's values, so far.
func (c *Column) size() int {
	switch c.kind {
	case kindDelta64, kindDelta32:
		return c.delta.size()
	case kindDict:
		return 4 * c.dict.n
	case kindDeltaLength:
		return c.delta.size() + len(c.buf)
	}
	return len(c.buf)
}

// AddString adds a value to a BYTE_ARRAY column.
func (c *Column) AddString(s string) { addByteArray(c, s) }

// AddBytes adds a value to a BYTE_ARRAY column. It copies s.
func (c *Column) AddBytes(s []byte) { addByteArray(c, s) }

// addByteArray adds a byte array: its length before its bytes (PLAIN),
// its length to the lengths and its bytes to the rest
// (DELTA_LENGTH_BYTE_ARRAY), or its index in the dictionary.
func addByteArray[S string | []byte](c *Column, s S) {
	switch c.kind {
	case kindDict:
		addDict(&c.dict, s)
	case kindDeltaLength:
		c.delta.add(int64(len(s)))
		c.buf = append(c.buf, s...)
	case kindPlainBytes:
		c.buf = binary.LittleEndian.AppendUint32(c.buf, uint32(len(s)))
		c.buf = append(c.buf, s...)
	default:
		c.refuse("a byte array")
	}
	switch {
	case c.n == 0:
		c.slo = append(c.slo[:0], s...)
		c.shi = append(c.shi[:0], s...)
	case string(s) < string(c.slo):
		c.slo = append(c.slo[:0], s...)
	case string(s) > string(c.shi):
		c.shi = append(c.shi[:0], s...)
	}
	c.n++
}

// AddInt64 adds a value to an INT64 column: an unsigned column's uint64
// as its bits.
func (c *Column) AddInt64(v int64) {
	switch c.kind {
	case kindDelta64:
		c.delta.add(v)
	case kindPlainInt64:
		c.buf = binary.LittleEndian.AppendUint64(c.buf, uint64(v))
	default:
		c.refuse("an INT64")
	}
	c.tally(v)
}

// AddInt32 adds a value to an INT32 column.
func (c *Column) AddInt32(v int32) {
	if c.kind != kindDelta32 {
		c.refuse("an INT32")
	}
	c.delta.add(int64(v))
	c.tally(int64(v))
}

// AddBool adds a value to a BOOLEAN column.
func (c *Column) AddBool(b bool) {
	if c.kind != kindPlainBool {
		c.refuse("a BOOLEAN")
	}
	var v int64
	if b {
		v = 1
		c.bits |= 1 << c.nbits
	}
	if c.nbits++; c.nbits == 8 {
		c.buf = append(c.buf, c.bits)
		c.bits, c.nbits = 0, 0
	}
	c.tally(v)
}

// AddNull adds a null to an optional column.
func (c *Column) AddNull() {
	if c.kind != kindNull && c.kind != kindNullDict {
		c.refuse("a null")
	}
	c.n++
}

// refuse panics: the column does not take what.
func (c *Column) refuse(what string) {
	panic(fmt.Sprintf("parquetpages: %s added to column %s (%s, %s)", what, c.descr.Path(), c.descr.PhysicalType(), c.descr.SchemaNode().RepetitionType()))
}

// tally counts the integer (or boolean, 0 or 1) v among the page's
// values, and among its least and greatest.
func (c *Column) tally(v int64) {
	switch {
	case c.n == 0:
		c.lo, c.hi = v, v
	case c.unsigned:
		if uint64(v) < uint64(c.lo) {
			c.lo = v
		}
		if uint64(v) > uint64(c.hi) {
			c.hi = v
		}
	default:
		c.lo, c.hi = min(c.lo, v), max(c.hi, v)
	}
	c.n++
}

// encoded is the page's data before compression, and its encoding: the
// values, after the definition levels of an optional column.
func (c *Column) encoded() ([]byte, parquet.Encoding) {
	switch c.kind {
	case kindPlainBool:
		if c.nbits > 0 {
			c.buf = append(c.buf, c.bits)
			c.bits, c.nbits = 0, 0
		}
	case kindDelta64, kindDelta32:
		c.buf = c.delta.finish(c.buf[:0])
		return c.buf, parquet.Encodings.DeltaBinaryPacked
	case kindDeltaLength:
		c.page = append(c.delta.finish(c.page[:0]), c.buf...)
		return c.page, parquet.Encodings.DeltaLengthByteArray
	case kindDict:
		c.buf = c.dict.finishPage(c.buf[:0])
		return c.buf, c.dictEnc
	case kindNull, kindNullDict:
		// Definition levels, every one 0, as one RLE run after the
		// run's length in bytes.
		c.buf = append(c.buf[:0], 0, 0, 0, 0)
		c.buf = binary.AppendUvarint(c.buf, uint64(c.n)<<1)
		c.buf = append(c.buf, 0)
		binary.LittleEndian.PutUint32(c.buf, uint32(len(c.buf)-4))
		if c.kind == kindNullDict {
			// No indices: the bit width of an empty dictionary's, 0.
			c.buf = append(c.buf, 0)
			return c.buf, c.dictEnc
		}
	}
	return c.buf, parquet.Encodings.Plain
}

// pageStatistics are the statistics of the current page.
func (c *Column) pageStatistics() (pageStats, error) {
	st := metadata.NewStatistics(c.descr, memory.DefaultAllocator)
	if c.kind == kindNull || c.kind == kindNullDict {
		st.IncNulls(int64(c.n))
	} else {
		switch s := st.(type) {
		case *metadata.ByteArrayStatistics:
			// An empty byte array is a least or greatest value still:
			// not nil, which would say there is none.
			s.SetMinMax(append(parquet.ByteArray{}, c.slo...), append(parquet.ByteArray{}, c.shi...))
		case *metadata.Int64Statistics:
			s.SetMinMax(c.lo, c.hi)
		case *metadata.Int32Statistics:
			s.SetMinMax(int32(c.lo), int32(c.hi))
		case *metadata.BooleanStatistics:
			s.SetMinMax(c.lo != 0, c.hi != 0)
		default:
			return pageStats{}, fmt.Errorf("no statistics for %T", st)
		}
		st.IncNulls(0)
		st.IncNumValues(int64(c.n))
	}
	enc, err := c.encodeStats(st)
	if err != nil {
		return pageStats{}, err
	}
	return pageStats{encoded: enc, typed: st}, nil
}

// encodeStats encodes statistics as arrow-go's column writers do: a min
// or max past the column's size limit left out, the sign of the column's
// order set.
func (c *Column) encodeStats(st metadata.TypedStatistics) (metadata.EncodedStatistics, error) {
	enc, err := st.Encode()
	if err != nil {
		return enc, err
	}
	enc.ApplyStatSizeLimits(c.maxStats)
	enc.Signed = st.Descr().SortOrder() == pqschema.SortSIGNED
	return enc, nil
}

func (c *Column) resetPage() {
	c.n, c.buf, c.slo, c.shi = 0, c.buf[:0], c.slo[:0], c.shi[:0]
	c.delta.reset()
	c.dict.resetPage()
}

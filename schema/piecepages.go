package schema

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	pqschema "github.com/apache/arrow-go/v18/parquet/schema"
)

// UnvaluedPieceWriter streams rows without values (the census's rows,
// before any values stage) into one pieces file. It writes the file
// PieceWriter writes, but for the cut of the data pages (the same schema,
// metadata, encodings, compression and statistics), at a fraction of its
// cost: each row's values are encoded straight into the data page of
// each column (PLAIN, DELTA_BINARY_PACKED or dictionary indices, as
// piecesProps says), with their statistics; a page is compressed once it holds some pageBytes of
// values, into the column chunk of the row group; and a row group is
// written column by column when it is full, its page headers and
// metadata through arrow-go's page writer and metadata builders. The
// value columns are null in every row: a valued row is refused. Callers
// should write rows sorted by (KeyHi, KeyLo). An UnvaluedPieceWriter is
// not safe for concurrent use.
type UnvaluedPieceWriter struct {
	sink    *tellWriter
	props   *parquet.WriterProperties
	meta    *metadata.FileMetaDataBuilder
	maxRows int64 // rows of a row group
	rgRows  int64 // rows in the current row group
	rgs     int16 // row groups written
	cols    *pageColumns
	codec   Codec
	err     error
}

// pageBytes is the size of a data page's values before compression:
// arrow-go's default data page size.
const pageBytes = 1 << 20

// pageCheckRows is how many rows the writer takes between two looks at
// the size of its columns' pages.
const pageCheckRows = 1024

// NewUnvaluedPieceWriter starts a pieces file on w with row groups of at
// most rowGroupRows rows (at least 1,024, at most DefaultRowGroupRows),
// its pages compressed with codec: the writer holds about one row group,
// compressed (some 20 bytes a row with zstd), and a page of each column.
// Close must be called to finish the file.
func NewUnvaluedPieceWriter(w io.Writer, rowGroupRows int64, codec Codec) (*UnvaluedPieceWriter, error) {
	o := rowGroupOptions(rowGroupRows)
	pw, err := newUnvaluedPieceWriter(w, o.rowGroupRows, codec)
	if err != nil {
		return nil, fmt.Errorf("start pieces: %w", err)
	}
	return pw, nil
}

func newUnvaluedPieceWriter(w io.Writer, rowGroupRows int64, codec Codec) (*UnvaluedPieceWriter, error) {
	if rowGroupRows <= 0 {
		return nil, fmt.Errorf("bad row group size %d", rowGroupRows)
	}
	if _, err := ParseCodec(string(codec)); err != nil {
		return nil, err
	}
	props := piecesProps(writeOptions{batchRows: 1, rowGroupRows: rowGroupRows, codec: codec})
	root, err := piecesParquetRoot(props)
	if err != nil {
		return nil, err
	}
	sc := pqschema.NewSchema(root)
	pw := &UnvaluedPieceWriter{
		sink:    &tellWriter{w: w},
		props:   props,
		meta:    metadata.NewFileMetadataBuilder(sc, props, piecesFileMetadata()),
		maxRows: rowGroupRows,
		codec:   codec,
	}
	if _, err := pw.sink.Write([]byte("PAR1")); err != nil {
		return nil, fmt.Errorf("write magic: %w", err)
	}
	pw.cols = getPageColumns()
	for i := range pw.cols {
		c := &pw.cols[i]
		c.descr = sc.Column(i)
		c.kind = pieceColumnKinds[i]
		c.unsigned = c.descr.SortOrder() == pqschema.SortUNSIGNED
		c.delta.narrow = c.kind == kindDelta32 || c.kind == kindDeltaLength
		if (c.kind <= kindBool || c.kind == kindDeltaLength) && c.buf == nil {
			// A page, and the rows that pass it before its size is looked at.
			c.buf = make([]byte, 0, pageBytes+128<<10)
		}
	}
	return pw, nil
}

// pageColumns are the columns of an UnvaluedPieceWriter.
type pageColumns [pNumFields]pageColumn

// freeColumns holds the columns of finished writers, whose buffers (a page
// of each column, some MiB, and the compressed row group) the next writer
// reuses rather than grows again from nothing.
var freeColumns struct {
	sync.Mutex
	cols []*pageColumns
}

func getPageColumns() *pageColumns {
	freeColumns.Lock()
	defer freeColumns.Unlock()
	if n := len(freeColumns.cols); n > 0 {
		c := freeColumns.cols[n-1]
		freeColumns.cols = freeColumns.cols[:n-1]
		return c
	}
	return new(pageColumns)
}

// release hands the writer's columns on to the next writer, emptied.
func (pw *UnvaluedPieceWriter) release() {
	c := pw.cols
	if c == nil {
		return
	}
	pw.cols = nil
	for i := range c {
		c[i] = pageColumn{buf: c[i].buf[:0], chunk: c[i].chunk[:0], pages: c[i].pages[:0],
			delta: deltaEncoder{encoded: c[i].delta.encoded[:0]}}
	}
	freeColumns.Lock()
	freeColumns.cols = append(freeColumns.cols, c)
	freeColumns.Unlock()
}

// DrainPieceWriterBuffers drops the buffers that finished
// UnvaluedPieceWriters left for the next ones: a process that turns to
// other work calls it so that they do not stay in its memory.
func DrainPieceWriterBuffers() {
	freeColumns.Lock()
	freeColumns.cols = nil
	freeColumns.Unlock()
}

// pNumFields is the number of columns of the pieces table.
const pNumFields = pCost + 1

// The kinds of pieces columns, as this writer encodes them.
type columnKind uint8

const (
	kindString   columnKind = iota // PLAIN byte arrays
	kindInt64                      // PLAIN
	kindBool                       // PLAIN (bit-packed)
	kindDict                       // byte arrays in a dictionary
	kindDelta                      // DELTA_BINARY_PACKED int64
	kindDelta32                    // DELTA_BINARY_PACKED int32
	kindNull                       // optional, null in every row
	kindNullDict                   // the same, dictionary encoded
	// DELTA_LENGTH_BYTE_ARRAY: the lengths DELTA_BINARY_PACKED, then the
	// bytes of every value one after another.
	kindDeltaLength
)

// pieceColumnKinds follow piecesProps's encodings.
var pieceColumnKinds = [pNumFields]columnKind{
	pGame: kindDict, pBoard: kindDict,
	pKeyHi: kindDelta, pKeyLo: kindDelta,
	pRows: kindDelta32, pCols: kindDelta32, pSize: kindDelta32,
	pPicture: kindDeltaLength, pCGSuite: kindDeltaLength,
	pSymmetricHi: kindDelta, pSymmetricLo: kindInt64, pNegationHi: kindDelta, pNegationLo: kindInt64,
	pSelfNegative: kindBool, pPositions: kindInt64, pFirstTier: kindDelta32,
	pOutcome: kindNull, pValue: kindNullDict, pValueCapped: kindNull, pValueNodes: kindNull, pCost: kindNull,
}

// errValued is returned for a row with values.
var errValued = errors.New("a row with values: this writer writes rows without values")

// Write appends one row, which must have no values. It returns an error
// when a page or row group cannot be written, or after Close or an
// earlier error; the file is then unusable.
func (pw *UnvaluedPieceWriter) Write(p Piece) error {
	if err := pw.check(&p); err != nil {
		return err
	}
	pw.cols[pPicture].addString(p.Picture)
	pw.cols[pCGSuite].addString(p.CGSuite)
	return pw.write(&p)
}

// WriteDrawn is Write of the row p with the picture and the CGSuite
// string given as bytes (p.Picture and p.CGSuite are not read), which it
// copies: a caller that draws them into a buffer of its own writes rows
// without making two strings a row.
func (pw *UnvaluedPieceWriter) WriteDrawn(p *Piece, picture, cgsuite []byte) error {
	if err := pw.check(p); err != nil {
		return err
	}
	pw.cols[pPicture].addBytes(picture)
	pw.cols[pCGSuite].addBytes(cgsuite)
	return pw.write(p)
}

// check returns the error that stops the row p from being written: an
// earlier error, or values in p.
func (pw *UnvaluedPieceWriter) check(p *Piece) error {
	if pw.err != nil {
		return pw.err
	}
	if p.Valued {
		pw.fail(fmt.Errorf("write %s: %w", TablePieces, errValued))
		return pw.err
	}
	return nil
}

// write adds the columns of the row p but its picture and CGSuite string,
// which the caller has added, and ends the page or the row group when
// they are full.
func (pw *UnvaluedPieceWriter) write(p *Piece) error {
	c := pw.cols
	c[pGame].addDict(p.Game)
	c[pBoard].addDict(p.Board)
	c[pKeyHi].addDelta(int64(p.KeyHi))
	c[pKeyLo].addDelta(int64(p.KeyLo))
	c[pRows].addDelta(int64(p.Rows))
	c[pCols].addDelta(int64(p.Cols))
	c[pSize].addDelta(int64(p.Size))
	c[pSymmetricHi].addDelta(int64(p.SymmetricHi))
	c[pSymmetricLo].addInt64(int64(p.SymmetricLo))
	c[pNegationHi].addDelta(int64(p.NegationHi))
	c[pNegationLo].addInt64(int64(p.NegationLo))
	c[pSelfNegative].addBool(p.SelfNegative)
	c[pPositions].addInt64(int64(p.Positions))
	c[pFirstTier].addDelta(int64(p.FirstTier))
	for i := pOutcome; i <= pCost; i++ {
		c[i].n++
	}
	pw.rgRows++
	if pw.rgRows >= pw.maxRows {
		return pw.flushRowGroup()
	}
	if pw.rgRows%pageCheckRows == 0 {
		for i := range c {
			if c[i].size() >= pageBytes {
				if err := pw.endPage(&c[i]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// endPage compresses the column's current page into its chunk.
func (pw *UnvaluedPieceWriter) endPage(c *pageColumn) error {
	if c.n == 0 {
		return nil
	}
	raw, enc := c.encoded()
	st, err := c.pageStatistics()
	if err != nil {
		pw.fail(fmt.Errorf("write %s: column %s: %w", TablePieces, c.descr.Name(), err))
		return pw.err
	}
	start := len(c.chunk)
	c.chunk = pw.codec.appendPage(c.chunk, raw)
	c.pages = append(c.pages, chunkPage{
		start: start, end: len(c.chunk), values: int32(c.n), rawBytes: int32(len(raw)),
		encoding: enc, stats: st, firstRow: c.rows,
	})
	c.rows += int64(c.n)
	c.resetPage()
	return nil
}

// flushRowGroup ends every column's page and writes the row group: each
// column chunk's pages, then the chunk's metadata.
func (pw *UnvaluedPieceWriter) flushRowGroup() error {
	if pw.rgRows == 0 {
		return nil
	}
	for i := range pw.cols {
		if err := pw.endPage(&pw.cols[i]); err != nil {
			return err
		}
	}
	rg := pw.meta.AppendRowGroup()
	var written int64
	for i := range pw.cols {
		n, err := pw.writeChunk(rg, &pw.cols[i], int16(i))
		if err != nil {
			pw.fail(fmt.Errorf("write %s: column %s: %w", TablePieces, pw.cols[i].descr.Name(), err))
			return pw.err
		}
		written += n
	}
	rg.SetNumRows(int(pw.rgRows))
	if err := rg.Finish(written, pw.rgs); err != nil {
		pw.fail(fmt.Errorf("write %s: finish row group: %w", TablePieces, err))
		return pw.err
	}
	pw.rgs++
	pw.rgRows = 0
	return nil
}

// writeChunk writes the pages of one column chunk and its metadata, and
// returns the bytes of its pages with their headers.
func (pw *UnvaluedPieceWriter) writeChunk(rg *metadata.RowGroupMetaDataBuilder, c *pageColumn, ordinal int16) (int64, error) {
	cc := rg.NextColumnChunk()
	pager, err := file.NewPageWriter(pw.sink, pw.codec.compression(), zstdLevel, cc, pw.rgs, ordinal, memory.DefaultAllocator, false, nil, nil)
	if err != nil {
		return 0, err
	}
	var written int64
	dict := c.kind == kindDict || c.kind == kindNullDict
	if dict {
		// The chunk's dictionary, before its pages (empty in a column of
		// nulls).
		n, err := pager.WriteDictionaryPage(file.NewDictionaryPage(memory.NewBufferBytes(c.dict.plain), int32(len(c.dict.index)), pw.props.DictionaryPageEncoding()))
		if err != nil {
			return 0, err
		}
		written += n
	}
	chunkStats := metadata.NewStatistics(c.descr, memory.DefaultAllocator)
	for _, pg := range c.pages {
		page := file.NewDataPageV1WithConfig(memory.NewBufferBytes(c.chunk[pg.start:pg.end]), parquet.Encodings.RLE, parquet.Encodings.RLE, file.DataPageConfig{
			Num: pg.values, Encoding: pg.encoding, UncompressedSize: pg.rawBytes,
			Stats: pg.stats.encoded, FirstRowIndex: pg.firstRow,
		})
		n, err := pager.WriteDataPage(page)
		page.Release()
		if err != nil {
			return written, err
		}
		written += n
		chunkStats.Merge(pg.stats.typed)
	}
	enc, err := encodeStats(chunkStats)
	if err != nil {
		return written, err
	}
	if enc.IsSet() {
		cc.SetStats(enc)
	}
	if err := pager.Close(dict, false); err != nil {
		return written, err
	}
	c.chunk, c.pages, c.rows = c.chunk[:0], c.pages[:0], 0
	c.dict.reset()
	return written, nil
}

// Close writes the rows of the last row group and the file footer. It
// does not close the underlying writer. It returns an error when writing
// fails, or when the writer had already failed or been closed.
func (pw *UnvaluedPieceWriter) Close() error {
	if pw.err != nil {
		return pw.err
	}
	if err := pw.flushRowGroup(); err != nil {
		return err
	}
	pw.fail(errClosed)
	md, err := pw.meta.Finish()
	if err != nil {
		return fmt.Errorf("close %s: %w", TablePieces, err)
	}
	n, err := md.WriteTo(pw.sink, nil)
	if err == nil {
		var tail [8]byte
		binary.LittleEndian.PutUint32(tail[:4], uint32(n))
		copy(tail[4:], "PAR1")
		_, err = pw.sink.Write(tail[:])
	}
	if err != nil {
		return fmt.Errorf("close %s: write footer: %w", TablePieces, err)
	}
	return nil
}

// fail records the writer's first error, after which every call returns
// it, and lets go of its buffers.
func (pw *UnvaluedPieceWriter) fail(err error) {
	pw.err = err
	pw.release()
}

// tellWriter counts the bytes written through it: the offsets of the
// pages in the file.
type tellWriter struct {
	w io.Writer
	n int64
}

func (t *tellWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.n += int64(n)
	return n, err
}

func (t *tellWriter) Tell() int64 { return t.n }

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

// pageColumn is one column of the row group being written: the values of
// its current page, encoded, with their least and greatest, and the
// compressed pages before it.
type pageColumn struct {
	descr    *pqschema.Column
	kind     columnKind
	unsigned bool // int64 values compare as uint64
	n        int  // values (or nulls) in the current page
	buf      []byte
	// The least and greatest value of the page: lo and hi for integers
	// and booleans (0, 1), slo and shi for strings (copies, as the bytes
	// of a string written may be the caller's).
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

func (c *pageColumn) size() int {
	switch c.kind {
	case kindDelta, kindDelta32:
		return c.delta.size()
	case kindDict:
		return 4 * c.dict.n
	case kindDeltaLength:
		return c.delta.size() + len(c.buf)
	}
	return len(c.buf)
}

func (c *pageColumn) addString(s string) { addByteArray(c, s) }

func (c *pageColumn) addBytes(s []byte) { addByteArray(c, s) }

// addByteArray adds a byte array: its length before its bytes (PLAIN), or
// its length to the lengths and its bytes to the rest
// (DELTA_LENGTH_BYTE_ARRAY).
func addByteArray[S string | []byte](c *pageColumn, s S) {
	if c.kind == kindDeltaLength {
		c.delta.add(int64(len(s)))
	} else {
		c.buf = binary.LittleEndian.AppendUint32(c.buf, uint32(len(s)))
	}
	c.buf = append(c.buf, s...)
	stringMinMax(c, s)
}

func (c *pageColumn) addDict(s string) {
	c.dict.add(s)
	stringMinMax(c, s)
}

func stringMinMax[S string | []byte](c *pageColumn, s S) {
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

func (c *pageColumn) minMax(v int64) {
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
}

func (c *pageColumn) addInt64(v int64) {
	c.buf = binary.LittleEndian.AppendUint64(c.buf, uint64(v))
	c.minMax(v)
	c.n++
}

func (c *pageColumn) addDelta(v int64) {
	c.delta.add(v)
	c.minMax(v)
	c.n++
}

func (c *pageColumn) addBool(b bool) {
	var v int64
	if b {
		v = 1
		c.bits |= 1 << c.nbits
	}
	if c.nbits++; c.nbits == 8 {
		c.buf = append(c.buf, c.bits)
		c.bits, c.nbits = 0, 0
	}
	c.minMax(v)
	c.n++
}

// encoded is the page's data before compression, and its encoding: the
// values, after the definition levels of a nullable column.
func (c *pageColumn) encoded() ([]byte, parquet.Encoding) {
	switch c.kind {
	case kindBool:
		if c.nbits > 0 {
			c.buf = append(c.buf, c.bits)
			c.bits, c.nbits = 0, 0
		}
	case kindDelta, kindDelta32:
		c.buf = c.delta.finish(c.buf[:0])
		return c.buf, parquet.Encodings.DeltaBinaryPacked
	case kindDeltaLength:
		c.page = append(c.delta.finish(c.page[:0]), c.buf...)
		return c.page, parquet.Encodings.DeltaLengthByteArray
	case kindDict:
		c.buf = c.dict.finishPage(c.buf[:0])
		return c.buf, parquet.Encodings.RLEDict
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
			return c.buf, parquet.Encodings.RLEDict
		}
	}
	return c.buf, parquet.Encodings.Plain
}

// pageStatistics are the statistics of the current page.
func (c *pageColumn) pageStatistics() (pageStats, error) {
	st := metadata.NewStatistics(c.descr, memory.DefaultAllocator)
	if c.kind == kindNull || c.kind == kindNullDict {
		st.IncNulls(int64(c.n))
	} else {
		switch s := st.(type) {
		case *metadata.ByteArrayStatistics:
			// An empty string is a least or greatest value still: not
			// nil, which would say there is none.
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
	enc, err := encodeStats(st)
	if err != nil {
		return pageStats{}, err
	}
	return pageStats{encoded: enc, typed: st}, nil
}

// encodeStats encodes statistics as arrow-go's column writers do: min and
// max past the default size limit left out, the sign of the column's
// order set.
func encodeStats(st metadata.TypedStatistics) (metadata.EncodedStatistics, error) {
	enc, err := st.Encode()
	if err != nil {
		return enc, err
	}
	enc.ApplyStatSizeLimits(int(parquet.DefaultMaxStatsSize))
	enc.Signed = st.Descr().SortOrder() == pqschema.SortSIGNED
	return enc, nil
}

func (c *pageColumn) resetPage() {
	c.n, c.buf, c.slo, c.shi = 0, c.buf[:0], c.slo[:0], c.shi[:0]
	c.delta.reset()
	c.dict.resetPage()
}

// deltaEncoder encodes int64 values as DELTA_BINARY_PACKED: blocks of
// 128 deltas in four miniblocks of 32, each bit-packed at its own width
// after the block's least delta, behind a header of the block size, the
// miniblocks a block, the number of values and the first value. Deltas
// wrap around as int64 arithmetic does, as the format allows.
type deltaEncoder struct {
	// narrow is set for an INT32 column, whose deltas wrap around as
	// int32 arithmetic does.
	narrow  bool
	n       int
	first   int64
	prev    int64
	block   [deltaBlock]int64 // the deltas of the block being filled
	nblock  int
	encoded []byte // the finished blocks
}

const (
	deltaBlock     = 128
	deltaMiniBlock = 32
	deltaMinis     = deltaBlock / deltaMiniBlock
)

func (d *deltaEncoder) add(v int64) {
	if d.n == 0 {
		d.first = v
	} else {
		delta := v - d.prev
		if d.narrow {
			delta = int64(int32(v) - int32(d.prev))
		}
		d.block[d.nblock] = delta
		if d.nblock++; d.nblock == deltaBlock {
			d.flushBlock()
		}
	}
	d.prev = v
	d.n++
}

// size is the bytes of the finished blocks.
func (d *deltaEncoder) size() int { return len(d.encoded) }

func (d *deltaEncoder) reset() {
	d.n, d.nblock, d.encoded = 0, 0, d.encoded[:0]
}

// flushBlock encodes the deltas of the block: the least of them, the
// bit width of each miniblock, then the miniblocks holding deltas.
func (d *deltaEncoder) flushBlock() {
	if d.nblock == 0 {
		return
	}
	deltas := d.block[:d.nblock]
	least := deltas[0]
	for _, v := range deltas[1:] {
		least = min(least, v)
	}
	d.encoded = binary.AppendVarint(d.encoded, least)
	var widths [deltaMinis]int
	minis := (d.nblock + deltaMiniBlock - 1) / deltaMiniBlock
	for m := range minis {
		var or uint64
		for _, v := range deltas[m*deltaMiniBlock : min((m+1)*deltaMiniBlock, d.nblock)] {
			or |= uint64(v - least)
		}
		widths[m] = bits.Len64(or)
	}
	for _, w := range widths {
		d.encoded = append(d.encoded, byte(w))
	}
	for m := range minis {
		var vals [deltaMiniBlock]uint64 // a partial miniblock is padded with zeros
		for i, v := range deltas[m*deltaMiniBlock : min((m+1)*deltaMiniBlock, d.nblock)] {
			vals[i] = uint64(v - least)
		}
		d.encoded = packBits(d.encoded, vals[:], widths[m])
	}
	d.nblock = 0
}

// finish appends the page's encoded values to dst: the header, then the
// blocks.
func (d *deltaEncoder) finish(dst []byte) []byte {
	d.flushBlock()
	dst = binary.AppendUvarint(dst, deltaBlock)
	dst = binary.AppendUvarint(dst, deltaMinis)
	dst = binary.AppendUvarint(dst, uint64(d.n))
	dst = binary.AppendVarint(dst, d.first)
	return append(dst, d.encoded...)
}

// packBits appends vals, a multiple of 8 of them, at w bits each, least
// significant bit first: w bytes for every 8 values.
func packBits(dst []byte, vals []uint64, w int) []byte {
	if w == 0 {
		return dst
	}
	var acc uint64
	var nacc uint // bits in acc
	for _, v := range vals {
		acc |= v << nacc
		if nacc+uint(w) >= 64 {
			dst = binary.LittleEndian.AppendUint64(dst, acc)
			// The bits of v that did not fit (none when nacc is 0: a
			// shift by 64 gives 0).
			acc = v >> (64 - nacc)
			nacc = nacc + uint(w) - 64
		} else {
			nacc += uint(w)
		}
	}
	for ; nacc > 0; nacc -= 8 {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst
}

// dictEncoder encodes the byte arrays of a column chunk as a dictionary,
// the distinct values in the order they came, PLAIN, and the pages as
// indices into it: a bit width, then runs of the RLE/bit-packed hybrid.
type dictEncoder struct {
	index   map[string]int32
	plain   []byte // the dictionary page: each value's length and bytes
	last    string
	lastIdx int32
	// runs are the indices of the current page, as runs of one index:
	// the pieces table's dictionary columns repeat one value down the
	// page, and a run each is what a page of them needs (a slice of
	// every index grew to a page's rows in each job).
	runs []dictRun
	n    int // indices of the current page
}

// dictRun is n indices idx in a row.
type dictRun struct {
	idx int32
	n   int32
}

func (d *dictEncoder) add(s string) {
	if d.n == 0 || s != d.last {
		i, ok := d.index[s]
		if !ok {
			if d.index == nil {
				d.index = map[string]int32{}
			}
			i = int32(len(d.index))
			d.index[s] = i
			d.plain = binary.LittleEndian.AppendUint32(d.plain, uint32(len(s)))
			d.plain = append(d.plain, s...)
		}
		d.last, d.lastIdx = s, i
	}
	if r := len(d.runs) - 1; r >= 0 && d.runs[r].idx == d.lastIdx {
		d.runs[r].n++
	} else {
		d.runs = append(d.runs, dictRun{idx: d.lastIdx, n: 1})
	}
	d.n++
}

// resetPage forgets the indices of the page.
func (d *dictEncoder) resetPage() { d.runs, d.n = d.runs[:0], 0 }

func (d *dictEncoder) reset() {
	clear(d.index)
	d.plain = d.plain[:0]
	d.resetPage()
}

// bitWidth is the bits of an index into a dictionary of n values, as
// arrow-go writes it.
func bitWidth(n int) int {
	if n <= 1 {
		return n
	}
	return bits.Len32(uint32(n - 1))
}

// hybridGroups is the most groups of 8 values in one bit-packed run: one
// byte of run header, as parquet-mr writes them.
const hybridGroups = 63

// finishPage appends the page's data to dst: the bit width, then one RLE
// run when every index of the page is the same, else bit-packed runs.
func (d *dictEncoder) finishPage(dst []byte) []byte {
	w := bitWidth(len(d.index))
	dst = append(dst, byte(w))
	if len(d.runs) <= 1 {
		var idx int32
		if len(d.runs) == 1 {
			idx = d.runs[0].idx
		}
		dst = binary.AppendUvarint(dst, uint64(d.n)<<1)
		for b := 0; b < (w+7)/8; b++ {
			dst = append(dst, byte(idx>>(8*b)))
		}
		return dst
	}
	var vals [8 * hybridGroups]uint64
	runs, left := d.runs, d.runs[0].n // left: of runs[0]
	for rest := d.n; rest > 0; {
		n := min(rest, len(vals))
		groups := (n + 7) / 8
		clear(vals[:8*groups])
		for i := range n {
			for left == 0 {
				runs = runs[1:]
				left = runs[0].n
			}
			vals[i] = uint64(runs[0].idx)
			left--
		}
		dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
		dst = packBits(dst, vals[:8*groups], w)
		rest -= n
	}
	return dst
}

// zstdAppend appends src compressed with zstd at zstdLevel, the pieces
// files' codec and level, to dst.
func zstdAppend(dst, src []byte) []byte {
	return registeredZstd.appendLevel(dst, src, zstdLevel)
}

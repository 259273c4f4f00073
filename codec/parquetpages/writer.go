package parquetpages

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	pqschema "github.com/apache/arrow-go/v18/parquet/schema"
)

// Writer streams rows into one Parquet file, encoding every data page
// itself: each value goes straight into the data page of its column
// (PLAIN, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY or dictionary
// indices, as the writer properties say), with the page's statistics; a
// page is compressed once it holds the properties' data page size of
// values, into the column chunk of the row group; and a row group is
// written column by column when it holds the properties' most rows, its
// page headers and metadata through arrow-go's page writer and metadata
// builders. A Writer is not safe for concurrent use.
type Writer struct {
	sink      *tellWriter
	props     *parquet.WriterProperties
	meta      *metadata.FileMetaDataBuilder
	maxRows   int64 // rows of a row group
	pageBytes int   // values of a data page, before compression
	rgRows    int64 // rows in the current row group
	rgs       int16 // row groups written
	cols      []Column
	err       error
}

// pageCheckRows is how many rows the writer takes between two looks at
// the size of its columns' pages.
const pageCheckRows = 1024

// ErrClosed is returned by a Writer's methods after Close or Abort.
var ErrClosed = errors.New("parquetpages: writer closed")

// NewWriter starts a file of the schema sc on w, with the properties
// props and the key-value metadata kv, and writes its magic number.
// Every column of sc must be one this package writes (see the package
// documentation): a required BYTE_ARRAY, INT64, INT32 or BOOLEAN column
// with an encoding the package has, or an optional column, which holds
// nulls only. props must ask for statistics, data pages V1 and no page
// index, bloom filter or encryption. Close must be called to finish the
// file, or Abort to give it up.
func NewWriter(w io.Writer, sc *pqschema.Schema, props *parquet.WriterProperties, kv metadata.KeyValueMetadata) (*Writer, error) {
	if err := checkProps(props); err != nil {
		return nil, err
	}
	kinds := make([]kind, sc.NumColumns())
	codecs := make([]compress.Codec, len(kinds))
	for i := range kinds {
		descr := sc.Column(i)
		path := descr.Path()
		if !props.StatisticsEnabledFor(path) || props.PageIndexEnabledFor(path) || props.BloomFilterEnabledFor(path) {
			return nil, fmt.Errorf("column %s: statistics off, or a page index or bloom filter asked for", path)
		}
		k, err := columnKind(descr, props)
		if err != nil {
			return nil, err
		}
		if codecs[i], err = compress.GetCodec(props.CompressionFor(path)); err != nil {
			return nil, fmt.Errorf("column %s: %w", path, err)
		}
		kinds[i] = k
	}
	pw := &Writer{
		sink:      &tellWriter{w: w},
		props:     props,
		meta:      metadata.NewFileMetadataBuilder(sc, props, kv),
		maxRows:   props.MaxRowGroupLength(),
		pageBytes: int(props.DataPageSize()),
	}
	if _, err := pw.sink.Write([]byte("PAR1")); err != nil {
		return nil, fmt.Errorf("write magic: %w", err)
	}
	pw.cols = getColumns(len(kinds))
	for i := range pw.cols {
		c := &pw.cols[i]
		c.descr, c.kind, c.codec = sc.Column(i), kinds[i], codecs[i]
		path := c.descr.Path()
		c.comp, c.level = props.CompressionFor(path), props.CompressionLevelFor(path)
		c.maxStats = int(props.MaxStatsSizeFor(path))
		c.dictEnc = props.DictionaryIndexEncoding()
		c.unsigned = c.descr.SortOrder() == pqschema.SortUNSIGNED
		c.delta.narrow = c.kind == kindDelta32 || c.kind == kindDeltaLength
		if (c.kind <= kindPlainBool || c.kind == kindDeltaLength) && c.buf == nil {
			// A page, and the rows that pass it before its size is looked at.
			c.buf = make([]byte, 0, pw.pageBytes+128<<10)
		}
	}
	return pw, nil
}

// checkProps refuses the properties of a file this package does not
// write.
func checkProps(props *parquet.WriterProperties) error {
	switch {
	case props.DataPageVersion() != parquet.DataPageV1:
		return errors.New("data pages V2 are not written")
	case props.FileEncryptionProperties() != nil:
		return errors.New("encrypted files are not written")
	case props.MaxRowGroupLength() <= 0 || props.DataPageSize() <= 0:
		return fmt.Errorf("bad sizes: row groups of %d rows, data pages of %d bytes", props.MaxRowGroupLength(), props.DataPageSize())
	}
	return nil
}

// free holds the columns of finished writers, whose buffers (a page of
// each column, some MiB, and the compressed row group) the next writer
// reuses rather than grows again from nothing. Every column it holds,
// up to the capacity of its slice, is reset.
var free struct {
	sync.Mutex
	sets [][]Column
}

func getColumns(n int) []Column {
	free.Lock()
	defer free.Unlock()
	if k := len(free.sets); k > 0 {
		c := free.sets[k-1]
		free.sets = free.sets[:k-1]
		return slices.Grow(c[:0], n)[:n]
	}
	return make([]Column, n)
}

// release hands the writer's columns on to the next writer, emptied.
func (w *Writer) release() {
	c := w.cols
	if c == nil {
		return
	}
	w.cols = nil
	for i := range c {
		c[i] = Column{buf: c[i].buf[:0], chunk: c[i].chunk[:0], pages: c[i].pages[:0],
			delta: deltaEncoder{encoded: c[i].delta.encoded[:0]}}
	}
	free.Lock()
	free.sets = append(free.sets, c)
	free.Unlock()
}

// DrainBuffers drops the buffers that finished Writers left for the next
// ones: a process that turns to other work calls it so that they do not
// stay in its memory.
func DrainBuffers() {
	free.Lock()
	free.sets = nil
	free.Unlock()
}

// Columns are the columns of the file, in the order of its schema, to
// which each row adds one value a column before EndRow. They are the
// writer's until Close, Abort or its first error, and must not be used
// after.
func (w *Writer) Columns() []Column { return w.cols }

// EndRow ends a row, whose value every column has taken: it ends the
// pages that are full, and the row group when it is. It returns an error
// when a page or row group cannot be written, or after Close, Abort or
// an earlier error; the file is then unusable.
func (w *Writer) EndRow() error {
	if w.err != nil {
		return w.err
	}
	w.rgRows++
	if w.rgRows >= w.maxRows {
		return w.flushRowGroup()
	}
	if w.rgRows%pageCheckRows == 0 {
		for i := range w.cols {
			if c := &w.cols[i]; c.size() >= w.pageBytes {
				if err := w.endPage(c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// endPage compresses the column's current page into its chunk.
func (w *Writer) endPage(c *Column) error {
	if c.n == 0 {
		return nil
	}
	raw, enc := c.encoded()
	st, err := c.pageStatistics()
	if err != nil {
		return w.fail(fmt.Errorf("column %s: %w", c.descr.Path(), err))
	}
	start := len(c.chunk)
	c.chunk = appendCompressed(c.chunk, raw, c.codec, c.level)
	c.pages = append(c.pages, chunkPage{
		start: start, end: len(c.chunk), values: int32(c.n), rawBytes: int32(len(raw)),
		encoding: enc, stats: st, firstRow: c.rows,
	})
	c.rows += int64(c.n)
	c.resetPage()
	return nil
}

// appendCompressed appends src, compressed by codec at level, to dst. The
// codec encodes into the room after dst, grown to the codec's bound, as
// arrow-go's codecs do; the result is copied when it landed elsewhere.
func appendCompressed(dst, src []byte, codec compress.Codec, level int) []byte {
	n := len(dst)
	bound := int(codec.CompressBound(int64(len(src))))
	if cap(dst)-n < bound {
		grown := make([]byte, n, n+bound+n/4)
		copy(grown, dst)
		dst = grown
	}
	out := codec.EncodeLevel(dst[n:n+bound], src, level)
	if len(out) > 0 && unsafe.SliceData(out) != unsafe.SliceData(dst[n:n+bound]) {
		return append(dst, out...)
	}
	return dst[:n+len(out)]
}

// flushRowGroup ends every column's page and writes the row group: each
// column chunk's pages, then the chunk's metadata.
func (w *Writer) flushRowGroup() error {
	for i := range w.cols {
		if c := &w.cols[i]; c.rows+int64(c.n) != w.rgRows {
			return w.fail(fmt.Errorf("column %s: %d values in a row group of %d rows", c.descr.Path(), c.rows+int64(c.n), w.rgRows))
		}
	}
	if w.rgRows == 0 {
		return nil
	}
	for i := range w.cols {
		if err := w.endPage(&w.cols[i]); err != nil {
			return err
		}
	}
	rg := w.meta.AppendRowGroup()
	var written int64
	for i := range w.cols {
		n, err := w.writeChunk(rg, &w.cols[i], int16(i))
		if err != nil {
			return w.fail(fmt.Errorf("column %s: %w", w.cols[i].descr.Path(), err))
		}
		written += n
	}
	rg.SetNumRows(int(w.rgRows))
	if err := rg.Finish(written, w.rgs); err != nil {
		return w.fail(fmt.Errorf("finish row group: %w", err))
	}
	w.rgs++
	w.rgRows = 0
	return nil
}

// writeChunk writes the pages of one column chunk and its metadata, and
// returns the bytes of its pages with their headers.
func (w *Writer) writeChunk(rg *metadata.RowGroupMetaDataBuilder, c *Column, ordinal int16) (int64, error) {
	cc := rg.NextColumnChunk()
	pager, err := file.NewPageWriter(w.sink, c.comp, c.level, cc, w.rgs, ordinal, memory.DefaultAllocator, false, nil, nil)
	if err != nil {
		return 0, err
	}
	var written int64
	dict := c.kind == kindDict || c.kind == kindNullDict
	if dict {
		// The chunk's dictionary, before its pages (empty in a column of
		// nulls).
		n, err := pager.WriteDictionaryPage(file.NewDictionaryPage(memory.NewBufferBytes(c.dict.plain), int32(len(c.dict.index)), w.props.DictionaryPageEncoding()))
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
	enc, err := c.encodeStats(chunkStats)
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
// does not close w's io.Writer. It returns an error when writing fails,
// or when the writer had already failed or been closed.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.flushRowGroup(); err != nil {
		return err
	}
	w.fail(ErrClosed)
	md, err := w.meta.Finish()
	if err != nil {
		return fmt.Errorf("finish metadata: %w", err)
	}
	n, err := md.WriteTo(w.sink, nil)
	if err == nil {
		var tail [8]byte
		binary.LittleEndian.PutUint32(tail[:4], uint32(n))
		copy(tail[4:], "PAR1")
		_, err = w.sink.Write(tail[:])
	}
	if err != nil {
		return fmt.Errorf("write footer: %w", err)
	}
	return nil
}

// Abort gives the file up, unfinished, and lets go of the writer's
// buffers; every later call returns ErrClosed, or the writer's first
// error.
func (w *Writer) Abort() {
	if w.err == nil {
		w.err = ErrClosed
	}
	w.release()
}

// fail records the writer's first error, after which every call returns
// it, lets go of its buffers and returns err.
func (w *Writer) fail(err error) error {
	w.err = err
	w.release()
	return err
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

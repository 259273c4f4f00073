package schema

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// errClosed is returned by Write and Close after Close.
var errClosed = errors.New("writer closed")

// batchWriter streams the rows of one table into a Parquet file as Arrow
// record batches of opts.batchRows rows: what the row writers of the tables
// built on Arrow (PositionWriter, StateWriter) share. A row writer appends a row to the
// builder's fields, then calls rowDone.
type batchWriter struct {
	table string
	fw    *pqarrow.FileWriter
	b     *array.RecordBuilder
	opts  writeOptions
	n     int   // rows in the current batch
	err   error // first error; every later call returns it
}

// rowGroupOptions are the default options with row groups of at most
// rowGroupRows rows (at least 1024, at most the default).
func rowGroupOptions(rowGroupRows int64) writeOptions {
	o := defaultOptions
	o.rowGroupRows = max(min(rowGroupRows, o.rowGroupRows), 1024)
	o.batchRows = int(min(int64(o.batchRows), o.rowGroupRows))
	return o
}

// newBatchWriter starts a file of table on w; deltaColumns are written with
// DELTA_BINARY_PACKED and no dictionary.
func newBatchWriter(table string, sc *arrow.Schema, w io.Writer, o writeOptions, deltaColumns ...string) (*batchWriter, error) {
	if o.batchRows <= 0 || o.rowGroupRows <= 0 {
		return nil, fmt.Errorf("bad sizes: batch %d rows, row group %d rows", o.batchRows, o.rowGroupRows)
	}
	fw, err := newFileWriter(sc, w, o, deltaColumns...)
	if err != nil {
		return nil, err
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	b.Reserve(o.batchRows)
	return &batchWriter{table: table, fw: fw, b: b, opts: o}, nil
}

// rowDone counts a row appended to the fields and writes the batch once it
// is full.
func (bw *batchWriter) rowDone() error {
	bw.n++
	if bw.n >= bw.opts.batchRows {
		return bw.flush()
	}
	return nil
}

// flush hands the buffered batch to the Parquet writer.
func (bw *batchWriter) flush() error {
	if bw.n == 0 {
		return nil
	}
	rec := bw.b.NewRecordBatch()
	defer rec.Release()
	bw.n = 0
	if err := bw.fw.WriteBuffered(rec); err != nil {
		bw.err = fmt.Errorf("write %s: %w", bw.table, err)
		return bw.err
	}
	bw.b.Reserve(bw.opts.batchRows)
	return nil
}

// close writes the rows still buffered and the file footer, without closing
// the underlying writer.
func (bw *batchWriter) close() error {
	if bw.err != nil {
		return bw.err
	}
	ferr := bw.flush()
	bw.b.Release()
	cerr := bw.fw.Close()
	bw.err = errClosed
	if ferr != nil {
		return ferr
	}
	if cerr != nil {
		return fmt.Errorf("close %s: %w", bw.table, cerr)
	}
	return nil
}

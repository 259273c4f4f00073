package schema

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Default sizes of the writers.
const (
	// DefaultBatchRows is the number of rows a writer buffers before it
	// hands them to the Parquet writer: one Arrow record batch of the
	// positions table, one batch of plain column slices of the pieces
	// table.
	DefaultBatchRows = 64 << 10
	// DefaultRowGroupRows is the maximum number of rows of a row group of
	// every table. 1Mi rows keeps row-group statistics useful for pruning and
	// a pieces row group near 16 MB compressed; arrow-go's own default is
	// 64Mi rows.
	DefaultRowGroupRows = 1 << 20
)

// writeOptions are the sizes a writer works with; tests shrink them.
type writeOptions struct {
	// batchRows is the number of rows a writer buffers before handing
	// them to the Parquet writer.
	batchRows int
	// rowGroupRows is the maximum number of rows of a Parquet row group.
	rowGroupRows int64
	// codec compresses the pages (zero: zstd).
	codec Codec
}

var defaultOptions = writeOptions{batchRows: DefaultBatchRows, rowGroupRows: DefaultRowGroupRows}

// readBatchRows is the record batch size of the readers.
const readBatchRows = 64 << 10

// ColPicture is the pieces' and positions' drawing, nearly all distinct.
// colCGSuite is the pieces' CGSuite string of versions 2 and 3, which
// version 4 dropped: it was the picture with '|' for '/'.
const (
	ColPicture = "picture"
	colCGSuite = "cgsuite"
)

// writerProps returns the Parquet properties shared by every table but
// pieces: zstd, an explicit row-group size, dictionaries, and
// DELTA_BINARY_PACKED without dictionary for the given (sorted key)
// columns.
func writerProps(o writeOptions, deltaColumns ...string) *parquet.WriterProperties {
	return parquet.NewWriterProperties(append(baseProps(o, true), deltaProps(deltaColumns)...)...)
}

// zstdLevel is the zstd level of every table's pages.
const zstdLevel = 1

// baseProps are the properties of every table: its codec (zstd at level
// 1 unless o says another; only the pieces table may), an
// explicit row-group size, statistics, no dictionary for the pictures, and
// whether the other columns take a dictionary unless told otherwise.
func baseProps(o writeOptions, dict bool) []parquet.WriterProperty {
	return []parquet.WriterProperty{
		parquet.WithCompression(o.codec.compression()),
		parquet.WithCompressionLevel(zstdLevel),
		parquet.WithMaxRowGroupLength(o.rowGroupRows),
		parquet.WithStats(true),
		parquet.WithCreatedBy(CreatedBy()),
		parquet.WithDictionaryDefault(dict),
		// Pictures are nearly all distinct: a dictionary only costs time.
		parquet.WithDictionaryFor(ColPicture, false),
	}
}

func deltaProps(columns []string) []parquet.WriterProperty {
	var props []parquet.WriterProperty
	for _, c := range columns {
		props = append(props,
			parquet.WithDictionaryFor(c, false),
			parquet.WithEncodingFor(c, parquet.Encodings.DeltaBinaryPacked),
		)
	}
	return props
}

// piecesDeltaColumns are the pieces table's columns written with
// DELTA_BINARY_PACKED: the sorted keys, whose deltas take a few bits, and
// the small integers and the class keys' high halves, which vary little
// from row to row (their deltas are a few bits, where PLAIN gives zstd
// four or eight bytes a row to go through).
var piecesDeltaColumns = []string{ColKeyHi, ColKeyLo, "rows", "cols", "size", "symmetric_hi", "negation_hi", "first_tier"}

// piecesDeltaLengthColumns are the pieces table's columns written with
// DELTA_LENGTH_BYTE_ARRAY: the picture, whose lengths, packed in a few
// bits, spare zstd the four bytes a value of PLAIN's length prefixes.
var piecesDeltaLengthColumns = []string{ColPicture}

// piecesDictColumns are the pieces table's columns with a dictionary: the
// game and board, the same in every row, and the value, which repeats
// across the pieces that share it. The others are PLAIN: the pictures are
// nearly all distinct, and the rest too varied for a dictionary's hashing
// to pay.
var piecesDictColumns = []string{"game", "board", ColValue}

// piecesProps are the Parquet properties of the pieces table.
func piecesProps(o writeOptions) *parquet.WriterProperties {
	props := baseProps(o, false)
	for _, c := range piecesDictColumns {
		props = append(props, parquet.WithDictionaryFor(c, true))
	}
	for _, c := range piecesDeltaLengthColumns {
		props = append(props, parquet.WithDictionaryFor(c, false), parquet.WithEncodingFor(c, parquet.Encodings.DeltaLengthByteArray))
	}
	return parquet.NewWriterProperties(append(props, deltaProps(piecesDeltaColumns)...)...)
}

// newFileWriter starts a Parquet file of the given schema on w. The schema's
// metadata (table name and version) becomes the file's key-value metadata.
func newFileWriter(sc *arrow.Schema, w io.Writer, o writeOptions, deltaColumns ...string) (*pqarrow.FileWriter, error) {
	props := writerProps(o, deltaColumns...)
	if sc == piecesSchema {
		props = piecesProps(o)
	}
	fw, err := pqarrow.NewFileWriter(sc, w, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return nil, fmt.Errorf("start parquet writer: %w", err)
	}
	return fw, nil
}

// writeTable writes a whole table held in one record batch, then closes the
// file. rec may have zero rows.
func writeTable(w io.Writer, rec arrow.RecordBatch, o writeOptions) error {
	fw, err := newFileWriter(rec.Schema(), w, o)
	if err != nil {
		return err
	}
	if rec.NumRows() > 0 {
		if err := fw.WriteBuffered(rec); err != nil {
			fw.Close()
			return fmt.Errorf("write rows: %w", err)
		}
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("close parquet writer: %w", err)
	}
	return nil
}

// ErrWrongTable is wrapped by the readers' errors when a file holds another
// table, another schema version or columns other than the expected ones.
var ErrWrongTable = errors.New("not the expected census table")

// checkTable checks the key-value metadata and the Arrow schema of a file
// against the table it should hold.
func checkTable(pf *file.Reader, got *arrow.Schema, table string) error {
	kv := pf.MetaData().KeyValueMetadata()
	name := kv.FindValue(MetaTable)
	if name == nil {
		return fmt.Errorf("%w: file has no %q metadata, want table %q", ErrWrongTable, MetaTable, table)
	}
	if *name != table {
		return fmt.Errorf("%w: file holds table %q, want %q", ErrWrongTable, *name, table)
	}
	ver := kv.FindValue(MetaSchemaVersion)
	if ver == nil {
		return fmt.Errorf("%w: %s file has no %q metadata", ErrWrongTable, table, MetaSchemaVersion)
	}
	v, err := strconv.Atoi(*ver)
	if err != nil || !slices.Contains(readVersions[table], v) {
		return fmt.Errorf("%w: %s file has schema version %q, this build reads %s", ErrWrongTable, table, *ver, versionList(readVersions[table]))
	}
	want := schemaForVersion(table, v)
	if solved := solvedSchemas[table]; v >= solvedSince && solved != nil && got.NumFields() == solved.NumFields() {
		// A solved run's file: the version of its census, with the
		// outcome columns after the others.
		want = solved
	}
	return sameFields(got, want)
}

// solvedSince is the first version whose tiers and positions files may
// have the solve's outcome columns.
const solvedSince = 3

// versionList spells a list of versions for an error message: "1 or 2".
func versionList(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, " or ")
}

// sameFields reports the first difference in names, types or nullability
// between the columns of a file and those of the schema it should have.
func sameFields(got, want *arrow.Schema) error {
	if got.NumFields() != want.NumFields() {
		return fmt.Errorf("%w: file has %d columns, want %d", ErrWrongTable, got.NumFields(), want.NumFields())
	}
	for i, w := range want.Fields() {
		g := got.Field(i)
		switch {
		case g.Name != w.Name:
			return fmt.Errorf("%w: column %d is %q, want %q", ErrWrongTable, i, g.Name, w.Name)
		case !arrow.TypeEqual(g.Type, w.Type):
			return fmt.Errorf("%w: column %q has type %s, want %s", ErrWrongTable, w.Name, g.Type, w.Type)
		case g.Nullable != w.Nullable:
			return fmt.Errorf("%w: column %q nullable=%t, want %t", ErrWrongTable, w.Name, g.Nullable, w.Nullable)
		}
	}
	return nil
}

// readTable opens a Parquet file, checks that it holds table, and calls fn
// with every record batch in order. The batches are released after fn
// returns: fn must copy what it keeps (strings included).
func readTable(r parquet.ReaderAtSeeker, table string, fn func(rec arrow.RecordBatch) error) error {
	pf, err := file.NewParquetReader(r)
	if err != nil {
		return fmt.Errorf("open parquet: %w", err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: readBatchRows}, memory.DefaultAllocator)
	if err != nil {
		return fmt.Errorf("open arrow reader: %w", err)
	}
	sc, err := fr.Schema()
	if err != nil {
		return fmt.Errorf("read arrow schema: %w", err)
	}
	if err := checkTable(pf, sc, table); err != nil {
		return err
	}
	if pf.NumRows() == 0 {
		return nil
	}
	rr, err := fr.GetRecordReader(context.Background(), readColumns(table, sc), nil)
	if err != nil {
		return fmt.Errorf("start record reader: %w", err)
	}
	defer rr.Release()
	for rr.Next() {
		if err := fn(rr.RecordBatch()); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil {
		return fmt.Errorf("read rows: %w", err)
	}
	return nil
}

// readAll reads every row of a file with scan into memory, in file order.
// The result is never nil.
func readAll[T any](r parquet.ReaderAtSeeker, scan func(parquet.ReaderAtSeeker, func(T) error) error) ([]T, error) {
	rows := []T{}
	err := scan(r, func(row T) error {
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// scanFile opens path and calls fn with every row of it that scan reads,
// in file order, closing it afterwards; errors name the table and the
// path.
func scanFile[T any](path, table string, scan func(parquet.ReaderAtSeeker, func(T) error) error, fn func(T) error) error {
	_, err := readFile(path, table, func(r parquet.ReaderAtSeeker) (struct{}, error) {
		return struct{}{}, scan(r, fn)
	})
	return err
}

// readFile opens path and hands it to read, closing it afterwards; errors
// name the table and the path.
func readFile[T any](path, table string, read func(parquet.ReaderAtSeeker) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, fmt.Errorf("read %s: %w", table, err)
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, fmt.Errorf("read %s %s: %w", table, path, err)
	}
	return v, nil
}

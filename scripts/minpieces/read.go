package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// column holds one column of a pieces file as plain Go slices. Only the
// slice of the column's type is used: u64 for uint64, i32 for int32, bools
// for bool, and data with offsets for a string, whose value i is
// data[offsets[i]:offsets[i+1]] (offsets starts with 0, as Arrow's do).
// valid is nil for a required column; for a nullable one it tells which
// rows hold a value, and a null row holds the zero value.
type column struct {
	field   arrow.Field
	u64     []uint64
	i32     []int32
	bools   []bool
	data    []byte
	offsets []int32
	valid   []bool
}

// table is the rows of one pieces file: its Arrow schema (with the file's
// key-value metadata) and one column per field.
type table struct {
	schema *arrow.Schema
	cols   []*column
	rows   int
}

// parts returns the pieces part files of a run directory, in name order.
func parts(runDir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(runDir, "pieces", "part-*.parquet"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no pieces/part-*.parquet under %s", runDir)
	}
	sort.Strings(paths)
	return paths, nil
}

// readTable reads every row of a Parquet file with arrow-go's pqarrow
// reader into plain Go column slices.
func readTable(path string) (*table, error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	sc, err := fr.Schema()
	if err != nil {
		return nil, err
	}
	t := &table{schema: sc}
	for _, f := range sc.Fields() {
		c := &column{field: f, offsets: []int32{0}}
		if f.Nullable {
			c.valid = []bool{}
		}
		t.cols = append(t.cols, c)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		for i, c := range t.cols {
			if err := c.appendArray(rec.Column(i)); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		t.rows += int(rec.NumRows())
	}
	if err := rr.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// appendArray appends the values (and, for a nullable column, the
// validity) of one Arrow array to the column.
func (c *column) appendArray(a arrow.Array) error {
	if c.valid != nil {
		for j := range a.Len() {
			c.valid = append(c.valid, a.IsValid(j))
		}
	} else if a.NullN() > 0 {
		return fmt.Errorf("column %s: nulls in a required column", c.field.Name)
	}
	switch a := a.(type) {
	case *array.Uint64:
		c.u64 = append(c.u64, a.Uint64Values()...)
	case *array.Int32:
		c.i32 = append(c.i32, a.Int32Values()...)
	case *array.Boolean:
		for j := range a.Len() {
			c.bools = append(c.bools, a.Value(j))
		}
	case *array.String:
		for j := range a.Len() {
			c.data = append(c.data, a.Value(j)...)
			c.offsets = append(c.offsets, int32(len(c.data)))
		}
	default:
		return fmt.Errorf("column %s: type %s not handled", c.field.Name, a.DataType())
	}
	return nil
}

// str returns value i of a string column.
func (c *column) str(i int) string {
	return string(c.data[c.offsets[i]:c.offsets[i+1]])
}

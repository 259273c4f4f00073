package parquetpages

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// fuzzBytes hands out the bytes of a fuzz input, then zeros.
type fuzzBytes []byte

func (f *fuzzBytes) next() byte {
	if len(*f) == 0 {
		return 0
	}
	b := (*f)[0]
	*f = (*f)[1:]
	return b
}

// str is a string of up to 11 bytes of the input, or of 4,800 bytes, past
// the statistics' size limit.
func (f *fuzzBytes) str() string {
	n := f.next()
	if n == 255 {
		return strings.Repeat("long", 1200)
	}
	n = min(n%12, byte(len(*f)))
	s := string((*f)[:n])
	*f = (*f)[n:]
	return s
}

// int is the next integer after prev: near it, any (8 bytes of the
// input), an extreme, or prev again.
func (f *fuzzBytes) int(prev int64) int64 {
	m := f.next()
	switch m % 4 {
	case 0:
		return prev + int64(m>>2) - 32
	case 1:
		var v uint64
		for range 8 {
			v = v<<8 | uint64(f.next())
		}
		return int64(v)
	case 2:
		return []int64{math.MinInt64, math.MaxInt64, 0, -1, math.MinInt32, math.MaxInt32}[int(m>>2)%6]
	}
	return prev
}

// fuzzTable derives rows and properties from data: its first byte picks
// the codec, the Parquet version, the row group size, small pages and
// whether the rows repeat to 2,500 (pages are cut every 1,024 rows); the
// rest makes rows until it runs out, at most 3,000 (300 in row groups of
// 3 rows).
func fuzzTable(data []byte) ([]testRow, *parquet.WriterProperties) {
	f := fuzzBytes(data)
	cfg := f.next()
	comps := []compress.Compression{compress.Codecs.Zstd, compress.Codecs.Snappy, compress.Codecs.Lz4Raw, compress.Codecs.Gzip, compress.Codecs.Uncompressed, compress.Codecs.Brotli}
	comp := comps[int(cfg&7)%len(comps)]
	rowGroup := []int64{3, 100, 1000, 1 << 20}[cfg>>3&3]
	most := 3000
	if rowGroup == 3 {
		most = 300 // at most 100 row groups
	}
	pageBytes := int64(1 << 20)
	if cfg&0x20 != 0 {
		pageBytes = 256
	}
	version := parquet.V2_LATEST
	if cfg&0x40 != 0 {
		version = parquet.V1_0
	}
	var rows []testRow
	var prev testRow
	for len(f) > 0 && len(rows) < most {
		r := testRow{plain: f.str(), dlba: f.str()}
		switch d := f.next(); {
		case d < 128 && len(rows) > 0:
			r.dict = prev.dict
		case d == 255:
			r.dict = strings.Repeat("long", 1200)
		case d >= 129:
			r.dict = fmt.Sprint(d)
		}
		r.i64, r.u64, r.i64d, r.u64d = f.int(prev.i64), f.int(prev.u64), f.int(prev.i64d), f.int(prev.u64d)
		r.i32d = int32(f.int(int64(prev.i32d)))
		r.b = f.next()&1 != 0
		rows = append(rows, r)
		prev = r
	}
	for i := 0; cfg&0x80 != 0 && len(rows) > 0 && len(rows) < min(most, 2500); i++ {
		rows = append(rows, rows[i])
	}
	return rows, testProps(comp, 1, rowGroup, pageBytes, parquet.WithVersion(version))
}

// FuzzRoundTrip writes arbitrary rows of a column of every kind the
// package writes, with any codec, row group size and page size, reads
// them back through pqarrow, and checks the rows, and the footer against
// arrow-go's own file of the same rows.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0})
	f.Add([]byte{0x21, 3, 'a', 'b', 'c', 0, 200, 1, 2, 3, 0, 5, 9, 1})
	f.Add([]byte{0xa9, 255, 255, 255, 0x05, 1, 2, 3, 4, 5, 6, 7, 8, 0x0a, 0x06, 0x0e, 0x03, 1})
	f.Add([]byte("\xf3zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, props := fuzzTable(data)
		rec := testRecord(rows)
		defer rec.Release()
		checkRoundTrip(t, writePages(t, rows, props), rec, props)
	})
}

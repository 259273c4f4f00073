package tablebase

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/census-cgt/census/solve"
)

// The synthetic shard of the benchmarks: 1Mi positions whose gaps average
// 300, like a tier shard of some billion codes, and realistic records.
const (
	benchPositions = 1 << 20
	benchGap       = 300
)

var benchData struct {
	codes []uint64
	recs  []solve.Record
	probe []int // random positions to look up
}

func benchInput() ([]uint64, []solve.Record, []int) {
	if benchData.codes == nil {
		rng := rand.New(rand.NewPCG(41, 42))
		benchData.codes = gappedCodes(rng, benchPositions, 1<<40, benchGap)
		benchData.recs = realisticRecords(rng, benchPositions)
		benchData.probe = make([]int, 1<<16)
		for i := range benchData.probe {
			benchData.probe[i] = rng.IntN(benchPositions)
		}
	}
	return benchData.codes, benchData.recs, benchData.probe
}

// reportSizes reports the bytes a position of each part of a file.
func reportSizes(b *testing.B, size int, sz sizes, n int) {
	b.ReportMetric(float64(size)/float64(n), "B/pos")
	b.ReportMetric(float64(sz.keyBits)/8/float64(n), "keyB/pos")
	b.ReportMetric(float64(sz.recordBits)/8/float64(n), "recB/pos")
	b.ReportMetric((float64(sz.padBits)/8+float64(sz.index))/float64(n), "idxB/pos")
}

// benchShard writes the synthetic shard with the given block size to a
// file and opens it.
func benchShard(b *testing.B, block int) (*Shard, int, sizes) {
	codes, recs, _ := benchInput()
	data, sz := encode(b, testHeader, codes, recs, block)
	s, err := Open(writeFile(b, data))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s, len(data), sz
}

func benchLookup(b *testing.B, s *Shard, absent bool) {
	codes, recs, probe := benchInput()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := probe[i&(len(probe)-1)]
		i++
		c := codes[p]
		if absent {
			c++ // absent unless the gap is 1
		}
		r, ok, err := s.Lookup(c)
		if err != nil || !absent && (!ok || r != recs[p]) {
			b.Fatalf("Lookup(%#x) = %v, %v, %v", c, r, ok, err)
		}
	}
}

// BenchmarkLookup looks up random positions of the synthetic shard,
// mapped: one binary search of the index and the decoding of half a block
// on average.
func BenchmarkLookup(b *testing.B) {
	s, size, sz := benchShard(b, defaultBlock)
	benchLookup(b, s, false)
	reportSizes(b, size, sz, benchPositions)
}

func BenchmarkLookupAbsent(b *testing.B) {
	s, _, _ := benchShard(b, defaultBlock)
	benchLookup(b, s, true)
}

// BenchmarkBlockSize measures lookups and sizes for several block sizes:
// a lookup decodes half a block on average, and the index takes 20 bytes
// a block.
func BenchmarkBlockSize(b *testing.B) {
	for _, block := range []int{64, 128, 256, 512, 1024} {
		b.Run(fmt.Sprint("B=", block), func(b *testing.B) {
			s, size, sz := benchShard(b, block)
			benchLookup(b, s, false)
			reportSizes(b, size, sz, benchPositions)
		})
	}
}

// BenchmarkWrite writes the synthetic shard.
func BenchmarkWrite(b *testing.B) {
	codes, recs, _ := benchInput()
	var sz sizes
	var size int64
	b.SetBytes(benchPositions)
	for b.Loop() {
		info, s, err := write(io.Discard, testHeader, codes, recs, defaultBlock)
		if err != nil {
			b.Fatal(err)
		}
		sz, size = s, info.Size
	}
	reportSizes(b, int(size), sz, benchPositions)
}

// BenchmarkAll reads every pair of the synthetic shard; SetBytes counts
// positions, so MB/s is millions of positions a second.
func BenchmarkAll(b *testing.B) {
	s, _, _ := benchShard(b, defaultBlock)
	b.SetBytes(benchPositions)
	for b.Loop() {
		n := 0
		if err := s.All(func(uint64, solve.Record) bool { n++; return true }); err != nil || n != benchPositions {
			b.Fatalf("All = %v after %d", err, n)
		}
	}
}

// BenchmarkOpen opens the synthetic shard's file: header and index only.
func BenchmarkOpen(b *testing.B) {
	codes, recs, _ := benchInput()
	var buf bytes.Buffer
	if _, err := Write(&buf, testHeader, codes, recs); err != nil {
		b.Fatal(err)
	}
	path := writeFile(b, buf.Bytes())
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

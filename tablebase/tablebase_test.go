package tablebase

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/census-cgt/census/solve"
)

type shardCase struct {
	name  string
	codes []uint64
	recs  []solve.Record
}

func shardCases() []shardCase {
	rng := rand.New(rand.NewPCG(1, 2))
	same := func(n int, r solve.Record) []solve.Record {
		recs := make([]solve.Record, n)
		for i := range recs {
			recs[i] = r
		}
		return recs
	}
	seq := func(start uint64, n int) []uint64 {
		codes := make([]uint64, n)
		for i := range codes {
			codes[i] = start + uint64(i)
		}
		return codes
	}
	huge := []uint64{0, 1, 1 << 62, 1<<63 - 1, 1 << 63, 1<<63 + 1, 1<<64 - 1<<40, 1<<64 - 2, 1<<64 - 1}
	for len(huge) < 600 {
		huge = append(huge, rng.Uint64())
	}
	slices.Sort(huge)
	huge = slices.Compact(huge)
	const b = defaultBlock
	return []shardCase{
		{"empty", nil, nil},
		{"one", []uint64{12345}, []solve.Record{{Left: 3, Right: 4}}},
		{"one at zero", []uint64{0}, []solve.Record{{}}},
		{"one at max", []uint64{1<<64 - 1}, []solve.Record{{Left: 127, Right: 127}}},
		{"exactly one block", gappedCodes(rng, b, 1000, 300), realisticRecords(rng, b)},
		{"one block and one", gappedCodes(rng, b+1, 1000, 300), realisticRecords(rng, b+1)},
		{"many blocks", gappedCodes(rng, 50*b+17, 1<<40, 300), realisticRecords(rng, 50*b+17)},
		{"all records equal", gappedCodes(rng, 3*b+5, 7, 50), same(3*b+5, solve.Record{Left: 9, Right: 12})},
		{"two pairs", gappedCodes(rng, 3*b+5, 7, 50), append(same(3*b, solve.Record{Left: 1, Right: 2}), same(5, solve.Record{Left: 2, Right: 1})...)},
		{"realistic", gappedCodes(rng, 20000, 1<<33, 700), realisticRecords(rng, 20000)},
		{"every pair, escaped", gappedCodes(rng, 30000, 5, 3), uniformRecords(rng, 30000)},
		{"huge gaps", huge, realisticRecords(rng, len(huge))},
		{"consecutive", seq(99, 3*b+1), realisticRecords(rng, 3*b+1)},
		{"consecutive to the top", seq(1<<64-(b+3), b+3), realisticRecords(rng, b+3)},
		// The Rice parameter of consecutive codes is small: one gap of 5000
		// among them takes some 2500 one-bits.
		{"long unary", append(seq(0, 150), seq(5150, 150)...), realisticRecords(rng, 300)},
		{"dense and sparse", append(seq(0, 2*b), gappedCodes(rng, 2*b, 1<<50, 1<<30)...), realisticRecords(rng, 4*b)},
	}
}

// absentCodes are codes near those present but not among them: before the
// first, between neighbours, after the last.
func absentCodes(codes []uint64) []uint64 {
	var out []uint64
	add := func(c uint64) {
		if _, found := slices.BinarySearch(codes, c); !found {
			out = append(out, c)
		}
	}
	add(0)
	add(1<<64 - 1)
	add(1 << 63)
	for i, c := range codes {
		if i%7 != 0 && i != len(codes)-1 {
			continue
		}
		add(c - 1)
		add(c + 1)
		if i+1 < len(codes) {
			add(c + (codes[i+1]-c)/2)
		}
	}
	return out
}

func checkShard(t *testing.T, s *Shard, codes []uint64, recs []solve.Record) {
	t.Helper()
	if s.Header() != testHeader {
		t.Errorf("header %+v, want %+v", s.Header(), testHeader)
	}
	if s.Len() != uint64(len(codes)) {
		t.Errorf("Len %d, want %d", s.Len(), len(codes))
	}
	for i, c := range codes {
		r, ok, err := s.Lookup(c)
		if err != nil || !ok || r != recs[i] {
			t.Fatalf("Lookup(%#x) (position %d) = %v, %v, %v; want %v", c, i, r, ok, err, recs[i])
		}
	}
	for _, c := range absentCodes(codes) {
		if r, ok, err := s.Lookup(c); err != nil || ok {
			t.Fatalf("Lookup(%#x) of an absent code = %v, %v, %v", c, r, ok, err)
		}
	}
	var gotCodes []uint64
	var gotRecs []solve.Record
	if err := s.All(func(c uint64, r solve.Record) bool {
		gotCodes, gotRecs = append(gotCodes, c), append(gotRecs, r)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gotCodes, codes) || !slices.Equal(gotRecs, recs) {
		t.Fatalf("All returned %d pairs, not the %d written", len(gotCodes), len(codes))
	}
	// All stops when f says so.
	if len(codes) > 2 {
		n := 0
		if err := s.All(func(uint64, solve.Record) bool { n++; return n < len(codes)-1 }); err != nil || n != len(codes)-1 {
			t.Fatalf("All stopping after %d pairs called f %d times, %v", len(codes)-1, n, err)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range shardCases() {
		for _, block := range []int{defaultBlock, 1, 7, 128} {
			t.Run(fmt.Sprintf("%s/block %d", tc.name, block), func(t *testing.T) {
				data, sz := encode(t, testHeader, tc.codes, tc.recs, block)
				if got := sz.header + int64(sz.keyBits+sz.recordBits+sz.padBits)/8 + sz.index; got != int64(len(data)) {
					t.Errorf("sizes %+v add up to %d bytes, file has %d", sz, got, len(data))
				}
				s, err := Decode(data)
				if err != nil {
					t.Fatal(err)
				}
				checkShard(t, s, tc.codes, tc.recs)
				// One pair takes no bits; more than a table holds need the
				// escape.
				pairs := map[solve.Record]bool{}
				for _, r := range tc.recs {
					pairs[r] = true
				}
				if len(pairs) == 1 && sz.recordBits != 0 {
					t.Errorf("records of one pair take %d bits", sz.recordBits)
				}
				if len(pairs) > maxSyms && s.dec.esc == noEsc {
					t.Errorf("%d pairs, no escape", len(pairs))
				}
				if block != defaultBlock {
					return
				}
				// The default block size goes through a file, mapped.
				var buf bytes.Buffer
				info, err := Write(&buf, testHeader, tc.codes, tc.recs)
				if err != nil || !bytes.Equal(buf.Bytes(), data) || info.Size != int64(len(data)) {
					t.Fatalf("Write = %+v, %v, not the bytes of write", info, err)
				}
				s, err = Open(writeFile(t, data))
				if err != nil {
					t.Fatal(err)
				}
				checkShard(t, s, tc.codes, tc.recs)
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestHeaderFields checks that every header field survives the round trip
// at its limits.
func TestHeaderFields(t *testing.T) {
	top := int(min(math.MaxUint32, uint64(math.MaxInt))) // a uint32's, or an int's on 32 bits
	for _, h := range []Header{
		{Game: "x", Rows: 1, Cols: 1, Tier: 0, Shard: 0, Shards: 1, Coding: 0},
		{Game: strings.Repeat("g", 32), Rows: 64, Cols: 64, Tier: top, Shard: top - 1, Shards: top, Coding: 255},
		{Game: "domineering", Rows: 8, Cols: 3, Tier: 40, Shard: 0, Shards: 1024, Coding: 1},
	} {
		t.Run(h.Game, func(t *testing.T) {
			var buf bytes.Buffer
			if _, err := Write(&buf, h, []uint64{5}, []solve.Record{{Left: 1}}); err != nil {
				t.Fatal(err)
			}
			s, err := Decode(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if s.Header() != h {
				t.Fatalf("header %+v, want %+v", s.Header(), h)
			}
		})
	}
}

func TestWriteRejects(t *testing.T) {
	ok := []uint64{1, 2, 3}
	okRecs := []solve.Record{{}, {Left: 1}, {Right: 2}}
	header := func(f func(*Header)) Header {
		h := testHeader
		f(&h)
		return h
	}
	for _, tc := range []struct {
		name  string
		h     Header
		codes []uint64
		recs  []solve.Record
		want  string // in the error
	}{
		{"equal codes", testHeader, []uint64{1, 5, 5}, okRecs, "code 0x5 at 2 is not above 0x5"},
		{"decreasing codes", testHeader, []uint64{1, 9, 4}, okRecs, "code 0x4 at 2 is not above 0x9"},
		{"fewer records", testHeader, ok, okRecs[:2], "3 codes but 2 records"},
		{"more records", testHeader, ok[:1], okRecs, "1 codes but 3 records"},
		{"left too remote", testHeader, ok, []solve.Record{{}, {Left: 128}, {}}, "record (128, 0)"},
		{"right too remote", testHeader, ok, []solve.Record{{}, {}, {Right: 255}}, "record (0, 255)"},
		{"no game", header(func(h *Header) { h.Game = "" }), ok, okRecs, `game name ""`},
		{"long game", header(func(h *Header) { h.Game = strings.Repeat("a", 33) }), ok, okRecs, "is not 1..32 bytes"},
		{"no rows", header(func(h *Header) { h.Rows = 0 }), ok, okRecs, "board 0x6"},
		{"wide", header(func(h *Header) { h.Cols = 65 }), ok, okRecs, "board 5x65"},
		{"negative tier", header(func(h *Header) { h.Tier = -1 }), ok, okRecs, "tier -1"},
		{"huge tier", header(func(h *Header) { h.Tier = int(min(1<<32, uint64(math.MaxInt))) }), ok, okRecs, "tier 4294967296"},
		{"no shards", header(func(h *Header) { h.Shards = 0 }), ok, okRecs, "shards 0"},
		{"shard past shards", header(func(h *Header) { h.Shard = 16 }), ok, okRecs, "shard 16 is not below shards 16"},
		{"negative shard", header(func(h *Header) { h.Shard = -2 }), ok, okRecs, "shard -2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.h.Tier == math.MaxInt32 {
				t.Skip("an int holds no tier above a uint32's")
			}
			var buf bytes.Buffer
			_, err := Write(&buf, tc.h, tc.codes, tc.recs)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write = %v, want an error with %q", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Fatalf("Write wrote %d bytes of a rejected shard", buf.Len())
			}
		})
	}
}

type failWriter struct{ after int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.after {
		return 0, io.ErrShortWrite
	}
	w.after -= len(p)
	return len(p), nil
}

func TestWriteFails(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	codes := gappedCodes(rng, 100000, 0, 300)
	recs := realisticRecords(rng, len(codes))
	for _, after := range []int{0, 10, 1 << 16, 1 << 17} {
		if _, err := Write(&failWriter{after}, testHeader, codes, recs); !errors.Is(err, io.ErrShortWrite) {
			t.Errorf("Write failing after %d bytes = %v", after, err)
		}
	}
}

// TestOpenReadsNoBlock checks that Open reads only the header and index: it
// opens a file whose blocks are all garbage, which only a lookup finds.
func TestOpenReadsNoBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	codes := gappedCodes(rng, 10*defaultBlock, 0, 300)
	data, sz := encode(t, testHeader, codes, realisticRecords(rng, len(codes)), defaultBlock)
	for i := sz.header; i < int64(len(data))-sz.index; i++ {
		data[i] = byte(rng.Uint32())
	}
	s, err := Open(writeFile(t, data))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Lookup(codes[5]); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Lookup in a garbage block = %v, want ErrCorrupt", err)
	}
}

func TestConcurrentLookup(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	codes := gappedCodes(rng, 40*defaultBlock, 0, 300)
	recs := realisticRecords(rng, len(codes))
	data, _ := encode(t, testHeader, codes, recs, defaultBlock)
	s, err := Open(writeFile(t, data))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for range 2000 {
				i := rng.IntN(len(codes))
				c := codes[i] + uint64(rng.IntN(2)) // present, or (mostly) absent
				r, ok, err := s.Lookup(c)
				i, present := slices.BinarySearch(codes, c)
				if err != nil || ok != present || ok && r != recs[i] {
					errs <- fmt.Errorf("Lookup(%#x) = %v, %v, %v", c, r, ok, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestLookupAllocates(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	codes := gappedCodes(rng, 10*defaultBlock, 0, 300)
	data, _ := encode(t, testHeader, codes, uniformRecords(rng, len(codes)), defaultBlock)
	s, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		s.Lookup(codes[i%len(codes)] + uint64(i&1))
		i += 97
	}); n != 0 {
		t.Fatalf("Lookup allocates %v times", n)
	}
}

// TestCodeLengths checks package-merge: lengths within the limit, a
// complete code, and no longer in total than a Huffman code where the
// limit does not bind.
func TestCodeLengths(t *testing.T) {
	fib := []uint64{1, 1}
	for len(fib) < 40 {
		fib = append(fib, fib[len(fib)-1]+fib[len(fib)-2])
	}
	for _, tc := range []struct {
		name    string
		weights []uint64
		limit   int
		cost    uint64 // sum of weight*length, when known
	}{
		{"two", []uint64{5, 1}, 12, 6},
		{"three", []uint64{1, 1, 2}, 12, 6},
		{"equal four", []uint64{3, 3, 3, 3}, 12, 24},
		{"full at the limit", []uint64{1, 1, 1, 1}, 2, 8},
		{"skewed", []uint64{16, 8, 4, 2, 1, 1}, 12, 16 + 16 + 12 + 8 + 5 + 5},
		{"skewed limited", []uint64{16, 8, 4, 2, 1, 1}, 3, 0},
		{"fibonacci", fib, 12, 0},
		{"fibonacci unlimited", fib, 40, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lens := limitedLengths(tc.weights, tc.limit)
			var kraft float64
			var cost uint64
			for i, l := range lens {
				if l < 1 || int(l) > tc.limit {
					t.Fatalf("length %d of symbol %d, limit %d", l, i, tc.limit)
				}
				kraft += 1 / float64(uint64(1)<<l)
				cost += tc.weights[i] * uint64(l)
			}
			if kraft != 1 {
				t.Fatalf("lengths %v: Kraft sum %v", lens, kraft)
			}
			if tc.cost != 0 && cost != tc.cost {
				t.Fatalf("lengths %v cost %d, want %d", lens, cost, tc.cost)
			}
		})
	}
}

// TestSize checks the size budget on realistic data: at most 4 bytes a
// position, records within 2% of their entropy, index and checksums below
// 0.1 byte a position.
func TestSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 200000
	for _, gap := range []float64{100, 300, 1000} {
		t.Run(fmt.Sprint("mean gap ", gap), func(t *testing.T) {
			codes := gappedCodes(rng, n, 1<<40, gap)
			recs := realisticRecords(rng, n)
			data, sz := encode(t, testHeader, codes, recs, defaultBlock)
			perPos := float64(len(data)) / n
			h := entropy(recs)
			rec := float64(sz.recordBits) / n
			over := float64(sz.padBits)/8/n + float64(sz.index)/n
			t.Logf("%.3f bytes/position: keys %.3f, records %.3f (%.2f bits, entropy %.2f), index+checksums+padding %.4f, header %d bytes",
				perPos, float64(sz.keyBits)/8/n, rec/8, rec, h, over, sz.header)
			if perPos > 4 || rec > 1.02*h || over > 0.1 {
				t.Fatal("over budget")
			}
		})
	}
}

func TestOpenMissing(t *testing.T) {
	_, err := Open(t.TempDir() + "/none.tb")
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "none.tb") {
		t.Fatalf("Open of a missing file = %v", err)
	}
}

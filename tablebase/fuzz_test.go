package tablebase

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/solve"
)

// fuzzShard derives a shard from data: its first byte picks the block
// size, then every 4 bytes a gap (a byte shifted left by a byte) and a
// record, the last of a few or any pair.
func fuzzShard(data []byte) (codes []uint64, recs []solve.Record, block int) {
	block = defaultBlock
	if len(data) > 0 {
		if b := int(data[0]); b < 200 {
			block = 1 + b%40
		}
		data = data[1:]
	}
	var c uint64
	for i := 0; i+4 <= len(data); i += 4 {
		gap := uint64(data[i]) << (data[i+1] & 63)
		if len(codes) > 0 {
			if c+gap+1 <= c {
				break
			}
			c += gap + 1
		} else {
			c = gap
		}
		r := solve.Record{Left: data[i+2] & 127, Right: data[i+3] & 127}
		if data[i+2]&128 == 0 {
			r = solve.Record{Left: data[i+2] & 3, Right: data[i+3] & 1}
		}
		codes, recs = append(codes, c), append(recs, r)
	}
	return codes, recs, block
}

func FuzzRoundTrip(f *testing.F) {
	rng := rand.New(rand.NewPCG(31, 32))
	f.Add([]byte{})
	f.Add([]byte{0})
	f.Add([]byte{255, 0, 0, 0, 0})
	f.Add([]byte{3, 0xFF, 63, 0xFF, 0xFF, 0xFF, 63, 0x80, 0x80, 1, 0, 2, 2})
	for _, n := range []int{10, 100, 2000} {
		seed := make([]byte, 1+4*n)
		for i := range seed {
			seed[i] = byte(rng.Uint32())
		}
		seed[0] = byte(n)
		for i := 1; i < len(seed); i += 4 {
			seed[i+1] %= 12 // gaps mostly small
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		codes, recs, block := fuzzShard(data)
		var buf bytes.Buffer
		info, _, err := write(&buf, testHeader, codes, recs, block)
		if err != nil {
			t.Fatal(err)
		}
		if info.Count != uint64(len(codes)) || info.Size != int64(buf.Len()) {
			t.Fatalf("info %+v for %d codes in %d bytes", info, len(codes), buf.Len())
		}
		s, err := Decode(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		checkShard(t, s, codes, recs)
	})
}

// FuzzDecode feeds arbitrary bytes to Decode, and Lookup and All of what
// it accepts: nothing panics, every error wraps ErrCorrupt, and All and
// Lookup agree. With fix set, the checksums are made to match first, so
// that the fuzzer reaches the checks behind them.
func FuzzDecode(f *testing.F) {
	rng := rand.New(rand.NewPCG(33, 34))
	for _, tc := range shardCases() {
		if len(tc.codes) > 1000 {
			continue
		}
		for _, block := range []int{1, 4, defaultBlock} {
			var buf bytes.Buffer
			if _, _, err := write(&buf, testHeader, tc.codes, tc.recs, block); err != nil {
				f.Fatal(err)
			}
			f.Add(buf.Bytes(), false)
			f.Add(buf.Bytes(), true)
		}
	}
	codes := gappedCodes(rng, 300, 0, 3)
	var buf bytes.Buffer
	if _, _, err := write(&buf, testHeader, codes, uniformRecords(rng, len(codes)), 16); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes(), true)
	f.Add([]byte(magic), false)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			data = resum(data)
		}
		s, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Decode = %v, not ErrCorrupt", err)
			}
			return
		}
		var codes []uint64
		var recs []solve.Record
		allErr := s.All(func(c uint64, r solve.Record) bool {
			codes, recs = append(codes, c), append(recs, r)
			return true
		})
		if allErr != nil && !errors.Is(allErr, ErrCorrupt) {
			t.Fatalf("All = %v, not ErrCorrupt", allErr)
		}
		if !slices.IsSorted(codes) || len(slices.Compact(slices.Clone(codes))) != len(codes) {
			t.Fatal("All returned codes out of order")
		}
		if allErr == nil && uint64(len(codes)) != s.Len() {
			t.Fatalf("All returned %d codes of %d", len(codes), s.Len())
		}
		// A block may hold 64Ki positions at a bit each: look up a sample.
		step := 1 + len(codes)/500
		for i := 0; i < len(codes); i += step {
			c := codes[i]
			r, ok, err := s.Lookup(c)
			if err != nil || !ok || r != recs[i] {
				t.Fatalf("Lookup(%#x) = %v, %v, %v; All gave %v", c, r, ok, err, recs[i])
			}
		}
		probe := []uint64{0, 1, 1 << 63, 1<<64 - 1}
		for j := range min(s.nblocks, 64) {
			first := binary.LittleEndian.Uint64(s.firsts[8*j:])
			probe = append(probe, first, first+1, first+1000, first-1)
		}
		for _, c := range probe {
			if _, _, err := s.Lookup(c); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Lookup(%#x) = %v, not ErrCorrupt", c, err)
			}
		}
	})
}

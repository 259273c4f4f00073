package tablebase

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/census-cgt/census/solve"
)

var testHeader = Header{Game: "clobber", Rows: 5, Cols: 6, Tier: 7, Shard: 3, Shards: 16, Coding: 2}

// gappedCodes returns n increasing codes from start whose gaps are
// exponentially distributed with mean meanGap (at least 1), as the codes of
// a tier shard's positions are about evenly spread.
func gappedCodes(rng *rand.Rand, n int, start uint64, meanGap float64) []uint64 {
	codes := make([]uint64, n)
	c := start
	for i := range codes {
		if i > 0 {
			c += 1 + uint64(rng.ExpFloat64()*(meanGap-1))
		}
		codes[i] = c
	}
	return codes
}

// realisticRecords returns n records like a solved tier's: Left's and
// Right's remotenesses each mostly within some 15 values around a common
// base (so correlated), and 1% anywhere in 0..63.
func realisticRecords(rng *rand.Rand, n int) []solve.Record {
	recs := make([]solve.Record, n)
	clip := func(x float64) uint8 { return uint8(min(max(math.Round(x), 0), solve.MaxRemoteness)) }
	for i := range recs {
		if rng.IntN(100) == 0 {
			recs[i] = solve.Record{Left: uint8(rng.IntN(64)), Right: uint8(rng.IntN(64))}
			continue
		}
		base := 20 + 3*rng.NormFloat64()
		recs[i] = solve.Record{Left: clip(base + 1.5*rng.NormFloat64()), Right: clip(base + 1.5*rng.NormFloat64())}
	}
	return recs
}

// uniformRecords returns n records with every pair equally likely, many
// more pairs than a code table holds.
func uniformRecords(rng *rand.Rand, n int) []solve.Record {
	recs := make([]solve.Record, n)
	for i := range recs {
		recs[i] = solve.Record{Left: uint8(rng.IntN(128)), Right: uint8(rng.IntN(128))}
	}
	return recs
}

// entropy is the empirical entropy of recs' pairs in bits a record.
func entropy(recs []solve.Record) float64 {
	freq := map[solve.Record]int{}
	for _, r := range recs {
		freq[r]++
	}
	var h float64
	for _, n := range freq {
		p := float64(n) / float64(len(recs))
		h -= p * math.Log2(p)
	}
	return h
}

func encode(t testing.TB, h Header, codes []uint64, recs []solve.Record, block int) ([]byte, sizes) {
	t.Helper()
	var buf bytes.Buffer
	info, sz, err := write(&buf, h, codes, recs, block)
	if err != nil {
		t.Fatal(err)
	}
	if info.Count != uint64(len(codes)) || info.Size != int64(buf.Len()) || info.Sum != crc32.Checksum(buf.Bytes(), castagnoli) {
		t.Fatalf("info %+v for %d codes in %d bytes, crc32c %#x", info, len(codes), buf.Len(), crc32.Checksum(buf.Bytes(), castagnoli))
	}
	return buf.Bytes(), sz
}

func writeFile(t testing.TB, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t0007-s00003.tb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// resum rewrites the block checksums and the header and index checksum of
// data, as far as its header and index are readable, so that a fuzzer's
// or a test's change reaches the checks behind the checksums.
func resum(data []byte) []byte {
	data = bytes.Clone(data)
	le := binary.LittleEndian
	size := uint64(len(data))
	if size < minFile {
		return data
	}
	g := uint64(data[32])
	if fixedLen+g+2 > size {
		return data
	}
	hlen := fixedLen + g + 2 + symEntry*uint64(le.Uint16(data[fixedLen+g:]))
	block, count := uint64(le.Uint32(data[20:])), le.Uint64(data[24:])
	if block == 0 || hlen+trailerLen > size {
		return data
	}
	nb := (count + block - 1) / block
	if count > 1<<40 || nb > (size-hlen-trailerLen)/indexEntry {
		return data
	}
	dataEnd := size - trailerLen - indexEntry*nb
	offs := data[dataEnd+8*nb : dataEnd+16*nb]
	sums := data[dataEnd+16*nb : dataEnd+20*nb]
	for j := range nb {
		off, end := le.Uint64(offs[8*j:]), dataEnd
		if j+1 < nb {
			end = le.Uint64(offs[8*j+8:])
		}
		if off <= end && end <= dataEnd {
			le.PutUint32(sums[4*j:], crc32.Checksum(data[off:end], castagnoli))
		}
	}
	le.PutUint64(data[size-trailerLen:], dataEnd)
	if hlen <= dataEnd {
		sum := crc32.Update(crc32.Checksum(data[:hlen], castagnoli), castagnoli, data[dataEnd:size-8])
		le.PutUint32(data[size-8:], sum)
	}
	return data
}

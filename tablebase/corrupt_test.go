package tablebase

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/census-cgt/census/solve"
)

// corruptFixture is a file of several blocks, small enough to damage
// every byte of.
func corruptFixture(t *testing.T) ([]byte, sizes, []uint64, []solve.Record) {
	rng := rand.New(rand.NewPCG(21, 22))
	codes := gappedCodes(rng, 6*32+5, 1000, 300)
	recs := realisticRecords(rng, len(codes))
	data, sz := encode(t, testHeader, codes, recs, 32)
	return data, sz, codes, recs
}

// TestCorruptBlock damages each byte of one block in turn: lookups in that
// block, and All, fail with ErrCorrupt; lookups in the others succeed.
func TestCorruptBlock(t *testing.T) {
	data, sz, codes, recs := corruptFixture(t)
	s, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	const bad = 2 // the damaged block: codes[64:96]
	off := binary.LittleEndian.Uint64(s.offs[8*bad:])
	end := binary.LittleEndian.Uint64(s.offs[8*bad+8:])
	if off < uint64(sz.header) || end <= off {
		t.Fatalf("block %d at %d..%d", bad, off, end)
	}
	for i := off; i < end; i++ {
		for _, bit := range []byte{0x01, 0x80} {
			damaged := bytes.Clone(data)
			damaged[i] ^= bit
			s, err := Decode(damaged)
			if err != nil {
				t.Fatalf("byte %d: Decode = %v; it must not read blocks", i, err)
			}
			for j, c := range codes {
				r, ok, err := s.Lookup(c)
				if j/32 == bad {
					if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "block 2 checksum") {
						t.Fatalf("byte %d: Lookup(%#x) in the damaged block = %v, %v, %v", i, c, r, ok, err)
					}
				} else if err != nil || !ok || r != recs[j] {
					t.Fatalf("byte %d: Lookup(%#x) in a sound block = %v, %v, %v", i, c, r, ok, err)
				}
			}
			n := 0
			err = s.All(func(uint64, solve.Record) bool { n++; return true })
			if !errors.Is(err, ErrCorrupt) || n != bad*32 {
				t.Fatalf("byte %d: All = %v after %d pairs, want ErrCorrupt after %d", i, err, n, bad*32)
			}
		}
	}
}

// TestBadCoding damages blocks but keeps their checksums right: the
// decoders must report ErrCorrupt or wrong records, never panic, and All
// must check that each block's coding ends at its end.
func TestBadCoding(t *testing.T) {
	data, sz, codes, _ := corruptFixture(t)
	rng := rand.New(rand.NewPCG(23, 24))
	corrupted := 0
	for range 2000 {
		damaged := bytes.Clone(data)
		for range 1 + rng.IntN(3) {
			i := sz.header + rng.Int64N(int64(len(data))-sz.header-sz.index)
			damaged[i] ^= byte(1 + rng.IntN(255))
		}
		s, err := Decode(resum(damaged))
		if err != nil {
			t.Fatalf("Decode after damage to blocks = %v", err)
		}
		for _, c := range codes {
			if _, _, err := s.Lookup(c); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Lookup = %v, not ErrCorrupt", err)
			}
		}
		if err := s.All(func(uint64, solve.Record) bool { return true }); errors.Is(err, ErrCorrupt) {
			corrupted++
		} else if err != nil {
			t.Fatalf("All = %v, not ErrCorrupt", err)
		}
	}
	// A damaged Huffman code often still decodes to the block's end (to
	// the wrong records): only the checksum finds those.
	t.Logf("All found %d of 2000 damaged codings", corrupted)
	if corrupted < 500 {
		t.Fatalf("All found only %d of 2000 damaged codings", corrupted)
	}
}

// TestSpareByte gives a block's keys, or its records, a byte more than
// their coding takes: lookups still find every code, but All, which checks
// blocks whole, fails.
func TestSpareByte(t *testing.T) {
	data, _, codes, recs := corruptFixture(t)
	s, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	const j = 3
	off := le.Uint64(s.offs[8*j:])
	klen := uint64(data[off+1]) // a one-byte uvarint
	if klen >= 128 {
		t.Fatalf("keys of block %d take %d bytes", j, klen)
	}
	for _, tc := range []struct {
		name string
		at   uint64 // where the spare byte goes
		keys bool
	}{
		{"keys", off + 2 + klen, true},
		{"records", le.Uint64(s.offs[8*j+8:]), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spare := bytes.Clone(data[:tc.at])
			spare = append(spare, 0)
			spare = append(spare, data[tc.at:]...)
			if tc.keys {
				spare[off+1]++
			}
			// The blocks after j, and the index, moved one byte on.
			idx := s.dataEnd + 1
			for i := j + 1; i < s.nblocks; i++ {
				p := idx + 8*uint64(s.nblocks) + 8*uint64(i)
				le.PutUint64(spare[p:], le.Uint64(spare[p:])+1)
			}
			s2, err := Decode(resum(spare))
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range codes {
				if r, ok, err := s2.Lookup(c); err != nil || !ok || r != recs[i] {
					t.Fatalf("Lookup(%#x) = %v, %v, %v", c, r, ok, err)
				}
			}
			err = s2.All(func(uint64, solve.Record) bool { return true })
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "block 3: keys and records take") {
				t.Fatalf("All with a spare byte = %v", err)
			}
		})
	}
}

// TestCorruptHeaderIndex damages each byte outside the blocks: Decode must
// fail with ErrCorrupt.
func TestCorruptHeaderIndex(t *testing.T) {
	data, sz, _, _ := corruptFixture(t)
	blocksEnd := int64(len(data)) - sz.index
	for i := range int64(len(data)) {
		if i >= sz.header && i < blocksEnd {
			continue
		}
		for _, bit := range []byte{0x01, 0x10, 0x80} {
			damaged := bytes.Clone(data)
			damaged[i] ^= bit
			if _, err := Decode(damaged); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Decode with byte %d ^ %#x = %v, want ErrCorrupt", i, bit, err)
			}
		}
	}
}

// TestBadHeaderIndex gives checksums that match to headers and indexes
// that are wrong: Decode must still refuse them, naming the fault.
func TestBadHeaderIndex(t *testing.T) {
	data, _, _, _ := corruptFixture(t)
	s, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	g := uint64(len(testHeader.Game))
	sym := fixedLen + g + 2 // the code table
	idx := s.dataEnd
	nb := uint64(s.nblocks)
	for _, tc := range []struct {
		name   string
		damage func(d []byte)
		want   string
	}{
		{"version", func(d []byte) { d[4] = 2 }, "version 2"},
		{"rows", func(d []byte) { d[6] = 0 }, "board 0x6"},
		{"shard", func(d []byte) { le.PutUint32(d[12:], 16) }, "shard 16"},
		{"block size", func(d []byte) { le.PutUint32(d[20:], 0) }, "block size 0"},
		{"count", func(d []byte) { le.PutUint64(d[24:], 6*32+5+32) }, "block 0 at"},
		{"huge count", func(d []byte) { le.PutUint64(d[24:], 1<<64-1) }, "cannot hold"},
		{"game length", func(d []byte) { d[32] = 40 }, "game name"},
		{"symbols", func(d []byte) { le.PutUint16(d[fixedLen+g:], 2000) }, "code table of 2000"},
		{"symbol order", func(d []byte) { d[sym], d[sym+3] = d[sym+3], d[sym] }, "code table"},
		{"symbol length", func(d []byte) { d[sym+2]++ }, "code table"},
		{"symbol pair", func(d []byte) { d[sym] = 200 }, "code table"},
		{"first offset", func(d []byte) { le.PutUint64(d[idx+8*nb:], le.Uint64(d[idx+8*nb:])+1) }, "block 0 at"},
		{"offset order", func(d []byte) { le.PutUint64(d[idx+8*nb+16:], le.Uint64(d[idx+8*nb+8:])) }, "not after block 1"},
		{"offset past", func(d []byte) { le.PutUint64(d[idx+16*nb-8:], idx) }, "past the blocks' end"},
		{"first code order", func(d []byte) { le.PutUint64(d[idx+8:], le.Uint64(d[idx:])) }, "not above block 0's"},
		{"first codes close", func(d []byte) { le.PutUint64(d[idx+8:], le.Uint64(d[idx:])+31) }, "too close"},
		{"nothing (resum keeps a sound file)", func(d []byte) {}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			damaged := bytes.Clone(data)
			tc.damage(damaged)
			_, err := Decode(resum(damaged))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("resum broke a sound file: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Decode = %v, want ErrCorrupt with %q", err, tc.want)
			}
		})
	}
}

func TestTruncated(t *testing.T) {
	data, _, _, _ := corruptFixture(t)
	for n := range len(data) {
		if _, err := Decode(data[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Decode of %d of %d bytes = %v", n, len(data), err)
		}
	}
	// One byte too many is as bad.
	if _, err := Decode(append(bytes.Clone(data), 0)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Decode with a byte after the trailer = %v", err)
	}
}

// TestOpenCorrupt checks that Open refuses what Decode refuses, naming the
// file.
func TestOpenCorrupt(t *testing.T) {
	data, _, _, _ := corruptFixture(t)
	flip := func(i int) []byte {
		d := bytes.Clone(data)
		d[i] ^= 1
		return d
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"text", []byte(strings.Repeat("not a tablebase\n", 10)), "not a tablebase"},
		{"version", flip(4), "version"},
		{"header", flip(9), "checksum"},
		{"index", flip(len(data) - 30), "checksum"},
		{"trailer", flip(len(data) - 1), "trailer"},
		{"truncated", data[:len(data)-5], "trailer"},
		{"half", data[:len(data)/2], ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.data)
			s, err := Open(path)
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open = %v, want ErrCorrupt naming %s with %q", err, path, tc.want)
			}
			if s != nil {
				t.Fatal("Open returned a shard with its error")
			}
		})
	}
	// Open then damage is a lookup's problem, reported with the path.
	path := writeFile(t, data)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	off := binary.LittleEndian.Uint64(s.offs[8:])
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{data[off] ^ 0xFF}, int64(off)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, _, err = s.Lookup(binary.LittleEndian.Uint64(s.firsts[8:]))
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Lookup in a block damaged on disk = %v", err)
	}
}

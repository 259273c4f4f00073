package tablebase

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/census-cgt/census/codec/rice"
	"github.com/census-cgt/census/solve"
)

const (
	magic        = "CNTB"
	trailerMagic = "BTNC"
	version      = 1

	// defaultBlock is the positions of a block that Write uses: see
	// BenchmarkBlockSize for the measurements that chose it.
	defaultBlock = 256
	maxBlock     = 1 << 16

	maxGame    = 32
	maxBoard   = 64
	fixedLen   = 33                            // header bytes before the game's name
	indexEntry = 20                            // first:u64 offset:u64 sum:u32
	trailerLen = 16                            // index offset:u64 sum:u32 magic
	minFile    = fixedLen + 1 + 2 + trailerLen // a one-byte name, no code table, no blocks
)

// ErrCorrupt marks a tablebase file that fails its checks: not a
// tablebase, a version this package does not read, a truncation, a
// checksum mismatch or a bad coding. Retrying cannot help.
var ErrCorrupt = errors.New("corrupt tablebase")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header identifies a shard file.
type Header struct {
	Game                string // e.g. "clobber", 1..32 bytes
	Rows, Cols          int    // the board, each 1..64
	Tier, Shard, Shards int    // tier number, this shard's index, shards of the tier
	// Coding says how the caller maps position keys to codes; this package
	// only stores it.
	Coding uint8
}

// check reports the first bad field of h.
func (h Header) check() error {
	switch {
	case len(h.Game) == 0 || len(h.Game) > maxGame:
		return fmt.Errorf("game name %q is not 1..%d bytes", h.Game, maxGame)
	case h.Rows < 1 || h.Rows > maxBoard || h.Cols < 1 || h.Cols > maxBoard:
		return fmt.Errorf("board %dx%d is not within 1..%d", h.Rows, h.Cols, maxBoard)
	case h.Tier < 0 || int64(h.Tier) > math.MaxUint32:
		return fmt.Errorf("tier %d is not a uint32", h.Tier)
	case h.Shards < 1 || int64(h.Shards) > math.MaxUint32:
		return fmt.Errorf("shards %d is not 1..2^32-1", h.Shards)
	case h.Shard < 0 || h.Shard >= h.Shards:
		return fmt.Errorf("shard %d is not below shards %d", h.Shard, h.Shards)
	}
	return nil
}

// Info is what Write reports of a written file.
type Info struct {
	Count uint64 // positions
	Size  int64  // bytes
	Sum   uint32 // crc32c of the whole file, as written
}

// sizes splits a file's bytes by what they hold, in bits for the block
// contents: the measurements of the tests and benchmarks.
type sizes struct {
	keyBits    uint64 // the Rice-coded gaps
	recordBits uint64 // the Huffman-coded records
	padBits    uint64 // each block's Rice parameter and keys' length, and the padding of its two bit streams
	header     int64  // header and code table
	index      int64  // index and trailer
}

// Write writes the shard file of codes, strictly increasing, and their
// records, one for each code, to w. It reports the positions, the bytes
// and the checksum of the whole file.
func Write(w io.Writer, h Header, codes []uint64, recs []solve.Record) (Info, error) {
	info, _, err := write(w, h, codes, recs, defaultBlock)
	return info, err
}

func write(w io.Writer, h Header, codes []uint64, recs []solve.Record, block int) (Info, sizes, error) {
	if err := checkInput(h, codes, recs, block); err != nil {
		return Info{}, sizes{}, fmt.Errorf("write tablebase: %w", err)
	}
	tw := &tableWriter{bw: bufio.NewWriterSize(w, 1<<16)}
	sz, err := tw.write(h, codes, recs, block)
	if err != nil {
		return Info{}, sizes{}, fmt.Errorf("write tablebase of %s tier %d shard %d: %w", h.Game, h.Tier, h.Shard, err)
	}
	return Info{Count: uint64(len(codes)), Size: tw.size, Sum: tw.sum}, sz, nil
}

func checkInput(h Header, codes []uint64, recs []solve.Record, block int) error {
	if err := h.check(); err != nil {
		return err
	}
	if block < 1 || block > maxBlock {
		return fmt.Errorf("block size %d is not 1..%d", block, maxBlock)
	}
	if len(codes) != len(recs) {
		return fmt.Errorf("%d codes but %d records", len(codes), len(recs))
	}
	for i, c := range codes {
		if i > 0 && c <= codes[i-1] {
			return fmt.Errorf("code %#x at %d is not above %#x at %d", c, i, codes[i-1], i-1)
		}
		if r := recs[i]; r.Left > solve.MaxRemoteness || r.Right > solve.MaxRemoteness {
			return fmt.Errorf("record (%d, %d) of code %#x at %d: remoteness above %d", r.Left, r.Right, c, i, solve.MaxRemoteness)
		}
	}
	return nil
}

// tableWriter writes a file and sums what it writes.
type tableWriter struct {
	bw   *bufio.Writer
	size int64
	sum  uint32 // of everything written
	hsum uint32 // of the header and the index
}

func (t *tableWriter) put(p []byte, meta bool) error {
	t.sum = crc32.Update(t.sum, castagnoli, p)
	if meta {
		t.hsum = crc32.Update(t.hsum, castagnoli, p)
	}
	t.size += int64(len(p))
	_, err := t.bw.Write(p)
	return err
}

func (t *tableWriter) write(h Header, codes []uint64, recs []solve.Record, block int) (sizes, error) {
	var sz sizes
	freq := make([]uint64, 1<<14)
	for _, r := range recs {
		freq[pairIndex(r.Left, r.Right)]++
	}
	syms, pcodes, esc := buildCode(freq)

	hdr := appendHeader(nil, h, block, len(codes), syms)
	if err := t.put(hdr, true); err != nil {
		return sz, err
	}
	sz.header = int64(len(hdr))

	nb := (len(codes) + block - 1) / block
	firsts := make([]byte, 0, 8*nb)
	offs := make([]byte, 0, 8*nb)
	sums := make([]byte, 0, 4*nb)
	var kw, rw rice.Writer
	var blk []byte
	for lo := 0; lo < len(codes); lo += block {
		hi := min(lo+block, len(codes))
		c, r := codes[lo:hi], recs[lo:hi]
		k := rice.Parameter(c)
		kw.Reset()
		rw.Reset()
		kw.Gaps(c, k)
		sz.keyBits += kw.Len()
		for i := range c {
			pc := pcodes[pairIndex(r[i].Left, r[i].Right)]
			if pc.n == 0 && len(syms) > 1 {
				rw.Bits(uint64(esc.bits), uint(esc.n))
				rw.Bits(uint64(r[i].Left)|uint64(r[i].Right)<<7, escBits)
				sz.recordBits += uint64(esc.n) + escBits
			} else {
				rw.Bits(uint64(pc.bits), uint(pc.n))
				sz.recordBits += uint64(pc.n)
			}
		}
		kw.Done()
		rw.Done()
		blk = append(blk[:0], byte(k))
		blk = binary.AppendUvarint(blk, uint64(len(kw.Bytes())))
		blk = append(append(blk, kw.Bytes()...), rw.Bytes()...)
		firsts = binary.LittleEndian.AppendUint64(firsts, c[0])
		offs = binary.LittleEndian.AppendUint64(offs, uint64(t.size))
		sums = binary.LittleEndian.AppendUint32(sums, crc32.Checksum(blk, castagnoli))
		if err := t.put(blk, false); err != nil {
			return sz, err
		}
	}
	sz.padBits = 8*uint64(t.size-sz.header) - sz.keyBits - sz.recordBits

	dataEnd := t.size
	for _, p := range [][]byte{firsts, offs, sums, binary.LittleEndian.AppendUint64(nil, uint64(dataEnd))} {
		if err := t.put(p, true); err != nil {
			return sz, err
		}
	}
	tail := binary.LittleEndian.AppendUint32(nil, t.hsum)
	if err := t.put(append(tail, trailerMagic...), false); err != nil {
		return sz, err
	}
	sz.index = t.size - dataEnd
	return sz, t.bw.Flush()
}

// appendHeader appends the header of a file of h with count positions in
// blocks of block, its code table syms, to dst.
func appendHeader(dst []byte, h Header, block, count int, syms []symbol) []byte {
	dst = append(dst, magic...)
	dst = append(dst, version, h.Coding, byte(h.Rows), byte(h.Cols))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(h.Tier))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(h.Shard))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(h.Shards))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(block))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(count))
	dst = append(dst, byte(len(h.Game)))
	dst = append(dst, h.Game...)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(syms)))
	for _, s := range syms {
		dst = append(dst, s.left, s.right, s.len)
	}
	return dst
}

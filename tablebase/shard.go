package tablebase

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/bits"

	"github.com/census-cgt/census/codec/rice"
	"github.com/census-cgt/census/solve"
)

// Shard is one shard file opened for reading. It is safe for concurrent
// use by many goroutines, but not after Close.
type Shard struct {
	name    string // for errors: the path, or "in memory"
	data    []byte // the whole file
	mapped  bool
	h       Header
	count   uint64
	block   uint64
	nblocks int
	firsts  []byte // the index: nblocks u64 first codes,
	offs    []byte // nblocks u64 block offsets,
	sums    []byte // nblocks u32 block checksums
	dataEnd uint64 // where the blocks end and the index starts
	dec     *decoder
}

// Open opens the shard file at path by mapping it into memory, read only.
// It checks the header, the code table and the index, but reads no block.
func Open(path string) (*Shard, error) {
	data, err := mapFile(path)
	if err != nil {
		return nil, fmt.Errorf("open tablebase %s: %w", path, err)
	}
	s, err := decode(data, path, func(dataEnd int) { adviseIndex(data, dataEnd) })
	if err != nil {
		unmap(data)
		return nil, fmt.Errorf("open tablebase %s: %w", path, err)
	}
	s.mapped = true
	return s, nil
}

// Decode reads a shard file already in memory. The Shard reads data, which
// must not change while it is in use.
func Decode(data []byte) (*Shard, error) {
	s, err := decode(data, "in memory", nil)
	if err != nil {
		return nil, fmt.Errorf("decode tablebase: %w", err)
	}
	return s, nil
}

// Close unmaps the file of a Shard that Open returned; a Shard that Decode
// returned has nothing to release. The Shard must not be used after.
func (s *Shard) Close() error {
	if !s.mapped || s.data == nil {
		return nil
	}
	data := s.data
	s.data, s.firsts, s.offs, s.sums = nil, nil, nil, nil
	if err := unmap(data); err != nil {
		return fmt.Errorf("close tablebase %s: %w", s.name, err)
	}
	return nil
}

// Header is the header the file was written with.
func (s *Shard) Header() Header { return s.h }

// Len is the number of positions in the file.
func (s *Shard) Len() uint64 { return s.count }

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// checkFrame checks that data begins with the magic and version and ends
// with the trailer's.
func checkFrame(data []byte) error {
	size := uint64(len(data))
	if size < minFile || string(data[:4]) != magic {
		if size >= 4 && string(data[:4]) != magic {
			return corrupt("not a tablebase (magic %q)", data[:4])
		}
		return corrupt("%d bytes is too short for a tablebase", size)
	}
	if data[4] != version {
		return corrupt("version %d, want %d", data[4], version)
	}
	if string(data[size-4:]) != trailerMagic {
		return corrupt("no trailer (truncated?)")
	}
	return nil
}

// decode checks the header, code table, index and trailer of data. Before
// it reads the index it calls advise, when not nil, with the index's
// offset.
func decode(data []byte, name string, advise func(dataEnd int)) (*Shard, error) {
	size := uint64(len(data))
	if err := checkFrame(data); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	s := &Shard{name: name, data: data}
	s.h = Header{
		Coding: data[5],
		Rows:   int(data[6]),
		Cols:   int(data[7]),
		Tier:   int(le.Uint32(data[8:])),
		Shard:  int(le.Uint32(data[12:])),
		Shards: int(le.Uint32(data[16:])),
	}
	s.block = uint64(le.Uint32(data[20:]))
	s.count = le.Uint64(data[24:])
	g := uint64(data[32])
	if g+fixedLen+2+trailerLen > size {
		return nil, corrupt("game name of %d bytes past the end", g)
	}
	s.h.Game = string(data[fixedLen : fixedLen+g])
	nsym := uint64(le.Uint16(data[fixedLen+g:]))
	hlen := fixedLen + g + 2 + symEntry*nsym
	if err := s.h.check(); err != nil {
		return nil, corrupt("header: %v", err)
	}
	if s.block < 1 || s.block > maxBlock {
		return nil, corrupt("block size %d is not 1..%d", s.block, maxBlock)
	}
	if nsym > maxSyms || (nsym == 0) != (s.count == 0) {
		return nil, corrupt("code table of %d pairs for %d positions", nsym, s.count)
	}
	nb := s.count / s.block
	if s.count%s.block != 0 {
		nb++
	}
	// Every block takes at least one byte.
	if hlen+trailerLen > size || nb > (size-hlen-trailerLen)/(indexEntry+1) {
		return nil, corrupt("%d bytes cannot hold %d positions (truncated?)", size, s.count)
	}
	s.nblocks = int(nb)
	s.dataEnd = size - trailerLen - indexEntry*nb
	if end := le.Uint64(data[size-trailerLen:]); end != s.dataEnd {
		return nil, corrupt("index at %d, but %d bytes of %d blocks put it at %d (truncated?)", end, size, nb, s.dataEnd)
	}
	if advise != nil {
		advise(int(s.dataEnd))
	}
	sum := crc32.Update(crc32.Checksum(data[:hlen], castagnoli), castagnoli, data[s.dataEnd:size-8])
	if want := le.Uint32(data[size-8:]); sum != want {
		return nil, corrupt("header and index checksum %#08x, want %#08x", sum, want)
	}

	syms := make([]symbol, nsym)
	for i := range syms {
		e := data[fixedLen+g+2+symEntry*uint64(i):]
		syms[i] = symbol{left: e[0], right: e[1], len: e[2]}
	}
	dec, err := newDecoder(syms)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	s.dec = dec
	s.firsts = data[s.dataEnd : s.dataEnd+8*nb]
	s.offs = data[s.dataEnd+8*nb : s.dataEnd+16*nb]
	s.sums = data[s.dataEnd+16*nb : s.dataEnd+20*nb]
	if err := s.checkIndex(hlen); err != nil {
		return nil, err
	}
	return s, nil
}

// checkIndex checks that the blocks follow one another from hlen, the
// header's end, to the index, and that their first codes rise by at least
// a block's positions.
func (s *Shard) checkIndex(hlen uint64) error {
	le := binary.LittleEndian
	for j := 0; j < s.nblocks; j++ {
		first, off := le.Uint64(s.firsts[8*j:]), le.Uint64(s.offs[8*j:])
		switch {
		case j == 0 && off != hlen:
			return corrupt("block 0 at %d, want %d", off, hlen)
		case j > 0 && off <= le.Uint64(s.offs[8*j-8:]):
			return corrupt("block %d at %d, not after block %d", j, off, j-1)
		case off >= s.dataEnd:
			return corrupt("block %d at %d, past the blocks' end %d", j, off, s.dataEnd)
		case j > 0 && first <= le.Uint64(s.firsts[8*j-8:]):
			return corrupt("block %d first code %#x, not above block %d's", j, first, j-1)
		case j > 0 && first-le.Uint64(s.firsts[8*j-8:]) < s.block:
			return corrupt("block %d first code %#x, too close to block %d's to leave %d codes", j, first, j-1, s.block)
		}
	}
	return nil
}

// blockLen is the number of positions of block j.
func (s *Shard) blockLen(j int) int {
	if j == s.nblocks-1 {
		return int(s.count - uint64(j)*s.block)
	}
	return int(s.block)
}

// block is a block being read: b is the file from the block's keys on,
// its records start at bit keyBits of b and end at bit endBits.
type block struct {
	b                []byte
	keyBits, endBits uint
	first            uint64
	k                uint
}

// openBlock checks block j against its checksum and finds its streams.
func (s *Shard) openBlock(j int) (block, error) {
	le := binary.LittleEndian
	off := le.Uint64(s.offs[8*j:])
	end := s.dataEnd
	if j+1 < s.nblocks {
		end = le.Uint64(s.offs[8*j+8:])
	}
	blk := s.data[off:end]
	if sum, want := crc32.Checksum(blk, castagnoli), le.Uint32(s.sums[4*j:]); sum != want {
		return block{}, corrupt("block %d checksum %#08x, want %#08x", j, sum, want)
	}
	klen, n := binary.Uvarint(blk[1:])
	if blk[0] > 63 || n <= 0 || klen > uint64(len(blk)-1-n) {
		return block{}, corrupt("block %d: bad Rice parameter %d or keys' length %d", j, blk[0], klen)
	}
	koff := off + 1 + uint64(n)
	return block{
		b:       s.data[koff:],
		keyBits: 8 * uint(klen),
		endBits: 8 * uint(end-koff),
		first:   le.Uint64(s.firsts[8*j:]),
		k:       uint(blk[0]),
	}, nil
}

// The decoding loops read a block's keys and records side by side, two
// independent chains of dependent operations that the processor overlaps.
// They load 64 bits at a time at a stream's position, at least 57 of them
// the stream's: enough for a gap's code of at most fastGap bits, or for
// a record. A block's slice runs on to the end of the file, 16 bytes or
// more past the block; a load is clamped to the slice's last word, so
// that a bad coding running past the block's end reads wrong bits, which
// the check of the positions at the end catches, but never out of bounds.
const (
	fastGap = 57
	recMax  = maxCodeLen + escBits // the most bits a record takes
)

// load is the 64 bits of b from bit pos on, pos clamped to the last
// whole word.
func load(b []byte, pos uint) uint64 {
	x := min(pos>>3, uint(len(b)-8))
	return binary.LittleEndian.Uint64(b[x:x+8]) >> (pos & 7)
}

// longGap decodes the gap at pos of b, one longer than fastGap bits or
// bad, and returns the next code and the position after the gap: end, a
// multiple of 8, is where the keys' stream ends. The decoding loops'
// fast path decodes the same Rice code (codec/rice) from whole words.
func longGap(b []byte, pos, end, k uint, c uint64) (uint64, uint, bool) {
	r := rice.NewReader(b[:end/8])
	r.Seek(pos)
	g, ok := r.Gap(k)
	if !ok || c+g+1 <= c {
		return 0, 0, false
	}
	return c + g + 1, r.Pos(), true
}

// Lookup returns the record of code and whether the file holds code. It
// reads one block, found by a binary search of the index, and fails with
// an error wrapping ErrCorrupt when that block's checksum or coding is
// bad.
func (s *Shard) Lookup(code uint64) (solve.Record, bool, error) {
	// The last block whose first code is at most code.
	lo, hi := 0, s.nblocks
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if binary.LittleEndian.Uint64(s.firsts[8*m:]) <= code {
			lo = m + 1
		} else {
			hi = m
		}
	}
	j := lo - 1
	if j < 0 {
		return solve.Record{}, false, nil
	}
	blk, err := s.openBlock(j)
	if err != nil {
		return solve.Record{}, false, s.lookupErr(code, err)
	}
	b, k := blk.b, blk.k
	c, kpos, rpos := blk.first, uint(0), blk.keyBits
	left := s.blockLen(j) - 1
	for {
		var st scanStop
		c, kpos, rpos, left, st = scan(b, s.dec.tab, k, c, code, kpos, rpos, left)
		if st == scanDone {
			break
		}
		if st == scanLong {
			var ok bool
			if c, kpos, ok = longGap(b, kpos, blk.keyBits, k, c); ok {
				rpos += uint(s.dec.tab[load(b, rpos)&(1<<maxCodeLen-1)] & 31)
				left--
				continue
			}
		}
		return solve.Record{}, false, s.lookupErr(code, corrupt("block %d: bad gap at %d", j, s.blockLen(j)-1-left))
	}
	w := load(b, rpos)
	e := s.dec.tab[w&(1<<maxCodeLen-1)]
	if kpos > blk.keyBits || rpos+uint(e&31) > blk.endBits {
		return solve.Record{}, false, s.lookupErr(code, corrupt("block %d: coding runs past its end", j))
	}
	if c != code {
		return solve.Record{}, false, nil
	}
	if e>>5 == s.dec.esc {
		v := w >> (e&31 - escBits)
		return solve.Record{Left: uint8(v & 127), Right: uint8(v >> 7 & 127)}, true, nil
	}
	return s.dec.syms[e>>5], true, nil
}

type scanStop uint8

const (
	scanDone scanStop = iota // at code, past it, or at the block's last entry
	scanLong                 // at a gap longer than fastGap bits
	scanBad                  // at a gap that overflows
)

// scan passes the entries of a block whose codes lie below code: c is the
// code of the current entry, kpos the position of the next gap, rpos that
// of the current record, left the entries after the current one. It
// decodes the gaps and passes the records side by side, and stops at an
// entry whose code is at least code, at the last entry, or at a gap it
// cannot decode. It is its own function, with few variables, so that they
// all stay in registers.
func scan(b []byte, tab *[1 << maxCodeLen]uint16, k uint, c, code uint64, kpos, rpos uint, left int) (uint64, uint, uint, int, scanStop) {
	k &= 63
	// Each stream's next bits are in a word (kw, rw) of which n bits are
	// left (kn, rn), refilled from the stream's position.
	kw, kn := load(b, kpos), 64-kpos&7
	rw, rn := load(b, rpos), 64-rpos&7
	for c < code && left > 0 {
		q := uint(bits.TrailingZeros64(^kw))
		if q+1+k > kn {
			kw, kn = load(b, kpos), 64-kpos&7
			if q = uint(bits.TrailingZeros64(^kw)); q+1+k > kn {
				return c, kpos, rpos, left, scanLong
			}
		}
		g := uint64(q)<<k | kw>>((q+1)&63)&(1<<k-1)
		if c+g+1 <= c {
			return c, kpos, rpos, left, scanBad
		}
		c += g + 1
		n := q + 1 + k
		kpos += n
		kw >>= n & 63
		kn -= n
		if rn < recMax {
			rw, rn = load(b, rpos), 64-rpos&7
		}
		l := uint(tab[rw&(1<<maxCodeLen-1)] & 31)
		rpos += l
		rw >>= l
		rn -= l
		left--
	}
	return c, kpos, rpos, left, scanDone
}

func (s *Shard) lookupErr(code uint64, err error) error {
	return fmt.Errorf("tablebase %s: look up %#x: %w", s.name, code, err)
}

// All calls f with every code of the file and its record, in increasing
// order of codes, until f returns false. It checks each block, its
// checksum and its coding, before it calls f with any of the block's codes,
// and fails with an error wrapping ErrCorrupt at the first bad one.
func (s *Shard) All(f func(code uint64, r solve.Record) bool) error {
	n := min(s.count, s.block)
	codes, recs := make([]uint64, n), make([]solve.Record, n)
	for j := 0; j < s.nblocks; j++ {
		n, err := s.readBlock(j, codes, recs)
		if err != nil {
			return fmt.Errorf("tablebase %s: %w", s.name, err)
		}
		for i := range n {
			if !f(codes[i], recs[i]) {
				return nil
			}
		}
	}
	return nil
}

// readBlock decodes block j into codes and recs and checks it whole: its
// checksum, that each stream's coding ends in its last byte, and that its
// codes lie below the next block's first.
func (s *Shard) readBlock(j int, codes []uint64, recs []solve.Record) (int, error) {
	blk, err := s.openBlock(j)
	if err != nil {
		return 0, err
	}
	tab, esc, syms := s.dec.tab, s.dec.esc, s.dec.syms
	c, k := blk.first, blk.k&63
	b := blk.b
	kpos, rpos := uint(0), blk.keyBits
	n := s.blockLen(j)
	codes, recs = codes[:n], recs[:n]
	for i := range codes {
		if i > 0 {
			w := load(b, kpos)
			q := uint(bits.TrailingZeros64(^w))
			if q+1+k <= fastGap {
				g := uint64(q)<<k | w>>((q+1)&63)&(1<<k-1)
				if c+g+1 <= c {
					return 0, corrupt("block %d: gap at %d overflows", j, i)
				}
				c += g + 1
				kpos += q + 1 + k
			} else {
				var ok bool
				if c, kpos, ok = longGap(b, kpos, blk.keyBits, k, c); !ok {
					return 0, corrupt("block %d: bad gap at %d", j, i)
				}
			}
		}
		codes[i] = c
		w := load(b, rpos)
		e := tab[w&(1<<maxCodeLen-1)]
		if e>>5 == esc {
			v := w >> (e&31 - escBits)
			recs[i] = solve.Record{Left: uint8(v & 127), Right: uint8(v >> 7 & 127)}
		} else {
			recs[i] = syms[e>>5]
		}
		rpos += uint(e & 31)
		if kpos > blk.keyBits || rpos > blk.endBits {
			return 0, corrupt("block %d: coding runs past its end", j)
		}
	}
	kbytes, rbytes := blk.keyBits/8, (blk.endBits-blk.keyBits)/8
	if (kpos+7)/8 != kbytes || (rpos-blk.keyBits+7)/8 != rbytes {
		return 0, corrupt("block %d: keys and records take %d and %d bytes, their codings %d and %d",
			j, kbytes, rbytes, (kpos+7)/8, (rpos-blk.keyBits+7)/8)
	}
	if j+1 < s.nblocks && c >= binary.LittleEndian.Uint64(s.firsts[8*j+8:]) {
		return 0, corrupt("block %d: last code %#x, not below the next block's first", j, c)
	}
	return n, nil
}

package jobs

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"sync"

	"github.com/census-cgt/census/games"
)

// This file is the fragment codec: the format, its writer and reader, and
// the encoders and decoders of each kind of record.
//
// A fragment is a sorted run of records with a header and a checksum:
//
//	header  "CNSF" version:u8 kind:u8 rows:u8 cols:u8 game:u8+bytes tier:u32 count:u64
//	payload count records, each a few uvarints (see the record kinds)
//	trailer crc32c(header+payload):u32 "FSNC"
//
// Keys are strictly increasing and stored as deltas, so a fragment of
// dense positions takes a few bytes per key.
const (
	fragMagic   = "CNSF"
	fragTrailer = "FSNC"
	fragVersion = 1
)

// Kind says what records a fragment holds.
type Kind uint8

// The fragment kinds.
const (
	KindPositions  Kind = 1 + iota // uint64 position keys
	KindDeadFree                   // uint64 dead-free board keys
	KindInPlace                    // uint64 in-place piece keys
	KindPieces                     // translated pieces with occurrence counts
	kindClassPairs                 // (negation, symmetric) class pairs, as census wrote them before KindClasses
	KindPieceRows                  // pieces with their counts and classes
	KindClasses                    // symmetric classes named by their negation classes
)

func (k Kind) String() string {
	switch k {
	case KindPositions:
		return "positions"
	case KindDeadFree:
		return "deadfree"
	case KindInPlace:
		return "inplace"
	case KindPieces:
		return "pieces"
	case KindClasses:
		return "classes"
	case kindClassPairs:
		return "classpairs"
	case KindPieceRows:
		return "piecerows"
	}
	return fmt.Sprintf("kind%d", uint8(k))
}

// ErrCorrupt marks a fragment that fails its checks: a bad header, a
// checksum mismatch, a truncation, keys out of order. Retrying cannot help.
var ErrCorrupt = errors.New("corrupt fragment")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header identifies what a fragment holds.
type Header struct {
	Kind  Kind
	Game  string
	Rows  int
	Cols  int
	Tier  int
	Count uint64
}

// PieceRecord is a translated piece with the number of positions it occurs
// in and the least tier it occurs in.
type PieceRecord struct {
	Key       games.PieceKey
	Positions uint64
	FirstTier int32
}

// ClassRecord is a symmetric class named by its negation class. A
// negation class is a symmetric class and its negative's, named by the
// lesser of their least keys (games.Classes), so the symmetric class is
// either the one whose key names the negation class or, when Other, the
// other one: a bit tells the two apart. Records sort by Neg, then Other.
type ClassRecord struct {
	Neg          games.PieceKey
	Other        bool
	SelfNegative bool
}

// pieceClasses are the classes of one translated piece, as its row of the
// pieces table names them.
type pieceClasses struct {
	Sym, Neg     games.PieceKey
	SelfNegative bool
}

// record is the class record of the piece's symmetric class.
func (c pieceClasses) record() ClassRecord {
	return ClassRecord{Neg: c.Neg, Other: c.Sym != c.Neg, SelfNegative: c.SelfNegative}
}

// pieceRow is a translated piece with what its row of the pieces table
// needs beyond the piece itself: its counts and its classes.
type pieceRow struct {
	PieceRecord
	Sym, Neg     games.PieceKey
	SelfNegative bool
}

// ---- the writer ----

// fragWriter encodes one fragment. It encodes into buf, which it hands
// on (to the checksum and w) once it holds fragFlush bytes: between calls
// buf holds fewer, with room for binary.MaxVarintLen64 more.
type fragWriter struct {
	w     *bufio.Writer
	crc   uint32
	n     int64
	buf   []byte
	prev  uint64
	prevK games.PieceKey
}

// fragFlush is how many bytes of a fragWriter's buffer it hands on at
// once, at least.
const fragFlush = 4000

// fragWriters keeps the buffers of the fragment writers done with: a tier
// job writes a fragment for every next shard and every reduce shard and
// kind, and a buffer that is new to the process costs a page fault a 4 KiB
// page when first written (some 10 us on a virtual machine), more than
// writing a small fragment.
var fragWriters = sync.Pool{New: func() any {
	return &fragWriter{w: bufio.NewWriterSize(nil, 1<<16), buf: make([]byte, 0, 4096)}
}}

// newFragWriter starts a fragment of h on w; release gives its buffers
// back once it is closed.
func newFragWriter(w io.Writer, h Header) *fragWriter {
	fw := newPayloadWriter(w)
	hdr := []byte(fragMagic)
	hdr = append(hdr, fragVersion, byte(h.Kind), byte(h.Rows), byte(h.Cols), byte(len(h.Game)))
	hdr = append(hdr, h.Game...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(h.Tier))
	hdr = binary.LittleEndian.AppendUint64(hdr, h.Count)
	fw.buf = append(fw.buf, hdr...)
	return fw
}

// newPayloadWriter encodes records as a fragWriter does, to w, with no
// header: the payload of a fragment whose count is not known until its
// records are written (runCompact), for raw to copy into the fragment.
// flush writes what it holds to w.
func newPayloadWriter(w io.Writer) *fragWriter {
	fw := fragWriters.Get().(*fragWriter)
	fw.w.Reset(w)
	*fw = fragWriter{w: fw.w, buf: fw.buf[:0]}
	return fw
}

// flush writes what a payload writer holds to its writer.
func (fw *fragWriter) flush() error {
	fw.flushBuf()
	return fw.w.Flush()
}

// raw writes payload bytes that a payload writer encoded: the records of
// this fragment, encoded from its start.
func (fw *fragWriter) raw(b []byte) {
	fw.flushBuf()
	fw.crc = crc32.Update(fw.crc, castagnoli, b)
	fw.w.Write(b)
	fw.n += int64(len(b))
}

func (fw *fragWriter) uvarint(v uint64) {
	fw.buf = binary.AppendUvarint(fw.buf, v)
	if len(fw.buf) >= fragFlush {
		fw.flushBuf()
	}
}

func (fw *fragWriter) flushBuf() {
	fw.crc = crc32.Update(fw.crc, castagnoli, fw.buf)
	fw.w.Write(fw.buf)
	fw.n += int64(len(fw.buf))
	fw.buf = fw.buf[:0]
}

// key writes the next key of a key fragment, as its delta from the last.
func (fw *fragWriter) key(k uint64) {
	n, d := len(fw.buf), k-fw.prev
	if d < 1<<56 {
		n += putShortUvarint(fw.buf[n:n+8], d)
	} else {
		n += binary.PutUvarint(fw.buf[n:n+binary.MaxVarintLen64], d)
	}
	fw.buf = fw.buf[:n]
	fw.prev = k
	if n >= fragFlush {
		fw.flushBuf()
	}
}

// keys writes the next keys of a key fragment, as key does, a batch at a
// time: as many keys as the buffer has room for at their longest are
// encoded with no check of the room between them.
func (fw *fragWriter) keys(keys []uint64) {
	prev := fw.prev
	for len(keys) > 0 {
		n := len(fw.buf)
		room := fw.buf[n:cap(fw.buf)]
		batch := keys[:min(len(keys), len(room)/binary.MaxVarintLen64)]
		for _, k := range batch {
			if d := k - prev; d < 1<<56 {
				n += putShortUvarint(fw.buf[n:n+8], d)
			} else {
				n += binary.PutUvarint(fw.buf[n:n+binary.MaxVarintLen64], d)
			}
			prev = k
		}
		fw.buf = fw.buf[:n]
		keys = keys[len(batch):]
		if n >= fragFlush || len(batch) == 0 {
			fw.flushBuf()
		}
	}
	fw.prev = prev
}

// putShortUvarint writes v, below 2^56, as a uvarint at the start of b,
// which has room for eight bytes, and returns its length. The uvarint,
// at most eight bytes, is built in a word with no branch on its length
// and stored at once. The 7-bit groups of v are spread into the word's
// bytes (halves of 28 bits into 32-bit lanes, quarters of 14 bits into
// 16-bit lanes, then groups of 7 bits into bytes), and every byte but the
// last gets the continuation bit.
func putShortUvarint(b []byte, v uint64) int {
	x := v&0x0fffffff | (v&0x00ffffff_f0000000)<<4
	x = x&0x00003fff_00003fff | (x&0x0fffc000_0fffc000)<<2
	x = x&0x007f007f_007f007f | (x&0x3f803f80_3f803f80)<<1
	n := (bits.Len64(v|1) + 6) / 7
	x |= 0x80808080_80808080 & (1<<(8*(n-1)) - 1)
	binary.LittleEndian.PutUint64(b, x)
	return n
}

func (fw *fragWriter) pieceKey(k games.PieceKey) {
	if k.Hi == fw.prevK.Hi {
		fw.uvarint(0)
		fw.uvarint(k.Lo - fw.prevK.Lo)
	} else {
		fw.uvarint(k.Hi - fw.prevK.Hi)
		fw.uvarint(k.Lo)
	}
	fw.prevK = k
}

// release gives the writer's buffers back for another fragment; the
// writer is not used again.
func (fw *fragWriter) release() {
	fw.w.Reset(nil)
	fragWriters.Put(fw)
}

// close writes the trailer and flushes; it returns the fragment's size and
// checksum.
func (fw *fragWriter) close() (size int64, sum uint32, err error) {
	fw.flushBuf()
	trailer := binary.LittleEndian.AppendUint32(nil, fw.crc)
	trailer = append(trailer, fragTrailer...)
	fw.w.Write(trailer)
	fw.n += int64(len(trailer))
	return fw.n, fw.crc, fw.w.Flush()
}

// ---- the reader ----

// fragReader decodes one fragment, checking as it goes and at the end.
type fragReader struct {
	name   string
	src    io.Reader
	buf    []byte
	r, w   int
	hashed int // buf[:hashed] is in crc
	crc    uint32
	size   int64 // bytes consumed from src
	Header
	// wantSum and wantSize, when set, are what the job message says the
	// fragment holds.
	wantSum  *uint32
	wantSize int64
	left     uint64 // records not yet read
	prev     uint64
	prevK    games.PieceKey
	err      error
}

// minFragBuf is the least read buffer: it holds a fragment's longest
// header (a game name of 255 bytes) and the trailer.
const minFragBuf = 512

func newFragReader(name string, src io.Reader, want Kind, blob Blob) (*fragReader, error) {
	return newFragReaderSize(name, src, want, blob, 1<<16)
}

// newFragReaderSize reads with a buffer of bufSize bytes (at least 4 KiB):
// a job merging thousands of fragments keeps its buffers small. A fragment
// of known size smaller than that gets a buffer of its size: a buffer's
// pages cost a fault each when first touched, and a small board's job
// reads hundreds of fragments of a few kilobytes.
func newFragReaderSize(name string, src io.Reader, want Kind, blob Blob, bufSize int) (*fragReader, error) {
	bufSize = max(bufSize, 4<<10)
	if blob.Size > 0 {
		bufSize = min(bufSize, max(int(blob.Size), minFragBuf))
	}
	fr := &fragReader{name: name, src: src, buf: make([]byte, bufSize), wantSize: blob.Size}
	if blob.Size > 0 {
		fr.wantSum = &blob.Sum
	}
	if err := fr.need(4 + 5); err != nil {
		return nil, err
	}
	b := fr.buf[fr.r:]
	if string(b[:4]) != fragMagic || b[4] != fragVersion {
		return nil, fr.corrupt("bad magic or version")
	}
	fr.Kind, fr.Rows, fr.Cols = Kind(b[5]), int(b[6]), int(b[7])
	gl := int(b[8])
	fr.r += 9
	if err := fr.need(gl + 12); err != nil {
		return nil, err
	}
	b = fr.buf[fr.r:]
	fr.Game = string(b[:gl])
	fr.Tier = int(int32(binary.LittleEndian.Uint32(b[gl:])))
	fr.Count = binary.LittleEndian.Uint64(b[gl+4:])
	fr.r += gl + 12
	fr.left = fr.Count
	if fr.Kind != want {
		return nil, fr.corrupt(fmt.Sprintf("holds %s, want %s", fr.Kind, want))
	}
	if fr.Count == 0 {
		if err := fr.finish(); err != nil {
			return nil, err
		}
	}
	return fr, nil
}

func (fr *fragReader) corrupt(why string) error {
	return fmt.Errorf("fragment %s: %w: %s", fr.name, ErrCorrupt, why)
}

// need makes at least n unread bytes available.
func (fr *fragReader) need(n int) error {
	if fr.w-fr.r >= n {
		return nil
	}
	fr.crc = crc32.Update(fr.crc, castagnoli, fr.buf[fr.hashed:fr.r])
	copy(fr.buf, fr.buf[fr.r:fr.w])
	fr.w -= fr.r
	fr.r, fr.hashed = 0, 0
	for fr.w < n {
		m, err := fr.src.Read(fr.buf[fr.w:])
		fr.w += m
		fr.size += int64(m)
		if err == io.EOF {
			if fr.w < n {
				return fr.corrupt("truncated")
			}
			break
		}
		if err != nil {
			return fmt.Errorf("read fragment %s: %w", fr.name, err)
		}
	}
	return nil
}

func (fr *fragReader) uvarint() uint64 {
	if fr.err != nil {
		return 0
	}
	if fr.w-fr.r < binary.MaxVarintLen64 {
		if err := fr.need(binary.MaxVarintLen64); err != nil {
			// Near the end: fewer bytes may remain than the longest varint.
			if fr.w == fr.r {
				fr.err = err
				return 0
			}
		}
	}
	v, n := binary.Uvarint(fr.buf[fr.r:fr.w])
	if n <= 0 {
		fr.err = fr.corrupt("bad varint")
		return 0
	}
	fr.r += n
	return v
}

// record ends one record: when it was the last, the trailer is checked.
func (fr *fragReader) record() error {
	if fr.err != nil {
		return fr.err
	}
	fr.left--
	if fr.left == 0 {
		return fr.finish()
	}
	return nil
}

func (fr *fragReader) finish() error {
	fr.crc = crc32.Update(fr.crc, castagnoli, fr.buf[fr.hashed:fr.r])
	fr.hashed = fr.r
	if err := fr.need(8); err != nil {
		return err
	}
	b := fr.buf[fr.r : fr.r+8]
	if string(b[4:]) != fragTrailer {
		return fr.corrupt("bad trailer")
	}
	if binary.LittleEndian.Uint32(b) != fr.crc {
		return fr.corrupt("checksum mismatch")
	}
	fr.r += 8
	fr.hashed = fr.r
	if fr.w != fr.r {
		return fr.corrupt("bytes after the trailer")
	}
	if fr.wantSum != nil && *fr.wantSum != fr.crc {
		return fr.corrupt(fmt.Sprintf("checksum %08x, the job expects %08x", fr.crc, *fr.wantSum))
	}
	if fr.wantSize > 0 && fr.size != fr.wantSize {
		return fr.corrupt(fmt.Sprintf("%d bytes, the job expects %d", fr.size, fr.wantSize))
	}
	var one [1]byte
	if n, _ := io.ReadFull(fr.src, one[:]); n != 0 {
		return fr.corrupt("bytes after the trailer")
	}
	return nil
}

// nextKey reads the next key of a key fragment; ok is false at the end.
func (fr *fragReader) nextKey() (k uint64, ok bool, err error) {
	if fr.left == 0 {
		return 0, false, nil
	}
	d := fr.uvarint()
	// Keys strictly increase: a zero delta, or one that wraps past 2^64,
	// is out of order.
	if fr.err == nil && fr.left != fr.Count && (d == 0 || fr.prev+d < fr.prev) {
		return 0, false, fr.corrupt("keys out of order")
	}
	fr.prev += d
	if err := fr.record(); err != nil {
		return 0, false, err
	}
	return fr.prev, true, nil
}

// nextKeys reads the next keys of a key fragment into dst, as many as it
// has room for (len(dst) of them) or as the fragment has left, and returns
// how many it read: zero at the end. It decodes what nextKey does, with
// the same checks, in one loop over the read buffer rather than a call
// and a record check per key; a merge of thousands of millions of keys
// spends most of its time here.
func (fr *fragReader) nextKeys(dst []uint64) (int, error) {
	if fr.err != nil {
		return 0, fr.err
	}
	n := 0
	prev := fr.prev
	for n < len(dst) && fr.left > 0 {
		if fr.w-fr.r < binary.MaxVarintLen64 {
			// Near the end: fewer bytes may remain than the longest varint.
			if err := fr.need(binary.MaxVarintLen64); err != nil && fr.w == fr.r {
				fr.err = err
				return 0, err
			}
		}
		// As many keys as the buffered bytes surely hold, decoded without
		// looking at the buffer's end again.
		m := min(len(dst)-n, int(min(fr.left, uint64((fr.w-fr.r)/binary.MaxVarintLen64))), 1<<16)
		if m > 0 && fr.left != fr.Count {
			i, k := decodeKeyRun(dst[n:n+m], fr.buf[fr.r:fr.w], prev)
			if i > 0 {
				prev = dst[n+i-1]
			}
			fr.r += k
			n += i
			fr.left -= uint64(i)
			if i == m {
				continue
			}
		}
		// One key decoded alone, with every check: the first key, which
		// has no key before it to follow, one in the last bytes of the
		// fragment, or one that decodeKeyRun stopped at.
		d, k := binary.Uvarint(fr.buf[fr.r:fr.w])
		if k <= 0 {
			fr.err = fr.corrupt("bad varint")
			return 0, fr.err
		}
		// Keys strictly increase: a zero delta, or one that wraps past
		// 2^64, is out of order.
		if fr.left != fr.Count && (d == 0 || prev+d < prev) {
			fr.err = fr.corrupt("keys out of order")
			return 0, fr.err
		}
		fr.r += k
		prev += d
		dst[n] = prev
		n++
		fr.left--
	}
	fr.prev = prev
	if fr.left == 0 && n > 0 {
		if err := fr.finish(); err != nil {
			fr.err = err
			return 0, err
		}
	}
	return n, nil
}

// decodeKeyRun decodes keys into dst from the uvarint deltas that start
// buf, each from the key before, prev for the first; buf holds at least
// eight bytes for every key of dst. It stops early at a delta of more
// than eight bytes and at a key out of order (a zero delta, or one that
// wraps past 2^64), for the caller to decode alone, and returns how many
// keys it decoded and how many bytes they took.
//
// The deltas are decoded from words of eight bytes with no branch on
// their lengths, two from a word when it holds the ends of two: where a
// delta starts depends on where the one before ends, and finding both
// ends of a word at once halves that chain of steps.
func decodeKeyRun(dst []uint64, buf []byte, prev uint64) (n, r int) {
	i := 0
	for i < len(dst) {
		w := binary.LittleEndian.Uint64(buf[r:])
		stops := ^w & 0x80808080_80808080 // the bytes that end a uvarint
		if stops == 0 {
			return i, r
		}
		end := uint(bits.TrailingZeros64(stops)) + 1 // 8 bits a byte of the first
		d := packUvarint(w & (1<<end - 1))
		// Both a zero d and one that wraps make d-1, wrapping, at least
		// what prev can grow by.
		if d-1 >= ^prev {
			return i, r
		}
		prev += d
		dst[i] = prev
		i++
		second := stops & (stops - 1)
		if second == 0 || i == len(dst) {
			r += int(end / 8)
			continue
		}
		end2 := uint(bits.TrailingZeros64(second)) + 1
		d = packUvarint(w & (1<<end2 - 1) >> end)
		if d-1 >= ^prev {
			return i, r + int(end/8)
		}
		prev += d
		dst[i] = prev
		i++
		r += int(end2 / 8)
	}
	return i, r
}

// packUvarint is the value of the uvarint whose bytes, at most eight, are
// those of x in little-endian order (the bytes above its last zero): the
// 7-bit groups of the bytes are packed together (bytes into 14-bit
// quarters, quarters into 28-bit halves, halves into one value).
func packUvarint(x uint64) uint64 {
	x &= 0x7f7f7f7f_7f7f7f7f
	x = x&0x007f007f_007f007f | (x&0x7f007f00_7f007f00)>>1
	x = x&0x00003fff_00003fff | (x&0x3fff0000_3fff0000)>>2
	return x&0x0fffffff | (x&0x0fffffff_00000000)>>4
}

func (fr *fragReader) pieceKey() games.PieceKey {
	dh, lo := fr.uvarint(), fr.uvarint()
	if dh == 0 {
		lo += fr.prevK.Lo
	}
	fr.prevK = games.PieceKey{Hi: fr.prevK.Hi + dh, Lo: lo}
	return fr.prevK
}

// ---- the records ----

// writeFragment writes one fragment of h.Count records to w and returns
// the blob section it makes (without a name or offset).
func writeFragment(w io.Writer, h Header, encode func(*fragWriter)) (Blob, error) {
	return writeFragmentErr(w, h, func(fw *fragWriter) error { encode(fw); return nil })
}

// writeFragmentErr is writeFragment for an encoder that can fail, as one
// that merges other fragments into this one does.
func writeFragmentErr(w io.Writer, h Header, encode func(*fragWriter) error) (Blob, error) {
	fw := newFragWriter(w, h)
	defer fw.release()
	if err := encode(fw); err != nil {
		return Blob{}, err
	}
	size, sum, err := fw.close()
	if err != nil {
		return Blob{}, fmt.Errorf("write %s fragment: %w", h.Kind, err)
	}
	return Blob{Kind: h.Kind, Size: size, Sum: sum, Count: h.Count}, nil
}

// writeKeys writes sorted unique keys as one fragment.
func writeKeys(w io.Writer, h Header, keys []uint64) (Blob, error) {
	h.Count = uint64(len(keys))
	return writeFragment(w, h, func(fw *fragWriter) { fw.keys(keys) })
}

// writePieces writes piece records sorted by unique key as one fragment.
func writePieces(w io.Writer, h Header, recs []PieceRecord) (Blob, error) {
	h.Count = uint64(len(recs))
	return writeFragment(w, h, func(fw *fragWriter) {
		for _, r := range recs {
			fw.pieceRecord(r)
		}
	})
}

func (fw *fragWriter) pieceRecord(r PieceRecord) {
	fw.pieceKey(r.Key)
	fw.uvarint(r.Positions)
	fw.uvarint(uint64(r.FirstTier))
}

// writeClasses writes sorted unique class records as one fragment: each
// the negation class's key and a uvarint of flags, 1 for self-negative and
// 2 for the other symmetric class.
func writeClasses(w io.Writer, h Header, recs []ClassRecord) (Blob, error) {
	h.Count = uint64(len(recs))
	return writeFragment(w, h, func(fw *fragWriter) {
		for _, r := range recs {
			fw.pieceKey(r.Neg)
			fw.uvarint(boolVarint(r.SelfNegative) | boolVarint(r.Other)<<1)
		}
	})
}

// writePieceRows writes the rows of pieces, sorted by unique key, as one
// fragment: each a piece record and the piece's classes.
func writePieceRows(w io.Writer, h Header, rows []pieceRow) (Blob, error) {
	h.Count = uint64(len(rows))
	return writeFragment(w, h, func(fw *fragWriter) {
		for _, r := range rows {
			fw.pieceRow(r)
		}
	})
}

func (fw *fragWriter) pieceRow(r pieceRow) {
	fw.pieceKey(r.Key)
	fw.uvarint(r.Positions)
	fw.uvarint(uint64(r.FirstTier))
	fw.uvarint(r.Sym.Hi)
	fw.uvarint(r.Sym.Lo)
	fw.uvarint(r.Neg.Hi)
	fw.uvarint(r.Neg.Lo)
	fw.uvarint(boolVarint(r.SelfNegative))
}

func boolVarint(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// nextPiece reads the next record of a pieces fragment.
func (fr *fragReader) nextPiece() (r PieceRecord, ok bool, err error) {
	if fr.left == 0 {
		return r, false, nil
	}
	prev, first := fr.prevK, fr.left == fr.Count
	r.Key = fr.pieceKey()
	r.Positions = fr.uvarint()
	r.FirstTier = int32(fr.uvarint())
	if !first && !prev.Less(r.Key) && fr.err == nil {
		return r, false, fr.corrupt("pieces out of order")
	}
	if err := fr.record(); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// nextClass reads the next record of a classes fragment.
func (fr *fragReader) nextClass() (r ClassRecord, ok bool, err error) {
	if fr.left == 0 {
		return r, false, nil
	}
	r.Neg = fr.pieceKey()
	flags := fr.uvarint()
	if flags > 3 && fr.err == nil {
		return r, false, fr.corrupt(fmt.Sprintf("class flags %d", flags))
	}
	r.SelfNegative, r.Other = flags&1 != 0, flags&2 != 0
	if err := fr.record(); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// nextClassPair reads the next record of a fragment of (negation,
// symmetric) class pairs, which a run begun by an earlier census may still
// hold: the symmetric class's key in full, where KindClasses keeps a bit.
func (fr *fragReader) nextClassPair() (r ClassRecord, ok bool, err error) {
	if fr.left == 0 {
		return r, false, nil
	}
	r.Neg = fr.pieceKey()
	sym := games.PieceKey{Hi: fr.uvarint(), Lo: fr.uvarint()}
	r.Other = sym != r.Neg
	r.SelfNegative = fr.uvarint() == 1
	if err := fr.record(); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// nextPieceRow reads the next record of a piece rows fragment.
func (fr *fragReader) nextPieceRow() (r pieceRow, ok bool, err error) {
	if fr.left == 0 {
		return r, false, nil
	}
	prev, first := fr.prevK, fr.left == fr.Count
	r.Key = fr.pieceKey()
	r.Positions = fr.uvarint()
	r.FirstTier = int32(fr.uvarint())
	r.Sym = games.PieceKey{Hi: fr.uvarint(), Lo: fr.uvarint()}
	r.Neg = games.PieceKey{Hi: fr.uvarint(), Lo: fr.uvarint()}
	r.SelfNegative = fr.uvarint() == 1
	if !first && !prev.Less(r.Key) && fr.err == nil {
		return r, false, fr.corrupt("piece rows out of order")
	}
	if err := fr.record(); err != nil {
		return r, false, err
	}
	return r, true, nil
}

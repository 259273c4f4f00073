package fragment

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"sync"

	"github.com/census-cgt/census/games"
)

// Writer encodes one fragment. It encodes into buf, which it hands on (to
// the checksum and w) once it holds flushAt bytes: between calls buf holds
// fewer, with room for binary.MaxVarintLen64 more.
type Writer struct {
	w     *bufio.Writer
	crc   uint32
	n     int64
	buf   []byte
	prev  uint64
	prevK games.PieceKey
}

// flushAt is how many bytes of a Writer's buffer it hands on at once, at
// least.
const flushAt = 4000

// writers keeps the buffers of the writers done with: a tier job writes a
// fragment for every next shard and every reduce shard and kind, and a
// buffer that is new to the process costs a page fault a 4 KiB page when
// first written (some 10 us on a virtual machine), more than writing a
// small fragment.
var writers = sync.Pool{New: func() any {
	return &Writer{w: bufio.NewWriterSize(nil, 1<<16), buf: make([]byte, 0, 4096)}
}}

// NewWriter starts a fragment of h on w: h.Count must be the number of
// records that follow. Release gives its buffers back once it is closed.
func NewWriter(w io.Writer, h Header) *Writer {
	fw := NewPayloadWriter(w)
	hdr := []byte(magic)
	hdr = append(hdr, version, byte(h.Kind), byte(h.Rows), byte(h.Cols), byte(len(h.Game)))
	hdr = append(hdr, h.Game...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(h.Tier))
	hdr = binary.LittleEndian.AppendUint64(hdr, h.Count)
	fw.buf = append(fw.buf, hdr...)
	return fw
}

// NewPayloadWriter encodes records as a Writer does, to w, with no header:
// the payload of a fragment whose count is not known until its records
// are written, for Raw to copy into the fragment. Flush writes what it
// holds to w; Release gives its buffers back.
func NewPayloadWriter(w io.Writer) *Writer {
	fw := writers.Get().(*Writer)
	fw.w.Reset(w)
	*fw = Writer{w: fw.w, buf: fw.buf[:0]}
	return fw
}

// Flush writes what a payload writer holds to its writer.
func (fw *Writer) Flush() error {
	fw.flushBuf()
	return fw.w.Flush()
}

// Raw writes payload bytes that a payload writer encoded: the records of
// this fragment, encoded from its start.
func (fw *Writer) Raw(b []byte) {
	fw.flushBuf()
	fw.crc = crc32.Update(fw.crc, castagnoli, b)
	fw.w.Write(b)
	fw.n += int64(len(b))
}

func (fw *Writer) uvarint(v uint64) {
	fw.buf = binary.AppendUvarint(fw.buf, v)
	if len(fw.buf) >= flushAt {
		fw.flushBuf()
	}
}

func (fw *Writer) flushBuf() {
	fw.crc = crc32.Update(fw.crc, castagnoli, fw.buf)
	fw.w.Write(fw.buf)
	fw.n += int64(len(fw.buf))
	fw.buf = fw.buf[:0]
}

// Key writes the next key of a key fragment, as its delta from the last.
func (fw *Writer) Key(k uint64) {
	n, d := len(fw.buf), k-fw.prev
	if d < 1<<56 {
		n += putShortUvarint(fw.buf[n:n+8], d)
	} else {
		n += binary.PutUvarint(fw.buf[n:n+binary.MaxVarintLen64], d)
	}
	fw.buf = fw.buf[:n]
	fw.prev = k
	if n >= flushAt {
		fw.flushBuf()
	}
}

// Keys writes the next keys of a key fragment, as Key does, a batch at a
// time: as many keys as the buffer has room for at their longest are
// encoded with no check of the room between them.
func (fw *Writer) Keys(keys []uint64) {
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
		if n >= flushAt || len(batch) == 0 {
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

func (fw *Writer) pieceKey(k games.PieceKey) {
	if k.Hi == fw.prevK.Hi {
		fw.uvarint(0)
		fw.uvarint(k.Lo - fw.prevK.Lo)
	} else {
		fw.uvarint(k.Hi - fw.prevK.Hi)
		fw.uvarint(k.Lo)
	}
	fw.prevK = k
}

// Piece writes the next record of a pieces fragment.
func (fw *Writer) Piece(r Piece) {
	fw.pieceKey(r.Key)
	fw.uvarint(r.Positions)
	fw.uvarint(uint64(r.FirstTier))
}

// Class writes the next record of a classes fragment: the negation
// class's key and a uvarint of flags, 1 for self-negative and 2 for the
// other symmetric class.
func (fw *Writer) Class(r Class) {
	fw.pieceKey(r.Neg)
	fw.uvarint(flag(r.SelfNegative) | flag(r.Other)<<1)
}

// PieceRow writes the next record of a piece rows fragment: a piece
// record and the piece's classes.
func (fw *Writer) PieceRow(r PieceRow) {
	fw.Piece(r.Piece)
	fw.uvarint(r.Sym.Hi)
	fw.uvarint(r.Sym.Lo)
	fw.uvarint(r.Neg.Hi)
	fw.uvarint(r.Neg.Lo)
	fw.uvarint(flag(r.SelfNegative))
}

func flag(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Release gives the writer's buffers back for another fragment; the
// writer is not used again.
func (fw *Writer) Release() {
	fw.w.Reset(nil)
	writers.Put(fw)
}

// Close writes the trailer and flushes; it returns the fragment's size and
// checksum.
func (fw *Writer) Close() (Info, error) {
	fw.flushBuf()
	trailer := binary.LittleEndian.AppendUint32(nil, fw.crc)
	trailer = append(trailer, trailerMagic...)
	fw.w.Write(trailer)
	fw.n += int64(len(trailer))
	return Info{Size: fw.n, Sum: fw.crc}, fw.w.Flush()
}

// Write writes one fragment of h.Count records to w, the records being
// what encode writes, and returns its size and checksum. An error of
// encode is returned as it is.
func Write(w io.Writer, h Header, encode func(*Writer) error) (Info, error) {
	fw := NewWriter(w, h)
	defer fw.Release()
	if err := encode(fw); err != nil {
		return Info{}, err
	}
	info, err := fw.Close()
	if err != nil {
		return Info{}, fmt.Errorf("write %s fragment: %w", h.Kind, err)
	}
	return info, nil
}

// WriteKeys writes sorted unique keys as one fragment of h, whose Count
// it sets.
func WriteKeys(w io.Writer, h Header, keys []uint64) (Info, error) {
	h.Count = uint64(len(keys))
	return Write(w, h, func(fw *Writer) error { fw.Keys(keys); return nil })
}

// WritePieces writes piece records sorted by unique key as one fragment
// of h, whose Count it sets.
func WritePieces(w io.Writer, h Header, recs []Piece) (Info, error) {
	return writeRecords(w, h, recs, (*Writer).Piece)
}

// WriteClasses writes sorted unique class records as one fragment of h,
// whose Count it sets.
func WriteClasses(w io.Writer, h Header, recs []Class) (Info, error) {
	return writeRecords(w, h, recs, (*Writer).Class)
}

// WritePieceRows writes the rows of pieces, sorted by unique key, as one
// fragment of h, whose Count it sets.
func WritePieceRows(w io.Writer, h Header, rows []PieceRow) (Info, error) {
	return writeRecords(w, h, rows, (*Writer).PieceRow)
}

func writeRecords[T any](w io.Writer, h Header, recs []T, put func(*Writer, T)) (Info, error) {
	h.Count = uint64(len(recs))
	return Write(w, h, func(fw *Writer) error {
		for _, r := range recs {
			put(fw, r)
		}
		return nil
	})
}

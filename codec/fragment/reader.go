package fragment

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"

	"github.com/census-cgt/census/games"
)

// Options are what a Reader checks a fragment against besides its own
// checks, and how it reads.
type Options struct {
	// Name names the fragment in errors.
	Name string
	// Size, when not 0, is the fragment's size in bytes as its writer
	// reported it (Info.Size), and Sum its checksum (Info.Sum): a
	// fragment of another size or checksum is corrupt. A reader of a
	// fragment of known size reads with a buffer of at most its size.
	Size int64
	Sum  uint32
	// BufSize is the read buffer's size, at least 4 KiB; 0 is 64 KiB.
	BufSize int
}

// Reader decodes one fragment, checking as it goes and at the end. Its
// Header is the fragment's.
type Reader struct {
	name   string
	src    io.Reader
	buf    []byte
	r, w   int
	hashed int // buf[:hashed] is in crc
	crc    uint32
	size   int64 // bytes consumed from src
	Header
	// wantSum and wantSize, when set, are what the caller says the
	// fragment holds.
	wantSum  *uint32
	wantSize int64
	left     uint64 // records not yet read
	prev     uint64
	prevK    games.PieceKey
	err      error
}

// minBuf is the least read buffer: it holds a fragment's longest header
// (a game name of 255 bytes) and the trailer.
const minBuf = 512

// NewReader reads the header of a fragment of kind want from src, and
// returns a reader of its records. A fragment of another kind is corrupt.
// Errors wrap ErrCorrupt when the fragment is bad, and are src's when it
// fails.
//
// The buffer is o.BufSize bytes, at least 4 KiB: a job merging thousands
// of fragments keeps its buffers small. A fragment of known size smaller
// than that gets a buffer of its size: a buffer's pages cost a fault each
// when first touched, and a small board's job reads hundreds of fragments
// of a few kilobytes.
func NewReader(src io.Reader, want Kind, o Options) (*Reader, error) {
	bufSize := o.BufSize
	if bufSize == 0 {
		bufSize = 1 << 16
	}
	bufSize = max(bufSize, 4<<10)
	if o.Size > 0 {
		bufSize = min(bufSize, max(int(o.Size), minBuf))
	}
	fr := &Reader{name: o.Name, src: src, buf: make([]byte, bufSize), wantSize: o.Size}
	if o.Size > 0 {
		fr.wantSum = &o.Sum
	}
	if err := fr.need(4 + 5); err != nil {
		return nil, err
	}
	b := fr.buf[fr.r:]
	if string(b[:4]) != magic || b[4] != version {
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

func (fr *Reader) corrupt(why string) error {
	return fmt.Errorf("fragment %s: %w: %s", fr.name, ErrCorrupt, why)
}

// need makes at least n unread bytes available.
func (fr *Reader) need(n int) error {
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

func (fr *Reader) uvarint() uint64 {
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
func (fr *Reader) record() error {
	if fr.err != nil {
		return fr.err
	}
	fr.left--
	if fr.left == 0 {
		return fr.finish()
	}
	return nil
}

func (fr *Reader) finish() error {
	fr.crc = crc32.Update(fr.crc, castagnoli, fr.buf[fr.hashed:fr.r])
	fr.hashed = fr.r
	if err := fr.need(trailerLen); err != nil {
		return err
	}
	b := fr.buf[fr.r : fr.r+trailerLen]
	if string(b[4:]) != trailerMagic {
		return fr.corrupt("bad trailer")
	}
	if binary.LittleEndian.Uint32(b) != fr.crc {
		return fr.corrupt("checksum mismatch")
	}
	fr.r += trailerLen
	fr.hashed = fr.r
	if fr.w != fr.r {
		return fr.corrupt("bytes after the trailer")
	}
	if fr.wantSum != nil && *fr.wantSum != fr.crc {
		return fr.corrupt(fmt.Sprintf("checksum %08x, its writer reported %08x", fr.crc, *fr.wantSum))
	}
	if fr.wantSize > 0 && fr.size != fr.wantSize {
		return fr.corrupt(fmt.Sprintf("%d bytes, its writer reported %d", fr.size, fr.wantSize))
	}
	var one [1]byte
	if n, _ := io.ReadFull(fr.src, one[:]); n != 0 {
		return fr.corrupt("bytes after the trailer")
	}
	return nil
}

// NextKey reads the next key of a key fragment; ok is false at the end.
func (fr *Reader) NextKey() (k uint64, ok bool, err error) {
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

// NextKeys reads the next keys of a key fragment into dst, as many as it
// has room for (len(dst) of them) or as the fragment has left, and returns
// how many it read: zero at the end. It decodes what NextKey does, with
// the same checks, in one loop over the read buffer rather than a call
// and a record check per key; a merge of thousands of millions of keys
// spends most of its time here.
func (fr *Reader) NextKeys(dst []uint64) (int, error) {
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

func (fr *Reader) pieceKey() games.PieceKey {
	dh, lo := fr.uvarint(), fr.uvarint()
	if dh == 0 {
		lo += fr.prevK.Lo
	}
	fr.prevK = games.PieceKey{Hi: fr.prevK.Hi + dh, Lo: lo}
	return fr.prevK
}

// NextPiece reads the next record of a pieces fragment.
func (fr *Reader) NextPiece() (r Piece, ok bool, err error) {
	if fr.left == 0 {
		return r, false, nil
	}
	prev, first := fr.prevK, fr.left == fr.Count
	r = fr.piece()
	if err := fr.endKeyed(first, prev, r.Key, "pieces"); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// endKeyed ends a record whose piece key k must follow prev, the key of
// the record before, unless it is the first.
func (fr *Reader) endKeyed(first bool, prev, k games.PieceKey, what string) error {
	if !first && !prev.Less(k) && fr.err == nil {
		return fr.corrupt(what + " out of order")
	}
	return fr.record()
}

func (fr *Reader) piece() Piece {
	return Piece{Key: fr.pieceKey(), Positions: fr.uvarint(), FirstTier: int32(fr.uvarint())}
}

// NextClass reads the next record of a classes fragment.
func (fr *Reader) NextClass() (r Class, ok bool, err error) {
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

// NextClassPair reads the next record of a fragment of (negation,
// symmetric) class pairs, which a run begun by an earlier census may still
// hold: the symmetric class's key in full, where KindClasses keeps a bit.
func (fr *Reader) NextClassPair() (r Class, ok bool, err error) {
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

// NextPieceRow reads the next record of a piece rows fragment.
func (fr *Reader) NextPieceRow() (r PieceRow, ok bool, err error) {
	if fr.left == 0 {
		return r, false, nil
	}
	prev, first := fr.prevK, fr.left == fr.Count
	r.Piece = fr.piece()
	r.Sym = games.PieceKey{Hi: fr.uvarint(), Lo: fr.uvarint()}
	r.Neg = games.PieceKey{Hi: fr.uvarint(), Lo: fr.uvarint()}
	r.SelfNegative = fr.uvarint() == 1
	if err := fr.endKeyed(first, prev, r.Key, "piece rows"); err != nil {
		return r, false, err
	}
	return r, true, nil
}

// ReadAll reads the records of fr that are left with next, one of the
// Reader's Next methods of its kind, to the end. It returns the records
// read before the first error, and the error.
func ReadAll[T any](fr *Reader, next func(*Reader) (T, bool, error)) ([]T, error) {
	var out []T
	for {
		v, ok, err := next(fr)
		if err != nil {
			return out, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, v)
	}
}

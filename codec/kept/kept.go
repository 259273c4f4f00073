package kept

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/census-cgt/census/codec/rice"
)

const (
	magic        = "CNSK"
	trailerMagic = "KSNC"
	version      = 1
	// Block is the most codes of a block: a writer fills every block but
	// the last.
	Block = 128
	// headerLen is a header's bytes besides the game's name.
	headerLen = 13
)

// ErrCorrupt marks a blob that fails its checks: not a kept blob, a
// version this package does not read, a checksum mismatch, a truncation,
// a bad block or a wrong count. Retrying cannot help.
var ErrCorrupt = errors.New("corrupt kept blob")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header identifies the shard whose positions a blob keeps.
type Header struct {
	Game       string // the game's name, at most 255 bytes
	Rows, Cols int    // the board, each 0..255
	Tier       int    // a uint32
	// Squeeze is how many bits the low 32-bit plane of a key takes in its
	// code, 0..32 (Squeeze).
	Squeeze uint
}

func (h Header) check() error {
	switch {
	case len(h.Game) > 255:
		return fmt.Errorf("game name of %d bytes, more than 255", len(h.Game))
	case h.Rows < 0 || h.Rows > 255 || h.Cols < 0 || h.Cols > 255:
		return fmt.Errorf("board %dx%d is not within 0..255", h.Rows, h.Cols)
	case h.Tier < 0 || int64(h.Tier) > math.MaxUint32:
		return fmt.Errorf("tier %d is not a uint32", h.Tier)
	case h.Squeeze > 32:
		return fmt.Errorf("squeeze %d is above 32", h.Squeeze)
	}
	return nil
}

// Squeeze is the squeeze of a board of squares squares: its squares when
// fewer than 32 (a two-plane key, one bit a square in each plane, then
// fits 2*squares bits), else 32 (a code is its key).
func Squeeze(squares int) uint {
	if squares < 32 {
		return uint(max(squares, 0))
	}
	return 32
}

// Code is the code of key under squeeze s: the high 32-bit plane moved
// down next to the low plane's s bits. It keeps the order of the keys
// whose low plane fits s bits.
func Code(key uint64, s uint) uint64 { return key&(1<<32-1) | key>>32<<s }

// Key is the key of code under squeeze s: Code undone.
func Key(code uint64, s uint) uint64 { return code&(1<<s-1) | code>>s<<32 }

// Info is what a Writer reports of the blob it wrote.
type Info struct {
	Size  int64  // bytes
	Sum   uint32 // the crc32c the trailer holds: of all bytes but the last 8
	Count uint64 // positions
}

// Writer writes a kept blob as positions arrive in increasing order.
type Writer struct {
	bw    *bufio.Writer
	crc   uint32
	s     uint
	block []uint64
	count uint64
	last  uint64
	size  int64
	buf   []byte
	rw    rice.Writer
}

// NewWriter starts a blob of h on w.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("kept blob: %w", err)
	}
	kw := &Writer{bw: bufio.NewWriterSize(w, 1<<16), s: h.Squeeze}
	b := []byte(magic)
	b = append(b, version, byte(h.Squeeze), byte(h.Rows), byte(h.Cols), byte(len(h.Game)))
	b = append(b, h.Game...)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Tier))
	return kw, kw.write(b)
}

func (w *Writer) write(p []byte) error {
	w.crc = crc32.Update(w.crc, castagnoli, p)
	w.size += int64(len(p))
	_, err := w.bw.Write(p)
	return err
}

// Add keeps pos, which must be greater than every position kept before
// and have a low plane of at most the header's squeeze bits.
func (w *Writer) Add(pos uint64) error {
	if w.count > 0 && pos <= w.last {
		return fmt.Errorf("kept position %#x after %#x", pos, w.last)
	}
	c := Code(pos, w.s)
	if Key(c, w.s) != pos {
		return fmt.Errorf("kept position %#x has more than %d bits in its low plane", pos, w.s)
	}
	w.last = pos
	w.count++
	w.block = append(w.block, c)
	if len(w.block) == Block {
		return w.flush()
	}
	return nil
}

// flush writes the codes of the block.
func (w *Writer) flush() error {
	if len(w.block) == 0 {
		return nil
	}
	w.buf = appendBlock(w.buf[:0], w.block, &w.rw)
	w.block = w.block[:0]
	return w.write(w.buf)
}

// Close writes the last block, the end and the trailer, and flushes.
func (w *Writer) Close() (Info, error) {
	if err := w.flush(); err != nil {
		return Info{}, err
	}
	end := binary.AppendUvarint(nil, 0)
	end = binary.AppendUvarint(end, w.count)
	if err := w.write(end); err != nil {
		return Info{}, err
	}
	tail := binary.LittleEndian.AppendUint32(nil, w.crc)
	tail = append(tail, trailerMagic...)
	if _, err := w.bw.Write(tail); err != nil {
		return Info{}, err
	}
	if err := w.bw.Flush(); err != nil {
		return Info{}, err
	}
	return Info{Size: w.size + int64(len(tail)), Sum: w.crc, Count: w.count}, nil
}

// appendBlock appends one block of increasing codes to dst, coding their
// gaps with rw.
func appendBlock(dst []byte, codes []uint64, rw *rice.Writer) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(codes)))
	dst = binary.AppendUvarint(dst, codes[0])
	k := rice.Parameter(codes)
	dst = append(dst, byte(k))
	rw.Reset()
	rw.Gaps(codes, k)
	rw.Done()
	dst = binary.AppendUvarint(dst, uint64(len(rw.Bytes())))
	return append(dst, rw.Bytes()...)
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// Decode reads a whole kept blob and returns its header and positions, in
// increasing order. It checks the blob's frame, its checksum, every block
// and the count; any fault is an error wrapping ErrCorrupt.
func Decode(data []byte) (Header, []uint64, error) {
	if len(data) < headerLen+8 || string(data[:4]) != magic || string(data[len(data)-4:]) != trailerMagic {
		return Header{}, nil, corrupt("not a kept blob")
	}
	body := data[:len(data)-8]
	if sum := binary.LittleEndian.Uint32(data[len(data)-8:]); crc32.Checksum(body, castagnoli) != sum {
		return Header{}, nil, corrupt("checksum mismatch")
	}
	if body[4] != version {
		return Header{}, nil, corrupt("version %d, want %d", body[4], version)
	}
	p := 9 + int(body[8])
	if len(body) < p+4 {
		return Header{}, nil, corrupt("header runs past the end")
	}
	h := Header{Game: string(body[9:p]), Rows: int(body[6]), Cols: int(body[7]),
		Tier: int(binary.LittleEndian.Uint32(body[p:])), Squeeze: uint(body[5])}
	if err := h.check(); err != nil {
		return Header{}, nil, corrupt("header: %v", err)
	}
	s := h.Squeeze
	r := &byteReader{b: body[p+4:]}
	var keys []uint64
	var last uint64
	for {
		n := r.uvarint()
		if n == 0 {
			break
		}
		c := r.uvarint()
		k := uint(r.byte())
		blen := r.uvarint()
		if r.short || n > Block || k > 63 || blen > uint64(len(r.b)) {
			return Header{}, nil, corrupt("bad block at position %d", len(keys))
		}
		if len(keys) > 0 && c <= last {
			return Header{}, nil, corrupt("block at position %d: code %#x after %#x", len(keys), c, last)
		}
		br := rice.NewReader(r.b[:blen])
		r.b = r.b[blen:]
		keys = append(keys, Key(c, s))
		for i := uint64(1); i < n; i++ {
			g, ok := br.Gap(k)
			if !ok || c+g+1 <= c {
				return Header{}, nil, corrupt("block at position %d: bad gap %d", len(keys)-int(i), i)
			}
			c += g + 1
			keys = append(keys, Key(c, s))
		}
		last = c
	}
	if count := r.uvarint(); r.short || count != uint64(len(keys)) || len(r.b) != 0 {
		return Header{}, nil, corrupt("blob holds %d positions, its count is wrong", len(keys))
	}
	return h, keys, nil
}

// byteReader reads the bytes of a blob's blocks; short is set once a read
// runs past the end.
type byteReader struct {
	b     []byte
	short bool
}

func (r *byteReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.short = true
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *byteReader) byte() byte {
	if len(r.b) == 0 {
		r.short = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

package schema

import (
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// The Parquet writers compress every page with zstd. arrow-go's codec
// takes an encoder from a sync.Pool for each page and puts it back after;
// a sync.Pool is emptied by the garbage collector, so after every second
// collection the next page builds a new encoder, whose history buffer (a
// MiB or more) is allocated and cleared: in a piece job that was a fifth
// of its CPU. zstdCodec is the same codec, with the same encoder options
// (so the same compressed bytes), whose encoders are kept for good: a
// process holds as many as it has ever compressed pages at once.
type zstdCodec struct {
	// base is arrow-go's codec: decoding, streams and bounds.
	base compress.Codec
	mu   sync.Mutex
	free map[zstd.EncoderLevel][]*zstd.Encoder
}

// registeredZstd is the codec registered for zstd: arrow-go's writers
// and parquetpages's, which compress through the registered codecs, use
// it.
var registeredZstd *zstdCodec

func init() {
	base, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		panic(err) // arrow-go registers zstd in its own init
	}
	registeredZstd = &zstdCodec{base: base, free: map[zstd.EncoderLevel][]*zstd.Encoder{}}
	compress.RegisterCodec(compress.Codecs.Zstd, registeredZstd)
}

// EncodeLevel compresses src into dst at the zstd level, as arrow-go's
// codec does.
func (c *zstdCodec) EncodeLevel(dst, src []byte, level int) []byte {
	l := zstd.EncoderLevelFromZstd(level)
	if level == compress.DefaultCompressionLevel {
		l = zstd.SpeedDefault
	}
	return c.append(dst[:0], src, l)
}

func (c *zstdCodec) append(dst, src []byte, l zstd.EncoderLevel) []byte {
	enc := c.get(l)
	dst = enc.EncodeAll(src, dst)
	c.put(l, enc)
	return dst
}

// get takes a free encoder of level l, or makes one with the options of
// arrow-go's codec.
func (c *zstdCodec) get(l zstd.EncoderLevel) *zstd.Encoder {
	c.mu.Lock()
	if f := c.free[l]; len(f) > 0 {
		enc := f[len(f)-1]
		c.free[l] = f[:len(f)-1]
		c.mu.Unlock()
		return enc
	}
	c.mu.Unlock()
	enc, err := zstd.NewWriter(nil, zstd.WithZeroFrames(true), zstd.WithEncoderLevel(l),
		zstd.WithEncoderConcurrency(1), zstd.WithAllLitEntropyCompression(true))
	if err != nil {
		panic(err) // the options are fixed and valid
	}
	return enc
}

func (c *zstdCodec) put(l zstd.EncoderLevel, enc *zstd.Encoder) {
	c.mu.Lock()
	c.free[l] = append(c.free[l], enc)
	c.mu.Unlock()
}

func (c *zstdCodec) Encode(dst, src []byte) []byte { return c.base.Encode(dst, src) }
func (c *zstdCodec) Decode(dst, src []byte) []byte { return c.base.Decode(dst, src) }
func (c *zstdCodec) CompressBound(n int64) int64   { return c.base.CompressBound(n) }
func (c *zstdCodec) NewReader(r io.Reader) io.ReadCloser {
	return c.base.(compress.StreamingCodec).NewReader(r)
}
func (c *zstdCodec) NewWriter(w io.Writer) io.WriteCloser {
	return c.base.(compress.StreamingCodec).NewWriter(w)
}

func (c *zstdCodec) NewWriterLevel(w io.Writer, level int) (io.WriteCloser, error) {
	return c.base.(compress.StreamingCodec).NewWriterLevel(w, level)
}

// DecodeWithError decodes a page, reporting a damaged one as an error.
func (c *zstdCodec) DecodeWithError(dst, src []byte) ([]byte, error) {
	return compress.Decode(c.base, dst, src)
}

package schema

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// Codec is the compression of the pages of a pieces table that a census
// writes: its CPU against its bytes. The zero Codec is CodecZstd.
type Codec string

// The codecs a pieces table may be written with. zstd (level 1) makes the
// smallest files; LZ4_RAW and Snappy compress two to three times faster
// and make larger files. DuckDB, pyarrow and arrow-go read all three.
const (
	CodecZstd   Codec = "zstd"
	CodecLZ4Raw Codec = "lz4_raw"
	CodecSnappy Codec = "snappy"
)

// Codecs are the codecs ParseCodec accepts, the default first.
var Codecs = []Codec{CodecZstd, CodecLZ4Raw, CodecSnappy}

// ParseCodec is the codec named name, in any case; an empty name is
// CodecZstd. It fails, naming name and the codecs there are, for any
// other.
func ParseCodec(name string) (Codec, error) {
	if name == "" {
		return CodecZstd, nil
	}
	for _, c := range Codecs {
		if strings.EqualFold(name, string(c)) {
			return c, nil
		}
	}
	names := make([]string, len(Codecs))
	for i, c := range Codecs {
		names[i] = string(c)
	}
	return "", fmt.Errorf("unknown pieces codec %q: want one of %s", name, strings.Join(names, ", "))
}

// String is the codec's name; the zero Codec's is "zstd".
func (c Codec) String() string {
	if c == "" {
		return string(CodecZstd)
	}
	return string(c)
}

// compression is the Parquet compression of the codec's pages.
func (c Codec) compression() compress.Compression {
	switch c {
	case CodecLZ4Raw:
		return compress.Codecs.Lz4Raw
	case CodecSnappy:
		return compress.Codecs.Snappy
	default:
		return compress.Codecs.Zstd
	}
}

// appendPage appends the page src, compressed with the codec, to dst.
func (c Codec) appendPage(dst, src []byte) []byte {
	cc := c.compression()
	if cc == compress.Codecs.Zstd {
		return zstdAppend(dst, src)
	}
	codec, err := compress.GetCodec(cc)
	if err != nil {
		panic(err) // arrow-go registers every codec of Codecs
	}
	// The codec encodes into the room after dst when that holds its
	// bound, as arrow-go's LZ4_RAW and Snappy codecs do; the result is
	// copied when it landed elsewhere.
	n := len(dst)
	bound := int(codec.CompressBound(int64(len(src))))
	if cap(dst)-n < bound {
		grown := make([]byte, n, n+bound+n/4)
		copy(grown, dst)
		dst = grown
	}
	out := codec.Encode(dst[n:n+bound], src)
	if len(out) > 0 && unsafe.SliceData(out) != unsafe.SliceData(dst[n:n+bound]) {
		return append(dst, out...)
	}
	return dst[:n+len(out)]
}

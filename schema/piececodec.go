package schema

import (
	"fmt"
	"strings"

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

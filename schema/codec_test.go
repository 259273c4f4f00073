package schema

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// TestZstdCodec checks that the registered zstd codec is the pooled one,
// that it compresses every page to the same bytes as arrow-go's codec at
// the writers' level and at the default, that its pages decode back, and
// that a damaged page is an error, not a panic.
func TestZstdCodec(t *testing.T) {
	got, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := got.(*zstdCodec)
	if !ok {
		t.Fatalf("registered zstd codec is %T", got)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var pages [][]byte
	for _, n := range []int{1, 100, 4096, 1 << 20} {
		p := make([]byte, n)
		for i := range p {
			p[i] = "xo.\n|"[r.IntN(5)] // as compressible as the picture strings
		}
		pages = append(pages, p)
	}
	for _, level := range []int{1, 3, compress.DefaultCompressionLevel} {
		for _, p := range pages {
			for range 2 { // a new encoder, then one from the free list
				mine := c.EncodeLevel(nil, p, level)
				if base := c.base.EncodeLevel(nil, p, level); !bytes.Equal(mine, base) {
					t.Fatalf("level %d, page of %d bytes: %d bytes compressed, arrow-go's codec %d", level, len(p), len(mine), len(base))
				}
				back, err := c.DecodeWithError(make([]byte, len(p)), mine)
				if err != nil || !bytes.Equal(back, p) {
					t.Fatalf("level %d, page of %d bytes: decoded %d bytes, %v", level, len(p), len(back), err)
				}
			}
		}
	}
	if _, err := c.DecodeWithError(make([]byte, 100), []byte("not zstd")); err == nil {
		t.Error("a damaged page decoded without an error")
	}
}

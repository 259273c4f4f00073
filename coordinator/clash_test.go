package coordinator

import (
	"errors"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

// TestClashPiecesCodec checks that a run's plan and a plan with another
// pieces codec clash, naming both codecs, and that zstd named or left
// empty (a plan of a version before the choice) is the same codec.
func TestClashPiecesCodec(t *testing.T) {
	base := Plan{Game: "clobber", Board: "3x4", Shards: 2}
	with := func(codec string) Plan {
		p := base
		p.PiecesCodec = codec
		return p
	}
	err := clash("r", with(""), with("lz4_raw"))
	if !errors.Is(err, ErrRunClash) || !strings.Contains(err.Error(), "pieces codec zstd") || !strings.Contains(err.Error(), "pieces codec lz4_raw") {
		t.Errorf("zstd against lz4_raw: %v, want a clash naming both codecs", err)
	}
	if err := clash("r", with("snappy"), with("lz4_raw")); !errors.Is(err, ErrRunClash) {
		t.Errorf("snappy against lz4_raw: %v, want a clash", err)
	}
	for _, pair := range [][2]string{{"", ""}, {"", "zstd"}, {"zstd", ""}, {"snappy", "snappy"}} {
		if err := clash("r", with(pair[0]), with(pair[1])); err != nil {
			t.Errorf("%q against %q: %v, want no clash", pair[0], pair[1], err)
		}
	}
	if got := piecesCodecName(schema.CodecZstd); got != "" {
		t.Errorf("zstd's plan name %q, want empty", got)
	}
}

// TestIDPiecesCodec checks that a run's ID names its pieces codec when it
// is not zstd, and only then.
func TestIDPiecesCodec(t *testing.T) {
	cfg := Config{Census: Census{Game: "clobber", Board: "3x4"}}
	plain, err := cfg.ID()
	if err != nil {
		t.Fatal(err)
	}
	for codec, want := range map[schema.Codec]string{"": plain, schema.CodecZstd: plain, schema.CodecLZ4Raw: plain + "-lz4_raw", schema.CodecSnappy: plain + "-snappy"} {
		cfg.PiecesCodec = codec
		if got, err := cfg.ID(); err != nil || got != want {
			t.Errorf("codec %q: ID %q, %v, want %q", codec, got, err, want)
		}
	}
}

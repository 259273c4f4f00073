package kept

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"
)

// fuzzKeys derives sorted distinct keys of squeeze s from data: every two
// bytes a gap between codes, a byte shifted left by a byte.
func fuzzKeys(data []byte, s uint) []uint64 {
	limit := uint64(1)<<(32+s) - 1
	if s == 32 {
		limit = 1<<64 - 1
	}
	var keys []uint64
	var c uint64
	for i := 0; i+2 <= len(data); i += 2 {
		g := uint64(data[i]) << (data[i+1] & 63)
		if len(keys) > 0 {
			if c+g+1 <= c || c+g+1 > limit {
				break
			}
			c += g + 1
		} else if c = g; c > limit {
			break
		}
		keys = append(keys, Key(c, s))
	}
	return keys
}

// FuzzRoundTrip writes keys derived from the input under a squeeze the
// input picks and reads them back: the same header and keys, and the
// blob's size, count and checksum as the writer reported them.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{}, uint8(4), uint32(0))
	f.Add([]byte{0x12, 0, 14, 0}, uint8(4), uint32(1))
	f.Add(bytes.Repeat([]byte{1, 0}, 300), uint8(20), uint32(7))
	f.Add([]byte{255, 56, 255, 7, 3, 60}, uint8(32), uint32(1<<32-1))
	f.Fuzz(func(t *testing.T, data []byte, s uint8, tier uint32) {
		h := Header{Game: "clobber", Rows: 4, Cols: 5, Tier: int(tier), Squeeze: uint(s % 33)}
		keys := fuzzKeys(data, h.Squeeze)
		out, info := write(t, h, keys)
		if info.Size != int64(len(out)) || info.Count != uint64(len(keys)) || info.Sum != binary.LittleEndian.Uint32(out[len(out)-8:]) {
			t.Fatalf("info %+v for %d bytes of %d keys", info, len(out), len(keys))
		}
		gh, got, err := Decode(out)
		if err != nil {
			t.Fatal(err)
		}
		if gh != h || !slices.Equal(got, keys) {
			t.Fatalf("read %+v, %d keys; wrote %+v, %d keys", gh, len(got), h, len(keys))
		}
	})
}

// FuzzDecode feeds arbitrary bytes to Decode, with their checksum made
// good when fix is set: it never panics, and what it reads without an
// error is a header and keys that a Writer takes and writes as a blob
// that reads back as them (checkSound).
func FuzzDecode(f *testing.F) {
	for _, keys := range [][]uint64{nil, {1<<32 | 2, 2<<32 | 1}, fuzzKeys(bytes.Repeat([]byte{3, 2}, 200), 20)} {
		data, _ := write(f, Header{Game: "clobber", Rows: 4, Cols: 5, Tier: 3, Squeeze: 20}, keys)
		f.Add(data, false)
		f.Add(data[:len(data)-3], true)
	}
	f.Add([]byte{}, false)
	f.Add([]byte("CNSK\x01\x04\x02\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00KSNC"), true)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			data = fixTrailer(data)
		}
		h, keys, err := Decode(data)
		if err != nil {
			return
		}
		if err := checkSound(h, keys); err != nil {
			t.Fatal(err)
		}
	})
}

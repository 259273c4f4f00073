package kept

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/codec/rice"
)

func ExampleWriter() {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Game: "clobber", Rows: 2, Cols: 2, Tier: 1, Squeeze: Squeeze(4)})
	if err != nil {
		panic(err)
	}
	for _, pos := range []uint64{1<<32 | 2, 2<<32 | 1} {
		if err := w.Add(pos); err != nil {
			panic(err)
		}
	}
	info, err := w.Close()
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x\n%d bytes, crc32c %08x, %d positions\n", buf.Bytes(), info.Size, info.Sum, info.Count)
	// Output:
	// 43 4e 53 4b 01 04 02 02 07 63 6c 6f 62 62 65 72 01 00 00 00 02 12 03 01 19 00 02 30 6e ff 5f 4b 53 4e 43
	// 35 bytes, crc32c 5fff6e30, 2 positions
}

// write writes keys as a kept blob of h.
func write(t testing.TB, h Header, keys []uint64) ([]byte, Info) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if err := w.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	info, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), info
}

// refBlob is the blob of keys built from the layout in doc.go, the gaps
// coded by package rice.
func refBlob(h Header, keys []uint64) []byte {
	b := []byte("CNSK")
	b = append(b, 1, byte(h.Squeeze), byte(h.Rows), byte(h.Cols), byte(len(h.Game)))
	b = append(b, h.Game...)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Tier))
	for lo := 0; lo < len(keys); lo += 128 {
		var codes []uint64
		for _, k := range keys[lo:min(lo+128, len(keys))] {
			codes = append(codes, k&(1<<32-1)|k>>32<<h.Squeeze)
		}
		k := rice.Parameter(codes)
		var w rice.Writer
		w.Gaps(codes, k)
		w.Done()
		b = binary.AppendUvarint(b, uint64(len(codes)))
		b = binary.AppendUvarint(b, codes[0])
		b = append(b, byte(k))
		b = binary.AppendUvarint(b, uint64(len(w.Bytes())))
		b = append(b, w.Bytes()...)
	}
	b = append(b, 0)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
	return append(b, "KSNC"...)
}

// randomKeys are n distinct keys of two planes of s bits each, sorted:
// mostly spread, with a run of successive codes.
func randomKeys(rng *rand.Rand, s uint, n int) []uint64 {
	space := uint64(1) << (2 * min(s, 31))
	var codes []uint64
	for range n {
		codes = append(codes, rng.Uint64N(space))
	}
	for i := range uint64(n / 3) {
		codes = append(codes, (codes[0]+i)%space)
	}
	slices.Sort(codes)
	codes = slices.Compact(codes)
	keys := make([]uint64, len(codes))
	for i, c := range codes {
		keys[i] = Key(c, s)
	}
	return keys
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []uint{4, 6, 20, 30, 31, 32} {
		for _, n := range []int{0, 1, 2, 127, 128, 129, 1000} {
			h := Header{Game: "domineering", Rows: 5, Cols: 6, Tier: 17, Squeeze: s}
			keys := randomKeys(rng, s, n)
			data, info := write(t, h, keys)
			if want := refBlob(h, keys); !bytes.Equal(data, want) {
				t.Fatalf("squeeze %d, %d keys: wrote %d bytes, the layout says %d; first difference at %d", s, n, len(data), len(want), firstDiff(data, want))
			}
			if info.Size != int64(len(data)) || info.Count != uint64(len(keys)) || info.Sum != binary.LittleEndian.Uint32(data[len(data)-8:]) {
				t.Errorf("squeeze %d, %d keys: info %+v for %d bytes", s, n, info, len(data))
			}
			gh, got, err := Decode(data)
			if err != nil {
				t.Fatalf("squeeze %d, %d keys: %v", s, n, err)
			}
			if gh != h || !slices.Equal(got, keys) {
				t.Fatalf("squeeze %d: read %+v and %d keys, wrote %+v and %d", s, gh, len(got), h, len(keys))
			}
		}
	}
	// The largest keys of a plane of 32 bits, and gaps of every size.
	keys := []uint64{0, 1, 1 << 20, 1 << 40, 1<<63 + 5, 1<<64 - 2, 1<<64 - 1}
	h := Header{Game: "amazons", Rows: 8, Cols: 8, Squeeze: 32}
	data, _ := write(t, h, keys)
	if _, got, err := Decode(data); err != nil || !slices.Equal(got, keys) {
		t.Errorf("read %v, %v; want %v", got, err, keys)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestCode(t *testing.T) {
	for _, s := range []uint{0, 1, 4, 31, 32} {
		for _, key := range []uint64{0, 1, 1 << 32, 1<<32 | 1, 1<<(32+s) - 1} {
			if s < 32 && key&(1<<32-1) >= 1<<s {
				continue
			}
			if got := Key(Code(key, s), s); got != key {
				t.Errorf("squeeze %d: key %#x comes back as %#x", s, key, got)
			}
		}
	}
	if c := Code(3<<32|5, 4); c != 3<<4|5 {
		t.Errorf("Code(3<<32|5, 4) = %#x", c)
	}
	if Squeeze(30) != 30 || Squeeze(32) != 32 || Squeeze(64) != 32 {
		t.Errorf("Squeeze of 30, 32, 64 squares: %d %d %d", Squeeze(30), Squeeze(32), Squeeze(64))
	}
}

func TestWriterRefuses(t *testing.T) {
	for _, h := range []Header{
		{Game: string(make([]byte, 256)), Squeeze: 4},
		{Game: "x", Rows: 256, Squeeze: 4},
		{Game: "x", Tier: -1, Squeeze: 4},
		{Game: "x", Squeeze: 33},
	} {
		if _, err := NewWriter(&bytes.Buffer{}, h); err == nil {
			t.Errorf("header %.40v: no error", h)
		}
	}
	w, err := NewWriter(&bytes.Buffer{}, Header{Game: "clobber", Rows: 2, Cols: 2, Squeeze: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(5); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(5); err == nil {
		t.Error("a repeated position was kept")
	}
	if err := w.Add(4); err == nil {
		t.Error("a smaller position was kept")
	}
	if err := w.Add(1 << 4); err == nil {
		t.Error("a position of 5 bits in its low plane was kept under a squeeze of 4")
	}
}

// TestCorruption damages a blob every way: each byte flipped, each
// truncation, bytes appended. Decode must fail with ErrCorrupt; and
// with the checksum made good again, it must fail or read a blob that a
// Writer could write (checkSound), never panic.
func TestCorruption(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	h := Header{Game: "clobber", Rows: 4, Cols: 5, Tier: 9, Squeeze: 20}
	data, _ := write(t, h, randomKeys(rng, 20, 300))
	check := func(what string, d []byte) {
		t.Helper()
		if _, _, err := Decode(d); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v, want ErrCorrupt", what, err)
		}
		if gh, keys, err := Decode(fixTrailer(d)); err == nil {
			if err := checkSound(gh, keys); err != nil {
				t.Errorf("%s, checksum fixed: %v", what, err)
			}
		}
	}
	for i := range data {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			d := bytes.Clone(data)
			d[i] ^= flip
			check(fmt.Sprintf("byte %d xor %#x", i, flip), d)
		}
	}
	for n := range data {
		check(fmt.Sprintf("truncated to %d bytes", n), bytes.Clone(data[:n]))
	}
	for _, extra := range [][]byte{{0}, []byte("KSNC"), data} {
		check(fmt.Sprintf("%d bytes appended", len(extra)), append(bytes.Clone(data), extra...))
	}
}

// fixTrailer rewrites the last 8 bytes of data as a trailer with the
// checksum of the rest, so that a reader gets past the checksum to the
// checks behind it.
func fixTrailer(data []byte) []byte {
	if len(data) < 8 {
		return data
	}
	out := bytes.Clone(data)
	n := len(out) - 8
	binary.LittleEndian.PutUint32(out[n:], crc32.Checksum(out[:n], castagnoli))
	copy(out[n+4:], trailerMagic)
	return out
}

// checkSound checks that a Writer takes the header and keys that Decode
// read, and that what it writes reads back as them. A reader takes some
// blobs that no Writer writes (a block of fewer than Block codes before
// the last, a Rice parameter not the best, bits set in a stream's
// padding, uvarints longer than they need be), so the bytes may differ.
func checkSound(h Header, keys []uint64) error {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		return fmt.Errorf("header %+v read, refused by the writer: %v", h, err)
	}
	for _, k := range keys {
		if err := w.Add(k); err != nil {
			return fmt.Errorf("key read, refused by the writer: %v", err)
		}
	}
	if _, err := w.Close(); err != nil {
		return err
	}
	gh, got, err := Decode(buf.Bytes())
	if err != nil || gh != h || !slices.Equal(got, keys) {
		return fmt.Errorf("%d keys of %+v written again read as %d keys of %+v, %v", len(keys), h, len(got), gh, err)
	}
	return nil
}

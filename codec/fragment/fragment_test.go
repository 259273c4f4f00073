package fragment

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

const maxKey = ^uint64(0)

var castagnoliTable = crc32.MakeTable(crc32.Castagnoli)

// sortedKeys returns n distinct random keys in increasing order.
func sortedKeys(n int, gen func() uint64) []uint64 {
	seen := map[uint64]bool{}
	var out []uint64
	for len(out) < n {
		k := gen()
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func denseKeys(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i)
	}
	return out
}

func randomPieces(rng *rand.Rand, n int) []Piece {
	seen := map[games.PieceKey]bool{}
	var out []Piece
	for len(out) < n {
		// Few boxes, so that runs of one Hi are common.
		k := games.MakePieceKey(1+rng.IntN(3), 1+rng.IntN(3), rng.Uint64()>>rng.IntN(64))
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, Piece{Key: k, Positions: rng.Uint64() >> rng.IntN(64), FirstTier: rng.Int32N(40)})
	}
	slices.SortFunc(out, func(a, b Piece) int { return a.Key.Compare(b.Key) })
	return out
}

func randomClasses(rng *rand.Rand, n int) []Class {
	var out []Class
	for len(out) < n {
		neg := games.MakePieceKey(1+rng.IntN(2), 1+rng.IntN(3), rng.Uint64()>>rng.IntN(64))
		out = append(out, Class{Neg: neg, Other: rng.IntN(2) == 0, SelfNegative: rng.IntN(2) == 0})
	}
	slices.SortFunc(out, func(a, b Class) int {
		if c := a.Neg.Compare(b.Neg); c != 0 {
			return c
		}
		return int(flag(a.Other)) - int(flag(b.Other))
	})
	return slices.CompactFunc(out, func(a, b Class) bool { return a.Neg == b.Neg && a.Other == b.Other })
}

func randomPieceRows(rng *rand.Rand, n int) []PieceRow {
	var out []PieceRow
	for _, r := range randomPieces(rng, n) { // sorted by key
		out = append(out, PieceRow{Piece: r,
			Sym: games.PieceKey{Hi: rng.Uint64(), Lo: rng.Uint64()}, Neg: games.PieceKey{Hi: rng.Uint64() >> 40, Lo: rng.Uint64()},
			SelfNegative: rng.IntN(2) == 0})
	}
	return out
}

func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// readBytes decodes a fragment of kind k from data with the options o and
// reads it to the end.
func readBytes[T any](data []byte, k Kind, o Options, next func(*Reader) (T, bool, error)) ([]T, error) {
	fr, err := NewReader(bytes.NewReader(data), k, o)
	if err != nil {
		return nil, err
	}
	return ReadAll(fr, next)
}

// checkLayout checks a fragment's bytes against the documented layout and
// the Info its writer reported.
func checkLayout(t *testing.T, data []byte, info Info) {
	t.Helper()
	if int64(len(data)) != info.Size {
		t.Errorf("info size %d, fragment holds %d bytes", info.Size, len(data))
	}
	if len(data) < 8 || string(data[len(data)-4:]) != "FSNC" || string(data[:4]) != "CNSF" {
		t.Fatalf("fragment does not start with CNSF and end with FSNC: % x", data[:min(len(data), 16)])
	}
	if sum := crc32.Checksum(data[:len(data)-8], castagnoliTable); sum != info.Sum || binary.LittleEndian.Uint32(data[len(data)-8:]) != sum {
		t.Errorf("info sum %08x, trailer %08x, crc32c of the header and payload %08x", info.Sum, binary.LittleEndian.Uint32(data[len(data)-8:]), sum)
	}
}

// roundTrip writes recs as a fragment of h: with write, a record at a
// time with put, and as a payload copied in; each must give the same
// bytes, of the documented layout, which read back as the records with
// next, with and without the writer's size and checksum.
func roundTrip[T comparable](t *testing.T, h Header, recs []T, write func(io.Writer, Header, []T) (Info, error), put func(*Writer, T), next func(*Reader) (T, bool, error)) {
	t.Helper()
	var whole, single, payload, raw bytes.Buffer
	info, err := write(&whole, h, recs)
	if err != nil {
		t.Fatal(err)
	}
	data := whole.Bytes()
	checkLayout(t, data, info)
	h.Count = uint64(len(recs))
	each := func(fw *Writer) {
		for _, r := range recs {
			put(fw, r)
		}
	}
	if _, err := Write(&single, h, func(fw *Writer) error { each(fw); return nil }); err != nil {
		t.Fatal(err)
	}
	pw := NewPayloadWriter(&payload)
	each(pw)
	if err := pw.Flush(); err != nil {
		t.Fatal(err)
	}
	pw.Release()
	if _, err := Write(&raw, h, func(fw *Writer) error { fw.Raw(payload.Bytes()); return nil }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(single.Bytes(), data) || !bytes.Equal(raw.Bytes(), data) {
		t.Fatalf("%s: a record at a time and as a payload, %d and %d bytes; whole, %d", h.Kind, single.Len(), raw.Len(), len(data))
	}
	for _, o := range []Options{{Name: "mem"}, {Name: "mem", Size: info.Size, Sum: info.Sum}} {
		fr, err := NewReader(bytes.NewReader(data), h.Kind, o)
		if err != nil {
			t.Fatal(err)
		}
		if fr.Header != h {
			t.Fatalf("header %+v, wrote %+v", fr.Header, h)
		}
		got, err := ReadAll(fr, next)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, recs) {
			t.Fatalf("%s: read %d records, wrote %d; first difference at %d", h.Kind, len(got), len(recs), firstDiff(got, recs))
		}
	}
}

func TestRoundTripKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name string
		kind Kind
		keys []uint64
	}{
		{"empty", KindPositions, nil},
		{"key 0 alone", KindPositions, []uint64{0}},
		{"key 0 first", KindPositions, []uint64{0, 1, 2, 127, 128, 16383, 16384}},
		{"largest key alone", KindPositions, []uint64{maxKey}},
		{"near 2^64", KindPositions, []uint64{0, 1 << 63, maxKey - 1, maxKey}},
		{"gap of 2^64-1", KindDeadFree, []uint64{0, maxKey}},
		{"dense, over the read buffer", KindInPlace, denseKeys(100_000)},
		{"random, over the read buffer", KindPositions, sortedKeys(30_000, rng.Uint64)},
		{"random small", KindDeadFree, sortedKeys(1000, func() uint64 { return rng.Uint64N(5000) })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := Header{Kind: tc.kind, Game: "clobber", Rows: 4, Cols: 4, Tier: 7}
			roundTrip(t, h, tc.keys, WriteKeys, (*Writer).Key, (*Reader).NextKey)
		})
	}
}

func TestRoundTripPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	tests := []struct {
		name string
		recs []Piece
	}{
		{"empty", nil},
		{"key 0", []Piece{{Key: games.PieceKey{}, Positions: 0, FirstTier: 0}}},
		{"key 0 first, then the largest", []Piece{
			{Key: games.PieceKey{}, Positions: 1},
			{Key: games.PieceKey{Hi: 0, Lo: maxKey}, Positions: maxKey, FirstTier: 1<<31 - 1},
			{Key: games.PieceKey{Hi: maxKey, Lo: 0}, Positions: 2, FirstTier: 3},
			{Key: games.PieceKey{Hi: maxKey, Lo: maxKey}, Positions: 3, FirstTier: 4},
		}},
		{"random", randomPieces(rng, 20_000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := Header{Kind: KindPieces, Game: "amazons", Rows: 3, Cols: 4}
			roundTrip(t, h, tc.recs, WritePieces, (*Writer).Piece, (*Reader).NextPiece)
		})
	}
}

func TestRoundTripClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	tests := []struct {
		name string
		recs []Class
	}{
		{"empty", nil},
		{"key 0", []Class{{}}},
		{"one negation class, two symmetric ones", []Class{
			{Neg: games.PieceKey{Hi: 0x102, Lo: 3}},
			{Neg: games.PieceKey{Hi: 0x102, Lo: 3}, Other: true},
			{Neg: games.PieceKey{Hi: maxKey, Lo: maxKey}, Other: true, SelfNegative: true},
		}},
		{"random", randomClasses(rng, 20_000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := Header{Kind: KindClasses, Game: "domineering", Rows: 8, Cols: 8}
			roundTrip(t, h, tc.recs, WriteClasses, (*Writer).Class, (*Reader).NextClass)
		})
	}
}

func TestRoundTripPieceRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	tests := []struct {
		name string
		rows []PieceRow
	}{
		{"empty", nil},
		{"key 0", []PieceRow{{}}},
		{"extremes", []PieceRow{
			{Piece: Piece{Key: games.PieceKey{Hi: 0x102, Lo: 3}, Positions: 1}, Sym: games.PieceKey{Hi: 0x102, Lo: 3}, Neg: games.PieceKey{Hi: 0x102, Lo: 3}, SelfNegative: true},
			{Piece: Piece{Key: games.PieceKey{Hi: maxKey, Lo: maxKey}, Positions: maxKey, FirstTier: 1<<31 - 1}, Sym: games.PieceKey{Hi: maxKey, Lo: maxKey}, Neg: games.PieceKey{Hi: maxKey, Lo: maxKey}},
		}},
		{"random", randomPieceRows(rng, 20_000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := Header{Kind: KindPieceRows, Game: "clobber", Rows: 4, Cols: 4}
			roundTrip(t, h, tc.rows, WritePieceRows, (*Writer).PieceRow, (*Reader).NextPieceRow)
		})
	}
}

// TestReadBuffer checks that a fragment of known size smaller than the
// read buffer asked for is read with a buffer of its own size (the least
// buffer for the smallest), and reads back whole, key by key and in
// batches.
func TestReadBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	h := Header{Kind: KindDeadFree, Game: "clobber", Rows: 4, Cols: 4, Tier: 2}
	for _, keys := range [][]uint64{nil, {3}, denseKeys(300), sortedKeys(3000, rng.Uint64), denseKeys(100_000)} {
		var buf bytes.Buffer
		info, err := WriteKeys(&buf, h, keys)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range []Options{{BufSize: 1 << 16}, {}, {BufSize: 100}} {
			o.Size, o.Sum = info.Size, info.Sum
			want := min(max(int(info.Size), minBuf), max(o.BufSize, 4<<10))
			if o.BufSize == 0 {
				want = min(max(int(info.Size), minBuf), 1<<16)
			}
			for _, batch := range []bool{false, true} {
				fr, err := NewReader(bytes.NewReader(buf.Bytes()), KindDeadFree, o)
				if err != nil {
					t.Fatal(err)
				}
				if len(fr.buf) != want {
					t.Errorf("%d keys in %d bytes, buffer %d asked: a read buffer of %d bytes, want %d", len(keys), info.Size, o.BufSize, len(fr.buf), want)
				}
				var got []uint64
				if batch {
					dst := make([]uint64, 100)
					for {
						n, err := fr.NextKeys(dst)
						if err != nil {
							t.Fatal(err)
						}
						if n == 0 {
							break
						}
						got = append(got, dst[:n]...)
					}
				} else if got, err = ReadAll(fr, (*Reader).NextKey); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, keys) {
					t.Errorf("%d keys, batch %v: read %d, first difference at %d", len(keys), batch, len(got), firstDiff(got, keys))
				}
			}
		}
	}
}

// The golden fragments under testdata were written by make_golden.py from
// the layout documented in doc.go, independently of the Go encoder.
// Writing the same records must give the same bytes, and reading the
// golden files must give the records back.
func TestGolden(t *testing.T) {
	h := func(k Kind, tier int) Header { return Header{Kind: k, Game: "clobber", Rows: 2, Cols: 2, Tier: tier} }
	positions := []uint64{0, 1, 300, 1<<32 | 5, maxKey}
	pieces := []Piece{
		{Key: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, Positions: 1, FirstTier: 3},
		{Key: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}, Positions: 7, FirstTier: 0},
		{Key: games.PieceKey{Hi: 0x201, Lo: 3}, Positions: 1 << 40, FirstTier: 2},
		{Key: games.PieceKey{Hi: 0x202, Lo: maxKey}, Positions: 1, FirstTier: 0},
	}
	classes := []Class{
		{Neg: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, SelfNegative: true},
		{Neg: games.PieceKey{Hi: 0x102, Lo: 3}},
		{Neg: games.PieceKey{Hi: 0x102, Lo: 3}, Other: true},
		{Neg: games.PieceKey{Hi: 0x202, Lo: 7}, Other: true, SelfNegative: true},
	}
	rows := []PieceRow{
		{Piece: Piece{Key: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, Positions: 1, FirstTier: 3},
			Sym: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, Neg: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, SelfNegative: true},
		{Piece: Piece{Key: games.PieceKey{Hi: 0x102, Lo: 3 << 32}, Positions: 7, FirstTier: 0},
			Sym: games.PieceKey{Hi: 0x102, Lo: 3}, Neg: games.PieceKey{Hi: 0x102, Lo: 3}},
		{Piece: Piece{Key: games.PieceKey{Hi: 0x202, Lo: maxKey}, Positions: 1 << 40, FirstTier: 2},
			Sym: games.PieceKey{Hi: 0x203, Lo: 7}, Neg: games.PieceKey{Hi: 0x202, Lo: 7}},
	}
	tests := []struct {
		file  string
		write func(w *bytes.Buffer) (Info, error)
		read  func(data []byte) (any, error)
		want  any
	}{
		{"golden-positions.frag",
			func(w *bytes.Buffer) (Info, error) { return WriteKeys(w, h(KindPositions, 1), positions) },
			func(data []byte) (any, error) { return readBytes(data, KindPositions, Options{}, (*Reader).NextKey) },
			positions},
		{"golden-pieces.frag",
			func(w *bytes.Buffer) (Info, error) { return WritePieces(w, h(KindPieces, 0), pieces) },
			func(data []byte) (any, error) { return readBytes(data, KindPieces, Options{}, (*Reader).NextPiece) },
			pieces},
		{"golden-classes.frag",
			func(w *bytes.Buffer) (Info, error) { return WriteClasses(w, h(KindClasses, 0), classes) },
			func(data []byte) (any, error) { return readBytes(data, KindClasses, Options{}, (*Reader).NextClass) },
			classes},
		{"golden-piecerows.frag",
			func(w *bytes.Buffer) (Info, error) { return WritePieceRows(w, h(KindPieceRows, 0), rows) },
			func(data []byte) (any, error) {
				return readBytes(data, KindPieceRows, Options{}, (*Reader).NextPieceRow)
			},
			rows},
		// Class pairs are what census wrote before KindClasses: still read,
		// as a resumed run may hold them, and never written.
		{"golden-classpairs.frag", nil,
			func(data []byte) (any, error) {
				return readBytes(data, KindClassPairs, Options{}, (*Reader).NextClassPair)
			},
			classes},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			golden, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if tc.write != nil {
				var buf bytes.Buffer
				info, err := tc.write(&buf)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(buf.Bytes(), golden) {
					t.Errorf("encoder wrote\n% x\ngolden file holds\n% x", buf.Bytes(), golden)
				}
				if info.Sum != crc32.Checksum(golden[:len(golden)-8], castagnoliTable) || info.Size != int64(len(golden)) {
					t.Errorf("info %+v", info)
				}
			}
			got, err := tc.read(golden)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("read %v, want %v", got, tc.want)
			}
		})
	}
}

// corruptCase is a fragment to damage, with how to read it.
type corruptCase struct {
	name string
	data []byte
	info Info
	read func(data []byte, o Options) error
}

func readWith[T any](k Kind, next func(*Reader) (T, bool, error)) func([]byte, Options) error {
	return func(data []byte, o Options) error {
		_, err := readBytes(data, k, o, next)
		return err
	}
}

func corruptCases(t *testing.T) []corruptCase {
	rng := rand.New(rand.NewPCG(4, 4))
	var out []corruptCase
	add := func(name string, write func(*bytes.Buffer) (Info, error), read func([]byte, Options) error) {
		var buf bytes.Buffer
		info, err := write(&buf)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, corruptCase{name, buf.Bytes(), info, read})
	}
	h := func(k Kind) Header { return Header{Kind: k, Game: "clobber", Rows: 3, Cols: 4, Tier: 3} }
	for _, c := range []struct {
		name string
		keys []uint64
	}{
		{"positions", []uint64{0, 5, 6, 1000, 1 << 40, maxKey - 3, maxKey}},
		{"no positions", nil},
		{"one position", []uint64{maxKey}},
		{"many positions", denseKeys(70_000)}, // over the 64 KiB read buffer
	} {
		add(c.name, func(w *bytes.Buffer) (Info, error) { return WriteKeys(w, h(KindPositions), c.keys) },
			readWith(KindPositions, (*Reader).NextKey))
	}
	pieces, classes, rows := randomPieces(rng, 6), randomClasses(rng, 6), randomPieceRows(rng, 6)
	add("pieces", func(w *bytes.Buffer) (Info, error) { return WritePieces(w, h(KindPieces), pieces) },
		readWith(KindPieces, (*Reader).NextPiece))
	add("classes", func(w *bytes.Buffer) (Info, error) { return WriteClasses(w, h(KindClasses), classes) },
		readWith(KindClasses, (*Reader).NextClass))
	add("piece rows", func(w *bytes.Buffer) (Info, error) { return WritePieceRows(w, h(KindPieceRows), rows) },
		readWith(KindPieceRows, (*Reader).NextPieceRow))
	return out
}

// offsets is every offset below n, or for a large n a sample of them that
// holds the first and last 48 and the neighbourhood of the read buffer's
// size.
func offsets(rng *rand.Rand, n int) []int {
	if n <= 512 {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	set := map[int]bool{}
	for i := 0; i < 48; i++ {
		set[i], set[n-1-i] = true, true
	}
	for i := 1<<16 - 8; i < 1<<16+8 && i < n; i++ {
		set[i] = true
	}
	for len(set) < 200 {
		set[rng.IntN(n)] = true
	}
	out := make([]int, 0, len(set))
	for i := range set {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// TestCorruption damages fragments every way it can: every byte flipped,
// every truncation, bytes appended. Reading to the end must then fail with
// ErrCorrupt, both with the writer's size and checksum and from the bytes
// alone.
func TestCorruption(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, tc := range corruptCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			known := Options{Name: tc.name, Size: tc.info.Size, Sum: tc.info.Sum}
			if err := tc.read(tc.data, known); err != nil {
				t.Fatalf("undamaged fragment: %v", err)
			}
			check := func(what string, data []byte) {
				t.Helper()
				// The writer's size and checksum are of the fragment's
				// bytes; a reader of a section of a blob reads no bytes
				// after it, so only the bytes alone must show an appendix.
				if !bytes.HasPrefix(data, tc.data) {
					if err := tc.read(data, known); !errors.Is(err, ErrCorrupt) {
						t.Errorf("%s, read with the writer's size and checksum: error %v, want ErrCorrupt", what, err)
					}
				}
				if err := tc.read(data, Options{Name: tc.name}); !errors.Is(err, ErrCorrupt) {
					t.Errorf("%s, read from the bytes alone: error %v, want ErrCorrupt", what, err)
				}
			}
			flips := []byte{0x01, 0x80, 0xff}
			if len(tc.data) > 512 {
				// A large fragment takes long to read; one flip a byte.
				flips = []byte{byte(1 + rng.IntN(255))}
			}
			for _, i := range offsets(rng, len(tc.data)) {
				for _, flip := range flips {
					data := bytes.Clone(tc.data)
					data[i] ^= flip
					check(fmt.Sprintf("byte %d of %d xor %#x", i, len(data), flip), data)
				}
			}
			for _, n := range offsets(rng, len(tc.data)) {
				check(fmt.Sprintf("truncated to %d of %d bytes", n, len(tc.data)), bytes.Clone(tc.data[:n]))
			}
			for _, extra := range [][]byte{{0}, []byte("FSNC"), tc.data} {
				check(fmt.Sprintf("%d bytes appended", len(extra)), append(bytes.Clone(tc.data), extra...))
			}
		})
	}
}

// TestWrongKind checks that a fragment read as another kind is refused.
func TestWrongKind(t *testing.T) {
	var buf bytes.Buffer
	if _, err := WriteKeys(&buf, Header{Kind: KindPositions, Game: "clobber", Rows: 2, Cols: 3}, []uint64{1, 2}); err != nil {
		t.Fatal(err)
	}
	for k := Kind(0); k <= KindClasses+1; k++ {
		_, err := NewReader(bytes.NewReader(buf.Bytes()), k, Options{})
		if k == KindPositions && err != nil || k != KindPositions && !errors.Is(err, ErrCorrupt) {
			t.Errorf("read as %s: %v", k, err)
		}
	}
}

func TestKindString(t *testing.T) {
	tests := map[Kind]string{KindPositions: "positions", KindDeadFree: "deadfree", KindInPlace: "inplace", KindPieces: "pieces", KindClassPairs: "classpairs", KindClasses: "classes", KindPieceRows: "piecerows", 9: "kind9"}
	for k, want := range tests {
		if k.String() != want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(k), k.String(), want)
		}
	}
}

// TestUvarintWords checks the word-at-a-time uvarint encoder and decoder
// against encoding/binary: values of every length around the bounds of
// their bytes, and random words, whose bytes decode as whatever uvarint
// they start with.
func TestUvarintWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var values []uint64
	for l := range 64 {
		values = append(values, 1<<l-1, 1<<l, 1<<l+1, 1<<l|rng.Uint64N(1<<l))
	}
	values = append(values, maxKey)
	for _, v := range values {
		want := binary.AppendUvarint(nil, v)
		if v < 1<<56 {
			var b [binary.MaxVarintLen64]byte
			if n := putShortUvarint(b[:], v); !bytes.Equal(b[:n], want) {
				t.Errorf("putShortUvarint(%#x) = % x, want % x", v, b[:n], want)
			}
		}
		var w [8]byte
		copy(w[:], want)
		got, n := uvarintWord(binary.LittleEndian.Uint64(w[:]))
		if len(want) > 8 {
			if n != 0 {
				t.Errorf("uvarintWord of the %d-byte uvarint of %#x = %#x, %d, want length 0", len(want), v, got, n)
			}
		} else if got != v || n != len(want) {
			t.Errorf("uvarintWord of the uvarint of %#x = %#x, %d, want %d bytes", v, got, n, len(want))
		}
	}
	for range 100_000 {
		// Words of few continuation bits, so that every length is common.
		w := rng.Uint64() & (rng.Uint64() | 0x7f7f7f7f_7f7f7f7f) & (rng.Uint64() | 0x7f7f7f7f_7f7f7f7f)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], w)
		want, wn := binary.Uvarint(b[:])
		if wn <= 0 {
			wn = 0 // not ended within the word
		}
		if got, n := uvarintWord(w); got != want || n != wn {
			t.Fatalf("uvarintWord(% x) = %#x, %d; binary.Uvarint: %#x, %d", b, got, n, want, wn)
		}
	}
}

// refKeyFragment is the key fragment of keys, built by encoding/binary
// from the layout documented in doc.go.
func refKeyFragment(h Header, keys []uint64) []byte {
	b := []byte("CNSF")
	b = append(b, 1, byte(h.Kind), byte(h.Rows), byte(h.Cols), byte(len(h.Game)))
	b = append(b, h.Game...)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Tier))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(keys)))
	var prev uint64
	for _, k := range keys {
		b = binary.AppendUvarint(b, k-prev)
		prev = k
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoliTable))
	return append(b, "FSNC"...)
}

// TestKeyFragmentBytes checks that both ways of writing keys, WriteKeys
// and a key at a time as a compaction does, write the bytes the layout
// says, and that NextKeys reads them back in batches of any size.
func TestKeyFragmentBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	// Deltas of every length, mixed and in runs of one length, and of
	// nine bytes among short ones.
	var mixed, runs, long []uint64
	var k uint64
	for range 20_000 {
		k += 1 + rng.Uint64N(1<<rng.IntN(50))
		mixed = append(mixed, k)
	}
	k = 0
	for i := range 18_000 {
		k += 1<<(i/1000*3) + rng.Uint64N(3)
		runs = append(runs, k)
	}
	k = 0
	for i := range 6000 {
		k += 1 + rng.Uint64N(1<<14)
		if i%100 == 0 {
			k += 1 << 58
		}
		long = append(long, k)
	}
	sets := []struct {
		name string
		keys []uint64
	}{
		{"empty", nil},
		{"key 0 alone", []uint64{0}},
		{"near 2^64", []uint64{0, 1 << 55, 1 << 56, 1<<56 + 1, 1 << 63, maxKey - 1, maxKey}},
		{"largest key alone", []uint64{maxKey}},
		{"dense", denseKeys(50_000)},
		{"random", sortedKeys(20_000, rng.Uint64)},
		{"clobber-like", sortedKeys(20_000, func() uint64 { return rng.Uint64() & 0x000fffff_000fffff })},
		{"deltas of every length", mixed},
		{"runs of each length", runs},
		{"some deltas of nine bytes", long},
	}
	h := Header{Kind: KindDeadFree, Game: "clobber", Rows: 4, Cols: 5, Tier: 3}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			want := refKeyFragment(h, set.keys)
			var batch, single, payload, raw bytes.Buffer
			if _, err := WriteKeys(&batch, h, set.keys); err != nil {
				t.Fatal(err)
			}
			hk := h
			hk.Count = uint64(len(set.keys))
			_, err := Write(&single, hk, func(fw *Writer) error {
				for _, k := range set.keys {
					fw.Key(k)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// A payload written alone, then copied into a fragment.
			pw := NewPayloadWriter(&payload)
			for _, k := range set.keys {
				pw.Key(k)
			}
			if err := pw.Flush(); err != nil {
				t.Fatal(err)
			}
			pw.Release()
			if _, err := Write(&raw, hk, func(fw *Writer) error { fw.Raw(payload.Bytes()); return nil }); err != nil {
				t.Fatal(err)
			}
			for _, w := range []struct {
				name string
				got  []byte
			}{{"WriteKeys", batch.Bytes()}, {"Key", single.Bytes()}, {"Raw", raw.Bytes()}} {
				if !bytes.Equal(w.got, want) {
					t.Errorf("%s wrote %d bytes, want %d; first difference at %d", w.name, len(w.got), len(want), firstDiff(w.got, want))
				}
			}
			for _, size := range []int{1, 2, 7, 512, 100_000} {
				fr, err := NewReader(bytes.NewReader(want), h.Kind, Options{Name: "mem", BufSize: 4 << 10})
				if err != nil {
					t.Fatal(err)
				}
				var got []uint64
				dst := make([]uint64, size)
				for {
					n, err := fr.NextKeys(dst)
					if err != nil {
						t.Fatalf("batches of %d: %v", size, err)
					}
					if n == 0 {
						break
					}
					got = append(got, dst[:n]...)
				}
				if !slices.Equal(got, set.keys) {
					t.Errorf("batches of %d: read %d keys, want %d; first difference at %d", size, len(got), len(set.keys), firstDiff(got, set.keys))
				}
			}
		})
	}
}

// uvarintWord, for the tests of packUvarint, decodes the uvarint that
// starts the word w, the next eight bytes in little-endian order, and
// returns it and its length: a length of zero when the uvarint is longer
// than eight bytes. It does so with no branch on the length: the first
// byte without the continuation bit ends the uvarint.
func uvarintWord(w uint64) (v uint64, n int) {
	stops := ^w & 0x80808080_80808080
	if stops == 0 {
		return 0, 0
	}
	end := uint(bits.TrailingZeros64(stops)) + 1 // 8 bits a byte of the uvarint
	return packUvarint(w & (1<<end - 1)), int(end / 8)
}

package fragment

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// fuzzFragments are valid fragments of every kind, for the seed corpus.
func fuzzFragments(f *testing.F) [][]byte {
	f.Helper()
	h := func(k Kind, tier int) Header {
		return Header{Kind: k, Game: "clobber", Rows: 2, Cols: 2, Tier: tier}
	}
	var out [][]byte
	add := func(write func(*bytes.Buffer) (Info, error)) {
		var buf bytes.Buffer
		if _, err := write(&buf); err != nil {
			f.Fatal(err)
		}
		out = append(out, buf.Bytes())
	}
	for _, k := range []Kind{KindPositions, KindDeadFree, KindInPlace} {
		for _, keys := range [][]uint64{nil, {0}, {1, 2, 3}, {0, 1, 300, 1<<32 | 5, 1<<64 - 1}} {
			add(func(b *bytes.Buffer) (Info, error) { return WriteKeys(b, h(k, 1), keys) })
		}
	}
	for _, recs := range [][]Piece{nil, {
		{Key: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}, Positions: 7, FirstTier: 0},
		{Key: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, Positions: 1, FirstTier: 3},
		{Key: games.PieceKey{Hi: 0x201, Lo: 3}, Positions: 1 << 40, FirstTier: 2},
	}} {
		add(func(b *bytes.Buffer) (Info, error) { return WritePieces(b, h(KindPieces, 0), recs) })
	}
	for _, recs := range [][]Class{nil, {
		{Neg: games.PieceKey{Hi: 0x102, Lo: 3}, SelfNegative: true},
		{Neg: games.PieceKey{Hi: 0x102, Lo: 3}, Other: true},
		{Neg: games.PieceKey{Hi: 0x202, Lo: 7}},
	}} {
		add(func(b *bytes.Buffer) (Info, error) { return WriteClasses(b, h(KindClasses, 0), recs) })
	}
	add(func(b *bytes.Buffer) (Info, error) {
		return WritePieceRows(b, h(KindPieceRows, 0), []PieceRow{
			{Piece: Piece{Key: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}, Positions: 7}, Sym: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}, Neg: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}},
			{Piece: Piece{Key: games.PieceKey{Hi: 0x201, Lo: 3}, Positions: 1, FirstTier: 2}, Sym: games.PieceKey{Hi: 0x102, Lo: 3}, Neg: games.PieceKey{Hi: 0x102, Lo: 3}, SelfNegative: true},
		})
	})
	for _, name := range []string{"golden-positions.frag", "golden-pieces.frag", "golden-classes.frag", "golden-classpairs.frag", "golden-piecerows.frag"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// fixTrailer rewrites the last 8 bytes of data as a trailer with the
// checksum of the rest, so that the fuzzer reaches the record checks that
// a checksum mismatch would otherwise hide.
func fixTrailer(data []byte) []byte {
	if len(data) < 8 {
		return data
	}
	out := bytes.Clone(data)
	n := len(out) - 8
	binary.LittleEndian.PutUint32(out[n:], crc32.Checksum(out[:n], castagnoliTable))
	copy(out[n+4:], trailerMagic)
	return out
}

// FuzzDecode feeds arbitrary bytes to the reader for every kind: it never
// panics, reads at most one record per byte, and what it reads without an
// error is in order and as many records as the header says. With fix set,
// the input gets a valid trailer first.
func FuzzDecode(f *testing.F) {
	for _, data := range fuzzFragments(f) {
		f.Add(data, false)
		// A truncation, and a header claiming a huge count.
		f.Add(data[:len(data)-3], false)
		if len(data) > 30 {
			huge := bytes.Clone(data)
			binary.LittleEndian.PutUint64(huge[9+int(huge[8])+4:], 1<<62)
			f.Add(huge, false)
			f.Add(huge, true)
		}
	}
	f.Add([]byte{}, false)
	f.Add([]byte("CNSF"), false)
	f.Add([]byte("CNSF\x01\x01\x02\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), false)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			data = fixTrailer(data)
		}
		for k := Kind(0); k <= KindClasses+1; k++ {
			fr, err := NewReader(bytes.NewReader(data), k, Options{Name: "fuzz"})
			if err != nil {
				if fr != nil {
					t.Fatalf("kind %s: reader with error %v", k, err)
				}
				continue
			}
			if fr.Kind != k {
				t.Fatalf("want kind %s, reader holds %s", k, fr.Kind)
			}
			if k < KindPositions || k > KindClasses {
				continue // no kernel reads records of an unknown kind
			}
			limit := len(data) + 10
			n, order, err := fuzzReadAll(fr, limit)
			if n > limit {
				t.Fatalf("kind %s: read more than %d records from %d bytes (count %d)", k, limit, len(data), fr.Count)
			}
			if err == nil && uint64(n) != fr.Count {
				t.Fatalf("kind %s: read %d records, header says %d", k, n, fr.Count)
			}
			if err == nil && order != "" {
				t.Fatalf("kind %s: read %d records without an error, but %s", k, n, order)
			}
			if k == KindPositions || k == KindDeadFree || k == KindInPlace {
				fuzzBatches(t, data, k, err)
			}
		}
	})
}

// fuzzBatches checks that NextKeys, which the merges read key fragments
// with, agrees with NextKey on data: the same keys when the fragment is
// sound, an error when NextKey finds one.
func fuzzBatches(t *testing.T, data []byte, k Kind, keyErr error) {
	want, _ := readBytes(data, k, Options{}, (*Reader).NextKey)
	fr, err := NewReader(bytes.NewReader(data), k, Options{Name: "fuzz"})
	if err != nil {
		t.Fatalf("kind %s: second reader: %v", k, err)
	}
	var got []uint64
	batch := make([]uint64, 3) // odd, so that batches end mid-buffer
	for len(got) <= len(data)+10 {
		n, err := fr.NextKeys(batch)
		if err != nil {
			if keyErr == nil {
				t.Fatalf("kind %s: NextKeys fails (%v) where NextKey does not", k, err)
			}
			return
		}
		if n == 0 {
			break
		}
		got = append(got, batch[:n]...)
	}
	if keyErr != nil {
		t.Fatalf("kind %s: NextKeys reads %d keys without the error of NextKey (%v)", k, len(got), keyErr)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("kind %s: NextKeys reads %d keys, NextKey %d, or others", k, len(got), len(want))
	}
}

// fuzzReadAll reads the records of fr until its end, an error, or more than
// limit records. A fragment is checked in full only at its end, so the
// records are in increasing order only when the whole read succeeds: the
// returned order error is for the first pair out of order.
func fuzzReadAll(fr *Reader, limit int) (n int, order string, err error) {
	var ok bool
	switch fr.Kind {
	case KindPositions, KindDeadFree, KindInPlace:
		var prev, k uint64
		for ; n <= limit; n++ {
			if k, ok, err = fr.NextKey(); err != nil || !ok {
				return n, order, err
			}
			if n > 0 && k <= prev && order == "" {
				order = fmt.Sprintf("key %d is %#x after %#x", n, k, prev)
			}
			prev = k
		}
	case KindPieces:
		var prev Piece
		for ; n <= limit; n++ {
			r, ok, err := fr.NextPiece()
			if err != nil || !ok {
				return n, order, err
			}
			if n > 0 && !prev.Key.Less(r.Key) && order == "" {
				order = fmt.Sprintf("piece %d is %+v after %+v", n, r, prev)
			}
			prev = r
		}
	case KindClasses:
		for ; n <= limit; n++ {
			if _, ok, err = fr.NextClass(); err != nil || !ok {
				return n, order, err
			}
		}
	case KindClassPairs:
		for ; n <= limit; n++ {
			if _, ok, err = fr.NextClassPair(); err != nil || !ok {
				return n, order, err
			}
		}
	case KindPieceRows:
		var prev PieceRow
		for ; n <= limit; n++ {
			r, ok, err := fr.NextPieceRow()
			if err != nil || !ok {
				return n, order, err
			}
			if n > 0 && !prev.Key.Less(r.Key) && order == "" {
				order = fmt.Sprintf("piece row %d is %+v after %+v", n, r, prev)
			}
			prev = r
		}
	}
	return n, order, nil
}

// fuzzInput hands out the bytes of a fuzz input as numbers, zeros once it
// runs out.
type fuzzInput []byte

func (in *fuzzInput) byte() byte {
	if len(*in) == 0 {
		return 0
	}
	b := (*in)[0]
	*in = (*in)[1:]
	return b
}

// gap is a byte shifted left by a byte: every size of number is common.
func (in *fuzzInput) gap() uint64 { return uint64(in.byte()) << (in.byte() & 63) }

// pieceKeys are n piece keys after prev, strictly increasing, or fewer
// where they would pass 2^128.
func (in *fuzzInput) pieceKeys(n int) []games.PieceKey {
	var out []games.PieceKey
	var k games.PieceKey
	for i := range n {
		next := k
		if hi := in.gap() >> 8; hi > 0 {
			next = games.PieceKey{Hi: k.Hi + hi, Lo: in.gap()}
		} else {
			next.Lo += in.gap() + 1
		}
		if i > 0 && !k.Less(next) {
			break
		}
		k = next
		out = append(out, k)
	}
	return out
}

// FuzzRoundTrip writes records of the kind the input picks, derived from
// its bytes, as a fragment: with the writer of the kind, a record at a
// time, and as a payload copied in; each must give the same bytes, which
// read back as the records, with and without the writer's size and
// checksum.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint8(1), int32(0), []byte{})
	f.Add(uint8(2), int32(-1), []byte{1, 0, 3, 60, 255, 7, 1, 0})
	f.Add(uint8(4), int32(5), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add(uint8(6), int32(1<<31-1), []byte{0, 0, 9, 9, 255, 63, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5})
	f.Add(uint8(7), int32(3), []byte{1, 8, 2, 3, 200, 1, 0, 0, 7, 7})
	f.Fuzz(func(t *testing.T, kind uint8, tier int32, data []byte) {
		in := fuzzInput(data)
		h := Header{Game: "clobber"[:in.byte()%8], Rows: int(in.byte()), Cols: int(in.byte()), Tier: int(tier)}
		n := int(in.byte())
		switch Kind(kind % 8) {
		case KindPositions, KindDeadFree, KindInPlace:
			h.Kind = Kind(kind%3) + KindPositions
			var keys []uint64
			var k uint64
			for i := range n {
				d := in.gap()
				if i > 0 && (d == 0 || k+d < k) {
					break
				}
				k += d
				keys = append(keys, k)
			}
			roundTrip(t, h, keys, WriteKeys, (*Writer).Key, (*Reader).NextKey)
		case KindPieces:
			h.Kind = KindPieces
			var recs []Piece
			for _, k := range in.pieceKeys(n) {
				recs = append(recs, Piece{Key: k, Positions: in.gap(), FirstTier: int32(in.byte()) - 1})
			}
			roundTrip(t, h, recs, WritePieces, (*Writer).Piece, (*Reader).NextPiece)
		case KindClasses, KindClassPairs:
			h.Kind = KindClasses
			var recs []Class
			for _, k := range in.pieceKeys(n) {
				flags := in.byte()
				recs = append(recs, Class{Neg: k, SelfNegative: flags&1 != 0, Other: flags&2 != 0})
				if flags&4 != 0 {
					recs = append(recs, Class{Neg: k, SelfNegative: flags&8 != 0, Other: true})
					recs[len(recs)-2].Other = false
				}
			}
			roundTrip(t, h, recs, WriteClasses, (*Writer).Class, (*Reader).NextClass)
		default:
			h.Kind = KindPieceRows
			var rows []PieceRow
			for _, k := range in.pieceKeys(n) {
				rows = append(rows, PieceRow{Piece: Piece{Key: k, Positions: in.gap(), FirstTier: int32(in.byte())},
					Sym: games.PieceKey{Hi: in.gap(), Lo: in.gap()}, Neg: games.PieceKey{Hi: in.gap(), Lo: in.gap()}, SelfNegative: in.byte()&1 != 0})
			}
			roundTrip(t, h, rows, WritePieceRows, (*Writer).PieceRow, (*Reader).NextPieceRow)
		}
	})
}

package jobs

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

const maxKey = ^uint64(0)

// sortedKeys returns n distinct random keys in increasing order.
func sortedKeys(rng *rand.Rand, n int, gen func() uint64) []uint64 {
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

func randomPieces(rng *rand.Rand, n int) []PieceRecord {
	seen := map[games.PieceKey]bool{}
	var out []PieceRecord
	for len(out) < n {
		// Few boxes, so that runs of one Hi are common.
		k := games.MakePieceKey(1+rng.IntN(3), 1+rng.IntN(3), rng.Uint64()>>rng.IntN(64))
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, PieceRecord{Key: k, Positions: rng.Uint64() >> rng.IntN(64), FirstTier: rng.Int32N(40)})
	}
	slices.SortFunc(out, func(a, b PieceRecord) int { return comparePieceKeys(a.Key, b.Key) })
	return out
}

func randomClasses(rng *rand.Rand, n int) []ClassRecord {
	var out []ClassRecord
	for len(out) < n {
		neg := games.MakePieceKey(1+rng.IntN(2), 1+rng.IntN(3), rng.Uint64()>>rng.IntN(64))
		out = append(out, ClassRecord{Neg: neg, Other: rng.IntN(2) == 0, SelfNegative: rng.IntN(2) == 0})
	}
	return sortClasses(out)
}

var castagnoliTable = crc32.MakeTable(crc32.Castagnoli)

// checkLayout checks a fragment's bytes against the documented layout and
// the blob that names it.
func checkLayout(t *testing.T, data []byte, b Blob, h Header, count int) {
	t.Helper()
	if int64(len(data)) != b.Size {
		t.Errorf("blob size %d, file holds %d bytes", b.Size, len(data))
	}
	if len(data) < 8 || string(data[len(data)-4:]) != "FSNC" || string(data[:4]) != "CNSF" {
		t.Fatalf("fragment does not start with CNSF and end with FSNC: % x", data[:min(len(data), 16)])
	}
	if sum := crc32.Checksum(data[:len(data)-8], castagnoliTable); sum != b.Sum {
		t.Errorf("blob sum %08x, crc32c of the file's header and payload %08x", b.Sum, sum)
	}
	if b.Count != uint64(count) || b.Kind != h.Kind {
		t.Errorf("blob %+v, want count %d kind %s", b, count, h.Kind)
	}
}

func TestFragmentRoundTripKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	g := mustGame(t, "clobber", "4x4", "")
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
		{"random, over the read buffer", KindPositions, sortedKeys(rng, 30_000, rng.Uint64)},
		{"random small", KindDeadFree, sortedKeys(rng, 1000, func() uint64 { return rng.Uint64N(5000) })},
	}
	st := newStore(t)
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := headerFor(g, tc.kind, 7)
			name := fmt.Sprintf("run/keys/%02d.frag", i)
			b, err := putKeys(context.Background(), st, name, h, tc.keys)
			if err != nil {
				t.Fatal(err)
			}
			checkLayout(t, blobBytes(t, st, name), b, h, len(tc.keys))
			fr, c, err := openFragment(context.Background(), st, b, tc.kind, g)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if fr.Header.Kind != tc.kind || fr.Game != "clobber" || fr.Rows != 4 || fr.Cols != 4 || fr.Tier != 7 || fr.Count != uint64(len(tc.keys)) {
				t.Errorf("header %+v", fr.Header)
			}
			got, err := readAll(fr, (*fragReader).nextKey)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.keys) {
				t.Errorf("read %d keys, wrote %d; first difference at %d", len(got), len(tc.keys), firstDiff(got, tc.keys))
			}
		})
	}
}

// TestFragmentReadBuffer checks that a fragment of known size smaller than
// the read buffer asked for is read with a buffer of its own size (the
// least buffer for the smallest), and reads back whole, key by key and in
// batches.
func TestFragmentReadBuffer(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	g := mustGame(t, "clobber", "4x4", "")
	st := newStore(t)
	for i, keys := range [][]uint64{nil, {3}, denseKeys(300), sortedKeys(rng, 3000, rng.Uint64), denseKeys(100_000)} {
		h := headerFor(g, KindDeadFree, 2)
		b, err := putKeys(ctx, st, fmt.Sprintf("run/buf/%02d.frag", i), h, keys)
		if err != nil {
			t.Fatal(err)
		}
		want := min(max(int(b.Size), minFragBuf), 1<<16)
		for _, batch := range []bool{false, true} {
			fr, c, err := openFragmentSize(ctx, st, b, KindDeadFree, g, 1<<16)
			if err != nil {
				t.Fatal(err)
			}
			if len(fr.buf) != want {
				t.Errorf("%d keys in %d bytes: a read buffer of %d bytes, want %d", len(keys), b.Size, len(fr.buf), want)
			}
			var got []uint64
			if batch {
				dst := make([]uint64, 100)
				for {
					n, err := fr.nextKeys(dst)
					if err != nil {
						t.Fatal(err)
					}
					if n == 0 {
						break
					}
					got = append(got, dst[:n]...)
				}
			} else if got, err = readAll(fr, (*fragReader).nextKey); err != nil {
				t.Fatal(err)
			}
			c.Close()
			if !slices.Equal(got, keys) {
				t.Errorf("%d keys, batch %v: read %d, first difference at %d", len(keys), batch, len(got), firstDiff(got, keys))
			}
		}
	}
}

func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestFragmentRoundTripPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	g := mustGame(t, "amazons", "3x4", "")
	tests := []struct {
		name string
		recs []PieceRecord
	}{
		{"empty", nil},
		{"key 0", []PieceRecord{{Key: games.PieceKey{}, Positions: 0, FirstTier: 0}}},
		{"key 0 first, then the largest", []PieceRecord{
			{Key: games.PieceKey{}, Positions: 1},
			{Key: games.PieceKey{Hi: 0, Lo: maxKey}, Positions: maxKey, FirstTier: 1<<31 - 1},
			{Key: games.PieceKey{Hi: maxKey, Lo: 0}, Positions: 2, FirstTier: 3},
			{Key: games.PieceKey{Hi: maxKey, Lo: maxKey}, Positions: 3, FirstTier: 4},
		}},
		{"random", randomPieces(rng, 20_000)},
	}
	st := newStore(t)
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := headerFor(g, KindPieces, 0)
			name := fmt.Sprintf("run/pieces/%02d.frag", i)
			b, err := putPieces(context.Background(), st, name, h, tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			checkLayout(t, blobBytes(t, st, name), b, h, len(tc.recs))
			got, err := readBlob(st, b, KindPieces, g, (*fragReader).nextPiece)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.recs) {
				t.Errorf("read %d records, wrote %d; first difference at %d", len(got), len(tc.recs), firstDiff(got, tc.recs))
			}
		})
	}
}

func TestFragmentRoundTripClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	g := mustGame(t, "domineering", "8x8", "")
	tests := []struct {
		name string
		recs []ClassRecord
	}{
		{"empty", nil},
		{"key 0", []ClassRecord{{}}},
		{"one negation class, two symmetric ones", []ClassRecord{
			{Neg: games.PieceKey{Hi: 0x102, Lo: 3}},
			{Neg: games.PieceKey{Hi: 0x102, Lo: 3}, Other: true},
			{Neg: games.PieceKey{Hi: maxKey, Lo: maxKey}, Other: true, SelfNegative: true},
		}},
		{"random", randomClasses(rng, 20_000)},
	}
	st := newStore(t)
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := headerFor(g, KindClasses, 0)
			name := fmt.Sprintf("run/classes/%02d.frag", i)
			b, err := putClasses(context.Background(), st, name, h, tc.recs)
			if err != nil {
				t.Fatal(err)
			}
			checkLayout(t, blobBytes(t, st, name), b, h, len(tc.recs))
			got, err := readBlob(st, b, KindClasses, g, (*fragReader).nextClass)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.recs) {
				t.Errorf("read %d records, wrote %d; first difference at %d", len(got), len(tc.recs), firstDiff(got, tc.recs))
			}
		})
	}
}

func TestFragmentRoundTripPieceRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	g := mustGame(t, "clobber", "4x4", "")
	var random []pieceRow
	for _, r := range randomPieces(rng, 20_000) { // sorted by key
		random = append(random, pieceRow{PieceRecord: r,
			Sym: games.PieceKey{Hi: rng.Uint64(), Lo: rng.Uint64()}, Neg: games.PieceKey{Hi: rng.Uint64() >> 40, Lo: rng.Uint64()},
			SelfNegative: rng.IntN(2) == 0})
	}
	tests := []struct {
		name string
		rows []pieceRow
	}{
		{"empty", nil},
		{"key 0", []pieceRow{{}}},
		{"extremes", []pieceRow{
			{PieceRecord: PieceRecord{Key: games.PieceKey{Hi: 0x102, Lo: 3}, Positions: 1}, Sym: games.PieceKey{Hi: 0x102, Lo: 3}, Neg: games.PieceKey{Hi: 0x102, Lo: 3}, SelfNegative: true},
			{PieceRecord: PieceRecord{Key: games.PieceKey{Hi: maxKey, Lo: maxKey}, Positions: maxKey, FirstTier: 1<<31 - 1}, Sym: games.PieceKey{Hi: maxKey, Lo: maxKey}, Neg: games.PieceKey{Hi: maxKey, Lo: maxKey}},
		}},
		{"random", random},
	}
	st := newStore(t)
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := headerFor(g, KindPieceRows, 0)
			name := fmt.Sprintf("run/pieces/images/%02d.frag", i)
			b, err := putFragment(context.Background(), st, name, h, tc.rows, writePieceRows)
			if err != nil {
				t.Fatal(err)
			}
			checkLayout(t, blobBytes(t, st, name), b, h, len(tc.rows))
			got, err := readBlob(st, b, KindPieceRows, g, (*fragReader).nextPieceRow)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.rows) {
				t.Errorf("read %d rows, wrote %d; first difference at %d", len(got), len(tc.rows), firstDiff(got, tc.rows))
			}
		})
	}
}

// The golden fragments under testdata were written by make_golden.py from
// the layout documented in fragment.go, independently of the Go encoder.
// Writing the same records must give the same bytes, and reading the
// golden files must give the records back.
func TestFragmentGolden(t *testing.T) {
	g := mustGame(t, "clobber", "2x2", "")
	positions := []uint64{0, 1, 300, 1<<32 | 5, maxKey}
	pieces := []PieceRecord{
		{Key: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, Positions: 1, FirstTier: 3},
		{Key: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}, Positions: 7, FirstTier: 0},
		{Key: games.PieceKey{Hi: 0x201, Lo: 3}, Positions: 1 << 40, FirstTier: 2},
		{Key: games.PieceKey{Hi: 0x202, Lo: maxKey}, Positions: 1, FirstTier: 0},
	}
	classes := []ClassRecord{
		{Neg: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, SelfNegative: true},
		{Neg: games.PieceKey{Hi: 0x102, Lo: 3}},
		{Neg: games.PieceKey{Hi: 0x102, Lo: 3}, Other: true},
		{Neg: games.PieceKey{Hi: 0x202, Lo: 7}, Other: true, SelfNegative: true},
	}
	st := newStore(t)
	ctx := context.Background()
	tests := []struct {
		file  string
		write func(name string) (Blob, error)
		read  func(data []byte) (any, error)
		want  any
	}{
		{"golden-positions.frag",
			func(name string) (Blob, error) {
				return putKeys(ctx, st, name, headerFor(g, KindPositions, 1), positions)
			},
			func(data []byte) (any, error) { return readBytes(data, KindPositions, (*fragReader).nextKey) },
			positions},
		{"golden-pieces.frag",
			func(name string) (Blob, error) { return putPieces(ctx, st, name, headerFor(g, KindPieces, 0), pieces) },
			func(data []byte) (any, error) { return readBytes(data, KindPieces, (*fragReader).nextPiece) },
			pieces},
		{"golden-classes.frag",
			func(name string) (Blob, error) {
				return putClasses(ctx, st, name, headerFor(g, KindClasses, 0), classes)
			},
			func(data []byte) (any, error) { return readBytes(data, KindClasses, (*fragReader).nextClass) },
			classes},
		// Class pairs are what census wrote before KindClasses: still read,
		// as a resumed run may hold them, and never written.
		{"golden-classpairs.frag", nil,
			func(data []byte) (any, error) {
				return readBytes(data, kindClassPairs, (*fragReader).nextClassPair)
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
				b, err := tc.write(tc.file)
				if err != nil {
					t.Fatal(err)
				}
				if got := blobBytes(t, st, tc.file); !bytes.Equal(got, golden) {
					t.Errorf("encoder wrote\n% x\ngolden file holds\n% x", got, golden)
				}
				if b.Sum != crc32.Checksum(golden[:len(golden)-8], castagnoliTable) {
					t.Errorf("blob sum %08x", b.Sum)
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

// corruptCase is a fragment to damage, with what reading it takes.
type corruptCase struct {
	name string
	kind Kind
	data []byte
	blob Blob
	read func(st store.Store, b Blob) error
	mem  func(data []byte) error
}

func corruptCases(t *testing.T, g games.Game) []corruptCase {
	rng := rand.New(rand.NewPCG(4, 4))
	st := newMemStore()
	ctx := context.Background()
	var out []corruptCase
	keyCase := func(name string, keys []uint64) {
		b, err := putKeys(ctx, st, name, headerFor(g, KindPositions, 3), keys)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, corruptCase{name, KindPositions, st.blobs[name], b,
			func(st store.Store, b Blob) error {
				_, err := readBlob(st, b, KindPositions, g, (*fragReader).nextKey)
				return err
			},
			func(data []byte) error {
				_, err := readBytes(data, KindPositions, (*fragReader).nextKey)
				return err
			}})
	}
	keyCase("positions", []uint64{0, 5, 6, 1000, 1 << 40, maxKey - 3, maxKey})
	keyCase("no positions", nil)
	keyCase("one position", []uint64{maxKey})
	keyCase("many positions", denseKeys(70_000)) // over the 64 KiB read buffer

	b, err := putPieces(ctx, st, "pieces", headerFor(g, KindPieces, 0), randomPieces(rng, 6))
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, corruptCase{"pieces", KindPieces, st.blobs["pieces"], b,
		func(st store.Store, b Blob) error {
			_, err := readBlob(st, b, KindPieces, g, (*fragReader).nextPiece)
			return err
		},
		func(data []byte) error {
			_, err := readBytes(data, KindPieces, (*fragReader).nextPiece)
			return err
		}})
	b, err = putClasses(ctx, st, "classes", headerFor(g, KindClasses, 0), randomClasses(rng, 6))
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, corruptCase{"classes", KindClasses, st.blobs["classes"], b,
		func(st store.Store, b Blob) error {
			_, err := readBlob(st, b, KindClasses, g, (*fragReader).nextClass)
			return err
		},
		func(data []byte) error {
			_, err := readBytes(data, KindClasses, (*fragReader).nextClass)
			return err
		}})
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

// TestFragmentCorruption damages fragments every way it can: every byte
// flipped, every truncation, bytes appended. Reading to the end must then
// fail with ErrCorrupt, both through openFragment with the job's blob and
// from the bytes alone.
func TestFragmentCorruption(t *testing.T) {
	g := mustGame(t, "clobber", "3x4", "")
	rng := rand.New(rand.NewPCG(5, 5))
	for _, tc := range corruptCases(t, g) {
		t.Run(tc.name, func(t *testing.T) {
			// The undamaged fragment reads back.
			st := newMemStore()
			st.blobs[tc.blob.Name] = tc.data
			if err := tc.read(st, tc.blob); err != nil {
				t.Fatalf("undamaged fragment: %v", err)
			}
			check := func(what string, data []byte) {
				t.Helper()
				st.blobs[tc.blob.Name] = data
				// The job's blob names a byte range; bytes after it
				// belong to other fragments, so only the bytes alone
				// must show an appendix.
				if !bytes.HasPrefix(data, tc.data) {
					if err := tc.read(st, tc.blob); !errors.Is(err, ErrCorrupt) {
						t.Errorf("%s, read with the job's blob: error %v, want ErrCorrupt", what, err)
					}
				}
				if err := tc.mem(data); !errors.Is(err, ErrCorrupt) {
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

// TestBlobMismatch checks that a fragment that does not match the job's
// blob, or the job's game, is refused.
func TestBlobMismatch(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	g := mustGame(t, "clobber", "2x3", "")
	keys := []uint64{0, 9, 1 << 35}
	good, err := putKeys(ctx, st, "run/t0003/b00000/s00000-p000.frag", headerFor(g, KindPositions, 3), keys)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readBlob(st, good, KindPositions, g, (*fragReader).nextKey); err != nil || !slices.Equal(got, keys) {
		t.Fatalf("undamaged: %v, %v", got, err)
	}
	with := func(f func(*Blob)) Blob {
		b := good
		f(&b)
		return b
	}
	tests := []struct {
		name string
		blob Blob
		kind Kind
		game games.Game
		want error
	}{
		{"wrong sum", with(func(b *Blob) { b.Sum ^= 1 }), KindPositions, g, ErrCorrupt},
		{"size one more", with(func(b *Blob) { b.Size++ }), KindPositions, g, ErrCorrupt},
		{"size one less", with(func(b *Blob) { b.Size-- }), KindPositions, g, ErrCorrupt},
		{"count one more", with(func(b *Blob) { b.Count++ }), KindPositions, g, ErrCorrupt},
		{"count one less", with(func(b *Blob) { b.Count-- }), KindPositions, g, ErrCorrupt},
		{"count zero", with(func(b *Blob) { b.Count = 0 }), KindPositions, g, ErrCorrupt},
		{"read as dead-free boards", with(func(b *Blob) { b.Kind = KindDeadFree }), KindDeadFree, g, ErrCorrupt},
		{"read as in-place pieces", good, KindInPlace, g, ErrCorrupt},
		{"another game", good, KindPositions, mustGame(t, "domineering", "2x3", ""), ErrCorrupt},
		{"another board", good, KindPositions, mustGame(t, "clobber", "3x2", ""), ErrCorrupt},
		{"missing", with(func(b *Blob) { b.Name = "run/t0003/b00000/none.frag" }), KindPositions, g, store.ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readBlob(st, tc.blob, tc.kind, tc.game, (*fragReader).nextKey)
			if !errors.Is(err, tc.want) {
				t.Errorf("read %v, error %v; want an error wrapping %v", got, err, tc.want)
			}
		})
	}
}

func TestKindString(t *testing.T) {
	tests := map[Kind]string{KindPositions: "positions", KindDeadFree: "deadfree", KindInPlace: "inplace", KindPieces: "pieces", KindClasses: "classes", KindPieceRows: "piecerows", 9: "kind9"}
	for k, want := range tests {
		if k.String() != want {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(k), k.String(), want)
		}
	}
}

// TestBlobSections writes three fragments back to back into one blob, as a
// spill does, and reads each through its section; a section with the
// offset of another fragment, or one byte off, is refused.
func TestBlobSections(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	g := mustGame(t, "domineering", "4x4", "")
	w, err := st.Create(ctx, "run/t0002/s00000-p000.frag")
	if err != nil {
		t.Fatal(err)
	}
	parts := [][]uint64{{0, 3}, {5}, {1 << 20, 1 << 30, maxKey}}
	var secs []Blob
	var offset int64
	for _, keys := range parts {
		b, err := writeKeys(w, headerFor(g, KindPositions, 2), keys)
		if err != nil {
			t.Fatal(err)
		}
		b.Name, b.Offset = "run/t0002/s00000-p000.frag", offset
		offset += b.Size
		secs = append(secs, b)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	for i, b := range secs {
		got, err := readBlob(st, b, KindPositions, g, (*fragReader).nextKey)
		if err != nil || !slices.Equal(got, parts[i]) {
			t.Errorf("section %d: %v, %v; want %v", i, got, err, parts[i])
		}
	}
	// The whole blob read as one fragment has bytes after the first
	// trailer.
	whole := secs[0]
	whole.Size = 0
	if _, err := readBlob(st, whole, KindPositions, g, (*fragReader).nextKey); !errors.Is(err, ErrCorrupt) {
		t.Errorf("the whole blob as one fragment: %v, want ErrCorrupt", err)
	}
	tests := []struct {
		name string
		b    Blob
	}{
		{"offset of the next fragment", func() Blob { b := secs[0]; b.Offset = secs[1].Offset; return b }()},
		{"offset of the previous fragment", func() Blob { b := secs[2]; b.Offset = secs[1].Offset; return b }()},
		{"one byte late", func() Blob { b := secs[1]; b.Offset++; return b }()},
		{"one byte early", func() Blob { b := secs[1]; b.Offset--; return b }()},
		{"past the end", func() Blob { b := secs[2]; b.Offset = offset; return b }()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := readBlob(st, tc.b, KindPositions, g, (*fragReader).nextKey); !errors.Is(err, ErrCorrupt) {
				t.Errorf("read %v, %v; want ErrCorrupt", got, err)
			}
		})
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
// from the layout documented in fragment.go.
func refKeyFragment(h Header, keys []uint64) []byte {
	b := []byte(fragMagic)
	b = append(b, fragVersion, byte(h.Kind), byte(h.Rows), byte(h.Cols), byte(len(h.Game)))
	b = append(b, h.Game...)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Tier))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(keys)))
	var prev uint64
	for _, k := range keys {
		b = binary.AppendUvarint(b, k-prev)
		prev = k
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoliTable))
	return append(b, fragTrailer...)
}

// TestKeyFragmentBytes checks that both ways of writing keys, writeKeys and
// a key at a time as a compaction does, write the bytes the layout says,
// and that nextKeys reads them back in batches of any size.
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
		{"random", sortedKeys(rng, 20_000, rng.Uint64)},
		{"clobber-like", sortedKeys(rng, 20_000, func() uint64 { return rng.Uint64() & 0x000fffff_000fffff })},
		{"deltas of every length", mixed},
		{"runs of each length", runs},
		{"some deltas of nine bytes", long},
	}
	h := Header{Kind: KindDeadFree, Game: "clobber", Rows: 4, Cols: 5, Tier: 3}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			want := refKeyFragment(h, set.keys)
			var batch, single bytes.Buffer
			if _, err := writeKeys(&batch, h, set.keys); err != nil {
				t.Fatal(err)
			}
			hk := h
			hk.Count = uint64(len(set.keys))
			_, err := writeFragment(&single, hk, func(fw *fragWriter) {
				for _, k := range set.keys {
					fw.key(k)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []struct {
				name string
				got  []byte
			}{{"writeKeys", batch.Bytes()}, {"key", single.Bytes()}} {
				if !bytes.Equal(w.got, want) {
					t.Errorf("%s wrote %d bytes, want %d; first difference at %d", w.name, len(w.got), len(want), firstDiff(w.got, want))
				}
			}
			for _, size := range []int{1, 2, 7, 512, 100_000} {
				fr, err := newFragReaderSize("mem", bytes.NewReader(want), h.Kind, Blob{}, 4<<10)
				if err != nil {
					t.Fatal(err)
				}
				var got []uint64
				dst := make([]uint64, size)
				for {
					n, err := fr.nextKeys(dst)
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

// uvarintWord, for the tests of packUvarint, decodes the uvarint that starts the word w, the next eight
// bytes in little-endian order, and returns it and its length: a length
// of zero when the uvarint is longer than eight bytes. It does so with no
// branch on the length: the first byte without the continuation bit ends
// the uvarint.
func uvarintWord(w uint64) (v uint64, n int) {
	stops := ^w & 0x80808080_80808080
	if stops == 0 {
		return 0, 0
	}
	end := uint(bits.TrailingZeros64(stops)) + 1 // 8 bits a byte of the uvarint
	return packUvarint(w & (1<<end - 1)), int(end / 8)
}

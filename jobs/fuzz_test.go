package jobs

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

// fuzzFragments are valid fragments of every kind, for the seed corpus.
func fuzzFragments(f *testing.F) [][]byte {
	f.Helper()
	h := func(k Kind, tier int) Header {
		return Header{Kind: k, Game: "clobber", Rows: 2, Cols: 2, Tier: tier}
	}
	var out [][]byte
	add := func(write func(*bytes.Buffer) (Blob, error)) {
		var buf bytes.Buffer
		if _, err := write(&buf); err != nil {
			f.Fatal(err)
		}
		out = append(out, buf.Bytes())
	}
	for _, k := range []Kind{KindPositions, KindDeadFree, KindInPlace} {
		for _, keys := range [][]uint64{nil, {0}, {1, 2, 3}, {0, 1, 300, 1<<32 | 5, 1<<64 - 1}} {
			add(func(b *bytes.Buffer) (Blob, error) { return writeKeys(b, h(k, 1), keys) })
		}
	}
	for _, recs := range [][]PieceRecord{nil, {
		{Key: games.PieceKey{Hi: 0x102, Lo: 2 | 1<<32}, Positions: 1, FirstTier: 3},
		{Key: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}, Positions: 7, FirstTier: 0},
		{Key: games.PieceKey{Hi: 0x201, Lo: 3}, Positions: 1 << 40, FirstTier: 2},
	}} {
		add(func(b *bytes.Buffer) (Blob, error) { return writePieces(b, h(KindPieces, 0), sortPieces(recs)) })
	}
	for _, recs := range [][]ClassRecord{nil, {
		{Neg: games.PieceKey{Hi: 0x102, Lo: 3}, SelfNegative: true},
		{Neg: games.PieceKey{Hi: 0x102, Lo: 3}, Other: true},
		{Neg: games.PieceKey{Hi: 0x202, Lo: 7}},
	}} {
		add(func(b *bytes.Buffer) (Blob, error) { return writeClasses(b, h(KindClasses, 0), sortClasses(recs)) })
	}
	add(func(b *bytes.Buffer) (Blob, error) {
		return writePieceRows(b, h(KindPieceRows, 0), []pieceRow{
			{PieceRecord: PieceRecord{Key: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}, Positions: 7}, Sym: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}, Neg: games.PieceKey{Hi: 0x102, Lo: 1 | 2<<32}},
			{PieceRecord: PieceRecord{Key: games.PieceKey{Hi: 0x201, Lo: 3}, Positions: 1, FirstTier: 2}, Sym: games.PieceKey{Hi: 0x102, Lo: 3}, Neg: games.PieceKey{Hi: 0x102, Lo: 3}, SelfNegative: true},
		})
	})
	for _, name := range []string{"golden-positions.frag", "golden-pieces.frag", "golden-classes.frag"} {
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
	binary.LittleEndian.PutUint32(out[n:], crc32.Checksum(out[:n], crc32.MakeTable(crc32.Castagnoli)))
	copy(out[n+4:], fragTrailer)
	return out
}

// FuzzFragmentDecode feeds arbitrary bytes to the fragment reader for every
// kind: it never panics, reads at most one record per byte, and what it
// reads without an error is in order and as many records as the header
// says. With fix set, the input gets a valid trailer first.
func FuzzFragmentDecode(f *testing.F) {
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
			fr, err := newFragReader("fuzz", bytes.NewReader(data), k, Blob{})
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

// fuzzBatches checks that nextKeys, which the merges read key fragments
// with, agrees with nextKey on data: the same keys when the fragment is
// sound, an error when nextKey finds one.
func fuzzBatches(t *testing.T, data []byte, k Kind, keyErr error) {
	want, _ := readBytes(data, k, (*fragReader).nextKey)
	fr, err := newFragReader("fuzz", bytes.NewReader(data), k, Blob{})
	if err != nil {
		t.Fatalf("kind %s: second reader: %v", k, err)
	}
	var got []uint64
	batch := make([]uint64, 3) // odd, so that batches end mid-buffer
	for len(got) <= len(data)+10 {
		n, err := fr.nextKeys(batch)
		if err != nil {
			if keyErr == nil {
				t.Fatalf("kind %s: nextKeys fails (%v) where nextKey does not", k, err)
			}
			return
		}
		if n == 0 {
			break
		}
		got = append(got, batch[:n]...)
	}
	if keyErr != nil {
		t.Fatalf("kind %s: nextKeys reads %d keys without the error of nextKey (%v)", k, len(got), keyErr)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("kind %s: nextKeys reads %d keys, nextKey %d, or others", k, len(got), len(want))
	}
}

// fuzzReadAll reads the records of fr until its end, an error, or more than
// limit records. A fragment is checked in full only at its end, so the
// records are in increasing order only when the whole read succeeds: the
// returned order error is for the first pair out of order.
func fuzzReadAll(fr *fragReader, limit int) (n int, order string, err error) {
	var ok bool
	switch fr.Kind {
	case KindPositions, KindDeadFree, KindInPlace:
		var prev, k uint64
		for ; n <= limit; n++ {
			if k, ok, err = fr.nextKey(); err != nil || !ok {
				return n, order, err
			}
			if n > 0 && k <= prev && order == "" {
				order = fmt.Sprintf("key %d is %#x after %#x", n, k, prev)
			}
			prev = k
		}
	case KindPieces:
		var prev PieceRecord
		for ; n <= limit; n++ {
			r, ok, err := fr.nextPiece()
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
			if _, ok, err = fr.nextClass(); err != nil || !ok {
				return n, order, err
			}
		}
	case kindClassPairs:
		for ; n <= limit; n++ {
			if _, ok, err = fr.nextClassPair(); err != nil || !ok {
				return n, order, err
			}
		}
	case KindPieceRows:
		var prev pieceRow
		for ; n <= limit; n++ {
			r, ok, err := fr.nextPieceRow()
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

// FuzzJobDecode decodes arbitrary bytes as a job message and runs the job
// on an empty store: Run returns an error or a result, never panics.
func FuzzJobDecode(f *testing.F) {
	spec := Spec{Run: "run", Game: "clobber", Board: "2x2", Store: "x", MemBudget: 1 << 20}
	blob := Blob{Name: "run/t0000/s00000-p000.frag", Kind: KindPositions, Size: 47, Sum: 1, Count: 1}
	for _, j := range []Job{
		{Tier: &TierJob{Spec: spec, Shards: 1, NextShards: 2, ReduceShards: 2}},
		{Tier: &TierJob{Spec: spec, Shards: 1, NextShards: 2, ReduceShards: 2, Inputs: []Blob{blob}}},
		{Tier: &TierJob{Spec: spec, Tier: 1, Shard: 1, Shards: 2, NextShards: 1, ReduceShards: 1, Inputs: []Blob{{Name: "../x", Kind: KindPositions}}}},
		{Piece: &PieceJob{Spec: spec, ClassShards: 2}},
		{Piece: &PieceJob{Spec: spec, Bucket: 1, ClassShards: 1, Inputs: []Blob{{Name: "a", Kind: KindDeadFree}, {Name: "b", Kind: KindPieces}}}},
		{Class: &ClassJob{Spec: spec}},
		{Class: &ClassJob{Spec: spec, Inputs: []Blob{{Name: "c", Kind: KindClasses, Count: 3}}}},
		{Tier: &TierJob{Spec: Spec{Run: "r", Game: "domineering", Board: "4x4", Start: "#.../..../..../...#", NoSymmetry: true}, Shards: 1, NextShards: 1, ReduceShards: 1}},
		{Tier: &TierJob{Spec: Spec{Run: "r", Game: "amazons", Board: "3x3"}, Shards: 1, NextShards: 1, ReduceShards: 1}},
		{Tier: &TierJob{Spec: Spec{Run: "r", Game: "chess", Board: "8x8"}, Shards: 1, NextShards: 1, ReduceShards: 1}},
		{},
	} {
		data, err := json.Marshal(j)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"tier":{"run":"r","game":"clobber","board":"2x2","shards":0}}`))
	f.Add([]byte(`{"piece":null,"class":{}}`))
	f.Add([]byte(`{"tier":{},"piece":{}}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var j Job
		if err := json.Unmarshal(data, &j); err != nil {
			return
		}
		s := j.Spec()
		if s == nil {
			return
		}
		if fuzzJobTooBig(j, s) {
			t.Skip("too big a job to fuzz")
		}
		st, err := store.NewDir(filepath.Join(t.TempDir(), "store"))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		res, err := Run(ctx, st, j, Options{})
		if err != nil {
			if res != (Result{}) {
				t.Fatalf("Run returned a result with error %v", err)
			}
			return
		}
		switch {
		case j.Tier != nil && res.Tier == nil, j.Tier == nil && j.Piece != nil && res.Piece == nil,
			j.Tier == nil && j.Piece == nil && res.Class == nil:
			t.Fatalf("job %s ran without an error to %+v", j.ID(), res)
		}
	})
}

// fuzzJobTooBig reports whether a job is too much work for one fuzz input.
func fuzzJobTooBig(j Job, s *Spec) bool {
	if rows, cols, err := games.ParseBoard(s.Board); err == nil && (rows > 16 || cols > 16 || rows*cols > 16) {
		return true
	}
	var inputs []Blob
	shards := []int{}
	switch {
	case j.Tier != nil:
		inputs = j.Tier.Inputs
		shards = append(shards, j.Tier.Shards, j.Tier.NextShards, j.Tier.ReduceShards)
	case j.Piece != nil:
		inputs = j.Piece.Inputs
		shards = append(shards, j.Piece.ClassShards)
	case j.Class != nil:
		inputs = j.Class.Inputs
	}
	if len(inputs) > 8 {
		return true
	}
	for _, n := range shards {
		if n > 64 {
			return true
		}
	}
	return false
}

package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/codec/fragment"
)

// TestSpiller adds keys to random buckets and checks that each spill is one
// blob holding one fragment per non-empty bucket, in bucket order and back
// to back, and that the fragments hold exactly the keys added.
func TestSpiller(t *testing.T) {
	g := mustGame(t, "clobber", "4x4", "")
	tests := []struct {
		name            string
		buckets, limit  int
		adds            int
		wantLimit       int
		bucketsFavoured int // only this many buckets get keys; 0 all
	}{
		{"one bucket, no spill before close", 1, 10_000, 500, 10_000, 0},
		{"limit below the floor of 1024", 5, 10, 3000, 1024, 0},
		{"many parts", 7, 1500, 10_000, 1500, 0},
		{"empty buckets", 20, 2000, 4500, 2000, 3},
		{"exactly the limit", 3, 1024, 2048, 1024, 0},
		{"nothing added", 4, 1024, 0, 1024, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(12, uint64(tc.adds)))
			st := newMemStore()
			ctx := context.Background()
			h := headerFor(g, KindPositions, 1)
			s := newSpiller(ctx, st, tc.buckets, tc.limit, func(part int) string {
				return fmt.Sprintf("run/part-%03d.frag", part)
			}, func(w io.Writer, keys []uint64) (Blob, error) {
				keys, _ = sortUnique(keys, nil)
				return writeKeys(w, h, keys)
			})
			// want[part][bucket] are the keys each fragment must hold.
			var want []map[int][]uint64
			cur := map[int][]uint64{}
			inPart := 0
			for i := 0; i < tc.adds; i++ {
				b := rng.IntN(tc.buckets)
				if tc.bucketsFavoured > 0 {
					b = rng.IntN(tc.bucketsFavoured) * (tc.buckets / tc.bucketsFavoured)
				}
				k := rng.Uint64N(1 << 20)
				if err := s.add(b, k); err != nil {
					t.Fatal(err)
				}
				cur[b] = append(cur[b], k)
				if inPart++; inPart == tc.wantLimit {
					want, cur, inPart = append(want, cur), map[int][]uint64{}, 0
				}
			}
			if inPart > 0 {
				want = append(want, cur)
			}
			blobs, err := s.close()
			if err != nil {
				t.Fatal(err)
			}
			if len(st.blobs) != len(want) {
				t.Errorf("%d blobs in the store, want one per part: %d", len(st.blobs), len(want))
			}
			var wantBlobs int
			for _, p := range want {
				wantBlobs += len(p)
			}
			if len(blobs) != wantBlobs {
				t.Fatalf("%d fragments, want one per non-empty bucket per part: %d", len(blobs), wantBlobs)
			}
			i := 0
			for part, p := range want {
				name := fmt.Sprintf("run/part-%03d.frag", part)
				var offset int64
				for b := 0; b < tc.buckets; b++ {
					keys, ok := p[b]
					if !ok {
						continue
					}
					bl := blobs[i]
					i++
					if bl.Name != name || bl.Bucket != b || bl.Offset != offset || bl.Kind != KindPositions {
						t.Errorf("fragment %+v, want %s bucket %d at offset %d", bl, name, b, offset)
					}
					offset += bl.Size
					got, err := readBlob(st, bl, KindPositions, g, (*fragment.Reader).NextKey)
					if err != nil {
						t.Fatalf("part %d bucket %d: %v", part, b, err)
					}
					slices.Sort(keys)
					if keys = slices.Compact(keys); !slices.Equal(got, keys) {
						t.Errorf("part %d bucket %d holds %d keys, want %d", part, b, len(got), len(keys))
					}
				}
				if size := int64(len(st.blobs[name])); size != offset {
					t.Errorf("%s is %d bytes, its fragments %d", name, size, offset)
				}
			}
		})
	}
}

func TestSpillerWriteError(t *testing.T) {
	boom := errors.New("boom")
	st := newMemStore()
	s := newSpiller(context.Background(), st, 2, 1024, func(part int) string { return fmt.Sprint(part) }, func(w io.Writer, keys []uint64) (Blob, error) {
		return Blob{}, boom
	})
	var err error
	for i := 0; i < 1024 && err == nil; i++ {
		err = s.add(i%2, uint64(i))
	}
	if !errors.Is(err, boom) {
		t.Fatalf("add: error %v, want boom", err)
	}
	if len(st.blobs) != 0 {
		t.Errorf("a failed part left blobs %v", st.blobs)
	}
}

// TestGrown checks that a buffer grown keeps its records and length, with
// the room asked for, and that nextCap grows a full buffer as append
// would: from nothing to 256, twice a small one, a quarter more a large one.
func TestGrown(t *testing.T) {
	b := []uint64{3, 1, 2}
	g := grown(b, 1000)
	if !slices.Equal(g, b) || cap(g) != 1000 {
		t.Errorf("grown(%v, 1000) = %v of capacity %d", b, g, cap(g))
	}
	for _, c := range []struct{ in, want int }{{0, 256}, {1, 256}, {200, 400}, {256, 512}, {1 << 20, 1<<20 + (1<<20+768)/4}} {
		if got := nextCap(c.in); got != c.want {
			t.Errorf("nextCap(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}

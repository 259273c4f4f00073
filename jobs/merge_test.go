package jobs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// sliceSource returns a source over a sorted slice.
func sliceSource(s []uint64) func() (uint64, bool, error) {
	i := 0
	return func() (uint64, bool, error) {
		if i == len(s) {
			return 0, false, nil
		}
		i++
		return s[i-1], true, nil
	}
}

func TestMergeSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, nsrc := range []int{0, 1, 2, 3, 7, 16} {
		for _, maxLen := range []int{0, 1, 5, 200} {
			t.Run(fmt.Sprintf("%d sources of up to %d", nsrc, maxLen), func(t *testing.T) {
				for trial := 0; trial < 20; trial++ {
					var all []uint64
					var srcs []func() (uint64, bool, error)
					for i := 0; i < nsrc; i++ {
						s := make([]uint64, rng.IntN(maxLen+1))
						for j := range s {
							s[j] = rng.Uint64N(50) // repeats within and across sources
						}
						slices.Sort(s)
						all = append(all, s...)
						srcs = append(srcs, sliceSource(s))
					}
					var got []uint64
					err := mergeSorted(srcs, cmp.Compare[uint64], func(v uint64) error {
						got = append(got, v)
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					slices.Sort(all)
					if !slices.Equal(got, all) {
						t.Fatalf("merge gave %v, want %v", got, all)
					}
				}
			})
		}
	}
}

func TestMergeSortedErrors(t *testing.T) {
	boom := errors.New("boom")
	failing := func(after int) func() (uint64, bool, error) {
		n := 0
		return func() (uint64, bool, error) {
			if n == after {
				return 0, false, boom
			}
			n++
			return uint64(n), true, nil
		}
	}
	tests := []struct {
		name    string
		srcs    []func() (uint64, bool, error)
		emitErr int // emit fails on this call (counting from 1); 0 never
		want    error
		emitted int
	}{
		{"source fails at once", []func() (uint64, bool, error){sliceSource([]uint64{1, 2}), failing(0)}, 0, boom, 0},
		{"source fails later", []func() (uint64, bool, error){failing(3)}, 0, boom, 3},
		{"emit fails", []func() (uint64, bool, error){sliceSource([]uint64{1, 2, 3, 4})}, 2, boom, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			err := mergeSorted(tc.srcs, cmp.Compare[uint64], func(uint64) error {
				calls++
				if calls == tc.emitErr {
					return boom
				}
				return nil
			})
			if !errors.Is(err, tc.want) || calls != tc.emitted {
				t.Errorf("error %v after %d emits; want %v after %d", err, calls, tc.want, tc.emitted)
			}
		})
	}
}

// TestKeyMerge merges key fragments that share keys, in batches of the
// least size and of more, and checks that every distinct key comes once,
// in order, and that Read counts every record.
func TestKeyMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	g := mustGame(t, "clobber", "4x4", "")
	ctx := context.Background()
	st := newMemStore()
	for _, nfrag := range []int{1, 2, 3, 9} {
		// A span of 0 draws keys from the 50 greatest: a merge must not
		// take the greatest key for the end of a fragment.
		for _, span := range []uint64{50, 5000, 1 << 40, 0} {
			name := fmt.Sprintf("%d fragments of keys below %d", nfrag, span)
			if span == 0 {
				name = fmt.Sprintf("%d fragments of the greatest keys", nfrag)
			}
			t.Run(name, func(t *testing.T) {
				var blobs []Blob
				var all []uint64
				var records uint64
				for i := range nfrag {
					// Fragments of a few keys and of more than a batch.
					n := rng.IntN(3) * rng.IntN(2000)
					keys := make([]uint64, n)
					for j := range keys {
						if span == 0 {
							keys[j] = ^rng.Uint64N(50)
						} else {
							keys[j] = rng.Uint64N(span)
						}
					}
					keys = slices.Compact(slices.Sorted(slices.Values(keys)))
					all = append(all, keys...)
					records += uint64(len(keys))
					name := fmt.Sprintf("merge/%d-%d-%d.frag", nfrag, span, i)
					b, err := putKeys(ctx, st, name, headerFor(g, KindDeadFree, 1), keys)
					if err != nil {
						t.Fatal(err)
					}
					blobs = append(blobs, b)
				}
				want := slices.Compact(slices.Sorted(slices.Values(all)))
				for _, reads := range []int64{0, 1 << 20} {
					var m keyMerge
					var got []uint64
					err := m.run(ctx, st, blobs, KindDeadFree, g, reads, func(k uint64) error {
						got = append(got, k)
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Errorf("reads %d: merged %d keys, want %d; first difference at %d", reads, len(got), len(want), firstDiff(got, want))
					}
					if m.Read != records || m.Total != records {
						t.Errorf("reads %d: read %d of %d records, want %d", reads, m.Read, m.Total, records)
					}
				}
			})
		}
	}
}

package main

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestClobber4x4 enumerates Clobber 4x4 and checks its stored positions
// and positions against the census's figures.
func TestClobber4x4(t *testing.T) {
	c := config{rows: 4, cols: 4, shards: 4, workers: 2, split: true}
	got, err := enumerate(c)
	if err != nil {
		t.Fatal(err)
	}
	if s := total(got.stored); s != 227132 {
		t.Errorf("stored %d, want 227132", s)
	}
	if p := total(got.positions); p != 1809927 {
		t.Errorf("positions %d, want 1809927", p)
	}
	if _, ok := check(c, got); !ok {
		t.Errorf("positions by tier %v differ from the census's", got.positions)
	}
}

// TestImages checks the images of random keys against the maps of the
// squares applied one bit at a time, and that every map fixes the start.
func TestImages(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range [][2]int{{4, 5}, {4, 4}, {3, 4}} {
		b := newBoard(size[0], size[1])
		R, C := b.rows, b.cols
		maps := []func(r, c int) int{
			func(r, c int) int { return r*C + c },
			func(r, c int) int { return (R-1-r)*C + c },
			func(r, c int) int { return (R-1-r)*C + C - 1 - c },
			func(r, c int) int { return r*C + C - 1 - c },
			func(r, c int) int { return c*C + r },
			func(r, c int) int { return (R-1-c)*C + r },
			func(r, c int) int { return (R-1-c)*C + C - 1 - r },
			func(r, c int) int { return c*C + C - 1 - r },
		}
		var img [8]uint64
		b.images(b.start(), &img)
		for g := range b.ng {
			if img[g] != b.start() {
				t.Errorf("%dx%d: map %d moves the start", R, C, g)
			}
		}
		for range 1000 {
			key := r.Uint64() & (1<<(2*b.n) - 1)
			b.images(key, &img)
			for g := range b.ng {
				if want := b.swapIf(b.permute(key, maps[g]), b.swap[g]); img[g] != want {
					t.Fatalf("%dx%d: map %d of %#x is %#x, want %#x", R, C, g, key, img[g], want)
				}
			}
		}
	}
}

// TestSortUnique checks the radix sort against slices.Sort and
// slices.Compact on keys crowded into low top bits, as canonical keys
// are, so that buckets are split again.
func TestSortUnique(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 1000, 5000, 200_000, 1_000_000} {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = r.Uint64() & (1<<40 - 1) >> r.IntN(8)
			if i%2 == 1 {
				keys[i] = keys[r.IntN(i)]
			}
		}
		want := slices.Compact(slices.Sorted(slices.Values(keys)))
		var s sorter
		if got := s.unique(keys); !slices.Equal(got, want) {
			t.Fatalf("%d keys: the sort differs from slices.Sort", n)
		}
	}
}

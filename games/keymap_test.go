package games

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
)

// TestKeyMapApplyAgreesWithMap checks the word operations of every key map
// against moving the bits of random keys one square at a time by
// Symmetry.Map, on one- and two-plane keys, with and without the colour
// swap.
func TestKeyMapApplyAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	boards := [][2]int{{1, 1}, {1, 2}, {2, 2}, {3, 3}, {4, 4}, {3, 5}, {4, 5}, {5, 4}, {5, 5}, {5, 6}, {6, 5}, {2, 16}, {1, 32}, {6, 6}, {7, 7}, {8, 8}, {4, 16}, {1, 64}}
	for _, rc := range boards {
		rows, cols := rc[0], rc[1]
		for _, planes := range []int{1, 2} {
			if planes == 2 && rows*cols > 32 {
				continue
			}
			b, err := NewBoard(rows, cols, 64)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range BoardMaps(b, planes, planes == 2, false) {
				for i := 0; i < 200; i++ {
					key := rng.Uint64() & b.Full
					if planes == 2 {
						key = rng.Uint64() & (b.Full | b.Full<<32)
					}
					var want uint64
					for bit := 0; bit < 64; bit++ {
						if key>>bit&1 == 0 {
							continue
						}
						plane, sq := 0, bit
						if planes == 2 {
							plane, sq = bit/32, bit%32
						}
						r, c := m.Sym.Map(sq/cols, sq%cols, rows, cols)
						if m.Swap {
							plane = 1 - plane
						}
						want |= 1 << (32*plane + r*cols + c)
					}
					if got := m.Apply(key); got != want {
						t.Fatalf("%dx%d, %d planes, symmetry %d swap %v: Apply(%#x) = %#x, want %#x", rows, cols, planes, m.Sym, m.Swap, key, got, want)
					}
				}
			}
		}
	}
}

// TestCanonPieceIsLeastImage checks CanonPiece, which compares images
// spread over 8 x 8 boards, against the least of the images ApplyPiece
// gives one map at a time, for every subgroup of maps that fixes a start.
func TestCanonPieceIsLeastImage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	boxes := [][2]int{{1, 1}, {1, 3}, {2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 4}, {4, 5}, {5, 4}, {5, 6}, {4, 8}, {8, 4}}
	for _, planes := range []int{1, 2} {
		b, _ := NewBoard(4, 4, 64)
		maps := BoardMaps(b, planes, planes == 2, planes == 1)
		for size := 2; size <= len(maps); size *= 2 {
			gr := Group{maps: maps[:1]}
			for _, m := range maps[1:] {
				if len(gr.maps) < size && rng.IntN(2) == 0 || len(maps)-len(gr.maps) <= size-len(gr.maps) {
					gr.maps = append(gr.maps, m)
				}
			}
			for _, box := range boxes {
				rows, cols := box[0], box[1]
				if planes == 2 && rows*cols > 32 {
					continue
				}
				full := ^uint64(0) >> (64 - rows*cols)
				for i := 0; i < 100; i++ {
					lo := rng.Uint64() & full
					if planes == 2 {
						lo = lo&0xffffffff | (rng.Uint64()&full&^lo)<<32
					}
					k := MakePieceKey(rows, cols, lo)
					want := k
					for _, m := range gr.maps[1:] {
						if im := m.ApplyPiece(k); im.Less(want) {
							want = im
						}
					}
					if got := gr.CanonPiece(k); got != want {
						t.Fatalf("%d planes, %d maps: CanonPiece(%v) = %v, want %v", planes, len(gr.maps), k, got, want)
					}
					group := make([]Symmetry, 0, len(gr.maps))
					for _, m := range gr.maps {
						group = append(group, m.Sym)
					}
					wantMin := Transform(k, group[0], planes)
					for _, s := range group[1:] {
						if im := Transform(k, s, planes); im.Less(wantMin) {
							wantMin = im
						}
					}
					if got := minOver(k, group, planes); got != wantMin {
						t.Fatalf("%d planes: minOver(%v, %v) = %v, want %v", planes, k, group, got, wantMin)
					}
				}
			}
		}
	}
}

// TestCanonAnyMaps checks Group.Canon and Group.CanonOrbit, whichever
// functions plan chooses for the group, against the least image of its maps
// applied one at a time and the number of them that fix the key, for random
// sets of maps (not only groups: Canon takes the least over the maps it
// holds either way) on one- and two-plane boards of many shapes, on random
// keys and on keys made symmetric. It checks too that every function plan
// can choose was chosen.
func TestCanonAnyMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	chosen := map[string]bool{}
	for rows := 1; rows <= 64; rows++ {
		for cols := 1; rows*cols <= 64; cols++ {
			b, err := NewBoard(rows, cols, 64)
			if err != nil {
				t.Fatal(err)
			}
			for _, planes := range []int{1, 2} {
				if planes == 2 && rows*cols > 32 {
					continue
				}
				all := BoardMaps(b, planes, planes == 2, false)
				trials, keys := 40, 100
				if rows == cols && rows <= 8 {
					// The square boards have the D4 functions.
					trials, keys = 120, 300
				}
				for trial := 0; trial < trials; trial++ {
					// Trial 0 is the identity alone, trial 1 all maps; then
					// in turn the flips and the half turn, each as itself or
					// with the colour swap; every symmetry so (without the
					// colour swap every sixth trial); and each map with
					// chance 1/3.
					maps := []*KeyMap{all[0]}
					swapOf := [8]bool{}
					for s := range swapOf {
						swapOf[s] = planes == 2 && trial%6 != 0 && rng.IntN(2) == 0
					}
					for _, m := range all[1:] {
						var in bool
						switch {
						case trial < 2:
							in = trial == 1
						case trial%3 == 2:
							in = m.Sym <= HalfTurn && m.Swap == swapOf[m.Sym]
						case trial%3 == 0:
							in = m.Swap == swapOf[m.Sym]
						default:
							in = rng.IntN(3) == 0
						}
						if in {
							maps = append(maps, m)
						}
					}
					gr := newGroup(maps)
					canonName, orbitName := funcName(gr.canon), funcName(gr.orbit)
					chosen[canonName], chosen[orbitName] = true, true
					for i := 0; i < keys; i++ {
						key := rng.Uint64() & b.Full
						if planes == 2 {
							key = key | (rng.Uint64()&b.Full&^key)<<32
						}
						switch i % 4 {
						case 1:
							// Symmetric under one map of the board (the
							// quarter turns excepted, an involution).
							key |= all[rng.IntN(len(all))].Apply(key)
						case 2:
							// Symmetric under the maps held, when they form
							// a group.
							for _, m := range maps[1:] {
								key |= m.Apply(key)
							}
						}
						want, fixed := key, 1
						for _, m := range maps[1:] {
							im := m.Apply(key)
							want = min(want, im)
							if im == key {
								fixed++
							}
						}
						wantOrbit := uint64(len(maps) / fixed)
						if got := gr.Canon(key); got != want {
							t.Fatalf("%dx%d, %d planes, keep %v, %s: Canon(%#x) = %#x, want %#x", rows, cols, planes, gr.keep, canonName, key, got, want)
						}
						if c, o := gr.CanonOrbit(key); c != want || o != wantOrbit {
							t.Fatalf("%dx%d, %d planes, keep %v, %s: CanonOrbit(%#x) = %#x, %d, want %#x, %d", rows, cols, planes, gr.keep, orbitName, key, c, o, want, wantOrbit)
						}
						if o := gr.Orbit(key); o != wantOrbit {
							t.Fatalf("%dx%d, %d planes, keep %v, %s: Orbit(%#x) = %d, want %d", rows, cols, planes, gr.keep, orbitName, key, o, wantOrbit)
						}
					}
				}
			}
		}
	}
	for _, f := range []string{"Identity", "One", "Rect", "D4x1", "D4x2", "5x5", "5x5Swap", "Shared"} {
		for _, name := range []string{"canon" + f, "orbit" + f} {
			if !chosen["github.com/census-cgt/census/games.(*Group)."+name] {
				t.Errorf("plan never chose %s; chose %v", name, chosen)
			}
		}
	}
}

// funcName is the name of the function f.
func funcName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }

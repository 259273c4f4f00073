package games_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// canonRef is the least image of key under the maps of the start's group,
// one map at a time: what Group.Canon computes with shared work.
func canonRef(g games.Game, on bool, key uint64) uint64 {
	best := key
	all := g.KeyMaps()
	for _, m := range all[1:] {
		if on && m.Apply(g.Start()) == g.Start() {
			best = min(best, m.Apply(key))
		}
	}
	return best
}

// randomKey is a random key of g's board: one plane for Domineering, two
// disjoint planes otherwise, of a random density.
func randomKey(rng *rand.Rand, g games.Game) uint64 {
	full := g.Board().Full
	dense := func() uint64 {
		x := rng.Uint64()
		for range rng.IntN(3) {
			if rng.IntN(2) == 0 {
				x &= rng.Uint64()
			} else {
				x |= rng.Uint64()
			}
		}
		return x & full
	}
	if g.Name() == "domineering" {
		return dense()
	}
	black := dense()
	return black | (dense()&^black)<<32
}

// TestCanonIsLeastImage checks Group.Canon against the least image of
// every map of the start's group applied one at a time, for every game on
// every board shape it allows, with symmetry on and off, on random keys
// and keys the group fixes, and checks Least, CanonOrbit, Orbit and Images
// against it too.
func TestCanonIsLeastImage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 0
	for _, name := range all.Names {
		for rows := 1; rows <= 64; rows++ {
			for cols := 1; rows*cols <= 64; cols++ {
				g, err := all.New(name, fmt.Sprintf("%dx%d", rows, cols), "")
				if err != nil {
					continue
				}
				keys := 300
				if rows <= 8 && cols <= 8 {
					keys = 2000
				}
				for _, on := range []bool{true, false} {
					gr := games.StartGroup(g, on)
					for i := range keys {
						key := randomKey(rng, g)
						switch {
						case i == 0:
							key = 0
						case i == 1:
							key = g.Start()
						case i%4 == 2:
							// A key the group's maps fix (its planes may
							// meet), so that orbits are not all full.
							for _, im := range gr.Images(key, nil) {
								key |= im
							}
						}
						want := canonRef(g, on, key)
						if got := gr.Canon(key); got != want {
							t.Fatalf("%s %dx%d symmetry %v: Canon(%#x) = %#x, want %#x", name, rows, cols, on, key, got, want)
						}
						if gr.Least(key) != (key == want) || !gr.Least(want) {
							t.Fatalf("%s %dx%d symmetry %v: Least(%#x) = %v, Least(%#x) = %v, the least image is %#x", name, rows, cols, on, key, gr.Least(key), want, gr.Least(want), want)
						}
						if i%4 <= 2 {
							c, o := gr.CanonOrbit(key)
							ims := gr.Images(key, nil)
							if c != want || o != uint64(len(ims)) || slices.Min(ims) != want || gr.Orbit(key) != o {
								t.Fatalf("%s %dx%d symmetry %v: CanonOrbit(%#x) = %#x, %d, Orbit %d, Images %#x, want canon %#x", name, rows, cols, on, key, c, o, gr.Orbit(key), ims, want)
							}
						}
					}
				}
				// StartGroup must leave the game's maps as they were: the
				// group is the same when built again.
				ga, gb := games.StartGroup(g, true), games.StartGroup(g, true)
				if ga.Size() != gb.Size() {
					t.Fatalf("%s %dx%d: StartGroup sizes %d then %d", name, rows, cols, ga.Size(), gb.Size())
				}
				n++
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d games checked", n)
	}
}

// canonBenchBoards are the games and boards BenchmarkCanon measures.
var canonBenchBoards = []struct{ game, board string }{
	{"domineering", "6x6"},
	{"domineering", "5x6"},
	{"domineering", "8x8"},
	{"clobber", "4x5"},
	{"clobber", "4x4"},
	{"clobber", "5x6"},
	{"clobber", "5x5"},
	{"clobber", "3x3"},
	{"amazons", "4x5"},
	{"amazons", "4x4"},
}

// canonSample is a fixed sample of successors of game on board, as Canon
// meets them in a census: every tier of a breadth-first search from the
// start is expanded from at most 512 positions kept of it, and up to 512
// of each tier's successors join the sample, which is then shuffled.
func canonSample(b *testing.B, game, board string) (games.Game, []uint64) {
	g, err := all.New(game, board, "")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	m := games.NewMoveStats(false)
	var sample, succ []uint64
	var pcs []games.Piece
	frontier := []uint64{g.Start()}
	for len(frontier) > 0 {
		next := map[uint64]struct{}{}
		for _, p := range frontier {
			pcs = g.Pieces(p, pcs[:0])
			succ = g.Expand(p, pcs, succ[:0], m, 1)
			for _, q := range succ {
				next[q] = struct{}{}
			}
		}
		frontier = frontier[:0]
		for q := range next {
			frontier = append(frontier, q)
		}
		slices.Sort(frontier)
		rng.Shuffle(len(frontier), func(i, j int) { frontier[i], frontier[j] = frontier[j], frontier[i] })
		frontier = frontier[:min(len(frontier), 512)]
		sample = append(sample, frontier...)
	}
	rng.Shuffle(len(sample), func(i, j int) { sample[i], sample[j] = sample[j], sample[i] })
	// A power of two of keys, so that the benchmark loop indexes without
	// dividing.
	n := 1
	for 2*n <= len(sample) {
		n *= 2
	}
	return g, sample[:n]
}

var canonSink uint64

// BenchmarkCanon measures Group.Canon on the start's group (symmetry on)
// over a fixed sample of successors; one op is one key.
func BenchmarkCanon(b *testing.B) {
	for _, bb := range canonBenchBoards {
		g, keys := canonSample(b, bb.game, bb.board)
		b.Run(bb.game+"-"+bb.board, func(b *testing.B) {
			gr := games.StartGroup(g, true)
			var sink uint64
			n, mask := 0, len(keys)-1
			for b.Loop() {
				sink ^= gr.Canon(keys[n&mask])
				n++
			}
			canonSink += sink
			b.ReportMetric(float64(gr.Size()), "maps")
		})
	}
}

// BenchmarkLeast measures Group.Least as BenchmarkCanon measures Canon;
// one op is one key.
func BenchmarkLeast(b *testing.B) {
	for _, bb := range canonBenchBoards {
		g, keys := canonSample(b, bb.game, bb.board)
		b.Run(bb.game+"-"+bb.board, func(b *testing.B) {
			gr := games.StartGroup(g, true)
			least := 0
			n, mask := 0, len(keys)-1
			for b.Loop() {
				if gr.Least(keys[n&mask]) {
					least++
				}
				n++
			}
			canonSink += uint64(least)
		})
	}
}

// BenchmarkCanonOrbit measures Group.CanonOrbit and Group.Orbit as
// BenchmarkCanon measures Canon; one op is one key.
func BenchmarkCanonOrbit(b *testing.B) {
	for _, bb := range canonBenchBoards {
		g, keys := canonSample(b, bb.game, bb.board)
		b.Run(bb.game+"-"+bb.board, func(b *testing.B) {
			gr := games.StartGroup(g, true)
			var sink uint64
			n, mask := 0, len(keys)-1
			for b.Loop() {
				c, o := gr.CanonOrbit(keys[n&mask])
				sink ^= c + o
				n++
			}
			canonSink += sink
		})
	}
}

// BenchmarkOrbit measures Group.Orbit as BenchmarkCanon measures Canon;
// one op is one key.
func BenchmarkOrbit(b *testing.B) {
	for _, bb := range canonBenchBoards {
		g, keys := canonSample(b, bb.game, bb.board)
		b.Run(bb.game+"-"+bb.board, func(b *testing.B) {
			gr := games.StartGroup(g, true)
			var sink uint64
			n, mask := 0, len(keys)-1
			for b.Loop() {
				sink ^= gr.Orbit(keys[n&mask])
				n++
			}
			canonSink += sink
		})
	}
}

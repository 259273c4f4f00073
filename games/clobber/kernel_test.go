package clobber

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/kerneltest"
)

// TestKernelReachable compares Clobber's kernel with the plain kernel on
// every reachable position of small boards, from the standard start and
// from starts with gaps: the census's representatives under the start's
// group, and on the boards of up to 12 squares also every position, under
// the start's group (keys that are not the least of their orbits) and
// without symmetry.
func TestKernelReachable(t *testing.T) {
	type board struct {
		rows, cols int
		start      string
	}
	var boards []board
	for r := 1; r <= 3; r++ {
		for c := 1; c <= 4; c++ {
			boards = append(boards, board{r, c, ""})
		}
	}
	boards = append(boards,
		board{4, 1, ""}, board{4, 3, ""}, board{5, 2, ""}, board{2, 6, ""}, board{4, 4, ""}, board{3, 5, ""},
		// Starts with gaps: dead stones, pieces of one colour, and groups
		// of other sizes (a start fixed by one map, by none, by the colour
		// swap with a flip).
		board{3, 4, "xo.x/o.ox/xxo."},
		board{3, 3, "xox/o.o/xox"},
		board{3, 3, "xo./.x./..o"},
		board{2, 4, "xo.o/ox.x"},
		board{4, 4, "xo.x/o..o/x..x/oxoo"},
		board{4, 4, "xoxo/o..x/x..o/oxox"},
		board{1, 7, "xoxo.ox"},
		board{3, 5, "x.o.x/.oxo./x.o.x"},
	)
	sizes := map[int]bool{}
	for _, b := range boards {
		big := b.rows*b.cols > 12
		if testing.Short() && big && b.start == "" {
			continue
		}
		name := fmt.Sprintf("%dx%d", b.rows, b.cols)
		if b.start != "" {
			name += "-" + b.start
		}
		t.Run(name, func(t *testing.T) {
			g := mustNew(t, b.rows, b.cols, b.start)
			on := kerneltest.NewStartPair(t, g, true)
			sizes[on.Group().Size()] = true
			reps := kerneltest.Walk(t, g, true, on)
			if big {
				t.Logf("%d maps, %d representatives", on.Group().Size(), reps)
				return
			}
			all := kerneltest.Walk(t, g, false, kerneltest.NewStartPair(t, g, true), kerneltest.NewStartPair(t, g, false))
			t.Logf("%d maps, %d representatives, %d positions", on.Group().Size(), reps, all)
		})
	}
	for _, n := range []int{1, 2, 4, 8} {
		if !sizes[n] {
			t.Errorf("no start has a group of %d maps", n)
		}
	}
}

// TestKernelRandom compares Clobber's kernel with the plain kernel on
// random keys, reachable or not: random squares, each Black or White, at
// several densities, under the start's group, the identity, and the group
// of every map of the game (that of the start with no stones, which every
// map fixes).
func TestKernelRandom(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	sizes := map[int]bool{}
	for _, b := range []struct {
		rows, cols int
		start      string
	}{
		{5, 5, ""}, {4, 5, ""}, {3, 7, ""}, {4, 4, ""}, {4, 8, ""}, {8, 4, ""}, {1, 32, ""}, {32, 1, ""},
		{6, 5, ""}, {2, 2, ""}, {1, 1, ""}, {2, 4, "xo.o/ox.x"}, {5, 5, "x...o/...../..x../...../o...x"},
	} {
		t.Run(fmt.Sprintf("%dx%d-%s", b.rows, b.cols, b.start), func(t *testing.T) {
			g := mustNew(t, b.rows, b.cols, b.start)
			empty := mustNew(t, b.rows, b.cols, "")
			empty.start = 0
			grAll := games.StartGroup(empty, true)
			if want := len(g.KeyMaps()); grAll.Size() != want {
				t.Fatalf("the empty start's group has %d maps, want %d", grAll.Size(), want)
			}
			pairs := []*kerneltest.Pair{kerneltest.NewStartPair(t, g, true), kerneltest.NewStartPair(t, g, false), kerneltest.NewPair(t, g, &grAll)}
			for _, k := range pairs {
				sizes[k.Group().Size()] = true
			}
			rng := rand.New(rand.NewPCG(uint64(b.rows), uint64(b.cols)))
			full := g.Board().Full
			for i := range n {
				stones := rng.Uint64()
				switch i % 4 {
				case 1:
					stones &= rng.Uint64()
				case 2:
					stones |= rng.Uint64()
				case 3:
					stones &= rng.Uint64() & rng.Uint64()
				}
				stones &= full
				black := stones & rng.Uint64()
				pos := black | (stones&^black)<<32
				for _, k := range pairs {
					k.Check(pos)
				}
			}
			for _, k := range pairs {
				k.Finish()
			}
		})
	}
	for _, n := range []int{1, 2, 4, 8, 16} {
		if !sizes[n] {
			t.Errorf("no group of %d maps", n)
		}
	}
}

// TestSymImages checks the group's SymImages against every map's Apply,
// for the groups Clobber's kernel is built on.
func TestSymImages(t *testing.T) {
	for _, sh := range [][2]int{{5, 5}, {4, 5}, {4, 4}, {3, 3}, {2, 6}, {1, 5}, {4, 8}} {
		g := mustNew(t, sh[0], sh[1], "")
		empty := mustNew(t, sh[0], sh[1], "")
		empty.start = 0
		rng := rand.New(rand.NewPCG(7, uint64(sh[0]*sh[1])))
		for _, gr := range []games.Group{games.StartGroup(g, true), games.StartGroup(g, false), games.StartGroup(empty, true)} {
			var img [8]uint64
			for range 200 {
				stones := rng.Uint64() & g.Board().Full
				black := stones & rng.Uint64()
				pos := black | (stones&^black)<<32
				gr.SymImages(pos, &img)
				for _, m := range gr.Maps() {
					got := img[m.Sym]
					if m.Swap {
						got = got<<32 | got>>32
					}
					if want := m.Apply(pos); got != want {
						t.Fatalf("%dx%d, %d maps: the image of %s under %v (swap %v) is %s, Apply gives %s",
							sh[0], sh[1], gr.Size(), g.Format(pos), m.Sym, m.Swap, g.Format(got), g.Format(want))
					}
				}
			}
		}
	}
}

// TestKernelByHand checks the Visit of a position whose pieces are easy to
// list: on 1 x 6, "xo.x.o" holds a live piece of two stones and two dead
// stones, four stones in all.
func TestKernelByHand(t *testing.T) {
	g := mustNew(t, 1, 6, "xo.x.o")
	gr := games.StartGroup(g, false)
	k := g.NewKernel(&gr)
	var v games.Visit
	m := games.NewMoveStats(true)
	k.Visit(g.Start(), &v, m, true)
	live := g.Start() & (3 | 3<<32)
	want := games.Visit{
		Canon: g.Start(), Orbit: 1,
		Pieces: []games.Piece{
			{Mask: 3, Key: live, Size: 2, Live: true},
			{Mask: 8, Key: 8, Size: 1},
			{Mask: 32, Key: 32 << 32, Size: 1},
		},
		InPlace:    []uint64{live},
		Translated: []games.PieceKey{games.MakePieceKey(1, 2, 1|2<<32)},
		DeadFree:   live,
		Succ:       []uint64{2 | 8 | 32<<32, 8 | (1|32)<<32},
	}
	if !games.SameVisit(&v, &want) {
		t.Errorf("visit\n%+v\nwant\n%+v", v, want)
	}
	if m.Moves != 2 || m.MovedPiece[4*games.MovedPieceStride+2] != 2 || m.MovedPieceSplit[4*games.MovedPieceStride+2] != 2 {
		t.Errorf("MoveStats %d moves, moved-piece %d split %d; want 2, 2, 2", m.Moves,
			m.MovedPiece[4*games.MovedPieceStride+2], m.MovedPieceSplit[4*games.MovedPieceStride+2])
	}
}

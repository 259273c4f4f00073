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
	var boards []string
	for r := 1; r <= 3; r++ {
		for c := 1; c <= 4; c++ {
			boards = append(boards, fmt.Sprintf("%dx%d", r, c))
		}
	}
	boards = append(boards, "4x1", "4x3", "5x2", "2x6")
	if !testing.Short() {
		boards = append(boards, "4x4", "3x5")
	}
	boards = append(boards,
		// Starts with gaps: dead stones, pieces of one colour, and groups
		// of other sizes (a start fixed by one map, by none, by the colour
		// swap with a flip).
		"3x4-xo.x/o.ox/xxo.",
		"3x3-xox/o.o/xox",
		"3x3-xo./.x./..o",
		"2x4-xo.o/ox.x",
		"4x4-xo.x/o..o/x..x/oxoo",
		"4x4-xoxo/o..x/x..o/oxox",
		"1x7-xoxo.ox",
		"3x5-x.o.x/.oxo./x.o.x",
	)
	kerneltest.Reachable(t, boards, func(t *testing.T, b kerneltest.Board) games.Game {
		return mustNew(t, b.Rows, b.Cols, b.Start)
	}, func(b kerneltest.Board) bool { return b.Rows*b.Cols <= 12 }, 1, 2, 4, 8)
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
	boards := []string{
		"5x5", "4x5", "3x7", "4x4", "4x8", "8x4", "1x32", "32x1",
		"6x5", "2x2", "1x1", "2x4-xo.o/ox.x", "5x5-x...o/...../..x../...../o...x",
	}
	kerneltest.Random(t, boards, n, func(t *testing.T, b kerneltest.Board) (games.Game, games.Game) {
		empty := mustNew(t, b.Rows, b.Cols, "")
		empty.start = 0
		return mustNew(t, b.Rows, b.Cols, b.Start), empty
	}, randomKey, 1, 2, 4, 8, 16)
}

// randomKey is a random position of a board with squares full: random
// squares at a density chosen by i, each Black or White.
func randomKey(rng *rand.Rand, full uint64, i int) uint64 {
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
	return black | (stones&^black)<<32
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

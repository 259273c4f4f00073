package domineering

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/kerneltest"
)

// TestKernelReachable compares Domineering's kernel with the plain kernel
// on every reachable position of small boards, from the empty board and
// from starts with covered squares: the census's representatives under the
// start's group, and on the boards of up to 16 squares also every
// position, under the start's group (keys that are not the least of their
// orbits) and without symmetry.
func TestKernelReachable(t *testing.T) {
	var boards []string
	for r := 1; r <= 4; r++ {
		for c := 1; c <= 4; c++ {
			boards = append(boards, fmt.Sprintf("%dx%d", r, c))
		}
	}
	boards = append(boards, "2x7", "7x2", "1x9", "9x1", "3x5", "4x5")
	if !testing.Short() {
		boards = append(boards, "5x5")
	}
	boards = append(boards,
		// Starts with covered squares: a start fixed by the transpose
		// alone, by none of the other maps, by the half turn and the
		// transposes, by the column flip alone, and by all four maps of a
		// rectangle.
		"3x3-#../.../...",
		"3x3-##./.../...",
		"4x4-#.../..../..../...#",
		"3x4-#..#/..../....",
		"3x5-..#../...../..#..",
		"4x4-.#../#.../...#/..#.",
		"2x6-#....#/#....#",
	)
	kerneltest.Reachable(t, boards, func(t *testing.T, b kerneltest.Board) games.Game {
		return mustNew(t, b.Rows, b.Cols, b.Start)
	}, func(b kerneltest.Board) bool { return b.Rows*b.Cols <= 16 }, 1, 2, 4, 8)
}

// TestKernelRandom compares Domineering's kernel with the plain kernel on
// random keys, reachable or not, at several densities of covered squares,
// under the start's group, the identity, and the group of every map of
// the board (that of the empty start, which every map fixes).
func TestKernelRandom(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	boards := []string{
		"8x8", "6x6", "5x7", "7x5", "5x5", "4x4", "5x6", "7x9", "9x7",
		"4x16", "16x4", "2x32", "32x2", "1x64", "64x1", "3x21", "1x1", "2x2",
		"3x3-#../.../...", "4x4-#.../..../..../...#",
	}
	kerneltest.Random(t, boards, n, func(t *testing.T, b kerneltest.Board) (games.Game, games.Game) {
		return mustNew(t, b.Rows, b.Cols, b.Start), mustNew(t, b.Rows, b.Cols, "")
	}, randomKey, 1, 2, 4, 8)
}

// randomKey is a random position of a board with squares full, its
// squares covered at a density chosen by i.
func randomKey(rng *rand.Rand, full uint64, i int) uint64 {
	pos := rng.Uint64()
	switch i % 6 {
	case 1:
		pos &= rng.Uint64()
	case 2:
		pos |= rng.Uint64()
	case 3:
		pos &= rng.Uint64() & rng.Uint64()
	case 4:
		pos |= rng.Uint64() | rng.Uint64()
	case 5:
		pos |= rng.Uint64() | rng.Uint64() | rng.Uint64()
	}
	return pos & full
}

// TestSymImages checks the group's SymImages against every map's Apply,
// for the one-plane groups Domineering's kernel is built on.
func TestSymImages(t *testing.T) {
	for _, sh := range [][2]int{{8, 8}, {5, 5}, {5, 6}, {6, 6}, {4, 4}, {3, 3}, {7, 9}, {1, 64}, {64, 1}, {2, 32}} {
		g := mustNew(t, sh[0], sh[1], "")
		rng := rand.New(rand.NewPCG(7, uint64(sh[0]*sh[1])))
		for _, gr := range []games.Group{games.StartGroup(g, true), games.StartGroup(g, false)} {
			var img [8]uint64
			for range 200 {
				pos := rng.Uint64() & g.Board().Full
				gr.SymImages(pos, &img)
				for _, m := range gr.Maps() {
					if m.Swap {
						t.Fatalf("%dx%d: a map swaps the planes of a one-plane key", sh[0], sh[1])
					}
					if got, want := img[m.Sym], m.Apply(pos); got != want {
						t.Fatalf("%dx%d, %d maps: the image of %s under %v is %s, Apply gives %s",
							sh[0], sh[1], gr.Size(), g.Format(pos), m.Sym, g.Format(got), g.Format(want))
					}
				}
			}
		}
	}
}

// TestKernelByHand checks the Visit of a position whose regions are easy
// to list: on 2 x 4, "#.#./#..#" has a lone empty square (0,3) and a live
// region of three squares, (0,1), (1,1) and (1,2), in which two dominoes
// fit; the group of the empty board holds the four maps of a rectangle.
func TestKernelByHand(t *testing.T) {
	g := mustNew(t, 2, 4, "")
	gr := games.StartGroup(g, true)
	k := g.NewKernel(&gr)
	pos, err := g.Parse("#.#./#..#")
	if err != nil {
		t.Fatal(err)
	}
	var v games.Visit
	m := games.NewMoveStats(false)
	k.Visit(pos, &v, m, true)
	region := uint64(1<<1 | 1<<5 | 1<<6)
	// Under the four maps the region is {1,5,6}, {1,2,5} (rows flipped),
	// {2,5,6} (columns flipped) and {1,2,6} (the half turn); the least is
	// {1,2,5}. The dead-free board {0,2,3,4,7} maps to {0,3,4,6,7},
	// {0,1,3,4,7} and {0,3,4,5,7}; the least is {0,1,3,4,7}.
	want := games.Visit{
		Canon: mustParse(t, g, "#..#/#.#."), Orbit: 4,
		Pieces: []games.Piece{
			{Mask: region, Key: region, Size: 3, Live: true},
			{Mask: 1 << 3, Key: 1 << 3, Size: 1},
		},
		InPlace:    []uint64{1<<1 | 1<<2 | 1<<5},
		Translated: []games.PieceKey{games.MakePieceKey(2, 2, 1|1<<2|1<<3)},
		DeadFree:   mustParse(t, g, "##.#/#..#"),
		Succ: []uint64{
			gr.Canon(pos | 1<<1 | 1<<5),
			gr.Canon(pos | 1<<5 | 1<<6),
		},
	}
	if !games.SameVisit(&v, &want) {
		t.Errorf("visit\n%+v\nwant\n%+v", v, want)
	}
	if m.Moves != 2*4 || m.Joins != 0 {
		t.Errorf("MoveStats %d moves %d joins; want 8, 0", m.Moves, m.Joins)
	}
}

func mustParse(t *testing.T, g *Game, diagram string) uint64 {
	t.Helper()
	pos, err := g.Parse(diagram)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

package amazons

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/kerneltest"
)

// TestKernelReachable compares Amazons' kernel with the plain kernel on
// every reachable position of small boards, from the standard start and
// from starts with burnt squares and several amazons a side: the census's
// representatives under the start's group, and on the boards of up to 12
// squares also every position, under the start's group (keys that are not
// the least of their orbits) and without symmetry.
func TestKernelReachable(t *testing.T) {
	var boards []string
	for r := 1; r <= 3; r++ {
		for c := 1; c <= 3; c++ {
			if r*c >= 2 {
				boards = append(boards, fmt.Sprintf("%dx%d", r, c))
			}
		}
	}
	boards = append(boards,
		"1x5", "1x7", "2x4", "4x2", "2x5", "5x2", "3x4", "4x3",
		// Starts with burnt squares, regions apart, several amazons a
		// side, and groups of other sizes: starts fixed by 4 and 8 maps,
		// and by the identity alone.
		"1x5-x.o.x",
		"1x6-x.##.o",
		"2x3-x#o/...",
		"2x5-x.#.o/o.#.x",
		"3x3-x.o/.#./o.x",
		"3x3-xx./.../..o",
		"3x3-x.x/.#./o.o",
		"3x4-x..o/.##./o..x",
		"3x4-x#../..#o/....",
		"4x4-x..o/.##./.##./o..x",
		"4x4-x#o./#.#./.#../...#",
		"2x2-x./..",
		"2x3-..#/#..",
		// A start fixed by the half turn alone, whose bits move by more
		// distances than the kernel's delta swaps hold.
		"3x4-x#../..../..#x",
	)
	kerneltest.Reachable(t, boards, func(t *testing.T, b kerneltest.Board) games.Game {
		return mustNew(t, b.Rows, b.Cols, b.Start)
	}, func(b kerneltest.Board) bool {
		sq := b.Rows * b.Cols
		return sq <= 12 && !(testing.Short() && sq > 6)
	}, 1, 2, 4, 8)
}

// randomKey is a random position of a board with squares full: each
// square empty, burnt or holding an amazon of either colour, at a density
// of burnt squares and amazons chosen by i.
func randomKey(rng *rand.Rand, full uint64, i int) uint64 {
	r := func() uint64 { return rng.Uint64() & full }
	var burntSq, amazons uint64
	switch i % 5 {
	case 0: // every square of the four kinds alike
		lo, hi := r(), r()
		return lo | hi<<32
	case 1: // few amazons, few burnt squares
		burntSq, amazons = r()&r(), r()&r()&r()
	case 2: // many burnt squares, few amazons
		burntSq, amazons = r()|r(), r()&r()&r()
	case 3: // many amazons
		burntSq, amazons = r()&r()&r(), r()|r()
	default: // one amazon or two
		burntSq = r() & r()
		sq := games.OnesCount(full)
		amazons = uint64(1)<<rng.IntN(sq) | uint64(1)<<rng.IntN(sq)
	}
	amazons &^= burntSq
	black := amazons & rng.Uint64()
	white := amazons &^ black
	return burntSq | black | (burntSq|white)<<32
}

// TestKernelRandom compares Amazons' kernel with the plain kernel on
// random keys, reachable or not, under the start's group, the identity,
// and the group of every map of the game (that of the empty board, which
// every map fixes).
func TestKernelRandom(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 400
	}
	boards := []string{
		"4x4", "4x5", "5x4", "5x5", "3x7", "5x6", "6x5", "4x8", "8x4",
		"1x32", "32x1", "2x16", "3x3", "2x2", "1x2",
		"4x4-x..o/..../..../o..x", "5x5-x...o/...../..#../...../o...x",
		"4x4-x#../..../..../..#x", "3x3-x#./.../.#x",
	}
	kerneltest.Random(t, boards, n, func(t *testing.T, b kerneltest.Board) (games.Game, games.Game) {
		empty := mustNew(t, b.Rows, b.Cols, "")
		empty.start = 0
		return mustNew(t, b.Rows, b.Cols, b.Start), empty
	}, randomKey, 1, 2, 4, 8, 16)
}

// TestKernelByHand checks the Visit of a position whose pieces and moves
// are easy to list: on 1 x 5, "x.#o." holds a region of Black's amazon and
// an empty square, which is live, and one of White's amazon and an empty
// square, also live; each amazon has one move, shooting back to the
// square it left.
func TestKernelByHand(t *testing.T) {
	g := mustNew(t, 1, 5, "x.#o.")
	gr := games.StartGroup(g, false)
	k := g.NewKernel(&gr)
	var v games.Visit
	m := games.NewMoveStats(false)
	k.Visit(g.Start(), &v, m, true)
	parse := func(d string) uint64 {
		pos, err := g.Parse(d)
		if err != nil {
			t.Fatal(err)
		}
		return pos
	}
	left, right := parse("x.###"), parse("###o.")
	want := games.Visit{
		Canon: g.Start(), Orbit: 1,
		Pieces: []games.Piece{
			{Mask: 3, Key: left, Size: 2, Live: true},
			{Mask: 24, Key: right, Size: 2, Live: true},
		},
		InPlace:    []uint64{left, right},
		Translated: []games.PieceKey{games.MakePieceKey(1, 2, 1), games.MakePieceKey(1, 2, 1<<32)},
		DeadFree:   g.Start(),
		Succ:       []uint64{parse("#x#o."), parse("x.##o")},
	}
	if !games.SameVisit(&v, &want) {
		t.Errorf("visit\n%+v\nwant\n%+v", v, want)
	}
	if m.Moves != 2 || m.Joins != 0 || m.EdgeRuleJoins != 0 {
		t.Errorf("MoveStats %d moves %d joins %d edge-rule joins; want 2, 0, 0", m.Moves, m.Joins, m.EdgeRuleJoins)
	}
}

// TestKernelReach checks the kernel's queen reach on cells against the
// game's on squares, from every square through random free squares, on
// boards whose cells are spread to rows of 8 and on larger ones.
func TestKernelReach(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range [][2]int{{1, 2}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {4, 8}, {8, 4}, {5, 6}, {3, 7}, {2, 8}, {1, 8}, {8, 1},
		{1, 32}, {32, 1}, {2, 16}, {16, 2}, {3, 10}, {1, 9}} {
		g := mustNew(t, sh[0], sh[1], "")
		gr := games.StartGroup(g, false)
		k := g.NewKernel(&gr).(*kernel)
		if want := sh[0] <= 8 && sh[1] <= 8; k.spread != want {
			t.Fatalf("%dx%d: spread %v, want %v", sh[0], sh[1], k.spread, want)
		}
		full := g.Board().Full
		for range 300 {
			free := rng.Uint64() & full
			if rng.IntN(2) == 0 {
				free |= rng.Uint64()
				free &= full
			}
			for sq := range g.Board().Squares() {
				want := k.spreadCells(g.reach(sq, free))
				c := bits.TrailingZeros64(k.spreadCells(1 << sq))
				var got uint64
				if k.spread {
					got = k.reach8(c, k.spreadCells(free))
				} else {
					got = k.reachRays(c, free)
				}
				if got != want {
					t.Fatalf("%dx%d: reach from square %d through %#x: cells %#x, want %#x", sh[0], sh[1], sq, free, got, want)
				}
			}
		}
	}
}

// TestArrowHash checks that arrowHash tells the 64 single bits apart.
func TestArrowHash(t *testing.T) {
	seen := map[uint64]int{}
	for c := range 64 {
		h := arrowHash(1 << c)
		if d, ok := seen[h]; ok || h >= 64 {
			t.Fatalf("arrowHash of bit %d is %d, as of bit %d or out of range", c, h, d)
		}
		seen[h] = c
	}
}

// TestKernelTranslate checks the kernel's Translate against the game's on
// random regions of random positions, on boards of every shape the kernel
// treats apart.
func TestKernelTranslate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sh := range [][2]int{{1, 2}, {2, 1}, {3, 3}, {4, 4}, {5, 5}, {4, 8}, {8, 4}, {5, 6}, {6, 5}, {3, 7}, {1, 32}, {32, 1}, {2, 16}, {16, 2}} {
		g := mustNew(t, sh[0], sh[1], "")
		gr := games.StartGroup(g, false)
		k := g.NewKernel(&gr).(*kernel)
		full := g.Board().Full
		for i := range 2000 {
			pos := randomKey(rng, full, i)
			for _, p := range g.Pieces(pos, nil) {
				if got, want := k.tr.Translate(p.Mask, p.Key), g.Translate(p.Key); got != want {
					t.Fatalf("%dx%d: translate of %s: %+v, want %+v", sh[0], sh[1], g.Format(p.Key), got, want)
				}
			}
		}
	}
}

// TestInvolutionSwaps checks the delta swaps of every map that is its own
// inverse against the map's Apply, on random keys, and that the maps that
// are not (the quarter turns) have none.
func TestInvolutionSwaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, sh := range [][2]int{{1, 2}, {3, 3}, {4, 4}, {5, 5}, {3, 4}, {4, 8}, {8, 4}, {5, 6}, {1, 32}, {32, 1}, {2, 16}} {
		g := mustNew(t, sh[0], sh[1], "")
		sq := g.Board().Squares()
		for _, m := range g.KeyMaps()[1:] {
			ds, ok := involutionSwaps(m, sq)
			turn := m.Sym == games.QuarterTurn || m.Sym == games.ThreeQuarterTurn
			if turn && ok {
				t.Fatalf("%dx%d: %v (swap %v) has delta swaps", sh[0], sh[1], m.Sym, m.Swap)
			}
			if !ok {
				continue
			}
			rot := 0
			if m.Swap {
				rot = 32
			}
			for i := range 200 {
				pos := randomKey(rng, g.Board().Full, i)
				got := bits.RotateLeft64(ds[3].Apply(ds[2].Apply(ds[1].Apply(ds[0].Apply(pos)))), rot)
				if want := m.Apply(pos); got != want {
					t.Fatalf("%dx%d: %v (swap %v) of %s: %s, want %s", sh[0], sh[1], m.Sym, m.Swap, g.Format(pos), g.Format(got), g.Format(want))
				}
			}
		}
	}
	// The standard start's group on a board of up to 8 rows and columns
	// flips its rows or columns, by at most 4 delta swaps.
	for _, sh := range [][2]int{{2, 2}, {4, 4}, {3, 4}, {4, 3}, {5, 5}, {4, 8}, {8, 4}, {5, 6}, {6, 5}, {2, 7}} {
		g := mustNew(t, sh[0], sh[1], "")
		gr := games.StartGroup(g, true)
		if k := g.NewKernel(&gr).(*kernel); gr.Size() != 2 || !k.swapsOK {
			t.Errorf("%dx%d: the standard start's group has %d maps, delta swaps %v; want 2 maps with delta swaps", sh[0], sh[1], gr.Size(), k.swapsOK)
		}
	}
	g := mustNew(t, 3, 4, "x#../..../..#x")
	gr := games.StartGroup(g, true)
	if k := g.NewKernel(&gr).(*kernel); gr.Size() != 2 || k.swapsOK {
		t.Errorf("3x4 x#../..../..#x: the start's group has %d maps, delta swaps %v; want 2 maps without", gr.Size(), k.swapsOK)
	}
}

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
	type board struct {
		rows, cols int
		start      string
	}
	var boards []board
	for r := 1; r <= 3; r++ {
		for c := 1; c <= 3; c++ {
			if r*c >= 2 {
				boards = append(boards, board{r, c, ""})
			}
		}
	}
	boards = append(boards,
		board{1, 5, ""}, board{1, 7, ""}, board{2, 4, ""}, board{4, 2, ""},
		board{2, 5, ""}, board{5, 2, ""}, board{3, 4, ""}, board{4, 3, ""},
		// Starts with burnt squares, regions apart, several amazons a
		// side, and groups of other sizes: starts fixed by 4 and 8 maps,
		// and by the identity alone.
		board{1, 5, "x.o.x"},
		board{1, 6, "x.##.o"},
		board{2, 3, "x#o/..."},
		board{2, 5, "x.#.o/o.#.x"},
		board{3, 3, "x.o/.#./o.x"},
		board{3, 3, "xx./.../..o"},
		board{3, 3, "x.x/.#./o.o"},
		board{3, 4, "x..o/.##./o..x"},
		board{3, 4, "x#../..#o/...."},
		board{4, 4, "x..o/.##./.##./o..x"},
		board{4, 4, "x#o./#.#./.#../...#"},
		board{2, 2, "x./.."},
		board{2, 3, "..#/#.."},
		// A start fixed by the half turn alone, whose bits move by more
		// distances than the kernel's delta swaps hold.
		board{3, 4, "x#../..../..#x"},
	)
	sizes, ran := map[int]bool{}, 0
	for _, b := range boards {
		all := b.rows*b.cols <= 12
		name := fmt.Sprintf("%dx%d", b.rows, b.cols)
		if b.start != "" {
			name += "-" + b.start
		}
		t.Run(name, func(t *testing.T) {
			ran++
			g := mustNew(t, b.rows, b.cols, b.start)
			on := kerneltest.NewStartPair(t, g, true)
			sizes[on.Group().Size()] = true
			reps := kerneltest.Walk(t, g, true, on)
			if !all || testing.Short() && b.rows*b.cols > 6 {
				t.Logf("%d maps, %d representatives", on.Group().Size(), reps)
				return
			}
			every := kerneltest.Walk(t, g, false, kerneltest.NewStartPair(t, g, true), kerneltest.NewStartPair(t, g, false))
			t.Logf("%d maps, %d representatives, %d positions", on.Group().Size(), reps, every)
		})
	}
	for _, n := range []int{1, 2, 4, 8} {
		if ran == len(boards) && !sizes[n] {
			t.Errorf("no start has a group of %d maps", n)
		}
	}
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
	sizes := map[int]bool{}
	for _, b := range []struct {
		rows, cols int
		start      string
	}{
		{4, 4, ""}, {4, 5, ""}, {5, 4, ""}, {5, 5, ""}, {3, 7, ""}, {5, 6, ""}, {6, 5, ""}, {4, 8, ""}, {8, 4, ""},
		{1, 32, ""}, {32, 1, ""}, {2, 16, ""}, {3, 3, ""}, {2, 2, ""}, {1, 2, ""},
		{4, 4, "x..o/..../..../o..x"}, {5, 5, "x...o/...../..#../...../o...x"},
		{4, 4, "x#../..../..../..#x"}, {3, 3, "x#./.../.#x"},
	} {
		t.Run(fmt.Sprintf("%dx%d-%s", b.rows, b.cols, b.start), func(t *testing.T) {
			g := mustNew(t, b.rows, b.cols, b.start)
			empty := mustNew(t, b.rows, b.cols, "")
			empty.start = 0
			grAll := games.StartGroup(empty, true)
			if want := len(g.KeyMaps()); grAll.Size() != want {
				t.Fatalf("the empty board's group has %d maps, want %d", grAll.Size(), want)
			}
			pairs := []*kerneltest.Pair{kerneltest.NewStartPair(t, g, true), kerneltest.NewStartPair(t, g, false), kerneltest.NewPair(t, g, &grAll)}
			for _, k := range pairs {
				sizes[k.Group().Size()] = true
			}
			rng := rand.New(rand.NewPCG(uint64(b.rows), uint64(b.cols)))
			full := g.Board().Full
			for i := range n {
				pos := randomKey(rng, full, i)
				for _, k := range pairs {
					k.Check(pos)
				}
			}
		})
	}
	for _, n := range []int{1, 2, 4, 8, 16} {
		if !sizes[n] {
			t.Errorf("no group of %d maps", n)
		}
	}
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

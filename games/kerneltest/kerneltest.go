// Package kerneltest checks a game's own kernel (games.KernelMaker)
// against the plain kernel built from the Game and Group methods, for the
// tests of the games' packages: a Pair visits positions with both and fails
// the test on the first Visit or move measure that differs; Walk takes
// pairs over every position reachable from a game's start; Reachable and
// Random run those checks over a game's tables of boards.
package kerneltest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
)

// Pair runs a game's own kernel and the plain kernel side by side on one
// group, each with its own MoveStats (one pair with the moved-piece
// histograms, one without).
type Pair struct {
	t          testing.TB
	g          games.Game
	gr         *games.Group
	own, plain games.Kernel
	mo, mp     *games.MoveStats // with histograms, for visits with successors
	mo0, mp0   *games.MoveStats // without, for visits without
	vo, vp     games.Visit
}

// NewStartPair is NewPair on the start's group of g (on), or on the
// identity alone.
func NewStartPair(t testing.TB, g games.Game, on bool) *Pair {
	gr := games.StartGroup(g, on)
	return NewPair(t, g, &gr)
}

// NewPair pairs g's own kernel for gr with the plain one. It fails the test
// when g has no kernel of its own.
func NewPair(t testing.TB, g games.Game, gr *games.Group) *Pair {
	t.Helper()
	km, ok := g.(games.KernelMaker)
	if !ok {
		t.Fatalf("%s has no kernel of its own", g.Name())
	}
	return &Pair{t: t, g: g, gr: gr, own: km.NewKernel(gr), plain: games.NewPlainKernel(g, gr),
		mo: games.NewMoveStats(true), mp: games.NewMoveStats(true),
		mo0: games.NewMoveStats(false), mp0: games.NewMoveStats(false)}
}

// Check visits pos with both kernels, without successors (adding to the
// MoveStats without histograms) and with them (adding to those with), and
// fails the test when the Visits or the move measures differ.
func (k *Pair) Check(pos uint64) {
	k.t.Helper()
	for _, successors := range []bool{false, true} {
		mo, mp := k.mo0, k.mp0
		if successors {
			mo, mp = k.mo, k.mp
		}
		k.own.Visit(pos, &k.vo, mo, successors)
		k.plain.Visit(pos, &k.vp, mp, successors)
		where := fmt.Sprintf("%s %s %s, %d maps, successors %v", k.g.Name(), k.g.Board(), k.g.Format(pos), k.gr.Size(), successors)
		if !successors && (len(k.vo.Succ) != 0 || len(k.vp.Succ) != 0) {
			k.t.Fatalf("%s: successors listed: own %d, plain %d", where, len(k.vo.Succ), len(k.vp.Succ))
		}
		if !games.SameVisit(&k.vo, &k.vp) {
			k.t.Fatalf("%s: own kernel's visit\n%+v\nplain visit\n%+v", where, k.vo, k.vp)
		}
		if mo.Moves != mp.Moves || mo.Joins != mp.Joins || mo.EdgeRuleJoins != mp.EdgeRuleJoins {
			k.t.Fatalf("%s: own kernel's MoveStats %d moves %d joins %d edge-rule joins, plain %d %d %d",
				where, mo.Moves, mo.Joins, mo.EdgeRuleJoins, mp.Moves, mp.Joins, mp.EdgeRuleJoins)
		}
		if !slices.Equal(mo.MovedPiece, mp.MovedPiece) || !slices.Equal(mo.MovedPieceSplit, mp.MovedPieceSplit) {
			k.t.Fatalf("%s: moved-piece histograms differ", where)
		}
	}
}

// Finish checks what the pair's visits left in the MoveStats.
func (k *Pair) Finish() {
	k.t.Helper()
	if k.mo0.MovedPiece != nil {
		k.t.Errorf("%s: MoveStats without histograms grew them", k.g.Board())
	}
}

// Walk visits every position reachable from g's start breadth first with
// each pair, then finishes them: the representatives of the orbits under
// the start's group when on, as a census stores them, and every position
// otherwise, which each pair visits under its own group (so a pair with
// symmetry also sees keys that are not the least of their orbits). It
// returns the positions visited.
func Walk(t testing.TB, g games.Game, on bool, pairs ...*Pair) int {
	t.Helper()
	gr := games.StartGroup(g, on)
	start := gr.Canon(g.Start())
	seen := map[uint64]bool{start: true}
	tier := []uint64{start}
	var succ []uint64
	var pcs []games.Piece
	for len(tier) > 0 {
		var next []uint64
		for _, pos := range tier {
			for _, k := range pairs {
				k.Check(pos)
			}
			pcs = g.Pieces(pos, pcs[:0])
			succ = g.Expand(pos, pcs, succ[:0], games.NewMoveStats(false), 1)
			for _, s := range succ {
				if s = gr.Canon(s); !seen[s] {
					seen[s] = true
					next = append(next, s)
				}
			}
		}
		tier = next
	}
	for _, k := range pairs {
		k.Finish()
	}
	return len(seen)
}

// Group is the group the pair's kernels work under.
func (k *Pair) Group() *games.Group { return k.gr }

// A Board is a board and a start to check a game's kernel on, written
// ROWSxCOLS, or ROWSxCOLS-START for a start other than the game's standard
// one (START a diagram): the name of the board's subtest.
type Board struct {
	Rows, Cols int
	Start      string // "" for the standard start
}

// parseBoard reads a Board, failing the test on a bad one.
func parseBoard(t *testing.T, s string) Board {
	t.Helper()
	size, start, _ := strings.Cut(s, "-")
	rows, cols, err := games.ParseBoard(size)
	if err != nil {
		t.Fatal(err)
	}
	return Board{rows, cols, start}
}

// Reachable walks, in a subtest for each board, every position reachable
// from the start of newGame(t, b) with pairs: the census's representatives
// under the start's group, and when every(b) also every position, under
// the start's group (keys that are not the least of their orbits) and
// without symmetry. Once every subtest has run, it fails the test when no
// start had a group of n maps for an n of sizes.
func Reachable(t *testing.T, boards []string, newGame func(*testing.T, Board) games.Game, every func(Board) bool, sizes ...int) {
	t.Helper()
	eachBoard(t, boards, sizes, "no start has a group of %d maps", func(t *testing.T, b Board, found func(int)) {
		g := newGame(t, b)
		on := NewStartPair(t, g, true)
		found(on.Group().Size())
		reps := Walk(t, g, true, on)
		if !every(b) {
			t.Logf("%d maps, %d representatives", on.Group().Size(), reps)
		} else {
			all := Walk(t, g, false, NewStartPair(t, g, true), NewStartPair(t, g, false))
			t.Logf("%d maps, %d representatives, %d positions", on.Group().Size(), reps, all)
		}
	})
}

// Random checks pairs, in a subtest for each board, on n random keys of
// the board, key(rng, full, i) for i from 0 with a generator seeded with
// the board's rows and columns, and on the keys 0 and full: under the
// start's group of g, under the identity, and under the group of every map
// of the game, the start's group of empty (the game on the same board
// from a start every map fixes); newGames makes g and empty. Once every
// subtest has run, it fails the test when no pair had a group of n maps
// for an n of sizes.
func Random(t *testing.T, boards []string, n int, newGames func(*testing.T, Board) (g, empty games.Game),
	key func(rng *rand.Rand, full uint64, i int) uint64, sizes ...int) {
	t.Helper()
	eachBoard(t, boards, sizes, "no group of %d maps", func(t *testing.T, b Board, found func(int)) {
		g, empty := newGames(t, b)
		grAll := games.StartGroup(empty, true)
		if want := len(g.KeyMaps()); grAll.Size() != want {
			t.Fatalf("the empty start's group has %d maps, want %d", grAll.Size(), want)
		}
		pairs := []*Pair{NewStartPair(t, g, true), NewStartPair(t, g, false), NewPair(t, g, &grAll)}
		for _, k := range pairs {
			found(k.Group().Size())
		}
		rng := rand.New(rand.NewPCG(uint64(b.Rows), uint64(b.Cols)))
		full := g.Board().Full
		for i := range n {
			pos := key(rng, full, i)
			for _, k := range pairs {
				k.Check(pos)
			}
		}
		for _, k := range pairs {
			k.Check(0)
			k.Check(full)
			k.Finish()
		}
	})
}

// eachBoard runs check in a subtest for each board, named by it; check
// calls found with the size of each group it checks under. Once every
// subtest has run, it fails the test, saying missing of n, for each n of
// sizes that no check found.
func eachBoard(t *testing.T, boards []string, sizes []int, missing string, check func(t *testing.T, b Board, found func(groupSize int))) {
	t.Helper()
	seen, ran := map[int]bool{}, 0
	for _, name := range boards {
		t.Run(name, func(t *testing.T) {
			ran++
			check(t, parseBoard(t, name), func(size int) { seen[size] = true })
		})
	}
	if ran < len(boards) {
		return
	}
	for _, size := range sizes {
		if !seen[size] {
			t.Errorf(missing, size)
		}
	}
}

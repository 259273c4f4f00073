package all

import (
	"fmt"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// kernelBoards are the boards on which every game's own kernel is checked
// against the plain one on every stored position, a square board (a group
// of 8 maps, or 16 with the colour swap) and an oblong one (4) of each
// game; each game's package tests its kernel on more boards and on random
// keys. testing.Short keeps the first of each game's boards only.
var kernelBoards = []struct{ game, board string }{
	{"clobber", "3x3"}, {"clobber", "3x4"},
	{"domineering", "4x4"}, {"domineering", "3x5"},
	{"amazons", "3x3"}, {"amazons", "2x5"},
}

// TestKernelMatchesPlain runs the kernel a tier job uses (games.NewKernel)
// and the kernel built from the Game and Group methods on every position a
// census stores (one per orbit, and with symmetry off every reachable
// position), with and without successors, and compares everything they
// return: the Visit and the move measures.
func TestKernelMatchesPlain(t *testing.T) {
	seenGame := map[string]bool{}
	for _, kb := range kernelBoards {
		if testing.Short() && seenGame[kb.game] {
			continue
		}
		seenGame[kb.game] = true
		for _, sym := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s-%s-sym=%v", kb.game, kb.board, sym), func(t *testing.T) {
				g, err := New(kb.game, kb.board, "")
				if err != nil {
					t.Fatal(err)
				}
				gr := games.StartGroup(g, sym)
				n := compareKernels(t, g, &gr)
				t.Logf("%d stored positions", n)
			})
		}
	}
}

// compareKernels walks the stored positions of g under gr tier by tier and
// compares the two kernels on each; it returns the positions compared.
func compareKernels(t *testing.T, g games.Game, gr *games.Group) int {
	t.Helper()
	fast, plain := games.NewKernel(g, gr), games.NewPlainKernel(g, gr)
	clobber := g.Name() == "clobber"
	var a, b games.Visit
	n := 0
	for tier := []uint64{gr.Canon(g.Start())}; len(tier) > 0; {
		next := map[uint64]struct{}{}
		for _, pos := range tier {
			for _, succ := range []bool{false, true} { // b keeps the successors
				ma, mb := games.NewMoveStats(clobber), games.NewMoveStats(clobber)
				fast.Visit(pos, &a, ma, succ)
				plain.Visit(pos, &b, mb, succ)
				if !games.SameVisit(&a, &b) {
					t.Fatalf("%s: visit\n%+v\nwant\n%+v", g.Format(pos), a, b)
				}
				if ma.Moves != mb.Moves || ma.Joins != mb.Joins || ma.EdgeRuleJoins != mb.EdgeRuleJoins ||
					!slices.Equal(ma.MovedPiece, mb.MovedPiece) || !slices.Equal(ma.MovedPieceSplit, mb.MovedPieceSplit) {
					t.Fatalf("%s: move measures %+v, want %+v", g.Format(pos), ma, mb)
				}
			}
			for _, s := range b.Succ {
				next[s] = struct{}{}
			}
			n++
		}
		tier = tier[:0]
		for s := range next {
			tier = append(tier, s)
		}
		slices.Sort(tier)
	}
	return n
}

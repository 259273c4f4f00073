package all

import (
	"fmt"
	"testing"

	"github.com/census-cgt/census/games/kerneltest"
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

// TestKernelMatchesPlain runs every game's own kernel, which tier jobs use
// (games.NewKernel), and the kernel built from the Game and Group methods
// on every position a census stores (one per orbit, and with symmetry off
// every reachable position), with and without successors, and compares
// everything they return: the Visit and the move measures.
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
				n := kerneltest.Walk(t, g, sym, kerneltest.NewStartPair(t, g, sym))
				t.Logf("%d stored positions", n)
			})
		}
	}
}

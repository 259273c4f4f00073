package jobs

import (
	"fmt"
	"testing"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/values"
)

// TestSolveAgainstValues checks the solve against the values stage: every
// stored position's class is the outcome of the sum of its live pieces'
// canonical forms, where none is capped. The two share nothing but the
// rules: the solve plays whole boards, the values split them into pieces
// and add up canonical forms.
func TestSolveAgainstValues(t *testing.T) {
	for _, c := range []struct{ game, board string }{
		{"clobber", "3x3"}, {"clobber", "3x4"}, {"clobber", "2x6"}, {"clobber", "3x5"},
		{"domineering", "3x4"}, {"domineering", "4x4"}, {"amazons", "2x4"}, {"amazons", "3x3"},
	} {
		t.Run(fmt.Sprintf("%s-%s", c.game, c.board), func(t *testing.T) {
			g := mustGame(t, c.game, c.board, "")
			run := keepAndSolve(t, newMemStore(), Spec{Run: "r", Game: c.game, Board: c.board, MemBudget: 1 << 20}, 2)
			v, err := values.New(c.game, 0)
			if err != nil {
				t.Fatal(err)
			}
			tab := v.Table()
			var checked, capped int
			for pos, r := range run.records {
				o := r.Outcome()
				sum := cgt.Zero
				ok := true
				for _, p := range g.Pieces(pos, nil) {
					if !p.Live {
						continue
					}
					val := v.Value(g.Translate(p.Key))
					if val.Capped {
						ok = false
						break
					}
					sum = tab.Add(sum, val.ID)
				}
				if !ok {
					capped++
					continue
				}
				if want := tab.Outcome(sum).String(); o.String() != want {
					t.Fatalf("outcome %s, sum of the pieces' values %s (%s):\n%s", o, want, tab.String(sum), g.Format(pos))
				}
				checked++
			}
			if checked == 0 {
				t.Fatal("no position checked")
			}
			t.Logf("%d stored positions agree, %d with a capped piece skipped", checked, capped)
		})
	}
}

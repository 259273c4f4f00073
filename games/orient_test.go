package games_test

import (
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// TestCanonSign checks CanonSign against the key maps one by one: the
// representative is Canon's, and it is reported negated exactly when every
// map of the start's group that takes the key there exchanges the players.
func TestCanonSign(t *testing.T) {
	for _, c := range []struct{ game, board string }{{"clobber", "4x4"}, {"clobber", "3x4"}, {"domineering", "4x4"}, {"amazons", "4x4"}} {
		g, err := all.New(c.game, c.board, "")
		if err != nil {
			t.Fatal(err)
		}
		group := games.StartGroup(g, true)
		var maps []*games.KeyMap
		for _, m := range g.KeyMaps() {
			if m.Apply(g.Start()) == g.Start() {
				maps = append(maps, m)
			}
		}
		// Walk a few thousand positions breadth first from the start.
		seen := map[uint64]bool{g.Start(): true}
		queue := []uint64{g.Start()}
		negatedSeen := false
		for len(queue) > 0 && len(seen) < 5000 {
			pos := queue[0]
			queue = queue[1:]
			canon, negated := group.CanonSign(pos)
			if want := group.Canon(pos); canon != want {
				t.Fatalf("%s %s: CanonSign's representative %#x, Canon's %#x", c.game, c.board, canon, want)
			}
			allNegate := true
			for _, m := range maps {
				if m.Apply(pos) == canon && !m.Negates {
					allNegate = false
				}
			}
			if negated != allNegate {
				t.Fatalf("%s %s: negated %v, the maps to the representative say %v:\n%s", c.game, c.board, negated, allNegate, g.Format(pos))
			}
			negatedSeen = negatedSeen || negated
			for _, s := range g.Expand(pos, g.Pieces(pos, nil), nil, games.NewMoveStats(false), 1) {
				if !seen[s] {
					seen[s] = true
					queue = append(queue, s)
				}
			}
		}
		if group.Negates() != negatedSeen {
			t.Errorf("%s %s: group negates %v, a negated representative seen %v", c.game, c.board, group.Negates(), negatedSeen)
		}
	}
}

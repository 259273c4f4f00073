package values

import (
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/values/brute"
)

// livePieces makes a census of game on board in memory, from its start
// through Expand, and returns its distinct translated live pieces, sorted.
func livePieces(tb testing.TB, game, board string) []games.PieceKey {
	tb.Helper()
	g, err := all.New(game, board, "")
	if err != nil {
		tb.Fatal(err)
	}
	keys := map[games.PieceKey]bool{}
	seen := map[uint64]bool{g.Start(): true}
	cur := []uint64{g.Start()}
	ms := games.NewMoveStats(false)
	var pieces []games.Piece
	var succ []uint64
	for len(cur) > 0 {
		var next []uint64
		for _, pos := range cur {
			pieces = g.Pieces(pos, pieces[:0])
			for _, p := range pieces {
				if p.Live {
					keys[g.Translate(p.Key)] = true
				}
			}
			// Dead pieces do not change the live ones a position leads to.
			pos = g.DeadFree(pos, pieces)
			succ = g.Expand(pos, pieces, succ[:0], ms, 1)
			for _, s := range succ {
				if !seen[s] {
					seen[s] = true
					next = append(next, s)
				}
			}
		}
		cur = next
	}
	out := make([]games.PieceKey, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	slices.SortFunc(out, games.PieceKey.Compare)
	return out
}

// bruteForce is package brute's solver, the independent check of the
// outcome classes, failing the test on an error.
type bruteForce struct{ s *brute.Solver }

func newBruteForce(tb testing.TB, game string) *bruteForce {
	s, err := brute.New(game)
	if err != nil {
		tb.Fatal(err)
	}
	return &bruteForce{s}
}

func (b *bruteForce) outcome(g games.Mover, pos uint64) string { return b.s.Outcome(g, pos) }

// pieceOutcome solves the piece k alone on the board of its box.
func (b *bruteForce) pieceOutcome(tb testing.TB, k games.PieceKey) string {
	o, err := b.s.PieceOutcome(k)
	if err != nil {
		tb.Fatal(err)
	}
	return o
}

// gap is the character of a square that takes no part in the game.
var gap = map[string]string{"clobber": ".", "domineering": "#", "amazons": "#"}

// sideBySide draws the pieces g and h on one board, h to the right of g
// with a column of gap squares between, as a diagram of rows x cols.
func sideBySide(game string, pic func(games.PieceKey) string, g, h games.PieceKey) (diagram string, rows, cols int) {
	gr, gc := g.Dims()
	hr, hc := h.Dims()
	rows, cols = max(gr, hr), gc+1+hc
	gRows, hRows := strings.Split(pic(g), "/"), strings.Split(pic(h), "/")
	var out []string
	for r := 0; r < rows; r++ {
		left := strings.Repeat(gap[game], gc)
		if r < gr {
			left = gRows[r]
		}
		right := strings.Repeat(gap[game], hc)
		if r < hr {
			right = hRows[r]
		}
		out = append(out, left+gap[game]+right)
	}
	return strings.Join(out, "/"), rows, cols
}

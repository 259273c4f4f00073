package values

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
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
	slices.SortFunc(out, cmpKey)
	return out
}

// bruteForce solves whole positions by memoised minimax over each player's
// moves, with no decomposition into pieces and no canonical forms.
type bruteForce struct {
	game  string
	boxes map[string]games.Mover
	memo  map[[3]uint64]bool
}

func newBruteForce(game string) *bruteForce {
	return &bruteForce{game: game, boxes: map[string]games.Mover{}, memo: map[[3]uint64]bool{}}
}

func (b *bruteForce) board(tb testing.TB, rows, cols int) games.Mover {
	name := fmt.Sprintf("%dx%d", rows, cols)
	if g, ok := b.boxes[name]; ok {
		return g
	}
	g, err := all.New(b.game, name, "")
	if err != nil {
		tb.Fatal(err)
	}
	b.boxes[name] = g.(games.Mover)
	return b.boxes[name]
}

// wins reports whether the player to move (Left when left) wins pos.
func (b *bruteForce) wins(g games.Mover, pos uint64, left bool) bool {
	bd := g.Board()
	k := [3]uint64{uint64(bd.Rows)<<8 | uint64(bd.Cols), pos, 0}
	if left {
		k[2] = 1
	}
	if w, ok := b.memo[k]; ok {
		return w
	}
	w := false
	for _, s := range g.Options(pos, left, nil) {
		if !b.wins(g, s, !left) {
			w = true
			break
		}
	}
	b.memo[k] = w
	return w
}

func (b *bruteForce) outcome(g games.Mover, pos uint64) string {
	lf := b.wins(g, pos, true)
	rf := b.wins(g, pos, false)
	switch {
	case lf && !rf:
		return "L"
	case !lf && rf:
		return "R"
	case lf && rf:
		return "N"
	}
	return "P"
}

// pieceOutcome solves the piece k alone on the board of its box.
func (b *bruteForce) pieceOutcome(tb testing.TB, k games.PieceKey) string {
	rows, cols := k.Dims()
	g := b.board(tb, rows, cols)
	return b.outcome(g, g.PiecePosition(k))
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

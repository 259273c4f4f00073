// Package amazons holds the rules of Amazons for the census.
//
// A position is two 32-bit planes, square (r, c) at bit r*cols+c: the low
// plane holds Black amazons and burnt squares, the high plane White amazons
// and burnt squares. A square in both is burnt, in neither is empty. Boards
// of up to 32 squares fit.
package amazons

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/census-cgt/census/games"
)

// MaxSquares is the largest board a position key holds.
const MaxSquares = 32

// Game is Amazons on one board from one start.
type Game struct {
	// PlaneDiagrams draws positions and regions in cells.
	games.PlaneDiagrams
	maps       []*games.KeyMap
	b          games.Board
	start      uint64
	startBurnt int
	// rays[sq][d] lists the squares from sq outward in direction d.
	rays [][8][]uint8
	// up[sq] and down[sq] are the squares from sq outward in each
	// direction, as masks: up the four directions in which the square
	// numbers grow, down the four in which they fall.
	up, down [][4]uint64
}

var _ games.Game = (*Game)(nil)

// New returns Amazons on a rows x cols board. start is a board diagram of
// x, o, '.' and '#'; empty means the standard start: White on (0, 0), Black
// at the other end of a longest edge through it. It fails on a board over
// MaxSquares, a bad diagram, or a one-square board with the standard start.
func New(rows, cols int, start string) (*Game, error) {
	b, err := games.NewBoard(rows, cols, MaxSquares)
	if err != nil {
		return nil, err
	}
	g := &Game{PlaneDiagrams: games.NewPlaneDiagrams(b, &cells), b: b, rays: rays(rows, cols), maps: games.BoardMaps(b, 2, true, false)}
	g.up, g.down = rayMasks(g.rays)
	if start == "" {
		if rows*cols < 2 {
			return nil, fmt.Errorf("%w: %s: the standard Amazons start needs at least 2 squares", games.ErrBadBoard, b)
		}
		black := cols - 1
		if cols < rows {
			black = (rows - 1) * cols
		}
		g.start = 1<<black | 1<<32
	} else if g.start, err = parse(b, start); err != nil {
		return nil, err
	}
	g.startBurnt = bits.OnesCount64(burnt(g.start))
	return g, nil
}

// Parse reads a position of the game's board from a diagram of x, o, '.'
// and '#'. It fails like New on a bad diagram.
func (g *Game) Parse(diagram string) (uint64, error) { return parse(g.b, diagram) }

func parse(b games.Board, diagram string) (uint64, error) {
	black, white, err := games.ParseDiagramPlanes(diagram, b, "xo.#", &cells)
	return black | white<<32, err
}

func rays(rows, cols int) [][8][]uint8 {
	dirs := [8][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}
	out := make([][8][]uint8, rows*cols)
	for sq := range out {
		for d, dir := range dirs {
			r, c := sq/cols+dir[0], sq%cols+dir[1]
			for r >= 0 && r < rows && c >= 0 && c < cols {
				out[sq][d] = append(out[sq][d], uint8(r*cols+c))
				r, c = r+dir[0], c+dir[1]
			}
		}
	}
	return out
}

// rayMasks are the rays of every square as masks, split by whether the
// square numbers grow along them (rays' directions 4 to 7) or fall (0 to
// 3).
func rayMasks(rays [][8][]uint8) (up, down [][4]uint64) {
	up, down = make([][4]uint64, len(rays)), make([][4]uint64, len(rays))
	for sq, rs := range rays {
		for d, ray := range rs {
			var m uint64
			for _, t := range ray {
				m |= 1 << t
			}
			if d < 4 {
				down[sq][d] = m
			} else {
				up[sq][d-4] = m
			}
		}
	}
	return up, down
}

// reach is the squares a queen on sq reaches through the squares of free:
// along each ray, the squares before the first one not free.
func (g *Game) reach(sq int, free uint64) uint64 {
	var out uint64
	for _, ray := range g.up[sq] {
		// The first square not free is the lowest blocked one.
		blocked := ray &^ free
		out |= ray & (blocked&-blocked - 1)
	}
	for _, ray := range g.down[sq] {
		// The first square not free is the highest blocked one; with
		// none, the shift by 64 leaves the whole ray.
		blocked := ray &^ free
		out |= ray &^ (^uint64(0) >> uint(bits.LeadingZeros64(blocked)))
	}
	return out
}

func burnt(pos uint64) uint64 { return pos & (pos >> 32) & 0xffffffff }

func (g *Game) Name() string       { return "amazons" }
func (g *Game) Board() games.Board { return g.b }

// KeyMaps are the symmetries of the board, each also with the colours swapped.
func (g *Game) KeyMaps() []*games.KeyMap { return g.maps }
func (g *Game) Start() uint64            { return g.start }

// Tier is the number of arrows shot since the start.
func (g *Game) Tier(pos uint64) int { return bits.OnesCount64(burnt(pos)) - g.startBurnt }

// MaxTier is the empty squares of the start: every arrow burns one.
func (g *Game) MaxTier() int {
	return g.b.Squares() - bits.OnesCount64((g.start|g.start>>32)&0xffffffff)
}

// Pieces appends the king-connected regions of non-burnt squares. A region
// is live when it holds an amazon and an empty square. A region's key is
// the position with every square outside the region burnt.
func (g *Game) Pieces(pos uint64, dst []games.Piece) []games.Piece {
	lo, hi := pos&0xffffffff, pos>>32
	open := g.b.Full &^ (lo & hi)
	amazons := lo ^ hi
	for rest := open; rest != 0; {
		comp := g.b.Fill8(rest&-rest, open)
		rest &^= comp
		out := g.b.Full &^ comp
		dst = append(dst, games.Piece{
			Mask: comp,
			Key:  (lo&comp | out) | (hi&comp|out)<<32,
			Size: bits.OnesCount64(comp),
			Live: comp&amazons != 0 && comp&^amazons != 0,
		})
	}
	return dst
}

// DeadFree burns the empty squares of every dead region; amazons stay.
func (g *Game) DeadFree(pos uint64, pieces []games.Piece) uint64 {
	amazons := (pos ^ pos>>32) & 0xffffffff
	var dead uint64
	for _, p := range pieces {
		if !p.Live {
			dead |= p.Mask &^ amazons
		}
	}
	return pos | dead | dead<<32
}

// Expand appends the successor of every move: an amazon moves like a queen
// through empty squares, then shoots an arrow like a queen from where it
// lands (its vacated square counts as empty).
func (g *Game) Expand(pos uint64, pieces []games.Piece, dst []uint64, m *games.MoveStats, weight uint64) []uint64 {
	return g.expand(pos, pieces, dst, true, m, weight)
}

// CountMoves adds to m what Expand adds, without the successors: an
// amazon's arrows from each square it can land on are counted, not listed.
func (g *Game) CountMoves(pos uint64, pieces []games.Piece, m *games.MoveStats, weight uint64) {
	g.expand(pos, pieces, nil, false, m, weight)
}

// expand is Expand, which appends the successors to dst when list is
// true, and CountMoves, which does not.
func (g *Game) expand(pos uint64, pieces []games.Piece, dst []uint64, list bool, m *games.MoveStats, weight uint64) []uint64 {
	lo, hi := pos&0xffffffff, pos>>32
	open := g.b.Full &^ (lo & hi)
	amazons := lo ^ hi
	empty := open &^ amazons
	var moves, edgeJoins, joins uint64
	for _, p := range pieces {
		if !p.Live {
			continue
		}
		// What is left of the region after an arrow is inside it, so an
		// arrow can join regions only when the region touches another open
		// square (see joins), which one test per region rules out for all
		// its arrows.
		mayJoin := g.b.Nbrs8(p.Mask)&(open&^p.Mask) != 0
		for movers := p.Mask & amazons; movers != 0; movers &= movers - 1 {
			f := bits.TrailingZeros64(movers)
			from := uint64(1) << f
			plane := 0 // the mover's plane: 0 Black, 32 White
			if hi&from != 0 {
				plane = 32
			}
			edgeRegion := g.b.Fill4(from, open)
			left := pos &^ (from << plane)
			for tos := g.reach(f, empty); tos != 0; tos &= tos - 1 {
				t := bits.TrailingZeros64(tos)
				to := uint64(1) << t
				moved := left | to<<plane
				arrows := g.reach(t, (empty|from)&^to)
				n := uint64(bits.OnesCount64(arrows))
				moves += n
				if edgeRegion&to == 0 {
					edgeJoins += n
				}
				switch {
				case p.Mask&to == 0:
					joins += n
				case mayJoin:
					for a := arrows; a != 0; a &= a - 1 {
						if g.joins(p.Mask, a&-a, open) {
							joins++
						}
					}
				}
				if !list {
					continue
				}
				dst = slices.Grow(dst, int(n))
				for a := arrows; a != 0; a &= a - 1 {
					arrow := a & -a
					dst = append(dst, moved|arrow|arrow<<32)
				}
			}
		}
	}
	m.Moves += moves * weight
	m.EdgeRuleJoins += edgeJoins * weight
	m.Joins += joins * weight
	return dst
}

// joins reports whether burning arrow inside region leaves what is left of
// the region touching another non-burnt square. The amazon moved inside
// region, and the other regions keep their squares, so that is the only
// way a piece after the move could hold material of two pieces before it.
func (g *Game) joins(region, arrow, open uint64) bool {
	rest := region &^ arrow
	return g.b.Nbrs8(rest)&(open&^arrow&^rest) != 0
}

// Translate shifts the region with in-place key k to the corner of its box;
// the squares of the box outside the region stay burnt.
func (g *Game) Translate(k uint64) games.PieceKey {
	lo, hi := k&0xffffffff, k>>32
	rows, cols := g.b.Crop(g.b.Full&^(lo&hi), &lo, &hi)
	return games.MakePieceKey(rows, cols, lo|hi<<32)
}

// Classes identifies a region under all 8 symmetries, and under the colour
// swap for negation.
func (g *Game) Classes(k games.PieceKey) (sym, neg games.PieceKey, selfNegative bool) {
	return games.ClassesBySwap(k)
}

// Size is the number of squares of the region, amazons included.
func (g *Game) Size(k games.PieceKey) int {
	rows, cols := k.Dims()
	return rows*cols - bits.OnesCount64(burnt(k.Lo))
}

// CGSuiteRuleset is the CGSuite expression that builds an Amazons position
// from a grid string: game.grid.Amazons("x..#|....|.#.o").
const CGSuiteRuleset = "game.grid.Amazons"

// cells are the characters of a square by its bits in the low and the
// high plane: empty, Black amazon, White amazon, burnt.
//
// They are also the CharMap ".xo#" of game.grid.Amazons (Amazons.cgs under
// lib/core/src/main/resources/org/cgsuite/lang/resources/game/grid/ in
// CGSuite): '.' an empty square, 'x' a Left (Black) amazon, 'o' a Right
// (White) amazon, '#' a burnt square (CGSuite's arrow stone), the spec's
// characters. A cell of the box outside a region is burnt: amazons move
// and shoot only through empty squares, so a burnt square takes no part in
// the game. The key of a translated region already holds such cells as
// burnt.
var cells = [4]byte{'.', 'x', 'o', '#'}

// Package clobber holds the rules of Clobber for the census.
//
// A position packs the Black stones in the low 32 bits and the White stones
// in the high 32 bits, square (r, c) at bit r*cols+c, so boards of up to 32
// squares fit.
package clobber

import (
	"math/bits"

	"github.com/census-cgt/census/games"
)

// MaxSquares is the largest board a position key holds.
const MaxSquares = 32

// Game is Clobber on one board from one start.
type Game struct {
	// PlaneDiagrams draws positions and pieces in cells.
	games.PlaneDiagrams
	maps        []*games.KeyMap
	b           games.Board
	start       uint64
	startStones int
}

var _ games.Game = (*Game)(nil)

// New returns Clobber on a rows x cols board. start is a board diagram of
// x, o and '.'; empty means the standard start, the full checkerboard with
// Black on (0, 0). It fails on a board over MaxSquares or a bad diagram.
func New(rows, cols int, start string) (*Game, error) {
	b, err := games.NewBoard(rows, cols, MaxSquares)
	if err != nil {
		return nil, err
	}
	g := &Game{PlaneDiagrams: games.NewPlaneDiagrams(b, &cells), b: b, maps: games.BoardMaps(b, 2, true, false)}
	if start == "" {
		var black uint64
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				if (r+c)%2 == 0 {
					black |= 1 << (r*cols + c)
				}
			}
		}
		g.start = black | (b.Full&^black)<<32
	} else if g.start, err = parse(b, start); err != nil {
		return nil, err
	}
	g.startStones = bits.OnesCount64(g.start)
	return g, nil
}

// Parse reads a position of the game's board from a diagram of x, o and
// '.'. It fails like New on a bad diagram.
func (g *Game) Parse(diagram string) (uint64, error) { return parse(g.b, diagram) }

func parse(b games.Board, diagram string) (uint64, error) {
	black, white, err := games.ParseDiagramPlanes(diagram, b, "xo.", &cells)
	return black | white<<32, err
}

func (g *Game) Name() string       { return "clobber" }
func (g *Game) Board() games.Board { return g.b }

// KeyMaps are the symmetries of the board, each also with the colours swapped.
func (g *Game) KeyMaps() []*games.KeyMap { return g.maps }
func (g *Game) Start() uint64            { return g.start }

// Tier is the number of stones removed since the start.
func (g *Game) Tier(pos uint64) int { return g.startStones - bits.OnesCount64(pos) }

// MaxTier is one less than the stones of the start: a capture needs two.
func (g *Game) MaxTier() int { return max(g.startStones-1, 0) }

func split(pos uint64) (black, white uint64) { return pos & 0xffffffff, pos >> 32 }

// Pieces appends the orthogonally connected groups of stones of pos. A group
// is live when one of its stones has an opposing orthogonal neighbour.
func (g *Game) Pieces(pos uint64, dst []games.Piece) []games.Piece {
	black, white := split(pos)
	stones := black | white
	for rest := stones; rest != 0; {
		comp := g.b.Fill4(rest&-rest, stones)
		rest &^= comp
		bc, wc := black&comp, white&comp
		dst = append(dst, games.Piece{
			Mask: comp,
			Key:  bc | wc<<32,
			Size: bits.OnesCount64(comp),
			Live: g.b.Nbrs4(bc)&wc != 0,
		})
	}
	return dst
}

// DeadFree removes the stones of every dead piece.
func (g *Game) DeadFree(pos uint64, pieces []games.Piece) uint64 {
	var dead uint64
	for _, p := range pieces {
		if !p.Live {
			dead |= p.Mask
		}
	}
	return pos &^ (dead | dead<<32)
}

// Expand appends the successor of every capture. A capture moves a stone
// from a onto the opposing stone at t, an orthogonal neighbour.
func (g *Game) Expand(pos uint64, pieces []games.Piece, dst []uint64, m *games.MoveStats, weight uint64) []uint64 {
	black, white := split(pos)
	stones := black | white
	n := bits.OnesCount64(stones)
	b := g.b
	for _, p := range pieces {
		if !p.Live {
			continue
		}
		count := uint64(0)
		// A capture inside the piece can join pieces only when the piece
		// touches another stone (see joins), which one test per piece
		// rules out for all its moves.
		mayJoin := b.Nbrs4(p.Mask)&(stones&^p.Mask) != 0
		for side := 0; side < 2; side++ {
			mine, theirs, shift := black&p.Mask, white, 0
			if side == 1 {
				mine, theirs, shift = white&p.Mask, black, 32
			}
			for dir := 0; dir < 4; dir++ {
				targets, delta := captures(&b, dir, mine, theirs)
				for ; targets != 0; targets &= targets - 1 {
					t := bits.TrailingZeros64(targets)
					from, to := uint64(1)<<(t-delta), uint64(1)<<t
					// The mover leaves from; the captured stone at to is
					// replaced by the mover.
					succ := pos&^(from<<shift|to<<(32-shift)) | to<<shift
					dst = append(dst, succ)
					count++
					if p.Mask&to == 0 || mayJoin && g.joins(p.Mask, from, to, stones) {
						m.Joins += weight
					}
				}
			}
		}
		m.Moves += count * weight
		if m.MovedPiece != nil {
			m.MovedPiece[n*games.MovedPieceStride+p.Size] += count * weight
			if len(pieces) >= 2 {
				m.MovedPieceSplit[n*games.MovedPieceStride+p.Size] += count * weight
			}
		}
	}
	return dst
}

// joins reports whether the capture from -> to, made in the piece with
// squares piece, leaves some piece holding stones of two pieces of the
// position before it. The other pieces keep their squares and only lose
// neighbours, so it is enough to check that the mover lands inside its own
// piece and that what is left of that piece touches no other stone. What is
// left is inside the piece, so when the piece touches no other stone no
// capture inside it joins.
func (g *Game) joins(piece, from, to, stones uint64) bool {
	if piece&to == 0 {
		return true
	}
	after := stones &^ from
	rest := piece &^ from
	return g.b.Nbrs4(rest)&(after&^rest) != 0
}

// Translate shifts the piece with in-place key k to the corner of its box.
func (g *Game) Translate(k uint64) games.PieceKey {
	black, white := split(k)
	rows, cols := g.b.Crop(black|white, &black, &white)
	return games.MakePieceKey(rows, cols, black|white<<32)
}

// Classes identifies a piece under all 8 symmetries, and under the colour
// swap for negation.
func (g *Game) Classes(k games.PieceKey) (sym, neg games.PieceKey, selfNegative bool) {
	return games.ClassesBySwap(k)
}

// Size is the number of stones of the piece.
func (g *Game) Size(k games.PieceKey) int { return bits.OnesCount64(k.Lo) }

// CGSuiteRuleset is the CGSuite expression that builds a Clobber position
// from a grid string: game.grid.Clobber("xo|ox").
const CGSuiteRuleset = "game.grid.Clobber"

// cells are the characters of a square by its bits in the Black and the
// White plane; a square in both (no key of a position) draws as Black.
//
// They are also the CharMap ".xo" of game.grid.Clobber (GenClobber.cgs
// under lib/core/src/main/resources/org/cgsuite/lang/resources/game/grid/
// in CGSuite; Clobber is GenClobber() in constants.cgs there): '.' empty,
// 'x' a Left (Black) stone, 'o' a Right (White) stone, the spec's
// characters. A cell of the box outside a piece is empty: a stone moves
// only onto an opposing stone, so an empty square takes no part in the
// game and CGSuite's Decomposition splits the grid at empty squares.
var cells = [4]byte{'.', 'x', 'o', 'x'}

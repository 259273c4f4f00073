// Package domineering holds the rules of Domineering for the census.
//
// A position is the mask of covered squares, square (r, c) at bit
// r*cols+c, so boards of up to 64 squares fit. Positions are identified by
// the covered set, not by the dominoes.
package domineering

import (
	"math/bits"

	"github.com/census-cgt/census/games"
)

// MaxSquares is the largest board a position key holds.
const MaxSquares = 64

// Game is Domineering on one board from one start.
type Game struct {
	maps         []*games.KeyMap
	b            games.Board
	start        uint64
	startCovered int
}

var _ games.Game = (*Game)(nil)

// New returns Domineering on a rows x cols board. start is a board diagram
// of '.' (empty) and '#' (covered); empty means the empty board. It fails on
// a board over MaxSquares or a bad diagram.
func New(rows, cols int, start string) (*Game, error) {
	b, err := games.NewBoard(rows, cols, MaxSquares)
	if err != nil {
		return nil, err
	}
	g := &Game{b: b, maps: games.BoardMaps(b, 1, false, true)}
	if start != "" {
		if g.start, err = parse(b, start); err != nil {
			return nil, err
		}
	}
	g.startCovered = bits.OnesCount64(g.start)
	return g, nil
}

// Parse reads a position of the game's board from a diagram of '.' and
// '#'. It fails like New on a bad diagram.
func (g *Game) Parse(diagram string) (uint64, error) { return parse(g.b, diagram) }

func parse(b games.Board, diagram string) (uint64, error) {
	cells, err := games.ParseDiagram(diagram, b, ".#")
	if err != nil {
		return 0, err
	}
	var pos uint64
	for i, ch := range cells {
		if ch == '#' {
			pos |= 1 << i
		}
	}
	return pos, nil
}

func (g *Game) Name() string       { return "domineering" }
func (g *Game) Board() games.Board { return g.b }

// KeyMaps are the symmetries of the board.
func (g *Game) KeyMaps() []*games.KeyMap { return g.maps }
func (g *Game) Start() uint64            { return g.start }

// Tier is the number of dominoes placed since the start.
func (g *Game) Tier(pos uint64) int { return (bits.OnesCount64(pos) - g.startCovered) / 2 }

// MaxTier is half the empty squares of the start.
func (g *Game) MaxTier() int { return (g.b.Squares() - g.startCovered) / 2 }

// Pieces appends the edge-connected regions of empty squares. A region is
// live when it has two squares, hence room for a domino.
func (g *Game) Pieces(pos uint64, dst []games.Piece) []games.Piece {
	empty := g.b.Full &^ pos
	for rest := empty; rest != 0; {
		comp := g.b.Fill4(rest&-rest, empty)
		rest &^= comp
		size := bits.OnesCount64(comp)
		dst = append(dst, games.Piece{Mask: comp, Key: comp, Size: size, Live: size >= 2})
	}
	return dst
}

// DeadFree covers every lone empty square.
func (g *Game) DeadFree(pos uint64, pieces []games.Piece) uint64 {
	for _, p := range pieces {
		if !p.Live {
			pos |= p.Mask
		}
	}
	return pos
}

// Expand appends the successor of every domino placement: vertical ones
// (Left's) and horizontal ones (Right's).
func (g *Game) Expand(pos uint64, pieces []games.Piece, dst []uint64, m *games.MoveStats, weight uint64) []uint64 {
	for _, p := range pieces {
		if !p.Live {
			continue
		}
		vert, horiz := g.tops(p.Mask)
		for pass, tops := range [2]uint64{vert, horiz} {
			delta := g.delta(pass)
			for ; tops != 0; tops &= tops - 1 {
				i := bits.TrailingZeros64(tops)
				dst = append(dst, pos|uint64(1)<<i|uint64(1)<<(i+delta))
			}
		}
	}
	g.CountMoves(pos, pieces, m, weight)
	return dst
}

// CountMoves adds to m what Expand adds, without the successors: the
// placements of a region are the pairs of its squares side by side, which
// two shifts and two population counts find.
func (g *Game) CountMoves(pos uint64, pieces []games.Piece, m *games.MoveStats, weight uint64) {
	empty := g.b.Full &^ pos
	var moves, joins uint64
	for _, p := range pieces {
		if !p.Live {
			continue
		}
		vert, horiz := g.tops(p.Mask)
		moves += uint64(bits.OnesCount64(vert) + bits.OnesCount64(horiz))
		// What is left of the region after a placement is inside it, so a
		// placement can join regions only when the region touches another
		// empty square, which one test per region rules out for all its
		// placements.
		if g.b.Nbrs4(p.Mask)&(empty&^p.Mask) == 0 {
			continue
		}
		for pass, tops := range [2]uint64{vert, horiz} {
			delta := g.delta(pass)
			for ; tops != 0; tops &= tops - 1 {
				i := bits.TrailingZeros64(tops)
				domino := uint64(1)<<i | uint64(1)<<(i+delta)
				rest := p.Mask &^ domino
				if g.b.Nbrs4(rest)&(empty&^domino&^rest) != 0 {
					joins++
				}
			}
		}
	}
	m.Moves += moves * weight
	m.Joins += joins * weight
}

// tops are the top squares of the vertical dominoes that fit in region and
// the left squares of the horizontal ones.
func (g *Game) tops(region uint64) (vert, horiz uint64) {
	return region & (region >> g.b.Cols), region & g.b.West(region)
}

// delta is how far a domino's second square lies from its first: a row
// for the vertical ones (pass 0), a column for the horizontal ones.
func (g *Game) delta(pass int) int {
	if pass == 0 {
		return g.b.Cols
	}
	return 1
}

// Translate shifts the region k to the corner of its box.
func (g *Game) Translate(k uint64) games.PieceKey {
	rows, cols := g.b.Crop(k, &k)
	return games.MakePieceKey(rows, cols, k)
}

// Classes identifies a region under the 4 symmetries that keep vertical
// vertical, and under the transpose (which swaps the players) for negation.
func (g *Game) Classes(k games.PieceKey) (sym, neg games.PieceKey, selfNegative bool) {
	return games.Classes(k, games.Symmetries[:4], 1, transpose)
}

func transpose(k games.PieceKey) games.PieceKey { return games.Transform(k, games.Transpose, 1) }

// Size is the number of squares of the region.
func (g *Game) Size(k games.PieceKey) int { return bits.OnesCount64(k.Lo) }

// Picture draws a region: '.' for its squares, '#' for the rest of its box.
func (g *Game) Picture(k games.PieceKey) string {
	rows, cols := k.Dims()
	return games.FormatDiagramPlanes(rows, cols, ^k.Lo, 0, &cells)
}

// CGSuiteRuleset is the CGSuite expression that builds a Domineering
// position from a grid string: game.grid.Domineering(".#|..").
const CGSuiteRuleset = "game.grid.Domineering"

// CGSuite draws a region as a grid string for game.grid.Domineering. Its
// CharMap is ".#" (Domineering.cgs under
// lib/core/src/main/resources/org/cgsuite/lang/resources/game/grid/ in
// CGSuite): '.' an empty square, '#' a covered one, the spec's characters.
// A cell of the box outside the region is covered: no domino can be placed
// on it, so it takes no part in the game.
func (g *Game) CGSuite(k games.PieceKey) string {
	rows, cols := k.Dims()
	return games.FormatCGSuitePlanes(rows, cols, ^k.Lo, 0, &cells)
}

// AppendPicture appends Picture(k) to dst.
func (g *Game) AppendPicture(dst []byte, k games.PieceKey) []byte {
	rows, cols := k.Dims()
	return games.AppendDiagramPlanes(dst, rows, cols, ^k.Lo, 0, &cells)
}

// Format draws a position.
func (g *Game) Format(pos uint64) string {
	return games.FormatDiagramPlanes(g.b.Rows, g.b.Cols, pos, 0, &cells)
}

// cells are the characters of a square by its bit in the covered plane.
var cells = [4]byte{'.', '#', '.', '#'}

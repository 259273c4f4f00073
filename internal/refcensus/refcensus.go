// Package refcensus is a deliberately simple census enumerator for Clobber,
// Domineering and Amazons, written to cross-check the real census engine in
// tests. It follows census-spec.md literally: boards are plain byte slices
// (row-major, index r*cols+c), sets are Go maps keyed by strings, pieces are
// found by flood fill, and every move is generated and examined one by one.
// It favours clarity over speed and is meant for boards of up to about 16
// squares.
package refcensus

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Result holds every measure of census-spec.md for one game and board.
type Result struct {
	Positions, Moves uint64
	// PositionsByTier and SplitByTier are indexed by tier (moves made since the start).
	PositionsByTier, SplitByTier []uint64
	SplitPositions               uint64 // positions with >= 2 live pieces
	LivePiecesWhenSplit          uint64 // sum of live-piece counts over split positions
	PositionsWithDead            uint64 // positions with >= 1 dead piece
	DeadFreeBoards               uint64
	PiecesInPlace                uint64
	PiecesTranslated             uint64
	PiecesSymmetric              uint64
	PiecesNegation               uint64
	SelfNegativeSymmetric        uint64
	PiecesBySize                 map[int]uint64 // size -> distinct translated live pieces
	Joins                        uint64
	EdgeRuleJoins                uint64 // Amazons only, 0 otherwise

	// Clobber only (0 otherwise). The mean moved-piece fraction is Sum/Moves.
	MovedPieceFracSum           float64
	MovedPieceMoves             uint64
	MovedPieceFracSumAfterSplit float64 // over moves from positions holding >= 2 pieces (live or dead)
	MovedPieceMovesAfterSplit   uint64
}

const (
	black  = 'x'
	white  = 'o'
	empty  = '.'
	burnt  = '#' // burnt (Amazons) or covered (Domineering)
	absent = ' ' // a cell of a piece's bounding box that is not in the piece
)

// Start returns the standard start diagram of census-spec.md.
func Start(game string, rows, cols int) (string, error) {
	g, err := newGeom(game, rows, cols)
	if err != nil {
		return "", err
	}
	b := make([]byte, rows*cols)
	for i := range b {
		b[i] = empty
	}
	switch game {
	case "clobber":
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				if (r+c)%2 == 0 {
					b[r*cols+c] = black
				} else {
					b[r*cols+c] = white
				}
			}
		}
	case "amazons":
		if rows*cols < 2 {
			return "", errors.New("refcensus: amazons needs at least 2 squares")
		}
		b[0] = white
		if cols >= rows {
			b[cols-1] = black
		} else {
			b[(rows-1)*cols] = black
		}
	}
	return g.diagram(b), nil
}

// Census enumerates every position reachable from start by moves of either
// player and returns every measure of census-spec.md.
func Census(game string, rows, cols int, start string) (Result, error) {
	g, err := newGeom(game, rows, cols)
	if err != nil {
		return Result{}, err
	}
	b0, err := g.parse(start)
	if err != nil {
		return Result{}, err
	}
	t := newTally(g)
	cur := map[string]bool{string(b0): true}
	for len(cur) > 0 {
		next := map[string]bool{}
		var split uint64
		for key := range cur {
			b := []byte(key)
			label, ps := g.pieces(b)
			if t.position(b, ps) {
				split++
			}
			t.moves(b, label, ps, next)
		}
		t.res.Positions += uint64(len(cur))
		t.res.PositionsByTier = append(t.res.PositionsByTier, uint64(len(cur)))
		t.res.SplitByTier = append(t.res.SplitByTier, split)
		t.res.SplitPositions += split
		cur = next
	}
	return t.result(), nil
}

// tally is a census under way: the measures counted so far, and the sets
// whose sizes are measures.
type tally struct {
	g                             *geom
	res                           Result
	deadFree, inPlace, translated map[string]bool
	// Moved-piece fractions are accumulated exactly as integer numerators
	// per denominator (stones on the board) and divided once at the end.
	fracNum, fracNumSplit map[int]uint64
}

func newTally(g *geom) *tally {
	return &tally{g: g, deadFree: map[string]bool{}, inPlace: map[string]bool{}, translated: map[string]bool{},
		fracNum: map[int]uint64{}, fracNumSplit: map[int]uint64{}}
}

// position counts the measures of the position b with pieces ps, and
// reports whether it is split (holds at least 2 live pieces).
func (t *tally) position(b []byte, ps []piece) bool {
	g, res := t.g, &t.res
	live, dead := 0, 0
	for _, p := range ps {
		if p.live {
			live++
		} else {
			dead++
		}
	}
	if live >= 2 {
		res.LivePiecesWhenSplit += uint64(live)
	}
	if dead > 0 {
		res.PositionsWithDead++
	}
	t.deadFree[string(g.deadFree(b, ps))] = true
	for _, p := range ps {
		if !p.live {
			continue
		}
		t.inPlace[g.inPlaceKey(b, p.squares)] = true
		t.translated[g.translate(b, p.squares).key()] = true
	}
	return live >= 2
}

// moves counts the measures of every move from the position b, whose
// squares have the piece labels label of the pieces ps, and adds the
// positions they lead to to next.
func (t *tally) moves(b []byte, label []int, ps []piece, next map[string]bool) {
	g, res := t.g, &t.res
	var comp4 []int
	if g.game == "amazons" {
		comp4 = g.components(b, g.adj4)
	}
	stones := 0
	for _, c := range b {
		if c == black || c == white {
			stones++
		}
	}
	for _, m := range g.moves(b) {
		res.Moves++
		nb := g.apply(b, m)
		next[string(nb)] = true
		if g.joins(nb, g.carry(label, m)) {
			res.Joins++
		}
		if g.game == "amazons" && comp4[m.from] != comp4[m.to] {
			res.EdgeRuleJoins++
		}
		if g.game == "clobber" {
			size := len(ps[label[m.from]].squares)
			t.fracNum[stones] += uint64(size)
			res.MovedPieceMoves++
			if len(ps) >= 2 {
				t.fracNumSplit[stones] += uint64(size)
				res.MovedPieceMovesAfterSplit++
			}
		}
	}
}

// result is the census's measures, with those of the pieces found.
func (t *tally) result() Result {
	g, res := t.g, t.res
	res.DeadFreeBoards = uint64(len(t.deadFree))
	res.PiecesInPlace = uint64(len(t.inPlace))
	res.PiecesTranslated = uint64(len(t.translated))
	res.PiecesBySize = map[int]uint64{}
	symmetric := map[string]bool{}
	negation := map[string]bool{}
	selfNeg := map[string]bool{}
	for tk := range t.translated {
		p := parseKey(tk)
		res.PiecesBySize[p.size()]++
		sym := g.symCanon(p)
		negSym := g.symCanon(g.negate(p))
		symmetric[sym] = true
		negation[min(sym, negSym)] = true
		if sym == negSym {
			selfNeg[sym] = true
		}
	}
	res.PiecesSymmetric = uint64(len(symmetric))
	res.PiecesNegation = uint64(len(negation))
	res.SelfNegativeSymmetric = uint64(len(selfNeg))
	res.MovedPieceFracSum = fracSum(t.fracNum)
	res.MovedPieceFracSumAfterSplit = fracSum(t.fracNumSplit)
	return res
}

func fracSum(num map[int]uint64) float64 {
	dens := make([]int, 0, len(num))
	for d := range num {
		dens = append(dens, d)
	}
	slices.Sort(dens)
	sum := 0.0
	for _, d := range dens {
		sum += float64(num[d]) / float64(d)
	}
	return sum
}

// geom is a game on a board: its rules and the neighbour lists of its squares.
type geom struct {
	game       string
	rows, cols int
	adj4, adj8 [][]int // orthogonal and king neighbours of each square
}

func newGeom(game string, rows, cols int) (*geom, error) {
	switch game {
	case "clobber", "domineering", "amazons":
	default:
		return nil, fmt.Errorf("refcensus: unknown game %q", game)
	}
	if rows < 1 || cols < 1 || rows > 255 || cols > 255 {
		return nil, fmt.Errorf("refcensus: bad board size %dx%d", rows, cols)
	}
	g := &geom{game: game, rows: rows, cols: cols}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			var n4, n8 []int
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					nr, nc := r+dr, c+dc
					if (dr == 0 && dc == 0) || nr < 0 || nr >= rows || nc < 0 || nc >= cols {
						continue
					}
					n8 = append(n8, nr*cols+nc)
					if dr == 0 || dc == 0 {
						n4 = append(n4, nr*cols+nc)
					}
				}
			}
			g.adj4 = append(g.adj4, n4)
			g.adj8 = append(g.adj8, n8)
		}
	}
	return g, nil
}

// parse reads a board diagram, checking its shape and the characters allowed in the game.
func (g *geom) parse(s string) ([]byte, error) {
	allowed := map[string]string{"clobber": "xo.", "domineering": ".#", "amazons": "xo.#"}[g.game]
	lines := strings.Split(s, "/")
	if len(lines) != g.rows {
		return nil, fmt.Errorf("refcensus: diagram %q has %d rows, want %d", s, len(lines), g.rows)
	}
	var b []byte
	for _, line := range lines {
		if len(line) != g.cols {
			return nil, fmt.Errorf("refcensus: diagram %q has a row of %d squares, want %d", s, len(line), g.cols)
		}
		for i := 0; i < len(line); i++ {
			if !strings.ContainsRune(allowed, rune(line[i])) {
				return nil, fmt.Errorf("refcensus: character %q not allowed in %s diagram %q", line[i], g.game, s)
			}
		}
		b = append(b, line...)
	}
	return b, nil
}

func (g *geom) diagram(b []byte) string {
	var lines []string
	for r := 0; r < g.rows; r++ {
		lines = append(lines, string(b[r*g.cols:(r+1)*g.cols]))
	}
	return strings.Join(lines, "/")
}

func opposite(c byte) byte {
	switch c {
	case black:
		return white
	case white:
		return black
	}
	return c
}

// material reports whether a square's content belongs to a piece.
func (g *geom) material(c byte) bool {
	switch g.game {
	case "clobber":
		return c == black || c == white
	case "domineering":
		return c == empty
	default: // amazons
		return c != burnt
	}
}

type piece struct {
	squares []int // ascending
	live    bool
}

// components labels each material square with the index of its connected
// component under the given neighbour lists; other squares get -1.
func (g *geom) components(b []byte, adj [][]int) []int {
	label := make([]int, len(b))
	for i := range label {
		label[i] = -1
	}
	n := 0
	for s := range b {
		if label[s] >= 0 || !g.material(b[s]) {
			continue
		}
		label[s] = n
		stack := []int{s}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, w := range adj[v] {
				if label[w] < 0 && g.material(b[w]) {
					label[w] = n
					stack = append(stack, w)
				}
			}
		}
		n++
	}
	return label
}

// pieces returns the piece label of every square (-1 for non-material) and the pieces.
func (g *geom) pieces(b []byte) ([]int, []piece) {
	adj := g.adj4
	if g.game == "amazons" {
		adj = g.adj8
	}
	label := g.components(b, adj)
	var ps []piece
	for s, l := range label {
		if l < 0 {
			continue
		}
		if l == len(ps) {
			ps = append(ps, piece{})
		}
		ps[l].squares = append(ps[l].squares, s)
	}
	for i := range ps {
		ps[i].live = g.live(b, ps[i].squares)
	}
	return label, ps
}

func (g *geom) live(b []byte, sq []int) bool {
	switch g.game {
	case "clobber":
		for _, s := range sq {
			for _, n := range g.adj4[s] {
				if b[n] == opposite(b[s]) {
					return true
				}
			}
		}
		return false
	case "domineering":
		return len(sq) >= 2
	default: // amazons
		amazon, hole := false, false
		for _, s := range sq {
			if b[s] == empty {
				hole = true
			} else {
				amazon = true
			}
		}
		return amazon && hole
	}
}

// deadFree returns the board with every dead piece deleted.
func (g *geom) deadFree(b []byte, ps []piece) []byte {
	out := slices.Clone(b)
	for _, p := range ps {
		if p.live {
			continue
		}
		for _, s := range p.squares {
			switch g.game {
			case "clobber":
				out[s] = empty
			case "domineering":
				out[s] = burnt
			case "amazons":
				if b[s] == empty {
					out[s] = burnt
				}
			}
		}
	}
	return out
}

// inPlaceKey is the whole board with every square outside the piece marked absent.
func (g *geom) inPlaceKey(b []byte, sq []int) string {
	out := make([]byte, len(b))
	for i := range out {
		out[i] = absent
	}
	for _, s := range sq {
		out[s] = b[s]
	}
	return string(out)
}

// move is one legal move. Clobber: from -> to. Domineering: the domino
// covers from and to. Amazons: from -> to, then an arrow to arrow.
type move struct{ from, to, arrow int }

var queenDirs = [8][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}

// queenTargets lists the squares a queen on s reaches through empty squares.
func (g *geom) queenTargets(b []byte, s int) []int {
	var out []int
	for _, d := range queenDirs {
		r, c := s/g.cols+d[0], s%g.cols+d[1]
		for r >= 0 && r < g.rows && c >= 0 && c < g.cols && b[r*g.cols+c] == empty {
			out = append(out, r*g.cols+c)
			r, c = r+d[0], c+d[1]
		}
	}
	return out
}

func (g *geom) moves(b []byte) []move {
	var ms []move
	for s, c := range b {
		switch g.game {
		case "clobber":
			if c != black && c != white {
				continue
			}
			for _, n := range g.adj4[s] {
				if b[n] == opposite(c) {
					ms = append(ms, move{s, n, -1})
				}
			}
		case "domineering":
			if c != empty {
				continue
			}
			// Each domino once: with its right or lower square.
			for _, n := range g.adj4[s] {
				if n > s && b[n] == empty {
					ms = append(ms, move{s, n, -1})
				}
			}
		case "amazons":
			if c != black && c != white {
				continue
			}
			for _, t := range g.queenTargets(b, s) {
				b[s], b[t] = empty, c
				for _, a := range g.queenTargets(b, t) {
					ms = append(ms, move{s, t, a})
				}
				b[s], b[t] = c, empty
			}
		}
	}
	return ms
}

// apply returns the board after move m.
func (g *geom) apply(b []byte, m move) []byte {
	out := slices.Clone(b)
	switch g.game {
	case "clobber":
		out[m.to], out[m.from] = b[m.from], empty
	case "domineering":
		out[m.from], out[m.to] = burnt, burnt
	case "amazons":
		out[m.to], out[m.from] = b[m.from], empty
		out[m.arrow] = burnt
	}
	return out
}

// carry moves the old piece labels along with move m: the mover's label goes
// to its destination; squares that stop being material lose their label.
func (g *geom) carry(label []int, m move) []int {
	out := slices.Clone(label)
	switch g.game {
	case "clobber":
		out[m.to], out[m.from] = label[m.from], -1
	case "domineering":
		out[m.from], out[m.to] = -1, -1
	case "amazons":
		// The vacated square stays material (empty) with its old label.
		out[m.to] = label[m.from]
		out[m.arrow] = -1
	}
	return out
}

// joins reports whether some piece of the new board nb holds material carrying
// two different old labels.
func (g *geom) joins(nb []byte, label []int) bool {
	_, ps := g.pieces(nb)
	for _, p := range ps {
		for _, s := range p.squares {
			if label[s] < 0 {
				panic("refcensus: material square without an old label")
			}
			if label[s] != label[p.squares[0]] {
				return true
			}
		}
	}
	return false
}

// grid is a piece translated to the top-left of its bounding box: h x w cells,
// absent for cells of the box not in the piece.
type grid struct {
	h, w  int
	cells []byte
}

func (p grid) key() string { return string([]byte{byte(p.h), byte(p.w)}) + string(p.cells) }

func parseKey(k string) grid { return grid{int(k[0]), int(k[1]), []byte(k[2:])} }

func (p grid) size() int {
	n := 0
	for _, c := range p.cells {
		if c != absent {
			n++
		}
	}
	return n
}

func (g *geom) translate(b []byte, sq []int) grid {
	r0, c0, r1, c1 := g.rows, g.cols, -1, -1
	for _, s := range sq {
		r, c := s/g.cols, s%g.cols
		r0, c0, r1, c1 = min(r0, r), min(c0, c), max(r1, r), max(c1, c)
	}
	p := grid{h: r1 - r0 + 1, w: c1 - c0 + 1}
	p.cells = make([]byte, p.h*p.w)
	for i := range p.cells {
		p.cells[i] = absent
	}
	for _, s := range sq {
		p.cells[(s/g.cols-r0)*p.w+(s%g.cols-c0)] = b[s]
	}
	return p
}

// transform applies symmetry t in 0..7: bit 4 transposes first, then bit 1
// flips rows and bit 2 flips columns. t < 4 keeps vertical vertical.
func (p grid) transform(t int) grid {
	h, w := p.h, p.w
	if t&4 != 0 {
		h, w = w, h
	}
	out := grid{h: h, w: w, cells: make([]byte, h*w)}
	for r := 0; r < p.h; r++ {
		for c := 0; c < p.w; c++ {
			nr, nc := r, c
			if t&4 != 0 {
				nr, nc = c, r
			}
			if t&1 != 0 {
				nr = h - 1 - nr
			}
			if t&2 != 0 {
				nc = w - 1 - nc
			}
			out.cells[nr*w+nc] = p.cells[r*p.w+c]
		}
	}
	return out
}

// symCanon is the smallest key among the piece's images under the game's symmetries.
func (g *geom) symCanon(p grid) string {
	n := 8
	if g.game == "domineering" {
		n = 4
	}
	best := ""
	for t := 0; t < n; t++ {
		if k := p.transform(t).key(); t == 0 || k < best {
			best = k
		}
	}
	return best
}

// negate returns the piece's negative: colours swapped, or transposed for Domineering.
func (g *geom) negate(p grid) grid {
	if g.game == "domineering" {
		return p.transform(4)
	}
	out := grid{h: p.h, w: p.w, cells: make([]byte, len(p.cells))}
	for i, c := range p.cells {
		out.cells[i] = opposite(c)
	}
	return out
}

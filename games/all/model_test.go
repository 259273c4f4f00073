package all

import (
	"strings"

	"github.com/census-cgt/census/games"
)

// This file is a naive model of the three games on a grid of characters,
// written from census-spec.md without the bit tricks of the game packages:
// x Black, o White, . empty, # burnt (Amazons) or covered (Domineering).
// The property tests compare the game packages with it.

// grid is a rectangle of cells, row by row.
type grid struct {
	rows, cols int
	cells      []byte
}

func (g grid) at(r, c int) byte { return g.cells[r*g.cols+c] }

func (g grid) in(r, c int) bool { return r >= 0 && r < g.rows && c >= 0 && c < g.cols }

func (g grid) clone() grid {
	return grid{g.rows, g.cols, append([]byte(nil), g.cells...)}
}

func (g grid) String() string {
	var rows []string
	for r := 0; r < g.rows; r++ {
		rows = append(rows, string(g.cells[r*g.cols:(r+1)*g.cols]))
	}
	return strings.Join(rows, "/")
}

// model is what the property tests know of one game.
type model struct {
	name string
	// chars are the characters of a start diagram.
	chars string
	// material is a square that belongs to some piece.
	material func(c byte) bool
	// king says pieces connect diagonally too.
	king bool
	// filler is the character of a square outside a piece, in the piece's
	// bounding box or on the board.
	filler byte
	// live is the spec's definition, given the squares of one piece.
	live func(g grid, sq []int) bool
	// deadFree deletes a dead piece's squares from g.
	deadFree func(g grid, sq []int)
	// successors lists one grid per legal move of either player.
	successors func(g grid) []grid
	// posKey packs a board grid as the game's position key; pieceKey packs
	// a grid (a piece on the board, or in its box) as the game's piece
	// cells.
	posKey, pieceCells func(g grid) uint64
	// size is what the census counts a piece by.
	size func(g grid, sq []int) int
	// generators generate the game's symmetry group: a quarter turn and a
	// mirror for all 8, the two flips for the 4 of Domineering.
	generators []func(grid) grid
	// negate is the negative of a piece grid.
	negate func(grid) grid
}

var dirs4 = [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}
var dirs8 = [][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}

// twoPlanes packs Black (and burnt) squares in the low 32 bits and White
// (and burnt) squares in the high 32 bits, as Clobber and Amazons do.
func twoPlanes(g grid) uint64 {
	var k uint64
	for i, c := range g.cells {
		switch c {
		case 'x':
			k |= 1 << i
		case 'o':
			k |= 1 << (32 + i)
		case '#':
			k |= 1<<i | 1<<(32+i)
		}
	}
	return k
}

func onePlane(want byte) func(g grid) uint64 {
	return func(g grid) uint64 {
		var k uint64
		for i, c := range g.cells {
			if c == want {
				k |= 1 << i
			}
		}
		return k
	}
}

func opposite(c byte) byte {
	switch c {
	case 'x':
		return 'o'
	case 'o':
		return 'x'
	}
	return c
}

func swapColours(g grid) grid {
	n := g.clone()
	for i, c := range n.cells {
		n.cells[i] = opposite(c)
	}
	return n
}

// rotate turns g a quarter clockwise: row r becomes column rows-1-r.
func rotate(g grid) grid {
	n := grid{g.cols, g.rows, make([]byte, len(g.cells))}
	for r := 0; r < g.rows; r++ {
		for c := 0; c < g.cols; c++ {
			n.cells[c*n.cols+(g.rows-1-r)] = g.at(r, c)
		}
	}
	return n
}

// mirror reverses every row.
func mirror(g grid) grid {
	n := grid{g.rows, g.cols, make([]byte, len(g.cells))}
	for r := 0; r < g.rows; r++ {
		for c := 0; c < g.cols; c++ {
			n.cells[r*g.cols+g.cols-1-c] = g.at(r, c)
		}
	}
	return n
}

// upsideDown reverses the order of the rows.
func upsideDown(g grid) grid {
	n := grid{g.rows, g.cols, make([]byte, len(g.cells))}
	for r := 0; r < g.rows; r++ {
		copy(n.cells[(g.rows-1-r)*g.cols:], g.cells[r*g.cols:(r+1)*g.cols])
	}
	return n
}

func transpose(g grid) grid {
	n := grid{g.cols, g.rows, make([]byte, len(g.cells))}
	for r := 0; r < g.rows; r++ {
		for c := 0; c < g.cols; c++ {
			n.cells[c*n.cols+r] = g.at(r, c)
		}
	}
	return n
}

var clobberModel = model{
	name:     "clobber",
	chars:    "xo.",
	material: func(c byte) bool { return c == 'x' || c == 'o' },
	filler:   '.',
	live: func(g grid, sq []int) bool {
		for _, i := range sq {
			r, c := i/g.cols, i%g.cols
			for _, d := range dirs4 {
				if g.in(r+d[0], c+d[1]) && g.at(r+d[0], c+d[1]) == opposite(g.cells[i]) {
					return true
				}
			}
		}
		return false
	},
	deadFree: func(g grid, sq []int) {
		for _, i := range sq {
			g.cells[i] = '.'
		}
	},
	successors: func(g grid) []grid {
		var out []grid
		for i, ch := range g.cells {
			if ch != 'x' && ch != 'o' {
				continue
			}
			r, c := i/g.cols, i%g.cols
			for _, d := range dirs4 {
				tr, tc := r+d[0], c+d[1]
				if g.in(tr, tc) && g.at(tr, tc) == opposite(ch) {
					n := g.clone()
					n.cells[i] = '.'
					n.cells[tr*g.cols+tc] = ch
					out = append(out, n)
				}
			}
		}
		return out
	},
	posKey:     twoPlanes,
	pieceCells: twoPlanes,
	size:       func(g grid, sq []int) int { return len(sq) },
	generators: []func(grid) grid{rotate, mirror},
	negate:     swapColours,
}

var domineeringModel = model{
	name:     "domineering",
	chars:    ".#",
	material: func(c byte) bool { return c == '.' },
	filler:   '#',
	live: func(g grid, sq []int) bool {
		for _, i := range sq {
			r, c := i/g.cols, i%g.cols
			for _, d := range dirs4 {
				if g.in(r+d[0], c+d[1]) && g.at(r+d[0], c+d[1]) == '.' {
					return true
				}
			}
		}
		return false
	},
	deadFree: func(g grid, sq []int) {
		for _, i := range sq {
			g.cells[i] = '#'
		}
	},
	successors: func(g grid) []grid {
		var out []grid
		for r := 0; r < g.rows; r++ {
			for c := 0; c < g.cols; c++ {
				if g.at(r, c) != '.' {
					continue
				}
				// A domino from (r, c) down (Left's) or right (Right's).
				for _, d := range [][2]int{{1, 0}, {0, 1}} {
					if g.in(r+d[0], c+d[1]) && g.at(r+d[0], c+d[1]) == '.' {
						n := g.clone()
						n.cells[r*g.cols+c] = '#'
						n.cells[(r+d[0])*g.cols+c+d[1]] = '#'
						out = append(out, n)
					}
				}
			}
		}
		return out
	},
	posKey:     onePlane('#'),
	pieceCells: onePlane('.'),
	size:       func(g grid, sq []int) int { return len(sq) },
	generators: []func(grid) grid{mirror, upsideDown},
	negate:     transpose,
}

var amazonsModel = model{
	name:     "amazons",
	chars:    "xo.#",
	material: func(c byte) bool { return c != '#' },
	king:     true,
	filler:   '#',
	live: func(g grid, sq []int) bool {
		amazon, empty := false, false
		for _, i := range sq {
			amazon = amazon || g.cells[i] == 'x' || g.cells[i] == 'o'
			empty = empty || g.cells[i] == '.'
		}
		return amazon && empty
	},
	deadFree: func(g grid, sq []int) {
		for _, i := range sq {
			if g.cells[i] == '.' {
				g.cells[i] = '#'
			}
		}
	},
	successors: func(g grid) []grid {
		var out []grid
		for i, ch := range g.cells {
			if ch != 'x' && ch != 'o' {
				continue
			}
			r, c := i/g.cols, i%g.cols
			for _, d := range dirs8 {
				for tr, tc := r+d[0], c+d[1]; g.in(tr, tc) && g.at(tr, tc) == '.'; tr, tc = tr+d[0], tc+d[1] {
					moved := g.clone()
					moved.cells[i] = '.'
					moved.cells[tr*g.cols+tc] = ch
					for _, e := range dirs8 {
						for ar, ac := tr+e[0], tc+e[1]; moved.in(ar, ac) && moved.at(ar, ac) == '.'; ar, ac = ar+e[0], ac+e[1] {
							n := moved.clone()
							n.cells[ar*g.cols+ac] = '#'
							out = append(out, n)
						}
					}
				}
			}
		}
		return out
	},
	posKey:     twoPlanes,
	pieceCells: twoPlanes,
	size:       func(g grid, sq []int) int { return len(sq) },
	generators: []func(grid) grid{rotate, mirror},
	negate:     swapColours,
}

var models = []*model{&clobberModel, &domineeringModel, &amazonsModel}

// decode reads a position key of game m on a rows x cols board.
func (m *model) decode(pos uint64, rows, cols int) grid {
	g := grid{rows, cols, make([]byte, rows*cols)}
	for i := range g.cells {
		lo, hi := pos>>i&1 != 0, i < 32 && pos>>(32+i)&1 != 0
		switch {
		case m.name == "domineering" && lo:
			g.cells[i] = '#'
		case m.name == "domineering":
			g.cells[i] = '.'
		case lo && hi:
			g.cells[i] = '#'
		case lo:
			g.cells[i] = 'x'
		case hi:
			g.cells[i] = 'o'
		default:
			g.cells[i] = '.'
		}
	}
	return g
}

// components lists the pieces of g, each as its squares in increasing
// order, by a breadth-first search.
func (m *model) components(g grid) [][]int {
	seen := make([]bool, len(g.cells))
	var out [][]int
	dirs := dirs4
	if m.king {
		dirs = dirs8
	}
	for s := range g.cells {
		if seen[s] || !m.material(g.cells[s]) {
			continue
		}
		seen[s] = true
		comp := []int{s}
		for q := 0; q < len(comp); q++ {
			r, c := comp[q]/g.cols, comp[q]%g.cols
			for _, d := range dirs {
				nr, nc := r+d[0], c+d[1]
				j := nr*g.cols + nc
				if g.in(nr, nc) && !seen[j] && m.material(g.cells[j]) {
					seen[j] = true
					comp = append(comp, j)
				}
			}
		}
		out = append(out, comp)
	}
	return out
}

func maskOf(sq []int) uint64 {
	var m uint64
	for _, i := range sq {
		m |= 1 << i
	}
	return m
}

// box is the bounding box of sq on g: first row and column, and size.
func box(g grid, sq []int) (r0, c0, rows, cols int) {
	r0, c0 = g.rows, g.cols
	r1, c1 := -1, -1
	for _, i := range sq {
		r, c := i/g.cols, i%g.cols
		r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
	}
	return r0, c0, r1 - r0 + 1, c1 - c0 + 1
}

// placed draws the piece sq of g alone on a board of g's size, its box's
// top-left corner at (r, c).
func (m *model) placed(g grid, sq []int, r, c int) grid {
	r0, c0, _, _ := box(g, sq)
	n := grid{g.rows, g.cols, []byte(strings.Repeat(string(m.filler), len(g.cells)))}
	for _, i := range sq {
		pr, pc := i/g.cols-r0+r, i%g.cols-c0+c
		n.cells[pr*g.cols+pc] = g.cells[i]
	}
	return n
}

// cropped draws the piece sq of g in its bounding box.
func (m *model) cropped(g grid, sq []int) grid {
	r0, c0, rows, cols := box(g, sq)
	n := grid{rows, cols, []byte(strings.Repeat(string(m.filler), rows*cols))}
	for _, i := range sq {
		n.cells[(i/g.cols-r0)*cols+i%g.cols-c0] = g.cells[i]
	}
	return n
}

func (m *model) key(p grid) games.PieceKey {
	return games.PieceKey{Hi: uint64(p.rows)<<8 | uint64(p.cols), Lo: m.pieceCells(p)}
}

// orbit is every image of p under the group the generators generate.
func (m *model) orbit(p grid) []grid {
	out := []grid{p}
	seen := map[string]bool{p.String(): true}
	for q := 0; q < len(out); q++ {
		for _, gen := range m.generators {
			n := gen(out[q])
			if !seen[n.String()] {
				seen[n.String()] = true
				out = append(out, n)
			}
		}
	}
	return out
}

func (m *model) leastKey(p grid) games.PieceKey {
	best := m.key(p)
	for _, q := range m.orbit(p) {
		if k := m.key(q); k.Hi < best.Hi || k.Hi == best.Hi && k.Lo < best.Lo {
			best = k
		}
	}
	return best
}

package amazons

import (
	"math/bits"
	"slices"

	"github.com/census-cgt/census/games"
)

var _ games.KernelMaker = (*Game)(nil)

// NewKernel is Amazons' own kernel for gr, a group of the game's key maps.
// Its Visits equal those of games.NewPlainKernel(g, gr), MoveStats
// included, for every position of the board.
//
// Every map of the group permutes key bits, so the image of a successor
// under a map is the image of the position XOR the images of the bits the
// move changes: the amazon's bit in its plane at the square it leaves and
// at the square it lands on, and the arrow's square in both planes. The
// kernel takes the images of the position once (see canonOrbit), and
// holds tables, built here, of the image of every key bit and of every
// arrow under every map, in arrays of the group's size. The images of a
// queen move are then two XORs a map, and the canonical key of each of
// its successors one XOR a map and their least.
//
// The moves are made on cells: on a board of at most 8 rows and 8
// columns the squares spread to rows of 8 (square (r, c) at cell 8r+c),
// where a queen's reach along a column or diagonal is a few word
// operations (see reach); on a larger board the squares themselves.
func (g *Game) NewKernel(gr *games.Group) games.Kernel {
	b := g.b
	n, sq, cols := gr.Size(), b.Squares(), b.Cols
	k := &kernel{gr: gr, b: b, n: n, tr: games.NewPlaneTranslator(b)}
	for s := range sq {
		k.up[s], k.down[s] = g.up[s], g.down[s]
	}
	// cell[s] is the cell of square s.
	var cell [32]int
	k.cells = b
	for s := range sq {
		cell[s] = s
	}
	if b.Rows <= 8 && cols <= 8 {
		k.spread = true
		k.cells, _ = games.NewBoard(8, 8, 64)
		for s := range sq {
			cell[s] = s/cols*8 + s%cols
		}
		k.spreadSteps = spreadSteps(b.Rows, cols)
		k.lines = lines(b.Rows, cols)
		k.rowReach = rowReach()
	}
	k.cellFull = k.spreadCells(b.Full)
	maps := gr.Maps()
	k.other = maps[len(maps)-1]
	if n == 2 {
		k.swaps, k.swapsOK = involutionSwaps(k.other, sq)
	}
	if maps[len(maps)-1].Swap {
		k.rot = 32
	}
	// bit[c][j] is the image under map j of the key bit of cell c&63 in
	// the low plane (c < 64) or the high one, arrow[c][j] that of cell c
	// burnt (its bits in both planes).
	var bit [128][games.MaxMaps]uint64
	var arrow [64][games.MaxMaps]uint64
	for s := range sq {
		for j, mp := range maps {
			lo, hi := mp.Apply(uint64(1)<<s), mp.Apply(uint64(1)<<(s+32))
			bit[cell[s]][j], bit[cell[s]+64][j], arrow[cell[s]][j] = lo, hi, lo^hi
		}
	}
	switch n {
	case 1:
		k.t1 = newTables[[1]uint64](&bit, &arrow)
	case 2:
		k.t2 = newTables[[2]uint64](&bit, &arrow)
	case 4:
		k.t4 = newTables[[4]uint64](&bit, &arrow)
	case 8:
		k.t8 = newTables[[8]uint64](&bit, &arrow)
	default:
		k.t16 = newTables[[games.MaxMaps]uint64](&bit, &arrow)
	}
	return k
}

// spreadSteps are the steps that spread the rows of one plane of a board
// of rows x cols squares to stride 8 (see spreadCells): the rows whose
// number has bit b set move up by 2^b*(8-cols) squares, higher bits
// first.
func spreadSteps(rows, cols int) []games.RowStep {
	d := 8 - cols
	if d == 0 {
		return nil
	}
	var steps []games.RowStep
	for b := 2; b >= 0; b-- {
		if 1<<b >= rows {
			continue
		}
		var m uint64
		for r := range rows {
			if r>>b&1 != 0 {
				at := r*cols + r>>(b+1)<<(b+1)*d
				m |= (uint64(1)<<cols - 1) << at
			}
		}
		steps = append(steps, games.RowStep{Mask: m, Shift: uint8(d << b)})
	}
	return steps
}

// lines are, for every cell of a board of rows x cols squares spread to
// rows of 8, the cells of its column, its diagonal and its antidiagonal
// on the board, without the cell itself.
func lines(rows, cols int) (out [64][3]uint64) {
	dirs := [3][2]int{{1, 0}, {1, 1}, {1, -1}}
	for r := range rows {
		for c := range cols {
			for i, d := range dirs {
				var m uint64
				for _, sign := range []int{1, -1} {
					for y, x := r+sign*d[0], c+sign*d[1]; y >= 0 && y < rows && x >= 0 && x < cols; y, x = y+sign*d[0], x+sign*d[1] {
						m |= 1 << (8*y + x)
					}
				}
				out[8*r+c][i] = m
			}
		}
	}
	return out
}

// rowReach is, at c<<8 | free, the squares of a row of 8 that a queen on
// square c reaches along the row through the squares of free.
func rowReach() (t [8 << 8]uint8) {
	for c := range 8 {
		for free := range 256 {
			var m uint8
			for _, step := range []int{1, -1} {
				for x := c + step; x >= 0 && x < 8 && free>>x&1 != 0; x += step {
					m |= 1 << x
				}
			}
			t[c<<8|free] = m
		}
	}
	return t
}

// tables are the images of every key bit and of every arrow under the n
// maps of a group, in arrays of n (see NewKernel's bit and arrow): bit by
// table bit (a cell, plus 64 in the high plane), arrow by the arrowHash of
// the arrow's cell bit.
type tables[T any] struct {
	bit   [128]T
	arrow [64]T
}

// deBruijn is a de Bruijn sequence of 64 bits: its 64 windows of 6 bits
// (the top 6 bits of its shifts left by 0 to 63) are distinct.
const deBruijn = 0x03f79d71b4cb0a89

// arrowHash is a distinct number below 64 for each single bit x: the top
// 6 bits of deBruijn shifted left by x's place. It finds an arrow's table
// entry from its bit by a multiplication, without counting zeros.
func arrowHash(x uint64) uint64 { return x * deBruijn >> 58 }

// imageArray is an array of the images of one key under the maps of a
// group: 1, 2, 4, 8, or up to games.MaxMaps.
type imageArray interface {
	[1]uint64 | [2]uint64 | [4]uint64 | [8]uint64 | [games.MaxMaps]uint64
}

// newTables copies the first len(T) images of bit and arrow into tables.
func newTables[T imageArray](bit *[128][games.MaxMaps]uint64, arrow *[64][games.MaxMaps]uint64) *tables[T] {
	t := new(tables[T])
	for c := range t.bit {
		for j := range len(t.bit[c]) {
			t.bit[c][j] = bit[c][j]
		}
	}
	for c := range t.arrow {
		h := arrowHash(uint64(1) << c)
		for j := range len(t.arrow[h]) {
			t.arrow[h][j] = arrow[c][j]
		}
	}
	return t
}

// kernel is the state of one Amazons kernel: the group, the board and its
// cells, the tables of images, and scratch.
type kernel struct {
	gr *games.Group
	b  games.Board
	// n is the number of maps of the group. other is the group's last
	// map, the one besides the identity in a group of 2, and rot the
	// rotation that follows its board symmetry (32 for the colour swap);
	// when swapsOK that symmetry is the delta swaps swaps (see
	// involutionSwaps).
	n       int
	rot     uint8
	other   *games.KeyMap
	swaps   [4]games.DeltaSwap
	swapsOK bool
	// tr translates the regions.
	tr games.PlaneTranslator
	// spread says the cells are the squares spread to rows of 8, by the
	// steps spreadSteps; cells is the board of the cells (8 x 8, or the
	// board itself), and cellFull holds the cells of the board's squares.
	// lines and rowReach serve reach on spread cells.
	spread      bool
	spreadSteps []games.RowStep
	cells       games.Board
	cellFull    uint64
	lines       [64][3]uint64
	rowReach    [8 << 8]uint8
	// up and down are the game's queen rays of every square (see
	// Game.up), for reachRays.
	up, down [32][4]uint64
	// The image tables for a group of n maps: the one of t1, t2, t4, t8
	// or t16 that fits n is set.
	t1  *tables[[1]uint64]
	t2  *tables[[2]uint64]
	t4  *tables[[4]uint64]
	t8  *tables[[8]uint64]
	t16 *tables[[games.MaxMaps]uint64]
	// img holds the images of the position being visited under each map
	// of the group (Group.MapImages). rec holds its
	// queen moves, for successors.
	img [games.MaxMaps]uint64
	rec [maxQueenMoves]queenMove
}

// Visit fills v for pos and adds its moves to m, as the plain kernel does.
//
// Pieces are found as Game.Pieces finds them, and the moves as Expand
// makes them. An amazon's queen move runs through empty squares of its
// region, each a king step from the last, so it lands in its region; and
// a region touches no open square outside it (it would be part of the
// region), so what is left of the region after an arrow touches none
// either. Expand thus never counts a join, and neither does Visit.
func (k *kernel) Visit(pos uint64, v *games.Visit, m *games.MoveStats, successors bool) {
	v.Reset()
	k.canonOrbit(pos, v)
	b := &k.b
	lo, hi := pos&0xffffffff, pos>>32
	open := b.Full &^ (lo & hi)
	amazons := lo ^ hi
	var dead, movers uint64
	for rest := open; rest != 0; {
		comp := b.Fill8(rest&-rest, open)
		rest &^= comp
		out := b.Full &^ comp
		key := (lo&comp | out) | (hi&comp|out)<<32
		live := comp&amazons != 0 && comp&^amazons != 0
		v.Pieces = append(v.Pieces, games.Piece{Mask: comp, Key: key, Size: bits.OnesCount64(comp), Live: live})
		if !live {
			dead |= comp &^ amazons
			continue
		}
		movers |= comp & amazons
		in := v.Canon
		if key != pos {
			in = k.gr.Canon(key)
		}
		v.InPlace = append(v.InPlace, in)
		v.Translated = append(v.Translated, k.tr.Translate(comp, key))
	}
	v.DeadFree = v.Canon
	if dead != 0 {
		v.DeadFree = k.gr.Canon(pos | dead | dead<<32)
	}
	if movers == 0 {
		return
	}
	moves, edgeJoins := k.moves(pos, movers, v, successors)
	m.Moves += moves * v.Orbit
	m.EdgeRuleJoins += edgeJoins * v.Orbit
}

// spreadCells is the cells of the squares of x, a plane of the board (x
// itself when the cells are the squares).
func (k *kernel) spreadCells(x uint64) uint64 {
	for _, st := range k.spreadSteps {
		x = x&^st.Mask | (x&st.Mask)<<(st.Shift&63)
	}
	return x
}

// moves makes every move of the amazons of movers in pos and returns the
// number of moves and of edge-rule joins (the moves whose amazon lands
// outside the region of open squares joined to its own by sides). With
// successors it appends the canonical key of every successor to v.Succ
// (see successors).
func (k *kernel) moves(pos, movers uint64, v *games.Visit, successors bool) (moves, edgeJoins uint64) {
	lo, hi := pos&0xffffffff, pos>>32
	if k.spread {
		lo, hi, movers = k.spreadCells(lo), k.spreadCells(hi), k.spreadCells(movers)
	}
	open := k.cellFull &^ (lo & hi)
	empty := open &^ (lo ^ hi)
	// When no two open cells diagonally apart have neither of the other
	// two cells of their 2 x 2 square open, cells joined by corners are
	// also joined by sides, and every move lands in the region joined by
	// sides to its amazon's square. tl, tr, bl and br are whether the
	// cells of the 2 x 2 square whose top-right cell is x are open, at x.
	s := k.cells.Cols & 63
	tl, tr, bl, br := k.cells.East(open), open, k.cells.East(open>>s), open>>s
	cornersOnly := tl&br&^tr&^bl | tr&bl&^tl&^br
	edgeRegion := ^uint64(0)
	if cornersOnly != 0 {
		edgeRegion = 0
	}
	nrec := 0
	for ; movers != 0; movers &= movers - 1 {
		f := bits.TrailingZeros64(movers)
		from := uint64(1) << f
		plane := 0 // the mover's plane in the tables: 0 Black, 64 White
		if hi&from != 0 {
			plane = 64
		}
		if edgeRegion&from == 0 {
			edgeRegion = k.cells.Fill4(from, open)
		}
		// The arrow flies through the empty squares and the square the
		// amazon left; the square it landed on is on none of its rays.
		free := empty | from
		var m, e uint64
		if k.spread {
			m, e, nrec = k.shots8(f+plane, k.reach8(f, empty), free, edgeRegion, nrec)
		} else {
			m, e, nrec = k.shotsRays(f+plane, k.reachRays(f, empty), free, edgeRegion, nrec)
		}
		moves += m
		edgeJoins += e
	}
	if successors {
		v.Succ = k.successors(v.Succ, k.rec[:nrec], int(moves))
	}
	return moves, edgeJoins
}

// maxQueenMoves bounds the queen moves of a position: each of its a
// amazons moves to some of its e empty squares, and a+e <= 32.
const maxQueenMoves = 256

// queenMove is an amazon's move from table bit from to table bit to (a
// cell, plus 64 for a White amazon), and the cells it can shoot to.
type queenMove struct {
	arrows   uint64
	from, to uint8
}

// successors appends to dst the canonical keys of the n successors of the
// moves of rec: under each map the image of the position, with the images
// of the amazon's bits at its two squares and of the arrow changed, and
// the least of those.
func (k *kernel) successors(dst []uint64, rec []queenMove, n int) []uint64 {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	out := dst[start:]
	switch k.n {
	case 1:
		successors1(out, rec, k.t1, k.img[0])
	case 2:
		successors2(out, rec, k.t2, k.img[0], k.img[1])
	case 4:
		successors4(out, rec, k.t4, (*[4]uint64)(k.img[:4]))
	case 8:
		successors8(out, rec, k.t8, (*[8]uint64)(k.img[:8]))
	default:
		successors16(out, rec, k.t16, &k.img, k.n)
	}
	return dst
}

// successors1 is successors for the identity alone, whose image of the
// position is img.
func successors1(out []uint64, rec []queenMove, t *tables[[1]uint64], img uint64) {
	i := 0
	for _, r := range rec {
		p := img ^ t.bit[r.from&127][0] ^ t.bit[r.to&127][0]
		for a := r.arrows; a != 0; a &= a - 1 {
			out[i] = p ^ t.arrow[arrowHash(a&-a)][0]
			i++
		}
	}
}

// successors2 is successors for a group of 2 maps, whose images of the
// position are img0 and img1.
func successors2(out []uint64, rec []queenMove, t *tables[[2]uint64], img0, img1 uint64) {
	i := 0
	for _, r := range rec {
		ef, et := &t.bit[r.from&127], &t.bit[r.to&127]
		p0, p1 := img0^ef[0]^et[0], img1^ef[1]^et[1]
		for a := r.arrows; a != 0; a &= a - 1 {
			e := &t.arrow[arrowHash(a&-a)]
			out[i] = min(p0^e[0], p1^e[1])
			i++
		}
	}
}

// successors4 is successors for a group of 4 maps.
func successors4(out []uint64, rec []queenMove, t *tables[[4]uint64], img *[4]uint64) {
	i := 0
	for _, r := range rec {
		ef, et := &t.bit[r.from&127], &t.bit[r.to&127]
		p0, p1 := img[0]^ef[0]^et[0], img[1]^ef[1]^et[1]
		p2, p3 := img[2]^ef[2]^et[2], img[3]^ef[3]^et[3]
		for a := r.arrows; a != 0; a &= a - 1 {
			e := &t.arrow[arrowHash(a&-a)]
			out[i] = min(min(p0^e[0], p1^e[1]), min(p2^e[2], p3^e[3]))
			i++
		}
	}
}

// successors8 is successors for a group of 8 maps.
func successors8(out []uint64, rec []queenMove, t *tables[[8]uint64], img *[8]uint64) {
	i := 0
	var p [8]uint64
	for _, r := range rec {
		ef, et := &t.bit[r.from&127], &t.bit[r.to&127]
		for j := range p {
			p[j] = img[j] ^ ef[j] ^ et[j]
		}
		for a := r.arrows; a != 0; a &= a - 1 {
			e := &t.arrow[arrowHash(a&-a)]
			out[i] = min(min(min(p[0]^e[0], p[1]^e[1]), min(p[2]^e[2], p[3]^e[3])),
				min(min(p[4]^e[4], p[5]^e[5]), min(p[6]^e[6], p[7]^e[7])))
			i++
		}
	}
}

// successors16 is successors for a group of n maps, up to
// games.MaxMaps.
func successors16(out []uint64, rec []queenMove, t *tables[[games.MaxMaps]uint64], img *[games.MaxMaps]uint64, n int) {
	i := 0
	var p [games.MaxMaps]uint64
	for _, r := range rec {
		ef, et := &t.bit[r.from&127], &t.bit[r.to&127]
		for j := range p {
			p[j] = img[j] ^ ef[j] ^ et[j]
		}
		for a := r.arrows; a != 0; a &= a - 1 {
			e := &t.arrow[arrowHash(a&-a)]
			s := p[0] ^ e[0]
			for j := 1; j < n && j < games.MaxMaps; j++ {
				s = min(s, p[j]^e[j])
			}
			out[i] = s
			i++
		}
	}
}

// shots8 records in k.rec, from index nrec on, the queen moves of the
// amazon at table bit from (its cell, plus 64 for White) to the cells of
// tos, each with the cells it can shoot to through free, on cells spread
// to rows of 8. It returns the number of moves and of edge-rule joins (the
// moves whose queen move lands outside edgeRegion), and the index past the
// last move recorded.
//
// The arrows are reach8's, computed here: see reach8.
func (k *kernel) shots8(from int, tos, free, edgeRegion uint64, nrec int) (moves, edgeJoins uint64, next int) {
	plane := from &^ 63
	for ; tos != 0; tos &= tos - 1 {
		t := bits.TrailingZeros64(tos) & 63
		l := &k.lines[t]
		s, rs := uint64(1)<<t, uint64(1)<<(t^56)
		o0, o1, o2 := l[0]&^free, l[1]&^free, l[2]&^free
		a0 := (o0 - s) ^ bits.ReverseBytes64(bits.ReverseBytes64(o0)-rs)
		a1 := (o1 - s) ^ bits.ReverseBytes64(bits.ReverseBytes64(o1)-rs)
		a2 := (o2 - s) ^ bits.ReverseBytes64(bits.ReverseBytes64(o2)-rs)
		row := t &^ 7
		arrows := (a0&l[0]|a1&l[1]|a2&l[2])&free | uint64(k.rowReach[(t&7)<<8|int(free>>row&0xff)])<<row
		n := uint64(bits.OnesCount64(arrows))
		moves += n
		if edgeRegion>>t&1 == 0 {
			edgeJoins += n
		}
		k.rec[nrec&(maxQueenMoves-1)] = queenMove{arrows: arrows, from: uint8(from), to: uint8(t + plane)}
		nrec++
	}
	return moves, edgeJoins, nrec
}

// shotsRays is shots8 on the squares of a larger board, by reachRays.
func (k *kernel) shotsRays(from int, tos, free, edgeRegion uint64, nrec int) (moves, edgeJoins uint64, next int) {
	plane := from &^ 63
	for ; tos != 0; tos &= tos - 1 {
		t := bits.TrailingZeros64(tos)
		arrows := k.reachRays(t, free)
		n := uint64(bits.OnesCount64(arrows))
		moves += n
		if edgeRegion>>t&1 == 0 {
			edgeJoins += n
		}
		k.rec[nrec&(maxQueenMoves-1)] = queenMove{arrows: arrows, from: uint8(from), to: uint8(t + plane)}
		nrec++
	}
	return moves, edgeJoins, nrec
}

// reach8 is the cells a queen on cell c reaches through the cells of
// free, on cells spread to rows of 8. Along the column and the diagonals,
// which hold a cell a row, the blocked cells o of the line less the
// queen's bit s leave borrows from s up to the first blocked cell above
// it, and reversing the rows (a byte swap) does the same below it: (o - s)
// XOR swap(swap(o) - swap(s)), on the line, is the cells up to and
// including the first blocked ones both ways. Along the row a table gives
// the reach.
func (k *kernel) reach8(c int, free uint64) uint64 {
	c &= 63
	l := &k.lines[c]
	s, rs := uint64(1)<<c, uint64(1)<<(c^56)
	o0, o1, o2 := l[0]&^free, l[1]&^free, l[2]&^free
	a0 := (o0 - s) ^ bits.ReverseBytes64(bits.ReverseBytes64(o0)-rs)
	a1 := (o1 - s) ^ bits.ReverseBytes64(bits.ReverseBytes64(o1)-rs)
	a2 := (o2 - s) ^ bits.ReverseBytes64(bits.ReverseBytes64(o2)-rs)
	row := c &^ 7
	along := uint64(k.rowReach[(c&7)<<8|int(free>>row&0xff)]) << row
	return (a0&l[0]|a1&l[1]|a2&l[2])&free | along
}

// reachRays is Game.reach: the squares a queen on square sq reaches
// through the squares of free.
func (k *kernel) reachRays(sq int, free uint64) uint64 {
	u, d := &k.up[sq&31], &k.down[sq&31]
	// Along a ray up the first square not free is the lowest blocked one,
	// along a ray down the highest; with none, the shift by 64 leaves the
	// whole ray.
	b0, b1, b2, b3 := u[0]&^free, u[1]&^free, u[2]&^free, u[3]&^free
	out := u[0]&(b0&-b0-1) | u[1]&(b1&-b1-1) | u[2]&(b2&-b2-1) | u[3]&(b3&-b3-1)
	out |= d[0] &^ (^uint64(0) >> uint(bits.LeadingZeros64(d[0]&^free)))
	out |= d[1] &^ (^uint64(0) >> uint(bits.LeadingZeros64(d[1]&^free)))
	out |= d[2] &^ (^uint64(0) >> uint(bits.LeadingZeros64(d[2]&^free)))
	out |= d[3] &^ (^uint64(0) >> uint(bits.LeadingZeros64(d[3]&^free)))
	return out
}

// canonOrbit sets k.img to the images of pos under the group's maps and
// v.Canon and v.Orbit to the least of them and the size of the orbit: for
// a group of 2 by the other map's Apply, for a larger one from the
// group's SymImages.
func (k *kernel) canonOrbit(pos uint64, v *games.Visit) {
	n := k.n
	if n == 1 {
		k.img[0] = pos
		v.Canon, v.Orbit = pos, 1
		return
	}
	if n == 2 {
		var x uint64
		if k.swapsOK {
			d := &k.swaps
			x = bits.RotateLeft64(d[3].Apply(d[2].Apply(d[1].Apply(d[0].Apply(pos)))), int(k.rot))
		} else {
			x = k.other.Apply(pos)
		}
		k.img[0], k.img[1] = pos, x
		v.Canon, v.Orbit = min(pos, x), uint64(2-eq(x, pos))
		return
	}
	v.Canon, v.Orbit = k.gr.MapImages(pos, &k.img)
}

// involutionSwaps returns the delta swaps that move the key bits of a
// board of sq squares as m's board symmetry does (m without its colour
// swap), one per distance a bit moves, and whether they number at most 4.
// The symmetries of a group of 2 maps are their own inverses, so each
// moves disjoint pairs of bits.
func involutionSwaps(m *games.KeyMap, sq int) (ds [4]games.DeltaSwap, ok bool) {
	masks := map[int]uint64{}
	for c := range 64 {
		if c&31 >= sq {
			continue
		}
		x := m.Apply(uint64(1) << c)
		if m.Swap {
			x = bits.RotateLeft64(x, 32)
		}
		to := bits.TrailingZeros64(x)
		if back := m.Apply(uint64(1) << to); m.Swap && bits.RotateLeft64(back, 32) != 1<<c || !m.Swap && back != 1<<c {
			return ds, false
		}
		if to > c {
			masks[to-c] |= 1 << c
		}
	}
	if len(masks) > len(ds) {
		return ds, false
	}
	i := 0
	for d, mask := range masks {
		ds[i] = games.DeltaSwap{Mask: mask, Shift: uint8(d)}
		i++
	}
	return ds, true
}

// eq is 1 when a equals b, 0 otherwise.
func eq(a, b uint64) int {
	if a == b {
		return 1
	}
	return 0
}

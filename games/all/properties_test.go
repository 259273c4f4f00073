package all

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
)

// TestProperties walks at random from standard and random starts on random
// small boards and checks every position it meets against the naive model:
// pieces, liveness, dead-free boards, successors, translation, classes,
// pictures and the diagram round trip.
func TestProperties(t *testing.T) {
	for i, m := range models {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(i), 20))
			positions := 0
			for _, cfg := range m.boards(rng) {
				t.Run(cfg.board+"/"+cfg.startName(), func(t *testing.T) {
					g, err := New(m.name, cfg.board, cfg.start)
					if err != nil {
						t.Fatalf("New(%q, %q, %q): %v", m.name, cfg.board, cfg.start, err)
					}
					if g.Name() != m.name || g.Board().String() != cfg.board {
						t.Fatalf("New(%q, %q) built %s on %s", m.name, cfg.board, g.Name(), g.Board())
					}
					if tier := g.Tier(g.Start()); tier != 0 {
						t.Fatalf("start %s is in tier %d", g.Format(g.Start()), tier)
					}
					for walk := 0; walk < cfg.walks; walk++ {
						pos := g.Start()
						for {
							positions++
							succ := m.check(t, g, pos)
							if t.Failed() || len(succ) == 0 {
								break
							}
							pos = succ[rng.IntN(len(succ))]
						}
						if t.Failed() {
							return
						}
					}
				})
			}
			t.Logf("%d positions checked", positions)
		})
	}
}

type boardCfg struct {
	board, start string
	walks        int
}

func (c boardCfg) startName() string {
	if c.start == "" {
		return "standard"
	}
	// A slash in a subtest name would nest it.
	return strings.ReplaceAll(c.start, "/", "|")
}

// boards picks the boards and starts the walks begin from: fixed thin and
// full-size boards, then random ones, each from the standard start and from
// random diagrams.
func (m *model) boards(rng *rand.Rand) []boardCfg {
	maxSquares, maxSide := 32, 8
	fixed := []string{"1x2", "2x1", "1x7", "7x1", "2x2", "3x4", "4x3", "4x8", "8x4", "1x32", "32x1"}
	if m.name == "domineering" {
		fixed = append(fixed, "8x8", "1x64", "64x1", "5x12")
		maxSquares = 64
	}
	var out []boardCfg
	add := func(rows, cols int) {
		board := fmt.Sprintf("%dx%d", rows, cols)
		if !(m.name == "amazons" && rows*cols == 1) {
			out = append(out, boardCfg{board, "", 6})
		}
		for i := 0; i < 3; i++ {
			out = append(out, boardCfg{board, m.randomDiagram(rng, rows, cols), 3})
		}
	}
	for _, b := range fixed {
		var rows, cols int
		fmt.Sscanf(b, "%dx%d", &rows, &cols)
		add(rows, cols)
	}
	for i := 0; i < 40; i++ {
		rows, cols := 1+rng.IntN(maxSide), 1+rng.IntN(maxSide)
		if rows*cols > maxSquares {
			continue
		}
		add(rows, cols)
	}
	return out
}

func (m *model) randomDiagram(rng *rand.Rand, rows, cols int) string {
	// Weights of the characters of m.chars, in order.
	weights := map[string][]int{
		"clobber":     {4, 4, 2},
		"domineering": {3, 1},
		"amazons":     {1, 1, 6, 2},
	}[m.name]
	total := 0
	for _, w := range weights {
		total += w
	}
	g := grid{rows, cols, make([]byte, rows*cols)}
	for i := range g.cells {
		x := rng.IntN(total)
		for j, w := range weights {
			if x < w {
				g.cells[i] = m.chars[j]
				break
			}
			x -= w
		}
	}
	return g.String()
}

// check compares everything the game says of pos with the naive model and
// returns the successors of pos.
func (m *model) check(t *testing.T, g games.Game, pos uint64) []uint64 {
	t.Helper()
	b := g.Board()
	gr := m.decode(pos, b.Rows, b.Cols)
	where := fmt.Sprintf("%s %s position %s", m.name, b, gr)
	if m.posKey(gr) != pos {
		t.Fatalf("%s: key %#x holds bits outside the board or the packing", where, pos)
	}

	// Format and the round trip through a start diagram.
	if got := g.Format(pos); got != gr.String() {
		t.Errorf("%s: Format = %q", where, got)
	}
	if g2, err := New(m.name, b.String(), g.Format(pos)); err != nil {
		t.Errorf("%s: New with start %q: %v", where, g.Format(pos), err)
	} else if g2.Start() != pos {
		t.Errorf("%s: New with start %q has Start %#x, want %#x", where, g.Format(pos), g2.Start(), pos)
	}

	tier := g.Tier(pos)
	if tier < 0 || tier > g.MaxTier() {
		t.Errorf("%s: tier %d outside 0..MaxTier %d", where, tier, g.MaxTier())
	}

	pieces := m.checkPieces(t, g, pos, gr, where)
	m.checkExpand(t, g, pos, gr, pieces, where)
	return g.Expand(pos, pieces, nil, games.NewMoveStats(m.name == "clobber"), 1)
}

func (m *model) checkPieces(t *testing.T, g games.Game, pos uint64, gr grid, where string) []games.Piece {
	t.Helper()
	pieces := g.Pieces(pos, nil)

	// The pieces partition the material.
	var material, union uint64
	for i, c := range gr.cells {
		if m.material(c) {
			material |= 1 << i
		}
	}
	for _, p := range pieces {
		if p.Mask == 0 || union&p.Mask != 0 {
			t.Errorf("%s: piece %#x is empty or overlaps another", where, p.Mask)
		}
		union |= p.Mask
	}
	if union != material {
		t.Errorf("%s: pieces cover %#x, the material is %#x", where, union, material)
	}

	// Each piece is one of the naive components.
	comps := m.components(gr)
	if len(comps) != len(pieces) {
		t.Errorf("%s: %d pieces, want %d", where, len(pieces), len(comps))
	}
	byMask := map[uint64]games.Piece{}
	for _, p := range pieces {
		byMask[p.Mask] = p
	}
	deadFree := gr.clone()
	for _, sq := range comps {
		p, ok := byMask[maskOf(sq)]
		if !ok {
			t.Errorf("%s: no piece with squares %v", where, sq)
			continue
		}
		live := m.live(gr, sq)
		if !live {
			m.deadFree(deadFree, sq)
		}
		r0, c0, _, _ := box(gr, sq)
		wantKey := m.pieceCells(m.placed(gr, sq, r0, c0))
		if p.Live != live || p.Size != m.size(gr, sq) || p.Key != wantKey {
			t.Errorf("%s: piece %v is %+v, want live %v, size %d, key %#x", where, sq, p, live, m.size(gr, sq), wantKey)
		}
		if live {
			m.checkPiece(t, g, gr, sq, p, where)
		}
	}
	if got, want := g.DeadFree(pos, pieces), m.posKey(deadFree); got != want {
		t.Errorf("%s: DeadFree = %s, want %s", where, g.Format(got), deadFree)
	}
	return pieces
}

// checkPiece checks the translated piece of a live piece, its invariance
// under moving the piece on the board, its picture and its classes.
func (m *model) checkPiece(t *testing.T, g games.Game, gr grid, sq []int, p games.Piece, where string) {
	t.Helper()
	crop := m.cropped(gr, sq)
	want := m.key(crop)
	k := g.Translate(p.Key)
	if k != want {
		t.Errorf("%s: Translate of piece %v = %+v, want %+v (%s)", where, sq, k, want, crop)
		return
	}
	for r := 0; r+crop.rows <= gr.rows; r++ {
		for c := 0; c+crop.cols <= gr.cols; c++ {
			moved := m.pieceCells(m.placed(gr, sq, r, c))
			if got := g.Translate(moved); got != want {
				t.Errorf("%s: piece %s placed at (%d,%d) translates to %+v, want %+v", where, crop, r, c, got, want)
			}
		}
	}
	if got := g.Size(k); got != len(sq) {
		t.Errorf("%s: Size(%s) = %d, want %d", where, crop, got, len(sq))
	}
	pic := g.Picture(k)
	rows := strings.Split(pic, "/")
	if len(rows) != crop.rows || pic != crop.String() {
		t.Errorf("%s: Picture = %q, want %q (%d rows of %d)", where, pic, crop, crop.rows, crop.cols)
	}

	neg := m.negate(crop)
	wantSym, wantNegSym := m.leastKey(crop), m.leastKey(neg)
	wantNeg := wantSym
	if wantNegSym.Less(wantNeg) {
		wantNeg = wantNegSym
	}
	sym, negc, self := g.Classes(k)
	if sym != wantSym || negc != wantNeg || self != (wantSym == wantNegSym) {
		t.Errorf("%s: Classes(%s) = %+v, %+v, %v; want %+v, %+v, %v", where, crop, sym, negc, self, wantSym, wantNeg, wantSym == wantNegSym)
		return
	}
	for _, q := range m.orbit(crop) {
		if s2, n2, self2 := g.Classes(m.key(q)); s2 != sym || n2 != negc || self2 != self {
			t.Errorf("%s: Classes of %s, an image of %s, = %+v, %+v, %v; want %+v, %+v, %v", where, q, crop, s2, n2, self2, sym, negc, self)
		}
	}
	if _, n2, _ := g.Classes(m.key(neg)); n2 != negc {
		t.Errorf("%s: the negation class of %s is %+v, of its negative %s %+v", where, crop, negc, neg, n2)
	}

	// The games' negation helpers agree with the model, and are involutions.
	var negate func(games.PieceKey) games.PieceKey
	if m.name == "domineering" {
		negate = func(k games.PieceKey) games.PieceKey { return games.Transform(k, games.Transpose, 1) }
	} else {
		negate = games.SwapPlanes
	}
	if got := negate(k); got != m.key(neg) {
		t.Errorf("%s: negative of %s is %+v, want %+v (%s)", where, crop, got, m.key(neg), neg)
	}
	if got := negate(negate(k)); got != k {
		t.Errorf("%s: negative of the negative of %s is %+v", where, crop, got)
	}
}

func (m *model) checkExpand(t *testing.T, g games.Game, pos uint64, gr grid, pieces []games.Piece, where string) {
	t.Helper()
	ms := games.NewMoveStats(m.name == "clobber")
	succ := g.Expand(pos, pieces, nil, ms, 1)
	var want []uint64
	for _, n := range m.successors(gr) {
		want = append(want, m.posKey(n))
	}
	got := slices.Clone(succ)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: %d successors, want %d", where, len(got), len(want))
		return
	}
	if len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("%s: successors are not distinct", where)
	}
	for _, s := range succ {
		if g.Tier(s) != g.Tier(pos)+1 {
			t.Errorf("%s: successor %s in tier %d, want %d", where, g.Format(s), g.Tier(s), g.Tier(pos)+1)
		}
	}
	if ms.Moves != uint64(len(want)) || ms.Joins != 0 {
		t.Errorf("%s: MoveStats %d moves, %d joins; want %d, 0", where, ms.Moves, ms.Joins, len(want))
	}
	switch m.name {
	case "amazons":
		if want := amazonsEdgeRuleJoins(gr); ms.EdgeRuleJoins != want {
			t.Errorf("%s: %d edge-rule joins, want %d", where, ms.EdgeRuleJoins, want)
		}
	case "clobber":
		all, split := clobberMovedPiece(gr)
		if !slices.Equal(ms.MovedPiece, all) || !slices.Equal(ms.MovedPieceSplit, split) {
			t.Errorf("%s: moved-piece histograms differ from the naive ones", where)
		}
	}
	// A game that counts moves without listing them counts what Expand
	// counts, for any weight.
	if c, ok := g.(games.MoveCounter); ok {
		const weight = 7
		want, got := games.NewMoveStats(m.name == "clobber"), games.NewMoveStats(m.name == "clobber")
		g.Expand(pos, pieces, nil, want, weight)
		c.CountMoves(pos, pieces, got, weight)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: CountMoves adds %+v, Expand %+v", where, *got, *want)
		}
	}
}

// amazonsEdgeRuleJoins counts the moves of g whose amazon lands outside the
// edge-connected region of non-burnt squares it starts in.
func amazonsEdgeRuleJoins(g grid) uint64 {
	edge := model{material: func(c byte) bool { return c != '#' }}
	region := make([]int, len(g.cells))
	for n, sq := range edge.components(g) {
		for _, i := range sq {
			region[i] = n
		}
	}
	var joins uint64
	for i, ch := range g.cells {
		if ch != 'x' && ch != 'o' {
			continue
		}
		r, c := i/g.cols, i%g.cols
		for _, d := range dirs8 {
			for tr, tc := r+d[0], c+d[1]; g.in(tr, tc) && g.at(tr, tc) == '.'; tr, tc = tr+d[0], tc+d[1] {
				if region[tr*g.cols+tc] == region[i] {
					continue
				}
				// Every arrow from the landing square counts.
				moved := g.clone()
				moved.cells[i] = '.'
				moved.cells[tr*g.cols+tc] = ch
				for _, e := range dirs8 {
					for ar, ac := tr+e[0], tc+e[1]; moved.in(ar, ac) && moved.at(ar, ac) == '.'; ar, ac = ar+e[0], ac+e[1] {
						joins++
					}
				}
			}
		}
	}
	return joins
}

// clobberMovedPiece is the moved-piece histogram of g's moves: at
// n*stride+k, the moves made by a stone of a piece of k stones on a board of
// n, and the same for boards of two or more pieces.
func clobberMovedPiece(g grid) (all, split []uint64) {
	all = make([]uint64, games.MovedPieceStride*games.MovedPieceStride)
	split = make([]uint64, len(all))
	comps := clobberModel.components(g)
	stones := 0
	sizeAt := make([]int, len(g.cells))
	for _, sq := range comps {
		stones += len(sq)
		for _, i := range sq {
			sizeAt[i] = len(sq)
		}
	}
	for i, ch := range g.cells {
		if ch != 'x' && ch != 'o' {
			continue
		}
		r, c := i/g.cols, i%g.cols
		for _, d := range dirs4 {
			if g.in(r+d[0], c+d[1]) && g.at(r+d[0], c+d[1]) == opposite(ch) {
				all[stones*games.MovedPieceStride+sizeAt[i]]++
				if len(comps) >= 2 {
					split[stones*games.MovedPieceStride+sizeAt[i]]++
				}
			}
		}
	}
	return all, split
}

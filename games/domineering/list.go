package domineering

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/census-cgt/census/games"
)

var _ games.Listed = (*Game)(nil)

// A position of tier t is reachable exactly when it holds the start and
// dominoes tile the 2t squares it adds to it: either player may place any
// domino, so the order of the moves and whose they are does not matter.
// The listing walks the board line by line (the rows, or the columns when
// they are shorter) through a finite automaton that reads
// the squares a position adds in each line and accepts exactly the
// tileable sets. Every set is read along one path, so every position is
// listed once, and no tier needs the one before it.
//
// A state of the automaton between line i-1 and line i is the set of the
// ways dominoes can stick out of lines 0..i-1 into line i: each way a mask
// of line i's squares, so a state is a set of at most 256 masks (the
// subset construction over the tilings). Reading line i's squares x, a
// way v fits when v is inside x; the rest of x is then covered by
// horizontal dominoes inside the line or by dominoes sticking out into
// line i+1, whose masks make the next state. No way fitting means no
// tiling: the path is dropped. After the last line the state is {0}.

// maxListStates is the most automaton states one line boundary may have;
// a board needing more is not listed (ListedTiers is false) rather than
// held in tables too large to be worth it.
const maxListStates = 1 << 16

// maxListPairs is the most entries of the table of the last two lines: 32
// MiB, 1 MiB for 6x6, 13 MiB for 7x7; 8x8 would need 180 MiB and walks
// its lines one by one instead.
const maxListPairs = 1 << 22

// listing is the automaton of one board and start, with the counts that
// prune the walk to one tier. It is built once and only read after.
type listing struct {
	w, l int // squares per line, lines
	// lineKey[i][x] is the key bits of the squares of line i selected by
	// the line mask x (bit j for the line's square j); a position is start
	// with those of each line.
	lineKey [][256]uint64
	start   uint64
	// states[i] is the number of states before line i (states[l] is 1,
	// the accepting state); state 0 of level 0 is the start.
	states []int
	// The children of state s of level i are kids[i][off[i][s*stride+p] :
	// off[i][s*stride+p+1]] for those adding p squares (stride w+2, the
	// groups in order of p, so the children of s are one run ordered by
	// squares). A child is x | next<<8: the line mask x read and the
	// state of level i+1 it leads to.
	off  [][]int32
	kids [][]uint32
	// reach[i][s] has bit n set when lines i..l-1 can add exactly n
	// squares from state s of level i and end accepted (n up to 64, so
	// two words).
	reach [][]counts
	// nodes[i][t] is the number of paths through lines 0..i-1 that
	// lead on to a position of tier t: the nodes of the walk of tier t at
	// depth i. nodes[l][t] is the size of tier t.
	nodes [][]uint64
	// The last two lines read at once: the positions below state s of
	// level l-2 adding p squares in those lines are the key bits
	// pairs[pairOff[s*(2w+2)+p] : pairOff[s*(2w+2)+p+1]]. A state of level
	// l-1 has only a few positions below it, so this saves a call of the
	// walk for every few positions. Nil when the board has one line or the
	// table would be over maxListPairs.
	pairOff []int32
	pairs   []uint64
}

// counts is a set of square counts 0..127, bit n for n.
type counts [2]uint64

func (c counts) has(n int) bool { return c[n>>6]>>(n&63)&1 != 0 }

// shift is the set with p added to every count, for 0 <= p < 64.
func (c counts) shift(p int) counts {
	return counts{c[0] << p, c[1]<<p | c[0]>>(64-p)}
}

// sigma is a set of line masks, bit v for mask v.
type sigma [4]uint64

func (s *sigma) or(t *sigma) {
	s[0] |= t[0]
	s[1] |= t[1]
	s[2] |= t[2]
	s[3] |= t[3]
}

// lazyListing builds the listing of one board and start on first use.
type lazyListing struct {
	once sync.Once
	lt   *listing
	err  error
}

// listingKey names the board and start a listing is for.
type listingKey struct {
	rows, cols int
	start      uint64
}

// listings holds the listing of every board and start asked for so far in
// the process: a census makes a Game for every job, and the tables of a
// board (8x8's take 0.4 s to build) are the same for all of them.
var listings struct {
	sync.Mutex
	m map[listingKey]*lazyListing
}

// listing returns the game's listing, building it on the first call for
// the board and start; it is safe for concurrent use. It is nil, with the
// reason, when the board needs more than maxListStates states at some line
// boundary.
func (g *Game) listing() (*listing, error) {
	k := listingKey{g.b.Rows, g.b.Cols, g.start}
	listings.Lock()
	ll := listings.m[k]
	if ll == nil {
		if listings.m == nil {
			listings.m = make(map[listingKey]*lazyListing)
		}
		ll = &lazyListing{}
		listings.m[k] = ll
	}
	listings.Unlock()
	ll.once.Do(func() { ll.lt, ll.err = buildListing(g.b, g.start, maxListStates, maxListPairs) })
	return ll.lt, ll.err
}

// ListedTiers reports whether the automaton of the board fits in
// maxListStates states per line boundary. The first call builds it.
func (g *Game) ListedTiers() bool {
	lt, _ := g.listing()
	return lt != nil
}

// TierSize is the number of reachable positions of tier t, 0 outside
// 0..MaxTier.
func (g *Game) TierSize(t int) uint64 {
	lt, _ := g.listing()
	if lt == nil || t < 0 || t > g.MaxTier() {
		return 0
	}
	return lt.nodes[lt.l][t]
}

// ListTier calls f with the reachable positions of tier t in part `part`
// of `parts`, until f returns false. Every part walks the lines down to the
// depth given by splitDepth and deals the nodes there that lead on to tier
// t to the parts in turn, in walk order; each part walks on only below its
// own. It is safe for concurrent use and allocates nothing.
func (g *Game) ListTier(t, part, parts int, f func(pos uint64) bool) {
	if lt, _ := g.listing(); lt != nil {
		lt.list(t, part, parts, f)
	}
}

// list is ListTier on the listing.
func (lt *listing) list(t, part, parts int, f func(pos uint64) bool) {
	if t < 0 || t >= len(lt.nodes[0]) || parts < 1 || part < 0 || part >= parts {
		return
	}
	w := walker{lt: lt, f: f, split: lt.splitDepth(t, parts), part: uint64(part), parts: uint64(parts)}
	if lt.reach[0][0].has(2 * t) {
		w.walk(0, 0, lt.start, 2*t)
	}
}

// splitDepth is the depth at which the walk of tier t deals its nodes to
// the parts: the first with at least 64 nodes a part, so that dealing them
// in turn evens out the sizes of their subtrees, else the last (the
// positions themselves). It is -1 for one part: nothing to deal.
func (lt *listing) splitDepth(t, parts int) int {
	if parts == 1 {
		return -1
	}
	for d, n := range lt.nodes {
		if n[t] >= 64*uint64(parts) {
			return d
		}
	}
	return lt.l
}

// walker is one walk of a tier: the nodes at depth split are dealt to the
// parts, node k (counted from 0 in walk order) to part k % parts; split -1
// keeps every node.
type walker struct {
	lt          *listing
	f           func(pos uint64) bool
	split       int
	next        uint64 // nodes seen at depth split
	part, parts uint64
}

// walk lists the positions below state s of level i whose lines i..l-1 add
// rem squares to key; it reports false once f has.
func (w *walker) walk(i int, s int32, key uint64, rem int) bool {
	lt := w.lt
	if i == lt.l-2 && lt.pairs != nil && w.split < i+1 {
		// Nothing to deal below here: the positions are in the table.
		po := lt.pairOff[int(s)*(2*lt.w+2):]
		for _, k := range lt.pairs[po[rem]:po[rem+1]] {
			if !w.f(key | k) {
				return false
			}
		}
		return true
	}
	off := lt.off[i][int(s)*(lt.w+2):]
	kids := lt.kids[i]
	lineKey := &lt.lineKey[i]
	if i == lt.l-1 {
		// Every child leads to the accepting state: the ones adding
		// exactly rem squares are the positions.
		ks := kids[off[rem]:off[rem+1]]
		if w.split == lt.l {
			for _, c := range ks {
				k := w.next
				w.next++
				if k%w.parts == w.part && !w.f(key|lineKey[c&0xff]) {
					return false
				}
			}
			return true
		}
		for _, c := range ks {
			if !w.f(key | lineKey[c&0xff]) {
				return false
			}
		}
		return true
	}
	// The children adding more than rem squares cannot lead on.
	reach := lt.reach[i+1]
	for p := 0; p <= min(rem, lt.w); p++ {
		r := rem - p
		for _, c := range kids[off[p]:off[p+1]] {
			next := int32(c >> 8)
			if !reach[next].has(r) {
				continue
			}
			if i+1 == w.split {
				k := w.next
				w.next++
				if k%w.parts != w.part {
					continue
				}
			}
			if !w.walk(i+1, next, key|lineKey[c&0xff], r) {
				return false
			}
		}
	}
	return true
}

// buildListing builds the automaton of the board from start and the counts
// that prune its walks, failing when a line boundary has more than
// maxStates states; the table of the last two lines is built when it has
// at most maxPairs entries.
func buildListing(b games.Board, start uint64, maxStates, maxPairs int) (*listing, error) {
	lt, avail := newListing(b, start)
	if err := lt.automaton(b, avail, maxStates); err != nil {
		return nil, err
	}
	lt.countReach()
	lt.countNodes((bits.OnesCount64(b.Full) - bits.OnesCount64(start)) / 2)
	lt.pairTable(maxPairs)
	return lt, nil
}

// newListing lays the board out in lines, and returns the listing with its
// key bits of each line and the line mask of the squares of each line the
// start left empty (avail[l] is 0: no domino sticks out past the last
// line).
func newListing(b games.Board, start uint64) (*listing, []int) {
	// Lines of at most 8 squares keep a line mask in a byte and a state
	// in 256 bits; the shorter side of a board of 64 squares has at most
	// 8. Shorter lines make far fewer states: 317 for 6 squares, 1,222
	// for 7.
	w, l := b.Cols, b.Rows
	byRows := b.Cols <= b.Rows
	if !byRows {
		w, l = b.Rows, b.Cols
	}
	lt := &listing{w: w, l: l, start: start, lineKey: make([][256]uint64, l)}
	// avail[i] is the line mask of the squares of line i the start left
	// empty; no domino sticks out past the last line.
	avail := make([]int, l+1)
	for i := 0; i < l; i++ {
		for j := 0; j < w; j++ {
			sq := i*b.Cols + j
			if !byRows {
				sq = j*b.Cols + i
			}
			if start>>sq&1 == 0 {
				avail[i] |= 1 << j
			}
			for x := 1 << j; x < 1<<w; x = (x + 1) | 1<<j {
				lt.lineKey[i][x] |= 1 << sq
			}
		}
	}
	return lt, avail
}

// automaton builds the states of every line boundary and the children of
// each state: forward, level by level, the states of level i+1 are the
// sets reached from those of level i.
func (lt *listing) automaton(b games.Board, avail []int, maxStates int) error {
	w, l := lt.w, lt.l
	size := 1 << w
	flat := flatMasks(w)
	cur := []sigma{{1}} // the state of level 0: nothing sticks out
	lt.states = []int{1}
	down := make([]sigma, size) // down[r]: the ways out of squares r left after v
	acc := make([]sigma, size)  // acc[x]: the next state reading x
	for i := 0; i < l; i++ {
		order := lineOrder(w, avail[i])
		lineDown(down, flat, avail[i], avail[i+1])
		lv := level{ids: make(map[sigma]int32), off: make([]int32, 0, len(cur)*(w+2))}
		for _, st := range cur {
			readLine(acc, &st, order, down, avail[i])
			if !lv.addChildren(acc, order, w, maxStates) {
				return fmt.Errorf("domineering %s: over %d listing states before line %d", b, maxStates, i+1)
			}
		}
		lt.off = append(lt.off, lv.off)
		lt.kids = append(lt.kids, lv.kids)
		lt.states = append(lt.states, len(lv.states))
		cur = lv.states
	}
	if len(cur) != 1 || cur[0] != (sigma{1}) {
		return fmt.Errorf("domineering %s: listing ends in %d states", b, len(cur))
	}
	return nil
}

// flatMasks is, for every line mask r of w squares, whether horizontal
// dominoes tile it: every run of adjacent squares has even length.
func flatMasks(w int) []bool {
	flat := make([]bool, 1<<w)
	for r := range flat {
		flat[r] = true
		for m := r; m != 0; {
			run := bits.TrailingZeros(uint(^(m >> bits.TrailingZeros(uint(m))))) // squares in the lowest run
			if run%2 != 0 {
				flat[r] = false
				break
			}
			m &= m + (m & -m) // clear the lowest run
		}
	}
	return flat
}

// lineOrder is the line masks inside avail by squares, then by value: the
// order of the children of a state.
func lineOrder(w, avail int) []int {
	var order []int
	for p := 0; p <= w; p++ {
		for x := 0; x < 1<<w; x++ {
			if x&^avail == 0 && bits.OnesCount(uint(x)) == p {
				order = append(order, x)
			}
		}
	}
	return order
}

// lineDown sets down[r], for every line mask r inside avail (the squares
// of the line the start left empty), to the ways dominoes can stick out
// of r into the next line: the masks u of r inside availNext, the next
// line's avail, with horizontal dominoes tiling the rest of r. It is
// empty for the other r.
func lineDown(down []sigma, flat []bool, avail, availNext int) {
	for r := range down {
		down[r] = sigma{}
		if r&^avail != 0 {
			continue
		}
		for u := r & availNext; ; u = (u - 1) & r & availNext {
			if flat[r&^u] {
				down[r][u>>6] |= 1 << (u & 63)
			}
			if u == 0 {
				break
			}
		}
	}
}

// readLine sets acc[x], for every line mask x of order, to the state that
// reading x from state st leads to: the union over the ways v of st inside
// x of down[x&^v]. It is empty where no way fits.
func readLine(acc []sigma, st *sigma, order []int, down []sigma, avail int) {
	for _, x := range order {
		acc[x] = sigma{}
	}
	for wd, word := range st {
		for ; word != 0; word &= word - 1 {
			v := wd<<6 | bits.TrailingZeros64(word)
			rest := avail &^ v
			for y := rest; ; y = (y - 1) & rest {
				acc[v|y].or(&down[y])
				if y == 0 {
					break
				}
			}
		}
	}
}

// level is the automaton being built at one line boundary: its states,
// numbered in the order they are first reached, and the children of the
// states of the boundary before it, laid out as listing's off and kids.
type level struct {
	ids    map[sigma]int32
	states []sigma
	off    []int32
	kids   []uint32
}

// addChildren appends the children of one state, the line masks x of order
// with a non-empty acc[x] leading to state acc[x], numbering the states
// not met before. It reports false when a state would be numbered
// maxStates.
func (lv *level) addChildren(acc []sigma, order []int, w, maxStates int) bool {
	p := -1
	for _, x := range order {
		for ; p < bits.OnesCount(uint(x)); p++ {
			lv.off = append(lv.off, int32(len(lv.kids)))
		}
		if acc[x] == (sigma{}) {
			continue
		}
		id, ok := lv.ids[acc[x]]
		if !ok {
			id = int32(len(lv.states))
			if int(id) >= maxStates {
				return false
			}
			lv.ids[acc[x]] = id
			lv.states = append(lv.states, acc[x])
		}
		lv.kids = append(lv.kids, uint32(x)|uint32(id)<<8)
	}
	for ; p <= w; p++ {
		lv.off = append(lv.off, int32(len(lv.kids)))
	}
	return true
}

// countReach counts backwards the squares each state can still add.
func (lt *listing) countReach() {
	w, l, stride := lt.w, lt.l, lt.w+2
	lt.reach = make([][]counts, l+1)
	lt.reach[l] = []counts{{1}}
	for i := l - 1; i >= 0; i-- {
		lt.reach[i] = make([]counts, lt.states[i])
		for s := range lt.reach[i] {
			var c counts
			for p := 0; p <= w; p++ {
				for _, k := range lt.kids[i][lt.off[i][s*stride+p]:lt.off[i][s*stride+p+1]] {
					n := lt.reach[i+1][k>>8]
					c[0] |= n.shift(p)[0]
					c[1] |= n.shift(p)[1]
				}
			}
			lt.reach[i][s] = c
		}
	}

}

// countNodes counts forwards how many paths reach each state with each
// number of squares, hence the nodes of each tier's walk at each depth.
func (lt *listing) countNodes(maxTier int) {
	w, l, stride := lt.w, lt.l, lt.w+2
	width := 2*maxTier + 1 // squares added so far, 0..2*maxTier
	paths := make([]uint64, width)
	paths[0] = 1
	lt.nodes = make([][]uint64, l+1)
	for i := 0; ; i++ {
		lt.nodes[i] = make([]uint64, maxTier+1)
		for s := 0; s < lt.states[i]; s++ {
			ps := paths[s*width : (s+1)*width]
			for n, c := range ps {
				if c == 0 {
					continue
				}
				for t := (n + 1) / 2; t <= maxTier; t++ {
					if lt.reach[i][s].has(2*t - n) {
						lt.nodes[i][t] += c
					}
				}
			}
		}
		if i == l {
			break
		}
		np := make([]uint64, lt.states[i+1]*width)
		for s := 0; s < lt.states[i]; s++ {
			ps := paths[s*width : (s+1)*width]
			for p := 0; p <= w; p++ {
				for _, k := range lt.kids[i][lt.off[i][s*stride+p]:lt.off[i][s*stride+p+1]] {
					dst := np[int(k>>8)*width:]
					for n, c := range ps[:width-p] {
						dst[n+p] += c
					}
				}
			}
		}
		paths = np
	}

}

// pairTable builds the table of the last two lines when it has at most
// maxPairs entries.
func (lt *listing) pairTable(maxPairs int) {
	w, l, stride := lt.w, lt.l, lt.w+2
	if l < 2 {
		return
	}
	n := 0
	for _, k := range lt.kids[l-2] {
		o := lt.off[l-1][int(k>>8)*stride:]
		n += int(o[w+1] - o[0])
	}
	if n > maxPairs {
		return
	}
	lt.pairs = make([]uint64, 0, n)
	lt.pairOff = make([]int32, 0, lt.states[l-2]*(2*w+2))
	for s := 0; s < lt.states[l-2]; s++ {
		kids := lt.kids[l-2][lt.off[l-2][s*stride]:lt.off[l-2][s*stride+w+1]]
		for p := 0; p <= 2*w; p++ {
			lt.pairOff = append(lt.pairOff, int32(len(lt.pairs)))
			for _, k := range kids {
				p1 := bits.OnesCount32(k & 0xff)
				if p1 > p || p-p1 > w {
					continue
				}
				o := lt.off[l-1][int(k>>8)*stride:]
				for _, k2 := range lt.kids[l-1][o[p-p1]:o[p-p1+1]] {
					lt.pairs = append(lt.pairs, lt.lineKey[l-2][k&0xff]|lt.lineKey[l-1][k2&0xff])
				}
			}
		}
		lt.pairOff = append(lt.pairOff, int32(len(lt.pairs)))
	}
}

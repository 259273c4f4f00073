package amazons

// TestBackwardEnumeration measures a design for the tier stage of a board
// whose tiers are dense (docs/performance.md, "the backward tiers of a
// dense board"): each tier a bitmap over a numbering of its arrangements,
// an arrangement reachable when one of its predecessors is, found by
// undoing a move and stopping at the first reachable one. It checks the
// numbering, the predecessors against Expand and the counts against the
// census of Amazons 4x5, and prints what each step costs. It takes about
// a minute and a half, and runs only when asked:
//
//	CENSUS_BACKWARD=1 go test -run TestBackwardEnumeration -v ./games/amazons/

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/census-cgt/census/games"
)

// dense numbers the arrangements of one Black amazon, one White amazon and
// t burnt squares on N squares: the occupied set U (n = t+2 squares) in
// colex order, times n*(n-1) for the index of Black within U and the
// index of White within U without Black's.
type dense struct {
	g     *Game
	N     int
	full  uint32
	binom [33][34]uint64
	// tab[q] is indexed by c*256 + byte: the colex contribution of byte q
	// when c set bits lie below it.
	tab [4][]uint32
}

func newDense(g *Game) *dense {
	d := &dense{g: g, N: g.b.Squares(), full: uint32(g.b.Full)}
	for n := 0; n <= 32; n++ {
		d.binom[n][0] = 1
		for k := 1; k <= n; k++ {
			d.binom[n][k] = d.binom[n-1][k-1] + d.binom[n-1][k]
		}
	}
	for q := 0; q*8 < d.N; q++ {
		maxc := q * 8
		d.tab[q] = make([]uint32, (maxc+1)*256)
		for c := 0; c <= maxc; c++ {
			for by := 0; by < 256; by++ {
				var s uint64
				k := c
				for i := 0; i < 8; i++ {
					if by>>i&1 != 0 {
						k++
						s += d.binom[q*8+i][k]
					}
				}
				d.tab[q][c*256+by] = uint32(s)
			}
		}
	}
	return d
}

// space is the number of ranks of tier t.
func (d *dense) space(t int) uint64 {
	n := t + 2
	return d.binom[d.N][n] * uint64(n*(n-1))
}

// setRank is the colex rank of U among the sets of its size.
func (d *dense) setRank(u uint32) uint64 {
	r := d.tab[0][u&0xff]
	c := bits.OnesCount32(u & 0xff)
	r += d.tab[1][c<<8|int(u>>8&0xff)]
	if d.N > 16 {
		c += bits.OnesCount32(u >> 8 & 0xff)
		r += d.tab[2][c<<8|int(u>>16&0xff)]
		if d.N > 24 {
			c += bits.OnesCount32(u >> 16 & 0xff)
			r += d.tab[3][c<<8|int(u>>24)]
		}
	}
	return uint64(r)
}

// rank of the arrangement: occupied set u, Black on b, White on w.
func (d *dense) rank(u uint32, b, w int) uint64 {
	n := bits.OnesCount32(u)
	ib := bits.OnesCount32(u & (1<<b - 1))
	iw := bits.OnesCount32(u & (1<<w - 1))
	if iw > ib {
		iw--
	}
	return d.setRank(u)*uint64(n*(n-1)) + uint64(ib*(n-1)+iw)
}

func (d *dense) unrank(t int, r uint64) (u uint32, b, w int) {
	n := t + 2
	m := uint64(n * (n - 1))
	sr, rest := r/m, int(r%m)
	ib, iw := rest/(n-1), rest%(n-1)
	if iw >= ib {
		iw++
	}
	s := d.N - 1
	for k := n; k >= 1; k-- {
		for d.binom[s][k] > sr {
			s--
		}
		sr -= d.binom[s][k]
		u |= 1 << s
		s--
	}
	b = selectBit(u, ib)
	w = selectBit(u, iw)
	return
}

func selectBit(u uint32, i int) int {
	for ; i > 0; i-- {
		u &= u - 1
	}
	return bits.TrailingZeros32(u)
}

func toKey(u uint32, b, w int) uint64 {
	burntSq := uint64(u &^ (1<<b | 1<<w))
	return (burntSq | 1<<b) | (burntSq|1<<w)<<32
}

func fromKey(k uint64) (u uint32, b, w int) {
	lo, hi := k&0xffffffff, k>>32
	return uint32(lo | hi), bits.TrailingZeros64(lo &^ hi), bits.TrailingZeros64(hi &^ lo)
}

// preds lists the positions with key among their successors.
func (d *dense) preds(key uint64, dst []uint64) []uint64 {
	u, b, w := fromKey(key)
	empty := uint64(d.full &^ u)
	burntSq := uint64(u) &^ (1<<b | 1<<w)
	for as := burntSq; as != 0; as &= as - 1 {
		abit := as & -as
		base := key &^ (abit | abit<<32)
		for side := 0; side < 2; side++ {
			y, plane := b, 0
			if side == 1 {
				y, plane = w, 32
			}
			R := d.g.reach(y, empty|abit)
			if R&abit == 0 {
				continue
			}
			left := base &^ (uint64(1) << (y + plane))
			for xs := R; xs != 0; xs &= xs - 1 {
				dst = append(dst, left|(xs&-xs)<<plane)
			}
		}
	}
	return dst
}

// anyPred reports whether some predecessor of (u, b, w) has its bit set in
// prev, and how many it looked at.
func (d *dense) anyPred(u uint32, b, w int, prev []uint64) (bool, int) {
	empty := uint64(d.full &^ u)
	burntSq := u &^ (1<<b | 1<<w)
	n := 0
	for as := burntSq; as != 0; as &= as - 1 {
		a := bits.TrailingZeros32(as)
		abit := uint64(1) << a
		for side := 0; side < 2; side++ {
			y := b
			if side == 1 {
				y = w
			}
			R := d.g.reach(y, empty|abit)
			if R&abit == 0 {
				continue
			}
			base := u &^ (1<<a | 1<<y)
			for xs := R; xs != 0; xs &= xs - 1 {
				x := bits.TrailingZeros64(xs)
				u2 := base | 1<<x
				var r uint64
				if side == 0 {
					r = d.rank(u2, x, w)
				} else {
					r = d.rank(u2, b, x)
				}
				n++
				if prev[r>>6]>>(r&63)&1 != 0 {
					return true, n
				}
			}
		}
	}
	return false, n
}

// countMoves counts the moves of a position without listing them.
func (d *dense) countMoves(u uint32, b, w int) uint64 {
	empty := uint64(d.full &^ u)
	var n int
	for _, f := range [2]int{b, w} {
		from := uint64(1) << f
		for tos := d.g.reach(f, empty); tos != 0; tos &= tos - 1 {
			to := tos & -tos
			n += bits.OnesCount64(d.g.reach(bits.TrailingZeros64(tos), (empty|from)&^to))
		}
	}
	return uint64(n)
}

// forEach visits the ranks of tier t in order.
func (d *dense) forEach(t int, f func(r uint64, u uint32, b, w int)) {
	n := t + 2
	var sq [32]int
	r := uint64(0)
	for u := uint32(1)<<n - 1; u <= d.full; {
		i := 0
		for m := u; m != 0; m &= m - 1 {
			sq[i] = bits.TrailingZeros32(m)
			i++
		}
		for ib := 0; ib < n; ib++ {
			for iw := 0; iw < n; iw++ {
				if iw == ib {
					continue
				}
				f(r, u, sq[ib], sq[iw])
				r++
			}
		}
		c := u & -u
		rr := u + c
		u = ((rr^u)>>2)/c | rr
	}
}

func expand(g *Game, key uint64, pcs []games.Piece, dst []uint64) ([]games.Piece, []uint64) {
	var m games.MoveStats
	pcs = g.Pieces(key, pcs[:0])
	dst = g.Expand(key, pcs, dst[:0], &m, 1)
	return pcs, dst
}

func bitSet(bm []uint64, r uint64) bool { return bm[r>>6]>>(r&63)&1 != 0 }

func TestBackwardEnumeration(t *testing.T) {
	if os.Getenv("CENSUS_BACKWARD") != "1" {
		t.Skip("a measurement: set CENSUS_BACKWARD=1 to run it")
	}
	g := mustNew(t, 4, 5, "")
	d := newDense(g)
	// positions_by_tier and moves of results/amazons-4x5/summary.json.
	want := []uint64{1, 190, 12025, 211801, 1114658, 3217916, 7033762, 12085824, 16626522, 18475460, 16628040, 12093120, 7054320, 3255840, 1162800, 310080, 58140, 6840, 380}
	const wantMoves = 3316523518
	maxT := g.MaxTier()
	rng := rand.New(rand.NewPCG(1, 2))

	// 1. The numbering is a bijection.
	t0 := time.Now()
	for tr := 0; tr <= maxT; tr++ {
		var cnt uint64
		d.forEach(tr, func(r uint64, u uint32, b, w int) {
			if cnt != r || d.rank(u, b, w) != r {
				t.Fatalf("tier %d: rank %d: sequential %d, rank() %d", tr, r, cnt, d.rank(u, b, w))
			}
			if r%97 == 0 || tr < 3 {
				u2, b2, w2 := d.unrank(tr, r)
				if u2 != u || b2 != b || w2 != w {
					t.Fatalf("tier %d: unrank(%d) = %b %d %d, want %b %d %d", tr, r, u2, b2, w2, u, b, w)
				}
				k := toKey(u, b, w)
				if g.Tier(k) != tr {
					t.Fatalf("tier of %x = %d", k, g.Tier(k))
				}
				if u3, b3, w3 := fromKey(k); u3 != u || b3 != b || w3 != w {
					t.Fatalf("fromKey")
				}
			}
			cnt++
		})
		if cnt != d.space(tr) || cnt != 380*d.binom[18][tr] {
			t.Fatalf("tier %d: %d ranks, space %d", tr, cnt, d.space(tr))
		}
	}
	t.Logf("bijection checked in %.1fs", time.Since(t0).Seconds())

	// 2. Predecessors are exactly the inverse of Expand.
	t0 = time.Now()
	var pcs []games.Piece
	var succ, pr, succ2 []uint64
	var nA, nB uint64
	// checkA: every successor s of p has p among preds(s); checkB (for
	// some s): every pred of s has s among its successors.
	checkP := func(p uint64, doB bool) {
		pcs, succ = expand(g, p, pcs, succ)
		mine := slices.Clone(succ)
		for i, s := range mine {
			pr = d.preds(s, pr[:0])
			if !slices.Contains(pr, p) {
				t.Fatalf("%s -> %s, but not among its preds", g.Format(p), g.Format(s))
			}
			sp := slices.Clone(pr)
			slices.Sort(sp)
			if len(slices.Compact(sp)) != len(pr) {
				t.Fatalf("duplicate preds of %s", g.Format(s))
			}
			nA++
			if doB && i%8 == 0 {
				for _, q := range pr {
					if g.Tier(q) != g.Tier(s)-1 {
						t.Fatalf("pred tier")
					}
					pcs, succ2 = expand(g, q, pcs, succ2)
					if !slices.Contains(succ2, s) {
						t.Fatalf("pred %s of %s does not reach it", g.Format(q), g.Format(s))
					}
					nB++
				}
			}
		}
	}
	// Forward BFS over tiers 0..4 in dense bitmaps; full check of tiers
	// 0..3, a sample of tier 4.
	fwd := make([][]uint64, 5)
	for tr := range fwd {
		fwd[tr] = make([]uint64, (d.space(tr)+63)/64)
	}
	r0 := d.rank(fromKey(g.Start()))
	fwd[0][r0>>6] |= 1 << (r0 & 63)
	for tr := 0; tr < 4; tr++ {
		d.forEach(tr, func(r uint64, u uint32, b, w int) {
			if !bitSet(fwd[tr], r) {
				return
			}
			p := toKey(u, b, w)
			checkP(p, tr < 2 || r%16 == 0)
			pcs, succ = expand(g, p, pcs, succ)
			for _, s := range succ {
				rs := d.rank(fromKey(s))
				fwd[tr+1][rs>>6] |= 1 << (rs & 63)
			}
		})
	}
	for tr := 0; tr <= 4; tr++ {
		var c uint64
		for _, x := range fwd[tr] {
			c += uint64(bits.OnesCount64(x))
		}
		if c != want[tr] {
			t.Fatalf("forward tier %d: %d, want %d", tr, c, want[tr])
		}
	}
	d.forEach(4, func(r uint64, u uint32, b, w int) {
		if bitSet(fwd[4], r) && r%50 == 0 {
			checkP(toKey(u, b, w), r%200 == 0)
		}
	})
	// Random arrangements of every tier, reachable or not.
	for tr := 0; tr < maxT; tr++ {
		for i := 0; i < 3000; i++ {
			checkP(toKey(d.unrank(tr, rng.Uint64N(d.space(tr)))), true)
		}
	}
	t.Logf("preds property: %d (P,s) pairs checked P in preds(s), %d preds checked s in Expand(P), %.1fs", nA, nB, time.Since(t0).Seconds())

	// 3. Backward dense enumeration.
	prev := make([]uint64, (d.space(0)+63)/64)
	prev[r0>>6] |= 1 << (r0 & 63)
	bms := make([][]uint64, maxT+1)
	bms[0] = prev
	total := time.Now()
	var totalArr, totalExam uint64
	t.Logf("%4s %10s %10s %8s %8s %8s", "tier", "space", "reach", "exam/R", "exam/U", "ns/arr")
	for tr := 1; tr <= maxT; tr++ {
		cur := make([]uint64, (d.space(tr)+63)/64)
		var reach, examR, examU uint64
		st := time.Now()
		d.forEach(tr, func(r uint64, u uint32, b, w int) {
			ok, n := d.anyPred(u, b, w, prev)
			if ok {
				cur[r>>6] |= 1 << (r & 63)
				reach++
				examR += uint64(n)
			} else {
				examU += uint64(n)
			}
		})
		el := time.Since(st)
		sp := d.space(tr)
		totalArr += sp
		totalExam += examR + examU
		un := sp - reach
		t.Logf("%4d %10d %10d %8.2f %8.2f %8.1f", tr, sp, reach, float64(examR)/float64(max(reach, 1)), float64(examU)/float64(max(un, 1)), float64(el.Nanoseconds())/float64(sp))
		if reach != want[tr] {
			t.Errorf("tier %d: %d reachable, want %d", tr, reach, want[tr])
		}
		if tr <= 4 && !slices.Equal(cur, fwd[tr]) {
			t.Errorf("tier %d: backward bitmap differs from forward", tr)
		}
		bms[tr] = cur
		prev = cur
	}
	tot := time.Since(total)
	t.Logf("backward total %.2fs, %d arrangements, %.1f ns/arr, %.2f preds examined/arr", tot.Seconds(), totalArr, float64(tot.Nanoseconds())/float64(totalArr), float64(totalExam)/float64(totalArr))

	// 4. Forward cost on tier 8.
	{
		const T, M = 8, 2000000
		keys := make([]uint64, 0, M)
		stride := want[T] / M
		var seen uint64
		d.forEach(T, func(r uint64, u uint32, b, w int) {
			if bitSet(bms[T], r) {
				if seen%stride == 0 && len(keys) < M {
					keys = append(keys, toKey(u, b, w))
				}
				seen++
			}
		})
		var m games.MoveStats
		var nsucc uint64
		st := time.Now()
		for _, k := range keys {
			pcs = g.Pieces(k, pcs[:0])
			succ = g.Expand(k, pcs, succ[:0], &m, 1)
			nsucc += uint64(len(succ))
		}
		el := time.Since(st)
		t.Logf("forward tier %d: %d positions, %d successors (%.1f/pos): Pieces+Expand %.1f ns/pos, %.2f ns/succ", T, len(keys), nsucc, float64(nsucc)/float64(len(keys)), float64(el.Nanoseconds())/float64(len(keys)), float64(el.Nanoseconds())/float64(nsucc))
		var pcsOnly int
		st = time.Now()
		for _, k := range keys {
			pcs = g.Pieces(k, pcs[:0])
			pcsOnly += len(pcs)
		}
		t.Logf("  Pieces alone %.1f ns/pos", float64(time.Since(st).Nanoseconds())/float64(len(keys)))
		var ex, ok int
		st = time.Now()
		for _, k := range keys {
			u, b, w := fromKey(k)
			f, n := d.anyPred(u, b, w, bms[T-1])
			ex += n
			if f {
				ok++
			}
		}
		t.Logf("  backward anyPred on the same keys: %.1f ns/pos (%.2f examined), %d ok", float64(time.Since(st).Nanoseconds())/float64(len(keys)), float64(ex)/float64(len(keys)), ok)
		if ok != len(keys) {
			t.Errorf("anyPred false on reachable keys")
		}
	}

	// 5. Moves total: count-only, then with Expand.
	{
		var moves uint64
		st := time.Now()
		for tr := 0; tr <= maxT; tr++ {
			bm := bms[tr]
			d.forEach(tr, func(r uint64, u uint32, b, w int) {
				if bitSet(bm, r) {
					moves += d.countMoves(u, b, w)
				}
			})
		}
		t.Logf("count-only moves %d (want %d) in %.2fs", moves, uint64(wantMoves), time.Since(st).Seconds())
		if moves != wantMoves {
			t.Errorf("moves %d, want %d", moves, uint64(wantMoves))
		}
		var m games.MoveStats
		var lens uint64
		st = time.Now()
		for tr := 0; tr <= maxT; tr++ {
			bm := bms[tr]
			d.forEach(tr, func(r uint64, u uint32, b, w int) {
				if bitSet(bm, r) {
					k := toKey(u, b, w)
					pcs = g.Pieces(k, pcs[:0])
					succ = g.Expand(k, pcs, succ[:0], &m, 1)
					lens += uint64(len(succ))
				}
			})
		}
		t.Logf("Pieces+Expand over all reachable: moves %d (MoveStats %d) in %.2fs", lens, m.Moves, time.Since(st).Seconds())
		if lens != wantMoves || m.Moves != wantMoves {
			t.Errorf("expand moves %d/%d, want %d", lens, m.Moves, uint64(wantMoves))
		}
	}
}

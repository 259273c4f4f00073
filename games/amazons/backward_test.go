package amazons

// TestBackwardEnumeration measures a design for the tier stage of a board
// whose tiers are dense (docs/history/performance-rounds.md, "The backward
// tiers of a dense board"): each tier a bitmap over a numbering of its
// arrangements, an arrangement reachable when one of its predecessors is,
// found by undoing a move and stopping at the first reachable one. It checks the
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

// unrank is the arrangement of rank r in tier t on n squares: its
// occupied squares, Black's square and White's.
func unrank(n, t int, r uint64) (u uint32, b, w int) {
	k := t + 2
	m := uint64(k * (k - 1))
	sr, rest := r/m, int(r%m)
	ib, iw := rest/(k-1), rest%(k-1)
	if iw >= ib {
		iw++
	}
	s := n - 1
	for ; k >= 1; k-- {
		for binom[s][k] > sr {
			s--
		}
		sr -= binom[s][k]
		u |= 1 << s
		s--
	}
	return u, selectBit(u, ib), selectBit(u, iw)
}

func selectBit(u uint32, i int) int {
	for ; i > 0; i-- {
		u &= u - 1
	}
	return bits.TrailingZeros32(u)
}

// toKey is the position of occupied squares u with Black on b, White on w
// and the other squares of u burnt.
func toKey(u uint32, b, w int) uint64 {
	burntSq := uint64(u) &^ (1<<b | 1<<w)
	return burntSq | 1<<b | (burntSq|1<<w)<<32
}

// countMoves counts the moves of a position without listing them.
func countMoves(g *Game, pos uint64) uint64 {
	u, b, w := fromKey(pos)
	empty := g.b.Full &^ uint64(u)
	var n int
	for _, f := range [2]int{b, w} {
		from := uint64(1) << f
		for tos := g.reach(f, empty); tos != 0; tos &= tos - 1 {
			to := tos & -tos
			n += bits.OnesCount64(g.reach(bits.TrailingZeros64(tos), (empty|from)&^to))
		}
	}
	return uint64(n)
}

func TestBackwardEnumeration(t *testing.T) {
	if os.Getenv("CENSUS_BACKWARD") != "1" {
		t.Skip("a measurement: set CENSUS_BACKWARD=1 to run it")
	}
	g := mustNew(t, 4, 5, "")
	N := g.b.Squares()
	// positions_by_tier and moves of results/amazons-4x5/summary.json.
	want := []uint64{1, 190, 12025, 211801, 1114658, 3217916, 7033762, 12085824, 16626522, 18475460, 16628040, 12093120, 7054320, 3255840, 1162800, 310080, 58140, 6840, 380}
	const wantMoves = 3316523518
	maxT := g.MaxTier()
	rng := rand.New(rand.NewPCG(1, 2))

	// 1. The numbering is a bijection.
	t0 := time.Now()
	for tr := 0; tr <= maxT; tr++ {
		var r uint64
		g.Arrangements(tr, func(p uint64) bool {
			if g.Rank(p) != r {
				t.Fatalf("tier %d: arrangement %d has rank %d", tr, r, g.Rank(p))
			}
			if r%97 == 0 || tr < 3 {
				if k := toKey(unrank(N, tr, r)); k != p {
					t.Fatalf("tier %d: unrank(%d) = %x, want %x", tr, r, k, p)
				}
				if g.Tier(p) != tr {
					t.Fatalf("tier of %x = %d", p, g.Tier(p))
				}
				if toKey(fromKey(p)) != p {
					t.Fatalf("fromKey")
				}
			}
			r++
			return true
		})
		if r != g.TierSpace(tr) || r != 380*binom[18][tr] {
			t.Fatalf("tier %d: %d ranks, space %d", tr, r, g.TierSpace(tr))
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
			pr = predecessors(g, s, pr[:0])
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
		fwd[tr] = make([]uint64, (g.TierSpace(tr)+63)/64)
	}
	r0 := g.Rank(g.Start())
	fwd[0][r0>>6] |= 1 << (r0 & 63)
	for tr := 0; tr < 4; tr++ {
		var r uint64
		g.Arrangements(tr, func(p uint64) bool {
			if bitSet(fwd[tr], r) {
				checkP(p, tr < 2 || r%16 == 0)
				pcs, succ = expand(g, p, pcs, succ)
				for _, s := range succ {
					rs := g.Rank(s)
					fwd[tr+1][rs>>6] |= 1 << (rs & 63)
				}
			}
			r++
			return true
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
	var r4 uint64
	g.Arrangements(4, func(p uint64) bool {
		if bitSet(fwd[4], r4) && r4%50 == 0 {
			checkP(p, r4%200 == 0)
		}
		r4++
		return true
	})
	// Random arrangements of every tier, reachable or not.
	for tr := 0; tr < maxT; tr++ {
		for i := 0; i < 3000; i++ {
			checkP(toKey(unrank(N, tr, rng.Uint64N(g.TierSpace(tr)))), true)
		}
	}
	t.Logf("preds property: %d (P,s) pairs checked P in preds(s), %d preds checked s in Expand(P), %.1fs", nA, nB, time.Since(t0).Seconds())

	// 3. Backward dense enumeration.
	prev := make([]uint64, (g.TierSpace(0)+63)/64)
	prev[r0>>6] |= 1 << (r0 & 63)
	bms := make([][]uint64, maxT+1)
	bms[0] = prev
	// n counts the predecessors looked at.
	var n uint64
	inPrev := func(q uint64) bool {
		n++
		return bitSet(prev, g.Rank(q))
	}
	total := time.Now()
	var totalArr, totalExam uint64
	t.Logf("%4s %10s %10s %8s %8s %8s", "tier", "space", "reach", "exam/R", "exam/U", "ns/arr")
	for tr := 1; tr <= maxT; tr++ {
		cur := make([]uint64, (g.TierSpace(tr)+63)/64)
		var r, reach, examR, examU uint64
		st := time.Now()
		g.Arrangements(tr, func(p uint64) bool {
			n = 0
			if g.AnyPredecessor(p, inPrev) {
				cur[r>>6] |= 1 << (r & 63)
				reach++
				examR += n
			} else {
				examU += n
			}
			r++
			return true
		})
		el := time.Since(st)
		sp := g.TierSpace(tr)
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
		var r, seen uint64
		g.Arrangements(T, func(p uint64) bool {
			if bitSet(bms[T], r) {
				if seen%stride == 0 && len(keys) < M {
					keys = append(keys, p)
				}
				seen++
			}
			r++
			return true
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
		var ex uint64
		var ok int
		prev = bms[T-1]
		st = time.Now()
		for _, k := range keys {
			n = 0
			if g.AnyPredecessor(k, inPrev) {
				ok++
			}
			ex += n
		}
		t.Logf("  backward AnyPredecessor on the same keys: %.1f ns/pos (%.2f examined), %d ok", float64(time.Since(st).Nanoseconds())/float64(len(keys)), float64(ex)/float64(len(keys)), ok)
		if ok != len(keys) {
			t.Errorf("AnyPredecessor false on reachable keys")
		}
	}

	// 5. Moves total: count-only, then with Expand.
	{
		var moves uint64
		st := time.Now()
		for tr := 0; tr <= maxT; tr++ {
			bm := bms[tr]
			var r uint64
			g.Arrangements(tr, func(p uint64) bool {
				if bitSet(bm, r) {
					moves += countMoves(g, p)
				}
				r++
				return true
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
			var r uint64
			g.Arrangements(tr, func(p uint64) bool {
				if bitSet(bm, r) {
					pcs = g.Pieces(p, pcs[:0])
					succ = g.Expand(p, pcs, succ[:0], &m, 1)
					lens += uint64(len(succ))
				}
				r++
				return true
			})
		}
		t.Logf("Pieces+Expand over all reachable: moves %d (MoveStats %d) in %.2fs", lens, m.Moves, time.Since(st).Seconds())
		if lens != wantMoves || m.Moves != wantMoves {
			t.Errorf("expand moves %d/%d, want %d", lens, m.Moves, uint64(wantMoves))
		}
	}
}

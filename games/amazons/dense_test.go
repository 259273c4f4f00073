package amazons

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
)

// expand is the successors of pos, in dst.
func expand(g *Game, pos uint64, pcs []games.Piece, dst []uint64) ([]games.Piece, []uint64) {
	var m games.MoveStats
	pcs = g.Pieces(pos, pcs[:0])
	dst = g.Expand(pos, pcs, dst[:0], &m, 1)
	return pcs, dst
}

// predecessors appends the predecessors of pos to dst.
func predecessors(g *Game, pos uint64, dst []uint64) []uint64 {
	g.AnyPredecessor(pos, func(q uint64) bool {
		dst = append(dst, q)
		return false
	})
	return dst
}

func bitSet(bm []uint64, r uint64) bool { return bm[r>>6]>>(r&63)&1 != 0 }

// forward is the positions of tiers 0 to last reachable from the start,
// found by Expand, on a board of up to 16 squares.
func forward(g *Game, last int) [][]uint64 {
	tiers := [][]uint64{{g.Start()}}
	var pcs []games.Piece
	var succ []uint64
	for t := 0; t < last; t++ {
		// seen has a bit for every occupied set u, Black's square b and
		// White's w at u<<8 | b<<4 | w.
		seen := make([]uint64, 1<<(g.b.Squares()+8)/64)
		var next []uint64
		for _, p := range tiers[t] {
			pcs, succ = expand(g, p, pcs, succ)
			for _, s := range succ {
				u, b, w := fromKey(s)
				if i := uint64(u)<<8 | uint64(b<<4|w); !bitSet(seen, i) {
					seen[i>>6] |= 1 << (i & 63)
					next = append(next, s)
				}
			}
		}
		tiers = append(tiers, next)
	}
	return tiers
}

// choose is n choose k, computed without the package's tables.
func choose(n, k int) uint64 {
	if k < 0 || k > n {
		return 0
	}
	c := uint64(1)
	for i := 1; i <= k; i++ {
		c = c * uint64(n-k+i) / uint64(i)
	}
	return c
}

// colexRank is the colex rank of the square set u, from its definition:
// the sum of choose(s, i) over its squares s, the i-th from the lowest.
func colexRank(u uint32) uint64 {
	var r uint64
	for i := 1; u != 0; i++ {
		r += choose(bits.TrailingZeros32(u), i)
		u &= u - 1
	}
	return r
}

// isArrangement reports whether pos is a position of tier t of g with one
// amazon a side, inside the board.
func isArrangement(g *Game, tier int, pos uint64) bool {
	lo, hi := pos&0xffffffff, pos>>32
	return bits.OnesCount64(lo&^hi) == 1 && bits.OnesCount64(hi&^lo) == 1 && (lo|hi)&^g.b.Full == 0 && g.Tier(pos) == tier
}

func TestDenseRankBijection(t *testing.T) {
	for _, sh := range [][2]int{{1, 2}, {2, 4}, {3, 3}, {3, 4}, {4, 4}} {
		g := mustNew(t, sh[0], sh[1], "")
		N := g.b.Squares()
		for tier := -1; tier <= g.MaxTier()+1; tier++ {
			n := tier + 2
			space := choose(N, n) * uint64(n*(n-1))
			if g.TierSpace(tier) != space {
				t.Fatalf("%s tier %d: TierSpace %d, want %d", g.b, tier, g.TierSpace(tier), space)
			}
			var r uint64
			g.Arrangements(tier, func(pos uint64) bool {
				if !isArrangement(g, tier, pos) {
					t.Fatalf("%s tier %d: arrangement %d, %x, is not one of the tier", g.b, tier, r, pos)
				}
				if got := g.Rank(pos); got != r {
					t.Fatalf("%s tier %d: arrangement %d (%s) has rank %d", g.b, tier, r, g.Format(pos), got)
				}
				r++
				return true
			})
			if r != space {
				t.Fatalf("%s tier %d: %d arrangements, want %d", g.b, tier, r, space)
			}
		}
	}
}

func TestDenseRankFullBoard(t *testing.T) {
	// 32 squares: the top byte's table, and the last set of a tier at the
	// top of the key.
	g := mustNew(t, 4, 8, "")
	for _, tier := range []int{0, 1, 29, 30} {
		var r uint64
		g.Arrangements(tier, func(pos uint64) bool {
			if !isArrangement(g, tier, pos) {
				t.Fatalf("tier %d: arrangement %d, %x, is not one of the tier", tier, r, pos)
			}
			if got := g.Rank(pos); got != r {
				t.Fatalf("tier %d: arrangement %d (%s) has rank %d", tier, r, g.Format(pos), got)
			}
			r++
			return true
		})
		if r != g.TierSpace(tier) {
			t.Fatalf("tier %d: %d arrangements, want %d", tier, r, g.TierSpace(tier))
		}
	}
	// Random arrangements of every tier against the colex rank from its
	// definition.
	rng := rand.New(rand.NewPCG(3, 4))
	for tier := 0; tier <= g.MaxTier(); tier++ {
		n := tier + 2
		for range 200 {
			perm := rng.Perm(32)
			var u uint32
			for _, s := range perm[:n] {
				u |= 1 << s
			}
			b, w := perm[rng.IntN(n)], perm[rng.IntN(n)]
			if b == w {
				continue
			}
			ib := bits.OnesCount32(u & (1<<b - 1))
			iw := bits.OnesCount32(u & (1<<w - 1))
			if iw > ib {
				iw--
			}
			want := colexRank(u)*uint64(n*(n-1)) + uint64(ib*(n-1)+iw)
			burntSq := uint64(u) &^ (1<<b | 1<<w)
			pos := burntSq | 1<<b | (burntSq|1<<w)<<32
			if got := g.Rank(pos); got != want || got >= g.TierSpace(tier) {
				t.Fatalf("tier %d: rank of %s = %d, want %d (of %d)", tier, g.Format(pos), got, want, g.TierSpace(tier))
			}
		}
	}
}

func TestDenseArrangementsStop(t *testing.T) {
	g := mustNew(t, 3, 3, "")
	calls := 0
	g.Arrangements(2, func(uint64) bool {
		calls++
		return calls < 5
	})
	if calls != 5 {
		t.Errorf("Arrangements went on after f returned false: %d calls, want 5", calls)
	}
}

// moveHash is a hash of the move from q to s: two sets of moves have the
// same sum of it when they are the same, and otherwise but by a chance of
// 2^-64.
func moveHash(q, s uint64) uint64 {
	mix := func(x uint64) uint64 {
		x ^= x >> 30
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		return x ^ x>>31
	}
	return mix(q*0x9e3779b97f4a7c15 + mix(s))
}

func TestDensePredecessors(t *testing.T) {
	// The positions reachable in every tier of 3x4 and in the first 5
	// tiers of 4x4, and the successors s of each tier's: the moves into
	// the s their predecessors list (q among the predecessors of s) are
	// the moves into them Expand lists (s among the successors of q, for
	// every arrangement q of the tier before). So every successor of a
	// position has it among its predecessors, and every predecessor of a
	// position has it among its successors. The two sets are compared by
	// size and sum of moveHash; when they differ, a move in one and not
	// the other is looked for.
	for _, tc := range []struct {
		// tiers is how many tiers of positions, from the start.
		rows, cols, tiers int
	}{{3, 4, 11}, {4, 4, 5}} {
		g := mustNew(t, tc.rows, tc.cols, "")
		fwd := forward(g, min(tc.tiers, g.MaxTier()))
		var pcs []games.Piece
		var succ, pr []uint64
		var moves int
		for tier := 0; tier+1 < len(fwd); tier++ {
			into := make([]uint64, (g.TierSpace(tier+1)+63)/64)
			var nPred, sumPred uint64
			for _, s := range fwd[tier+1] {
				r := g.Rank(s)
				into[r>>6] |= 1 << (r & 63)
				pr = predecessors(g, s, pr[:0])
				for i, q := range pr {
					if slices.Contains(pr[:i], q) {
						t.Fatalf("%s: predecessor %s listed twice", g.Format(s), g.Format(q))
					}
					if g.Tier(q) != tier {
						t.Fatalf("predecessor %s of %s: tier %d, want %d", g.Format(q), g.Format(s), g.Tier(q), tier)
					}
					nPred++
					sumPred += moveHash(q, s)
				}
			}
			var nExp, sumExp uint64
			g.Arrangements(tier, func(q uint64) bool {
				pcs, succ = expand(g, q, pcs, succ)
				for _, s := range succ {
					if bitSet(into, g.Rank(s)) {
						nExp++
						sumExp += moveHash(q, s)
					}
				}
				return true
			})
			moves += int(nExp)
			if nPred == nExp && sumPred == sumExp {
				continue
			}
			// Find a move that differs.
			for _, s := range fwd[tier+1] {
				for _, q := range predecessors(g, s, nil) {
					if pcs, succ = expand(g, q, pcs, succ); !slices.Contains(succ, s) {
						t.Fatalf("predecessor %s of %s does not reach it", g.Format(q), g.Format(s))
					}
				}
			}
			g.Arrangements(tier, func(q uint64) bool {
				for _, s := range expandNew(g, q) {
					if bitSet(into, g.Rank(s)) && !slices.Contains(predecessors(g, s, nil), q) {
						t.Fatalf("%s -> %s, but it is not among the predecessors of %s", g.Format(q), g.Format(s), g.Format(s))
					}
				}
				return true
			})
			t.Fatalf("%s tier %d: %d moves by Expand, %d by predecessors", g.b, tier, nExp, nPred)
		}
		t.Logf("%s: %d moves", g.b, moves)
	}
}

// expandNew is the successors of pos in a new slice.
func expandNew(g *Game, pos uint64) []uint64 {
	_, succ := expand(g, pos, nil, nil)
	return succ
}

func TestDenseAnyPredecessor(t *testing.T) {
	g := mustNew(t, 3, 4, "")
	pos := g.Start()
	var pcs []games.Piece
	var succ []uint64
	pcs, succ = expand(g, pos, pcs, succ)
	pos = succ[len(succ)/2]
	pcs, succ = expand(g, pos, pcs, succ)
	s := succ[len(succ)/3]
	all := predecessors(g, s, nil)
	if len(all) < 3 {
		t.Fatalf("%s: %d predecessors", g.Format(s), len(all))
	}
	for k := range all {
		calls := 0
		if !g.AnyPredecessor(s, func(q uint64) bool { calls++; return q == all[k] }) || calls != k+1 {
			t.Errorf("AnyPredecessor stopping at predecessor %d: %d calls", k, calls)
		}
	}
	if g.AnyPredecessor(s, func(uint64) bool { return false }) {
		t.Errorf("AnyPredecessor true when reached never is")
	}
	allocs := testing.AllocsPerRun(100, func() {
		g.AnyPredecessor(s, func(q uint64) bool { return q == 0 })
	})
	if allocs != 0 {
		t.Errorf("AnyPredecessor: %v allocations", allocs)
	}
	allocs = testing.AllocsPerRun(10, func() {
		g.Arrangements(3, func(q uint64) bool { return q != 0 })
	})
	if allocs != 0 {
		t.Errorf("Arrangements: %v allocations", allocs)
	}
}

func TestDenseBackward(t *testing.T) {
	for _, sh := range [][2]int{{3, 4}, {4, 4}} {
		g := mustNew(t, sh[0], sh[1], "")
		fwd := forward(g, g.MaxTier())
		var d games.Dense = g
		prev := make([]uint64, (d.TierSpace(0)+63)/64)
		r0 := d.Rank(g.Start())
		prev[r0>>6] |= 1 << (r0 & 63)
		bms := [][]uint64{prev}
		for tier := 1; tier <= g.MaxTier(); tier++ {
			cur := make([]uint64, (d.TierSpace(tier)+63)/64)
			var r uint64
			d.Arrangements(tier, func(pos uint64) bool {
				if d.AnyPredecessor(pos, func(q uint64) bool { return bitSet(prev, d.Rank(q)) }) {
					cur[r>>6] |= 1 << (r & 63)
				}
				r++
				return true
			})
			bms = append(bms, cur)
			prev = cur
		}
		for tier, bm := range bms {
			var n int
			for _, x := range bm {
				n += bits.OnesCount64(x)
			}
			if n != len(fwd[tier]) {
				t.Fatalf("%s tier %d: %d reachable backwards, %d forwards", g.b, tier, n, len(fwd[tier]))
			}
			for _, p := range fwd[tier] {
				if !bitSet(bm, d.Rank(p)) {
					t.Fatalf("%s tier %d: %s reachable forwards, not backwards", g.b, tier, g.Format(p))
				}
			}
		}
	}
}

func TestDenseTiers(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		start      string
		want       bool
	}{
		{4, 5, "", true},
		{1, 2, "", true},
		{3, 3, "..x/.../o..", true},
		{3, 3, "x.x/.../o..", false},
		{3, 3, "..x/.../o.o", false},
		{3, 3, "..x/.#./o..", false},
		{3, 3, "..x/.../...", false},
	} {
		g := mustNew(t, tc.rows, tc.cols, tc.start)
		if got := g.DenseTiers(); got != tc.want {
			t.Errorf("%dx%d %q: DenseTiers %v, want %v", tc.rows, tc.cols, tc.start, got, tc.want)
		}
	}
}

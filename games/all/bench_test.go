package all

// Benchmarks of the per-position kernels of the games: move generation,
// piece finding, canonical keys and the piece transforms. Each benchmark
// runs over a fixed sample of reachable positions gathered in its setup by
// a sampled breadth-first search (every tier is expanded in full from the
// kept positions of the tier before, then cut to a fixed number of
// positions chosen by a seeded generator), so the sample covers every tier
// of the game, early full boards and late sparse ones alike, and is the
// same on every run. One op is one position (or one piece); positions/s is
// 1e9 / ns/op.
//
//	go test -bench . -run '^$' ./games/all/

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/census-cgt/census/games"
)

// benchBoards are the games and boards the kernels are measured on.
var benchBoards = []struct{ game, board string }{
	{"clobber", "4x4"},
	{"domineering", "5x6"},
	{"amazons", "4x4"},
	{"clobber", "4x5"},
}

// benchPerTier is how many positions of each tier the sample keeps.
const benchPerTier = 1024

// benchSample is a fixed sample of reachable positions of one game, with
// what the kernels take as input precomputed.
type benchSample struct {
	g   games.Game
	pos []uint64
	// pcs[i] are the pieces of pos[i].
	pcs [][]games.Piece
	// inPlace are the in-place keys of the live pieces of the sample;
	// translated are their translations, distinct.
	inPlace    []uint64
	translated []games.PieceKey
	succ       int // successors of the whole sample
}

var (
	benchMu      sync.Mutex
	benchSamples = map[string]*benchSample{}
)

// sampleFor builds (once per process) the sample of game on board.
func sampleFor(b *testing.B, game, board string) *benchSample {
	b.Helper()
	benchMu.Lock()
	defer benchMu.Unlock()
	id := game + " " + board
	if s, ok := benchSamples[id]; ok {
		return s
	}
	g, err := New(game, board, "")
	if err != nil {
		b.Fatal(err)
	}
	s := &benchSample{g: g}
	rng := rand.New(rand.NewPCG(1, 2))
	m := games.NewMoveStats(true)
	frontier := []uint64{g.Start()}
	var pcs []games.Piece
	var succ []uint64
	for len(frontier) > 0 {
		s.pos = append(s.pos, frontier...)
		next := map[uint64]struct{}{}
		for _, p := range frontier {
			pcs = g.Pieces(p, pcs[:0])
			succ = g.Expand(p, pcs, succ[:0], m, 1)
			for _, q := range succ {
				next[q] = struct{}{}
			}
		}
		frontier = frontier[:0]
		for q := range next {
			frontier = append(frontier, q)
		}
		slices.Sort(frontier) // map order is random; the sample must not be
		rng.Shuffle(len(frontier), func(i, j int) { frontier[i], frontier[j] = frontier[j], frontier[i] })
		frontier = frontier[:min(len(frontier), benchPerTier)]
	}
	seen := map[games.PieceKey]bool{}
	for _, p := range s.pos {
		pcs := g.Pieces(p, nil)
		s.pcs = append(s.pcs, pcs)
		s.succ += len(g.Expand(p, pcs, nil, m, 1))
		for _, pc := range pcs {
			if !pc.Live {
				continue
			}
			s.inPlace = append(s.inPlace, pc.Key)
			if k := g.Translate(pc.Key); !seen[k] {
				seen[k] = true
				s.translated = append(s.translated, k)
			}
		}
	}
	// Visit the sample in a fixed random order, not tier by tier, so that
	// no kernel is helped by runs of similar positions.
	perm := rng.Perm(len(s.pos))
	pos, pcsAll := make([]uint64, len(perm)), make([][]games.Piece, len(perm))
	for i, j := range perm {
		pos[i], pcsAll[i] = s.pos[j], s.pcs[j]
	}
	s.pos, s.pcs = pos, pcsAll
	rng.Shuffle(len(s.inPlace), func(i, j int) { s.inPlace[i], s.inPlace[j] = s.inPlace[j], s.inPlace[i] })
	rng.Shuffle(len(s.translated), func(i, j int) { s.translated[i], s.translated[j] = s.translated[j], s.translated[i] })
	benchSamples[id] = s
	return s
}

// benchSink keeps results alive so the compiler cannot drop the work.
var benchSink uint64

// forEachBoard runs f as one sub-benchmark per board.
func forEachBoard(b *testing.B, f func(b *testing.B, s *benchSample)) {
	for _, bb := range benchBoards {
		b.Run(fmt.Sprintf("%s-%s", bb.game, bb.board), func(b *testing.B) {
			s := sampleFor(b, bb.game, bb.board)
			b.ReportAllocs()
			f(b, s)
		})
	}
}

// reportRate reports n items done in the benchmark's elapsed time as unit.
func reportRate(b *testing.B, n int, unit string) {
	if sec := b.Elapsed().Seconds(); sec > 0 {
		b.ReportMetric(float64(n)/sec, unit)
	}
}

// BenchmarkExpand measures move generation: one op expands one position
// (its pieces precomputed) into a reused slice, with the moved-piece
// histograms on for Clobber as in a census.
func BenchmarkExpand(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		m := games.NewMoveStats(s.g.Name() == "clobber")
		dst := make([]uint64, 0, 4096)
		n, succ := 0, 0
		for b.Loop() {
			i := n % len(s.pos)
			dst = s.g.Expand(s.pos[i], s.pcs[i], dst[:0], m, 1)
			succ += len(dst)
			n++
		}
		benchSink += m.Moves
		reportRate(b, n, "positions/s")
		reportRate(b, succ, "succ/s")
		b.ReportMetric(float64(s.succ)/float64(len(s.pos)), "succ/pos")
	})
}

// BenchmarkCountMoves measures what a listed or backward tier job asks of
// a game per position, where no successor is sent: the moves counted, not
// listed (games.MoveCounter), for the games that can; compare
// BenchmarkExpand.
func BenchmarkCountMoves(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		c, ok := s.g.(games.MoveCounter)
		if !ok {
			b.Skip("lists its moves to count them")
		}
		m := games.NewMoveStats(s.g.Name() == "clobber")
		n := 0
		for b.Loop() {
			i := n % len(s.pos)
			c.CountMoves(s.pos[i], s.pcs[i], m, 1)
			n++
		}
		benchSink += m.Moves
		reportRate(b, n, "positions/s")
	})
}

// BenchmarkPieces measures piece finding: one op finds the pieces of one
// position into a reused slice.
func BenchmarkPieces(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		dst := make([]games.Piece, 0, 64)
		n, pieces := 0, 0
		for b.Loop() {
			dst = s.g.Pieces(s.pos[n%len(s.pos)], dst[:0])
			pieces += len(dst)
			n++
		}
		reportRate(b, n, "positions/s")
		b.ReportMetric(float64(pieces)/float64(max(n, 1)), "pieces/pos")
	})
}

// BenchmarkDeadFree measures deleting the dead pieces of one position.
func BenchmarkDeadFree(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		var sink uint64
		n := 0
		for b.Loop() {
			i := n % len(s.pos)
			sink ^= s.g.DeadFree(s.pos[i], s.pcs[i])
			n++
		}
		benchSink += sink
		reportRate(b, n, "positions/s")
	})
}

// BenchmarkCanon measures the least key of a position's orbit under the
// start's symmetry group, as every successor of a census is stored.
func BenchmarkCanon(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		gr := games.StartGroup(s.g, true)
		var sink uint64
		n := 0
		for b.Loop() {
			sink ^= gr.Canon(s.pos[n%len(s.pos)])
			n++
		}
		benchSink += sink
		reportRate(b, n, "keys/s")
		b.ReportMetric(float64(gr.Size()), "maps")
	})
}

// BenchmarkCanonOrbit measures the orbit representative and size together,
// as every stored position of a census is checked and weighted.
func BenchmarkCanonOrbit(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		gr := games.StartGroup(s.g, true)
		var sink uint64
		n := 0
		for b.Loop() {
			c, o := gr.CanonOrbit(s.pos[n%len(s.pos)])
			sink ^= c + o
			n++
		}
		benchSink += sink
		reportRate(b, n, "keys/s")
	})
}

// BenchmarkCanonPiece measures the least translated piece of an orbit
// under the start's group (one op is one distinct translated piece).
func BenchmarkCanonPiece(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		gr := games.StartGroup(s.g, true)
		var sink uint64
		n := 0
		for b.Loop() {
			k := gr.CanonPiece(s.translated[n%len(s.translated)])
			sink ^= k.Hi + k.Lo
			n++
		}
		benchSink += sink
		reportRate(b, n, "keys/s")
	})
}

// BenchmarkTranslate measures moving a live piece (its in-place key) to the
// corner of its bounding box.
func BenchmarkTranslate(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		var sink uint64
		n := 0
		for b.Loop() {
			k := s.g.Translate(s.inPlace[n%len(s.inPlace)])
			sink ^= k.Hi + k.Lo
			n++
		}
		benchSink += sink
		reportRate(b, n, "keys/s")
	})
}

// BenchmarkClasses measures the symmetric and negation classes of one
// distinct translated piece.
func BenchmarkClasses(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		var sink uint64
		n := 0
		for b.Loop() {
			sym, neg, self := s.g.Classes(s.translated[n%len(s.translated)])
			sink ^= sym.Lo + neg.Lo
			if self {
				sink++
			}
			n++
		}
		benchSink += sink
		reportRate(b, n, "keys/s")
	})
}

// BenchmarkPositionKernel measures the whole per-position work of a tier
// job without its I/O: the checks of the stored representative, the
// pieces, the canonical in-place and translated pieces, the dead-free
// board, the successors and their canonical keys. It is an upper bound on
// the positions per second one core can reach in a census.
func BenchmarkPositionKernel(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		g := s.g
		gr := games.StartGroup(g, true)
		m := games.NewMoveStats(g.Name() == "clobber")
		pcs := make([]games.Piece, 0, 64)
		succ := make([]uint64, 0, 4096)
		seen := make([]games.PieceKey, 0, 64)
		var sink uint64
		n := 0
		for b.Loop() {
			pos := s.pos[n%len(s.pos)]
			c, w := gr.CanonOrbit(pos)
			sink ^= c + uint64(g.Tier(pos))
			pcs = g.Pieces(pos, pcs[:0])
			seen = seen[:0]
			for _, p := range pcs {
				if !p.Live {
					continue
				}
				sink ^= gr.Canon(p.Key)
				k := g.Translate(p.Key)
				if slices.Contains(seen, k) {
					continue
				}
				seen = append(seen, k)
				sink ^= gr.CanonPiece(k).Lo
			}
			sink ^= gr.Canon(g.DeadFree(pos, pcs))
			succ = g.Expand(pos, pcs, succ[:0], m, w)
			for _, q := range succ {
				sink ^= gr.Canon(q)
			}
			n++
		}
		benchSink += sink
		reportRate(b, n, "positions/s")
	})
}

// BenchmarkSuccessors measures what a tier job does per successor: one op
// expands one position (its pieces precomputed) and takes the canonical key
// of every successor under the start's group. It reports successors
// canonicalised per second on the one core the benchmark runs on.
func BenchmarkSuccessors(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		gr := games.StartGroup(s.g, true)
		m := games.NewMoveStats(s.g.Name() == "clobber")
		dst := make([]uint64, 0, 4096)
		var sink uint64
		n, succ := 0, 0
		for b.Loop() {
			i := n % len(s.pos)
			dst = s.g.Expand(s.pos[i], s.pcs[i], dst[:0], m, 1)
			for _, q := range dst {
				sink ^= gr.Canon(q)
			}
			succ += len(dst)
			n++
		}
		benchSink += sink
		reportRate(b, succ, "succ/s/core")
		b.ReportMetric(float64(gr.Size()), "maps")
	})
}

// BenchmarkPieceRow measures what the piece reduction asks of a game per
// distinct piece: its classes, its size, its picture and its CGSuite grid.
func BenchmarkPieceRow(b *testing.B) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		var sink uint64
		n := 0
		for b.Loop() {
			k := s.translated[n%len(s.translated)]
			sym, neg, _ := s.g.Classes(k)
			sink ^= sym.Lo + neg.Lo + uint64(s.g.Size(k))
			sink += uint64(len(s.g.Picture(k)) + len(s.g.CGSuite(k)))
			n++
		}
		benchSink += sink
		reportRate(b, n, "pieces/s")
	})
}

// BenchmarkVisit measures the whole per-position work of a tier job
// through the game's kernel (games.NewKernel): one Visit with successors,
// then the canonical translated piece of each distinct live piece of the
// position. It does the work of BenchmarkPositionKernel, and compares with
// it and with BenchmarkVisitPlain directly.
func BenchmarkVisit(b *testing.B) { benchVisit(b, games.NewKernel) }

// BenchmarkVisitPlain is BenchmarkVisit through games.NewPlainKernel, the
// kernel built from the Game and Group methods.
func BenchmarkVisitPlain(b *testing.B) { benchVisit(b, games.NewPlainKernel) }

// benchVisit runs BenchmarkVisit with the kernel newKernel makes.
func benchVisit(b *testing.B, newKernel func(games.Game, *games.Group) games.Kernel) {
	forEachBoard(b, func(b *testing.B, s *benchSample) {
		g := s.g
		gr := games.StartGroup(g, true)
		k := newKernel(g, &gr)
		m := games.NewMoveStats(g.Name() == "clobber")
		var v games.Visit
		seen := make([]games.PieceKey, 0, 64)
		var sink uint64
		n := 0
		for b.Loop() {
			pos := s.pos[n%len(s.pos)]
			k.Visit(pos, &v, m, true)
			sink ^= v.Canon + v.Orbit + v.DeadFree + uint64(g.Tier(pos))
			seen = seen[:0]
			for i, t := range v.Translated {
				sink ^= v.InPlace[i]
				if slices.Contains(seen, t) {
					continue
				}
				seen = append(seen, t)
				sink ^= gr.CanonPiece(t).Lo
			}
			for _, q := range v.Succ {
				sink ^= q
			}
			n++
		}
		benchSink += sink
		reportRate(b, n, "positions/s")
	})
}

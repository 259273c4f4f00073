package values

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// BenchmarkIndexValue looks up positions of Clobber 4x5, as a solver
// would: 10,000 positions reached by random play from the start (8 to 19
// moves, so 12 stones or fewer), each split into pieces, each piece looked
// up in an Index and the forms added. The index holds the values of the
// pieces those positions hold, loaded from their encoding into a fresh
// Valuer (so no sum is cached when the first pass begins). cold-lookups/s
// is the first pass over the positions, lookups/s every pass, diagrams/s
// a pass that reads each position from its diagram first (Index.Position,
// as census value does).
func BenchmarkIndexValue(b *testing.B) {
	gg, err := all.New("clobber", "4x5", "")
	if err != nil {
		b.Fatal(err)
	}
	g := gg.(games.Mover)
	rng := rand.New(rand.NewPCG(4, 5))
	positions := make([]uint64, 10000)
	warm, err := New("clobber", 0)
	if err != nil {
		b.Fatal(err)
	}
	var pieces []games.Piece
	for i := range positions {
		pos := g.Start()
		for moves := 8 + rng.IntN(12); moves > 0; moves-- {
			opts := g.Options(pos, rng.IntN(2) == 0, nil)
			if len(opts) == 0 {
				break
			}
			pos = opts[rng.IntN(len(opts))]
		}
		positions[i] = pos
		for _, p := range g.Pieces(pos, pieces[:0]) {
			if p.Live {
				warm.Value(g.Translate(p.Key))
			}
		}
	}
	var keys []games.PieceKey
	warm.Each(func(k games.PieceKey, _ Value) { keys = append(keys, k) })
	sortKeys(keys)
	v, err := New("clobber", 0)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := v.Load(warm.Append(nil, keys)); err != nil {
		b.Fatal(err)
	}
	x := IndexOf(g, v)
	start := time.Now()
	for _, pos := range positions {
		x.Value(pos)
	}
	cold := float64(len(positions)) / time.Since(start).Seconds()
	start = time.Now()
	for _, pos := range positions {
		p, err := x.Position(g.Format(pos))
		if err != nil {
			b.Fatal(err)
		}
		x.Value(p)
	}
	diagrams := float64(len(positions)) / time.Since(start).Seconds()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for _, pos := range positions {
			x.Value(pos)
		}
		n += len(positions)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lookups/s")
	b.ReportMetric(cold, "cold-lookups/s")
	b.ReportMetric(diagrams, "diagrams/s")
	b.ReportMetric(float64(x.Len()), "pieces")
}

package values

import (
	"testing"
	"time"

	"github.com/census-cgt/census/cgt"
)

// BenchmarkValueBoard values every live piece of a board's census in
// process with a fresh Valuer, as the values stage does for one run.
func BenchmarkValueBoard(b *testing.B) {
	for _, bc := range []struct{ game, board string }{
		{"clobber", "3x4"},
		{"clobber", "4x4"},
	} {
		b.Run(bc.game+"/"+bc.board, func(b *testing.B) {
			keys := livePieces(b, bc.game, bc.board)
			b.ResetTimer()
			for b.Loop() {
				v, err := New(bc.game, 0)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				capped, outcomes := 0, map[cgt.Outcome]int{}
				for _, k := range keys {
					val := v.Value(k)
					if val.Capped {
						capped++
					}
					outcomes[val.Outcome]++
				}
				b.ReportMetric(float64(len(keys))/time.Since(start).Seconds(), "pieces/s")
				b.ReportMetric(float64(capped), "capped")
				b.ReportMetric(float64(v.Table().Len()), "games")
			}
			b.ReportMetric(float64(len(keys)), "pieces")
		})
	}
}

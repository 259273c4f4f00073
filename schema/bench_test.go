package schema

// Benchmarks of the Parquet writers on realistic rows: the distinct
// translated live pieces of Clobber 4x4 and Amazons 4x4 met in a sampled
// breadth-first search, with their real pictures and classes, sorted by key
// as the piece jobs write them.
//
//	go test -bench . -run '^$' ./schema/

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

// benchPieceRows returns up to n distinct pieces of game on board as rows
// of the pieces table, sorted by key.
func benchPieceRows(b testing.TB, game, board string, n int) []Piece {
	b.Helper()
	g, err := all.New(game, board, "")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	m := games.NewMoveStats(false)
	rows := map[games.PieceKey]*Piece{}
	frontier := []uint64{g.Start()}
	var pcs []games.Piece
	var succ []uint64
	for tier := 0; len(frontier) > 0 && len(rows) < n; tier++ {
		next := map[uint64]struct{}{}
		for _, p := range frontier {
			pcs = g.Pieces(p, pcs[:0])
			for _, pc := range pcs {
				if !pc.Live {
					continue
				}
				k := g.Translate(pc.Key)
				if r, ok := rows[k]; ok {
					r.Positions++
					continue
				}
				if len(rows) == n {
					continue
				}
				sym, neg, self := g.Classes(k)
				r, c := k.Dims()
				rows[k] = &Piece{
					Game: game, Board: board, KeyHi: k.Hi, KeyLo: k.Lo,
					Rows: int32(r), Cols: int32(c), Size: int32(g.Size(k)),
					Picture:     g.Picture(k),
					SymmetricHi: sym.Hi, SymmetricLo: sym.Lo,
					NegationHi: neg.Hi, NegationLo: neg.Lo,
					SelfNegative: self, Positions: 1, FirstTier: int32(tier),
				}
			}
			succ = g.Expand(p, pcs, succ[:0], m, 1)
			for _, q := range succ {
				next[q] = struct{}{}
			}
		}
		frontier = frontier[:0]
		for q := range next {
			frontier = append(frontier, q)
		}
		slices.Sort(frontier)
		rng.Shuffle(len(frontier), func(i, j int) { frontier[i], frontier[j] = frontier[j], frontier[i] })
		frontier = frontier[:min(len(frontier), 16<<10)]
	}
	out := make([]Piece, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Piece) int {
		return cmp.Or(cmp.Compare(a.KeyHi, b.KeyHi), cmp.Compare(a.KeyLo, b.KeyLo))
	})
	return out
}

// countWriter counts the bytes written to it and keeps none.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// BenchmarkPieceWriterFile measures writing a whole pieces file of up to
// 100k realistic rows with the default sizes (one row group, the footer),
// through PieceWriter (the values stage's) and UnvaluedPieceWriter (the
// census's); one op is one file. bytes/row is the file's size, ns/row the
// time a row, cpu-ns/row the process's CPU time a row (setup excluded, the
// collector's work included).
func BenchmarkPieceWriterFile(b *testing.B) {
	writers := []struct {
		name string
		open func(io.Writer) (rowWriter, error)
	}{
		{"PieceWriter", func(w io.Writer) (rowWriter, error) { return NewPieceWriter(w) }},
		{"UnvaluedPieceWriter", func(w io.Writer) (rowWriter, error) { return NewUnvaluedPieceWriter(w, DefaultRowGroupRows, CodecZstd) }},
	}
	for _, c := range []struct{ game, board string }{{"clobber", "4x4"}, {"amazons", "4x4"}} {
		rows := benchPieceRows(b, c.game, c.board, 100_000)
		for _, wr := range writers {
			b.Run(fmt.Sprintf("%s-%s-%d/%s", c.game, c.board, len(rows), wr.name), func(b *testing.B) {
				b.ReportAllocs()
				var w countWriter
				n, files := 0, 0
				cpu0 := processCPU(b)
				for b.Loop() {
					pw, err := wr.open(&w)
					if err != nil {
						b.Fatal(err)
					}
					for _, r := range rows {
						if err := pw.Write(r); err != nil {
							b.Fatal(err)
						}
					}
					if err := pw.Close(); err != nil {
						b.Fatal(err)
					}
					n += len(rows)
					files++
				}
				if sec := b.Elapsed().Seconds(); sec > 0 {
					b.ReportMetric(float64(n)/sec, "rows/s")
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(n, 1)), "ns/row")
				}
				// On a loaded machine the wall time counts the waits for a
				// core; the process's CPU time does not.
				b.ReportMetric(float64((processCPU(b)-cpu0).Nanoseconds())/float64(max(n, 1)), "cpu-ns/row")
				b.ReportMetric(float64(w.n)/float64(max(n, 1)), "bytes/row")
			})
		}
	}
}

// rowWriter is what the pieces writers share.
type rowWriter interface {
	Write(Piece) error
	Close() error
}

// BenchmarkPieceStringsZstd measures what the zstd compression of the
// pieces table's string column costs a row: the pictures of up to 100k
// realistic rows, as the data pages of DELTA_LENGTH_BYTE_ARRAY hold them
// (the strings end to end; their lengths, bit-packed, are a few bits a
// row), compressed a page of arrow-go's default data page size at a time
// at the writers' level. ns/row is the time a row, MB/s the bytes
// compressed a second, ratio what the pages shrink by. However fast the
// rest of a piece job gets, its rows cost at least this.
func BenchmarkPieceStringsZstd(b *testing.B) {
	for _, c := range []struct{ game, board string }{{"clobber", "4x4"}, {"amazons", "4x4"}} {
		rows := benchPieceRows(b, c.game, c.board, 100_000)
		var pictures []byte
		for _, r := range rows {
			pictures = append(pictures, r.Picture...)
		}
		b.Run(fmt.Sprintf("%s-%s-%d", c.game, c.board, len(rows)), func(b *testing.B) {
			var dst []byte
			var in, out int64
			for b.Loop() {
				for p := pictures; len(p) > 0; {
					n := min(len(p), int(parquet.DefaultDataPageSize))
					dst = registeredZstd.EncodeLevel(dst, p[:n], zstdLevel)
					in, out = in+int64(n), out+int64(len(dst))
					p = p[n:]
				}
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
			b.ReportMetric(float64(in)/1e6/max(sec, 1e-9), "MB/s")
			b.ReportMetric(float64(in)/float64(max(out, 1)), "ratio")
		})
	}
}

package values

import (
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
)

// BenchmarkValueSample values fixed samples of real pieces of Clobber 4x5
// as a value job of their size does: the values of every smaller piece
// their options reach are loaded from an encoding into a fresh Valuer
// (values.Load, as jobs.LoadValueTables does), so no sum or comparison
// of the sample's size is cached, and only the sample's own valuations
// are timed. The samples (testdata/clobber-4x5-sizeN.keys, 16 bytes a
// key, Hi then Lo, little-endian) are every k-th distinct translated
// piece of that size of census run clobber 4x5's pieces table, sorted by
// key. pieces/s is the rate of the sample in wall time, pieces/cpu-s in
// the process's processor time.
func BenchmarkValueSample(b *testing.B) {
	for _, size := range []int{12, 13} {
		b.Run("clobber-4x5/size"+itoa(size), func(b *testing.B) {
			keys := sampleKeys(b, filepath.Join("testdata", "clobber-4x5-size"+itoa(size)+".keys"))
			enc := cachedSmallerValues(b, "clobber", keys, size)
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				v, err := New("clobber", 0)
				if err != nil {
					b.Fatal(err)
				}
				loadStart := time.Now()
				loaded, err := v.Load(enc)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(time.Since(loadStart).Nanoseconds())/float64(loaded), "load-ns/piece")
				b.ReportMetric(float64(loaded), "loaded")
				b.StartTimer()
				start, cpu := time.Now(), cpuTime()
				capped := 0
				for _, k := range keys {
					if v.Value(k).Capped {
						capped++
					}
				}
				b.ReportMetric(float64(len(keys))/time.Since(start).Seconds(), "pieces/s")
				b.ReportMetric(float64(len(keys))/(cpuTime()-cpu).Seconds(), "pieces/cpu-s")
				b.ReportMetric(float64(capped), "capped")
			}
		})
	}
}

// cpuTime is the processor time the process has used, user and system:
// on a machine other work shares, pieces per second of it varies less than
// per second of wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func itoa(n int) string { return strconv.Itoa(n) }

// sampleKeys reads a file of translated piece keys.
func sampleKeys(tb testing.TB, path string) []games.PieceKey {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if len(data)%16 != 0 {
		tb.Fatalf("%s: %d bytes, not keys of 16", path, len(data))
	}
	keys := make([]games.PieceKey, len(data)/16)
	for i := range keys {
		keys[i] = games.PieceKey{Hi: binary.LittleEndian.Uint64(data[16*i:]), Lo: binary.LittleEndian.Uint64(data[16*i+8:])}
	}
	return keys
}

// cachedSmallerValues is smallerValues, kept in the directory
// $VALUES_BENCH_CACHE when that is set so that runs of the benchmark, and
// of the benchmark built from another commit, share them: the values of
// the smaller pieces are the same whatever commit computed them, and
// computing them takes most of a run.
func cachedSmallerValues(tb testing.TB, game string, keys []games.PieceKey, size int) []byte {
	dir := os.Getenv("VALUES_BENCH_CACHE")
	if dir == "" {
		return smallerValues(tb, game, keys)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-4x5-below-size%d.values", game, size))
	if data, err := os.ReadFile(path); err == nil {
		return data
	}
	data := smallerValues(tb, game, keys)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return data
}

// smallerValues values, in a Valuer of its own, every piece that an option
// of a piece of keys holds, and returns their encoding (Append).
func smallerValues(tb testing.TB, game string, keys []games.PieceKey) []byte {
	tb.Helper()
	v, err := New(game, 0)
	if err != nil {
		tb.Fatal(err)
	}
	var succ []uint64
	var pieces []games.Piece
	for _, k := range keys {
		g := v.box(k)
		for _, left := range []bool{true, false} {
			succ = g.Options(g.PiecePosition(k), left, succ[:0])
			for _, s := range succ {
				pieces = g.Pieces(s, pieces[:0])
				for _, p := range pieces {
					if p.Live {
						v.Value(g.Translate(p.Key))
					}
				}
			}
		}
	}
	var all []games.PieceKey
	v.Each(func(k games.PieceKey, _ Value) { all = append(all, k) })
	sortKeys(all)
	return v.Append(nil, all)
}

var samplesFrom = flag.String("samples-from", "", "rewrite testdata/clobber-4x5-size*.keys from the pieces table of this census run of clobber 4x5 (OUT/clobber-4x5)")

// TestWriteSamples rewrites the samples of BenchmarkValueSample from a
// census run's pieces table when -samples-from is given: 2,000 keys of
// each size, every k-th of the size's distinct translated pieces in key
// order, k the number of them over 2,000.
func TestWriteSamples(t *testing.T) {
	if *samplesFrom == "" {
		t.Skip("-samples-from not given")
	}
	parts, err := schema.PiecesParts(*samplesFrom)
	if err != nil {
		t.Fatal(err)
	}
	bySize := map[int][]games.PieceKey{}
	for _, part := range parts {
		err := schema.ScanPiecesFile(part, func(p schema.Piece) error {
			if p.Size == 12 || p.Size == 13 {
				bySize[int(p.Size)] = append(bySize[int(p.Size)], games.PieceKey{Hi: p.KeyHi, Lo: p.KeyLo})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for size, keys := range bySize {
		sortKeys(keys)
		keys = slices.Compact(keys)
		const n = 2000
		var buf []byte
		for i := range n {
			k := keys[i*(len(keys)/n)]
			buf = binary.LittleEndian.AppendUint64(buf, k.Hi)
			buf = binary.LittleEndian.AppendUint64(buf, k.Lo)
		}
		path := filepath.Join("testdata", "clobber-4x5-size"+itoa(size)+".keys")
		if err := os.WriteFile(path, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d of %d pieces of size %d", path, n, len(keys), size)
	}
}

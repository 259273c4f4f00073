package probe_test

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/probe/probetest"
)

// The benchmarks probe the solved run that CENSUS_PROBE_RUN names
// (OUT/GAME-BOARD), at random positions of it (probetest.Sample); without
// it they are skipped. scripts/probe-bench.sh runs them and times census
// probe --file and census serve beside them.
//
//	CENSUS_PROBE_RUN=OUT/clobber-5x5 go test -run '^$' -bench . ./probe/

// benchRun opens the run and draws its sample once for every benchmark.
var benchRun = sync.OnceValues(func() (*probe.Table, []string) {
	dir := os.Getenv("CENSUS_PROBE_RUN")
	if dir == "" {
		return nil, nil
	}
	t, err := probe.Open(dir)
	if err != nil {
		panic(err)
	}
	sample, err := probetest.Sample(dir, 100_000, 64, 1)
	if err != nil {
		panic(err)
	}
	return t, sample
})

func benchTable(b *testing.B) (*probe.Table, []string) {
	t, sample := benchRun()
	if t == nil {
		b.Skip("CENSUS_PROBE_RUN names no solved run")
	}
	return t, sample
}

// BenchmarkProbeBrief is a position's class and results, on every core:
// what census probe --brief answers.
func BenchmarkProbeBrief(b *testing.B) {
	t, sample := benchTable(b)
	probeAll(b, sample, func(d string) error {
		pos, err := t.Position(d)
		if err != nil {
			return err
		}
		_, err = t.Brief(pos, probe.Both)
		return err
	})
}

// BenchmarkProbe is a position's whole answer, both players' moves and
// best lines, on every core: what census probe answers.
func BenchmarkProbe(b *testing.B) {
	t, sample := benchTable(b)
	probeAll(b, sample, func(d string) error {
		_, err := t.Probe(d, probe.Both)
		return err
	})
}

// probeAll answers the sample's diagrams in turn on every core and reports
// positions a second.
func probeAll(b *testing.B, sample []string, answer func(string) error) {
	var next int64
	var mu sync.Mutex
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			d := sample[next%int64(len(sample))]
			next++
			mu.Unlock()
			if err := answer(d); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkOpen opens the run and answers one position: the cost of a
// server's or a command's start, and the memory it holds.
func BenchmarkOpen(b *testing.B) {
	dir := os.Getenv("CENSUS_PROBE_RUN")
	if dir == "" {
		b.Skip("CENSUS_PROBE_RUN names no solved run")
	}
	var rss int64
	for b.Loop() {
		before := residentBytes()
		t, err := probe.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := t.Probe(t.Info().Start, probe.Both); err != nil {
			b.Fatal(err)
		}
		rss = max(rss, residentBytes()-before)
		t.Close()
	}
	b.ReportMetric(float64(rss)/(1<<20), "MiB-resident")
}

// residentBytes is the process's resident memory, from /proc (0 where
// there is none).
func residentBytes() int64 {
	runtime.GC()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestWriteSample writes the sample's diagrams to the file
// CENSUS_PROBE_SAMPLE names, one a line, for scripts/probe-bench.sh to
// give census probe --file; without it, it is skipped.
func TestWriteSample(t *testing.T) {
	out := os.Getenv("CENSUS_PROBE_SAMPLE")
	if out == "" || os.Getenv("CENSUS_PROBE_RUN") == "" {
		t.Skip("CENSUS_PROBE_RUN and CENSUS_PROBE_SAMPLE name no run and no file")
	}
	began := time.Now()
	sample, err := probetest.Sample(os.Getenv("CENSUS_PROBE_RUN"), 200_000, 64, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(strings.Join(sample, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d diagrams in %s", len(sample), time.Since(began))
}

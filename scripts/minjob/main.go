// Command minjob is an independent, minimal tier job of Clobber, used to
// measure the least that the work a census tier job shares with it can
// cost. It enumerates the positions of Clobber rows x cols (at most 32
// squares, checkerboard start) tier by tier, a tier being the number of
// moves made, with the moves of both colours as successors. It stores one
// position for each orbit under the census's group: the board's mirrors
// and rotations (4 on a rectangle, 8 on a square), each followed by a
// swap of the colours where that makes it fix the start. Each tier is
// split in shards by a hash of the canonical key. A job reads and merges
// the files of its shard, generates and canonicalises every successor,
// appends each to its target shard's buffer, sorts each buffer, drops
// repeats and writes it, delta and varint encoded, to a file of the next
// tier. It uses the standard library only and shares no code with the
// census.
//
// It prints the stored positions and positions of each tier, checked
// against the census's figures for 4x5 and 4x4, and the thread CPU time
// of each stage of the jobs, added up over all jobs, in seconds and in
// nanoseconds per stored position expanded (every stored position is
// expanded once):
//
//	go build -o /tmp/minjob ./scripts/minjob
//	/tmp/minjob                     # Clobber 4x5, -shards 4 -workers 2
//	/tmp/minjob -rows 4 -cols 4     # Clobber 4x4
//	/tmp/minjob -sort std           # slices.Sort and slices.Compact
//	/tmp/minjob -v                  # and the stages of each tier
//	go test ./scripts/minjob        # Clobber 4x4 against the census
//
// The generation and canonicalisation stage is timed by a separate pass
// over the input that computes every canonical successor but appends
// none; the appends' stage, which includes choosing the target shard, is
// the fused pass (generate, canonicalise, append) less that pass.
// -split=false skips the extra pass.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"
)

// config is what a run enumerates and how.
type config struct {
	rows, cols, shards, workers int
	std, split, verbose         bool
}

// tally is what the jobs of a run did, by tier, and what they cost.
type tally struct {
	stored, positions []int64 // by tier
	succ, kept        int64
	jobs              int
	cpu               [numStages]int64
	tierCPU           [][numStages]int64 // by tier
	sink              uint64
}

func main() {
	var c config
	flag.IntVar(&c.rows, "rows", 4, "rows of the board")
	flag.IntVar(&c.cols, "cols", 5, "columns of the board")
	flag.IntVar(&c.shards, "shards", 4, "shards of each tier")
	flag.IntVar(&c.workers, "workers", 2, "jobs run at once")
	sortBy := flag.String("sort", "radix", "sort of the successors: radix or std")
	flag.BoolVar(&c.split, "split", true, "time generation without appends in an extra pass")
	flag.BoolVar(&c.verbose, "v", false, "print the stages' CPU time of each tier too")
	profile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	c.std = *sortBy == "std"
	if c.rows < 1 || c.cols < 1 || c.rows*c.cols > 32 || c.shards < 1 || c.workers < 1 ||
		(*sortBy != "radix" && *sortBy != "std") {
		fmt.Fprintln(os.Stderr, "minjob: bad arguments")
		os.Exit(2)
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "minjob:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	wall := time.Now()
	t, err := enumerate(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "minjob:", err)
		os.Exit(1)
	}
	elapsed := time.Since(wall)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	ok := printTiers(c, t)
	printStages(c, t, elapsed, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
	fmt.Printf("minor page faults %d, peak RSS %d MB\n", ru.Minflt, ru.Maxrss>>10)
	if !ok {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// enumerate runs the jobs of every tier of c's board, tier by tier, in a
// temporary directory it removes at the end.
func enumerate(c config) (*tally, error) {
	dir, err := os.MkdirTemp("", "minjob-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	b := newBoard(c.rows, c.cols)
	jobs := make(chan job)
	results := make(chan result)
	var wg sync.WaitGroup
	for range c.workers {
		w := &worker{b: b, shards: c.shards, split: c.split, dir: dir,
			bufs: make([][]uint64, c.shards), sort: sorter{std: c.std}}
		wg.Go(func() {
			runtime.LockOSThread()
			for j := range jobs {
				results <- w.run(j)
			}
		})
	}
	defer wg.Wait()
	defer close(jobs)
	// The start position is the input of tier 0, written as a job of a
	// tier before would write it.
	start := b.canon(b.start())
	first := fileName(dir, 0, shardOf(start, c.shards), 0)
	if err := os.WriteFile(first, encode(nil, []uint64{start}), 0o644); err != nil {
		return nil, err
	}
	inputs := make([][]string, c.shards)
	inputs[shardOf(start, c.shards)] = []string{first}
	t := &tally{}
	for tier := 0; ; tier++ {
		next, err := runTier(c, t, tier, inputs, jobs, results)
		if err != nil || next == nil {
			return t, err
		}
		inputs = next
	}
}

// fileName names the file of tier and target shard written by the job of
// shard from.
func fileName(dir string, tier, shard, from int) string {
	return fmt.Sprintf("%s/t%02d-s%d-from%d", dir, tier, shard, from)
}

// runTier runs the jobs of tier whose shards have input files, adds
// their results to t and removes their input files. It returns the
// input files of the next tier by shard, or nil if the tier has no
// successors.
func runTier(c config, t *tally, tier int, inputs [][]string, jobs chan<- job, results <-chan result) ([][]string, error) {
	n := 0
	go func() {
		for s, in := range inputs {
			if len(in) > 0 {
				jobs <- job{tier: tier, shard: s, inputs: in}
			}
		}
	}()
	for _, in := range inputs {
		if len(in) > 0 {
			n++
		}
	}
	if n == 0 {
		return nil, nil
	}
	t.stored = append(t.stored, 0)
	t.positions = append(t.positions, 0)
	t.tierCPU = append(t.tierCPU, [numStages]int64{})
	next := make([][]string, c.shards)
	var err error
	more := false
	for range n {
		r := <-results
		if r.err != nil {
			err = r.err
			continue
		}
		t.jobs++
		t.stored[tier] += r.stored
		t.positions[tier] += r.positions
		t.succ += r.succ
		t.kept += r.kept
		t.sink += r.sink
		for i, v := range r.cpu {
			t.cpu[i] += v
			t.tierCPU[tier][i] += v
		}
		for s, f := range r.outputs {
			if f != "" {
				next[s] = append(next[s], f)
				more = true
			}
		}
	}
	for _, in := range inputs {
		for _, f := range in {
			os.Remove(f)
		}
	}
	if err != nil || !more {
		return nil, err
	}
	return next, nil
}

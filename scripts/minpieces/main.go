// Command minpieces is an independent program that writes the rows of a
// census pieces table again, with arrow-go's pqarrow writer and with bare
// zstd, to measure what writing the table costs at least, beside the
// census's own writer. It shares no code with the census: it reads each
// part file (RUN/pieces/part-*.parquet) with arrow-go's pqarrow reader
// into plain Go column slices, then writes the same rows, one part a
// file, from one goroutine locked to its OS thread (as one piece job
// writes one part), in each of these ways:
//
//   - pqarrow zstd-1: pqarrow.FileWriter with the census's settings (zstd
//     level 1, the census's encoding of each column, dictionaries for
//     game, board and value only, row groups of 1Mi rows, statistics);
//   - pqarrow uncompressed, snappy, lz4_raw: the same with another codec
//     (uncompressed: what the encoding alone costs);
//   - zstd over the pages: the uncompressed file's bytes compressed with
//     zstd at SpeedFastest, a column chunk at a time, 1 MiB at a time
//     within each, and nothing else: what zstd costs over exactly the
//     bytes of the pages, with each column's share (-v);
//   - bare plain bytes, bare zstd: each column's bytes as PLAIN pages would
//     hold them (plainBytes), made, then compressed the same way: the
//     floor of "zstd over these bytes", with each column's share (-v).
//
// It prints, for each way, the CPU time of the writing thread
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)) and of the whole process
// (which adds the garbage collector's background work) in nanoseconds a
// row, the wall time, the bytes written and the collections that ran.
// Reading is not counted.
//
//	go build -o /tmp/minpieces ./scripts/minpieces
//	/tmp/minpieces OUT/clobber-4x5          # every part of the run
//	/tmp/minpieces -v -parts 2 OUT/clobber-4x5
//	go test ./scripts/minpieces
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
)

func main() {
	verbose := flag.Bool("v", false, "print the zstd cost of each column, over the pages and bare")
	maxParts := flag.Int("parts", 0, "write only the first N parts (0: all)")
	tmp := flag.String("tmp", "", "directory of the written files (default: a new one under $TMPDIR)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: minpieces [-v] [-parts N] [-tmp DIR] RUN_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	// The thread CPU clock measures this goroutine's work only while it
	// stays on one thread.
	runtime.LockOSThread()
	dir := *tmp
	if dir == "" {
		d, err := os.MkdirTemp("", "minpieces-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "minpieces:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	r, err := measureRun(flag.Arg(0), dir, *maxParts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "minpieces:", err)
		os.Exit(1)
	}
	r.print(os.Stdout, *verbose)
}

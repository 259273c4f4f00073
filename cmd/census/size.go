package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/census-cgt/census/host/gctune"
)

// parseSize reads a byte size such as 64MiB, 1GiB, 512M or 1000000.
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}}
	num, mult := s, int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || n <= 0 || n*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("size %q: want a positive number of bytes, e.g. 64MiB or 2GiB", s)
	}
	return int64(n * float64(mult)), nil
}

// memBudget reads --mem-budget, the memory of one job, for a process that
// runs jobs at once; by default they share a quarter of physical memory,
// at most 2GiB a job. It returns the job's budget and the process's total,
// jobs times that.
func memBudget(flag string, jobs int) (total, perJob int64, err error) {
	if flag == "" {
		perJob = min(max(physicalMemory()/4/int64(jobs), 16<<20), 2<<30)
		return perJob * int64(jobs), perJob, nil
	}
	perJob, err = parseSize(flag)
	if err != nil {
		return 0, 0, fmt.Errorf("--mem-budget: %w", err)
	}
	if perJob < 4<<20 {
		return 0, 0, fmt.Errorf("--mem-budget %s: want at least 4MiB for a job", flag)
	}
	return perJob * int64(jobs), perJob, nil
}

// physicalMemory is the memory this process may use: MemTotal from
// /proc/meminfo, or a container's cgroup limit when lower; 4GiB if neither
// can be read.
func physicalMemory() int64 {
	mem := memTotal()
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if limit, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && limit > 0 {
			mem = min(mem, limit)
		}
	}
	return mem
}

func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 4 << 30
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return 4 << 30
}

// gcPercent is the collector's target for a process that runs jobs with a
// large heap: a new collection once the heap has grown by a quarter since
// the last, instead of Go's default of doubling. Nearly all of a job's heap
// is record buffers without pointers, which the collector does not scan,
// so collecting more often costs little CPU (Clobber 4x5: the same CPU time
// within the noise) and keeps the peak RSS near what the jobs hold (1.0
// GiB against 1.5 GiB at the default; docs/performance.md).
const gcPercent = 25

// gcHeadroom is the least the heap may grow past what a collection left
// live: a small board's heap of some tens of megabytes would otherwise be
// collected every few megabytes allocated (Clobber 4x4: 130 collections
// in two seconds; docs/performance.md).
const gcHeadroom = 128 << 20

// censusMemoryLimit is the soft memory limit of a census run whose jobs
// have budgets of total bytes between them: twice that. The jobs keep
// their record buffers within their budgets, but the process also keeps
// buffers between jobs for the next ones (jobs/spill.go's pools) and the
// garbage of the jobs done, and a live heap above the soft limit makes
// the collector run without pause: Clobber 5x5 with the limit at the
// budgets (4 GiB on a 24 GiB machine) collected 19,043 times in its first
// 420 s and reached tier 11's 2nd job; at twice them, 34 times and tier
// 11's 84th (docs/performance.md).
func censusMemoryLimit(total int64) int64 { return 2 * total }

// jobsCollector re-targets the collector of a process running jobs; the
// values stage stops it (stopJobsCollector).
var (
	jobsCollectorMu sync.Mutex
	jobsCollector   *gctune.Tuner
)

// stopJobsCollector stops the re-targeting of tuneCollector, if any.
func stopJobsCollector() {
	jobsCollectorMu.Lock()
	defer jobsCollectorMu.Unlock()
	jobsCollector.Stop()
	jobsCollector = nil
}

// tuneCollector sets the collector of a process running jobs: the next
// collection once the heap has grown by gcPercent or by gcHeadroom past
// the live heap, whichever is more (unless GOGC says otherwise), and, when
// limit is positive, a soft memory limit of limit bytes, near which the
// collector works harder rather than let the heap outgrow the budget.
func tuneCollector(limit int64) {
	if os.Getenv("GOGC") == "" {
		jobsCollectorMu.Lock()
		if jobsCollector == nil {
			jobsCollector = gctune.Start(gcPercent, gcHeadroom)
		}
		jobsCollectorMu.Unlock()
	}
	if limit > 0 {
		debug.SetMemoryLimit(limit)
	}
}

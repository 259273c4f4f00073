// Command tiertails reads the debug log of a census run and prints, tier
// by tier, how long its jobs took and how much of the tier's span the
// job slots spent idle: the slots times the span from the tier's first
// job's start to its last job's end, less the seconds of every job (of
// any kind: compactions run beside the tiers) inside that span. A tier
// whose last jobs run alone while the other slots wait shows it here.
//
//	CENSUS_LOG=debug census run domineering 6x6 --out OUT 2> run.log
//	go run ./scripts/tiertails -slots 2 run.log
//
// -slots is the number of jobs run at once (census run's --jobs). It
// exits 2 on bad arguments or a log without job records.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"
)

// job is one job's time, from the "job done" record that ends it.
type job struct {
	name       string
	tier       int // -1 for a job of another kind
	start, end time.Time
}

var (
	doneRecord = regexp.MustCompile(`^time=(\S+) .*msg="job done" .*job=(\S+) took=(\S+)`)
	tierJob    = regexp.MustCompile(`^tier-(\d+)-shard-\d+$`)
)

func main() {
	slots := flag.Int("slots", 2, "jobs run at once (census run's --jobs)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: tiertails [-slots N] [LOG]  (a CENSUS_LOG=debug log; standard input when LOG is not given)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *slots < 1 || flag.NArg() > 1 {
		flag.Usage()
		os.Exit(2)
	}
	in := io.Reader(os.Stdin)
	if flag.NArg() == 1 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, "tiertails:", err)
			os.Exit(2)
		}
		defer f.Close()
		in = f
	}
	jobs, err := readJobs(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tiertails:", err)
		os.Exit(2)
	}
	if len(jobs) == 0 {
		fmt.Fprintln(os.Stderr, "tiertails: no \"job done\" records: run census with CENSUS_LOG=debug")
		os.Exit(2)
	}
	report(os.Stdout, jobs, *slots)
}

// readJobs reads the job records of a debug log.
func readJobs(r io.Reader) ([]job, error) {
	var jobs []job
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := doneRecord.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		end, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			return nil, fmt.Errorf("record time %q: %w", m[1], err)
		}
		took, err := time.ParseDuration(m[3])
		if err != nil {
			return nil, fmt.Errorf("job %s took %q: %w", m[2], m[3], err)
		}
		j := job{name: m[2], tier: -1, start: end.Add(-took), end: end}
		if t := tierJob.FindStringSubmatch(m[2]); t != nil {
			j.tier, _ = strconv.Atoi(t[1])
		}
		jobs = append(jobs, j)
	}
	return jobs, sc.Err()
}

// report prints each tier's jobs and idle slot-seconds, and their totals.
func report(w io.Writer, jobs []job, slots int) {
	byTier := map[int][]job{}
	for _, j := range jobs {
		if j.tier >= 0 {
			byTier[j.tier] = append(byTier[j.tier], j)
		}
	}
	tiers := make([]int, 0, len(byTier))
	for t := range byTier {
		tiers = append(tiers, t)
	}
	sort.Ints(tiers)
	fmt.Fprintf(w, "%4s %5s %9s %9s %9s %9s %11s\n", "tier", "jobs", "mean s", "max s", "span s", "busy s", "idle slot-s")
	var totalSpan, totalIdle float64
	for _, t := range tiers {
		tj := byTier[t]
		first, last := tj[0].start, tj[0].end
		var sum, longest float64
		for _, j := range tj {
			if j.start.Before(first) {
				first = j.start
			}
			if j.end.After(last) {
				last = j.end
			}
			d := j.end.Sub(j.start).Seconds()
			sum += d
			longest = max(longest, d)
		}
		var busy float64
		for _, j := range jobs {
			s, e := j.start, j.end
			if s.Before(first) {
				s = first
			}
			if e.After(last) {
				e = last
			}
			if e.After(s) {
				busy += e.Sub(s).Seconds()
			}
		}
		span := last.Sub(first).Seconds()
		idle := max(float64(slots)*span-busy, 0)
		totalSpan += span
		totalIdle += idle
		fmt.Fprintf(w, "%4d %5d %9.3f %9.3f %9.3f %9.3f %11.3f\n", t, len(tj), sum/float64(len(tj)), longest, span, busy, idle)
	}
	fmt.Fprintf(w, "tiers' span %.2f s, idle %.2f slot-s (%.1f%% of %d slots)\n", totalSpan, totalIdle, 100*totalIdle/max(float64(slots)*totalSpan, 1e-9), slots)
}

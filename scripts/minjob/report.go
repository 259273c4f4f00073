package main

import (
	"fmt"
	"slices"
	"time"
)

// expected holds the census's figures for the boards it knows: the total
// of stored positions and the positions (orbits times their sizes) of
// each tier.
var expected = map[string]struct {
	stored    int64
	positions []int64
}{
	"4x5": {22325573, []int64{1, 62, 1556, 20754, 164094, 827534, 2866566, 7266736, 13676924,
		18987438, 19574388, 14427080, 7625662, 2868048, 768404, 166082, 24067, 3412, 190, 20}},
	"4x4": {227132, []int64{1, 48, 878, 7972, 40216, 125696, 274116, 419284, 430528, 313516,
		141088, 45856, 8916, 1676, 120, 16}},
}

// total adds up xs.
func total(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

// check compares the totals of t with the census's figures for c's board,
// if it has them, and says how they compare.
func check(c config, t *tally) (string, bool) {
	want, known := expected[fmt.Sprintf("%dx%d", c.rows, c.cols)]
	switch {
	case !known:
		return "no census figures for this board", true
	case total(t.stored) == want.stored && slices.Equal(t.positions, want.positions):
		return fmt.Sprintf("OK: stored %d and positions by tier (total %d) match the census",
			want.stored, total(want.positions)), true
	default:
		return fmt.Sprintf("MISMATCH: the census has stored %d, positions %v (total %d)",
			want.stored, want.positions, total(want.positions)), false
	}
}

// printTiers prints the stored positions and positions of each tier and
// their check, and reports whether it passed.
func printTiers(c config, t *tally) bool {
	fmt.Printf("Clobber %dx%d, %d shards, %d workers, sort %s\n", c.rows, c.cols, c.shards, c.workers,
		map[bool]string{true: "std", false: "radix"}[c.std])
	fmt.Printf("%4s %12s %12s\n", "tier", "stored", "positions")
	for i := range t.stored {
		fmt.Printf("%4d %12d %12d\n", i, t.stored[i], t.positions[i])
	}
	fmt.Printf("%4s %12d %12d\n", "all", total(t.stored), total(t.positions))
	msg, ok := check(c, t)
	fmt.Println(msg)
	return ok
}

// printStages prints the CPU time of each stage, added up over the jobs,
// in seconds and in nanoseconds per stored position expanded, then the
// run's wall and CPU time and the successors' counts.
func printStages(c config, t *tally, wall, cpu time.Duration) {
	stored := float64(total(t.stored))
	row := func(name string, ns int64) {
		fmt.Printf("%-44s %8.3f %8.1f\n", name, float64(ns)/1e9, float64(ns)/stored)
	}
	fmt.Printf("\n%-44s %8s %8s\n", "stage (thread CPU, all jobs)", "cpu s", "ns/pos")
	row("1 read + merge inputs", t.cpu[stageRead])
	if c.split {
		row("2 successors + canonicalise (no appends)", t.cpu[stageGen])
		row("3 appends to shard buffers (fused - 2)", t.cpu[stageAppend])
	}
	row("2+3 fused pass: successors, canon, appends", t.cpu[stageFused])
	row("4 sort + dedupe", t.cpu[stageSort])
	row("5 encode + write files", t.cpu[stageWrite])
	row("job = 1 + fused + 4 + 5", t.cpu[stageRead]+t.cpu[stageFused]+t.cpu[stageSort]+t.cpu[stageWrite])
	fmt.Printf("ns/pos: divided by the %d stored positions expanded (every stored position once)\n", int64(stored))
	fmt.Printf("wall %.3f s, process CPU (user+sys) %.3f s", wall.Seconds(), cpu.Seconds())
	if c.split {
		fmt.Printf(", of which the extra pass 2 %.3f s", float64(t.cpu[stageGen])/1e9)
	}
	fmt.Println()
	fmt.Printf("successors generated per stored position %.3f; distinct successors kept per job %.0f (%d jobs)\n",
		float64(t.succ)/stored, float64(t.kept)/float64(t.jobs), t.jobs)
	if c.verbose {
		printTierStages(t)
	}
	if t.sink == 1 {
		fmt.Println() // t.sink is used so that pass 2 cannot be left out
	}
}

// printTierStages prints the CPU time of each stage of each tier in
// nanoseconds per stored position of the tier.
func printTierStages(t *tally) {
	fmt.Printf("\n%4s %10s %8s %8s %8s %8s %8s %8s %8s\n", "tier", "stored",
		"read", "gen", "append", "fused", "sort", "write", "job")
	for i, cpu := range t.tierCPU {
		ns := func(s int) float64 { return float64(cpu[s]) / float64(t.stored[i]) }
		fmt.Printf("%4d %10d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n", i, t.stored[i],
			ns(stageRead), ns(stageGen), ns(stageAppend), ns(stageFused), ns(stageSort), ns(stageWrite),
			ns(stageRead)+ns(stageFused)+ns(stageSort)+ns(stageWrite))
	}
}

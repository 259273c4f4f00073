package coordinator

import (
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/jobs"
)

// tierWay is how a run finds each tier's positions: forwards, from the
// successors the tier before sends on (forwardTiers); backwards, by
// testing each of the tier's arrangements for a reachable predecessor
// (backwardTiers); or by listing the tier's reachable positions outright
// (listedTiers). A new run chooses its way once (chooseTierWay), its plan
// keeps it (plannedTierWay), and its jobs tell the workers
// (jobs.Spec.Backward and Listed).
type tierWay interface {
	// sizes returns the records tier t's batch reads (incoming), which
	// its check for room and the choice of its executor go by, and about
	// how many positions tier t+1 stores (next), which size that tier's
	// shards, from the inputs of tier t's shards and the moves per
	// position of the tier before.
	sizes(t int, inputs [][]jobs.Blob, branching float64) (incoming, next uint64)
	// shardInputs is what shard s of a tier reads of the tier's inputs.
	shardInputs(inputs [][]jobs.Blob, s int) []jobs.Blob
	// route adds b, a blob of the next tier's inputs that a tier job
	// wrote, to the inputs of the next tier's shards that read it.
	route(next [][]jobs.Blob, b jobs.Blob)
	// inCoordinator says whether a small tier may run in the
	// coordinator's own process (see censusStage.executor).
	inCoordinator() bool
	// planned is how a plan records the way (Plan.Backward and Listed).
	planned() (backward, listed bool)
}

// chooseTierWay is the way a new run of g under cfg finds its tiers:
// backwards for a game whose tiers can be numbered densely from its start
// (Amazons with one amazon a side), where a tier's arrangements are nearly
// all reachable and testing each for a reachable predecessor costs a
// fraction of sending on every successor
// (docs/history/performance-rounds.md, "The backward tiers of a dense
// board"), unless its largest tier's bitmap,
// which every job of the next tier holds, would take more than a quarter
// of a job's memory budget (Amazons 4x5's takes 2.3 MB, 5x5's 101 MB,
// 5x6's 4.4 GB); listed for a game whose reachable positions of a tier can
// be listed outright (Domineering, whose reachable positions are the sets
// dominoes tile), where listing a tier costs a fraction of sending on
// every successor of the tier before (docs/history/performance-rounds.md,
// "Domineering's tiers listed outright"); forwards otherwise, and whenever the run goes
// forwards only (forwardOnly).
func chooseTierWay(g games.Game, cfg Config) tierWay {
	if forwardOnly(cfg) {
		return forwardTiers{}
	}
	if d, ok := g.(games.Dense); ok && d.DenseTiers() && bitmapsFit(g, d, cfg.MemBudget) {
		return newBackwardTiers(g, cfg.NoSymmetry)
	}
	if l, ok := g.(games.Listed); ok && l.ListedTiers() {
		return newListedTiers(g, cfg.NoSymmetry)
	}
	return forwardTiers{}
}

// bitmapsFit says whether the bitmap of every tier of the dense game g
// takes at most a quarter of budget.
func bitmapsFit(g games.Game, d games.Dense, budget int64) bool {
	for t := 0; t <= g.MaxTier(); t++ {
		if int64(d.TierSpace(t)/8) > budget/4 {
			return false
		}
	}
	return true
}

// forwardOnly says whether a run finds every tier forwards, whatever its
// game allows: the positions table and the kept positions want a tier's
// positions as the forward tiers find them, in their shards by key, and
// Forward asks for it.
func forwardOnly(cfg Config) bool { return cfg.Forward || cfg.Positions || cfg.Keep }

// plannedTierWay is the way of a run of g whose plan is p.
func plannedTierWay(g games.Game, p Plan) tierWay {
	switch {
	case p.Backward:
		return newBackwardTiers(g, p.NoSymmetry)
	case p.Listed:
		return newListedTiers(g, p.NoSymmetry)
	}
	return forwardTiers{}
}

// forwardTiers finds each tier from the successors of the tier before,
// which its jobs send to the next tier's shards by key.
type forwardTiers struct{}

func (forwardTiers) sizes(t int, inputs [][]jobs.Blob, branching float64) (uint64, uint64) {
	var incoming uint64
	for _, in := range inputs {
		incoming += blobRecords(in)
	}
	return incoming, uint64(float64(incoming) * max(branching, 1))
}

func (forwardTiers) shardInputs(inputs [][]jobs.Blob, s int) []jobs.Blob { return inputs[s] }

func (forwardTiers) route(next [][]jobs.Blob, b jobs.Blob) {
	next[b.Bucket] = append(next[b.Bucket], b)
}

func (forwardTiers) inCoordinator() bool { return true }

func (forwardTiers) planned() (bool, bool) { return false, false }

// backwardTiers finds each tier by testing its arrangements, numbered
// densely, for a reachable predecessor in the whole tier before, which
// every shard reads.
type backwardTiers struct {
	// space counts a tier's arrangements.
	space orbits
}

func newBackwardTiers(g games.Game, noSymmetry bool) backwardTiers {
	return backwardTiers{newOrbits(g, noSymmetry, g.(games.Dense).TierSpace)}
}

// sizes counts the inputs of one shard, which are the whole tier before,
// and sizes the next tier by the numbering of its arrangements.
func (w backwardTiers) sizes(t int, inputs [][]jobs.Blob, _ float64) (uint64, uint64) {
	var incoming uint64
	if len(inputs) > 0 {
		incoming = blobRecords(inputs[0])
	}
	return incoming, w.space.of(t + 1)
}

func (backwardTiers) shardInputs(inputs [][]jobs.Blob, s int) []jobs.Blob { return inputs[s] }

// route gives b to every shard of the next tier.
func (backwardTiers) route(next [][]jobs.Blob, b jobs.Blob) {
	for s := range next {
		next[s] = append(next[s], b)
	}
}

// inCoordinator is false: a backward tier's inputs are read by every job
// of the tier, where the coordinator's own jobs are recorded in groups
// that count on one reader a blob (unrecorded).
func (backwardTiers) inCoordinator() bool { return false }

func (backwardTiers) planned() (bool, bool) { return true, false }

// listedTiers lists each tier's reachable positions outright: a tier job
// reads nothing, and sends the next tier's positions on as a forward one
// does.
type listedTiers struct {
	forwardTiers
	// reachable counts a tier's reachable positions.
	reachable orbits
}

func newListedTiers(g games.Game, noSymmetry bool) listedTiers {
	return listedTiers{reachable: newOrbits(g, noSymmetry, g.(games.Listed).TierSize)}
}

// sizes is the listing's count of the tier's positions and of the next
// tier's.
func (w listedTiers) sizes(t int, _ [][]jobs.Blob, _ float64) (uint64, uint64) {
	return w.reachable.of(t), w.reachable.of(t + 1)
}

func (listedTiers) shardInputs([][]jobs.Blob, int) []jobs.Blob { return nil }

func (listedTiers) planned() (bool, bool) { return false, true }

// orbits counts the positions of a tier that a run stores, one an orbit
// of the start's symmetries as the run uses them, about: those that all
// counts over the order of the group.
type orbits struct {
	all func(t int) uint64
	// maxTier is the game's last tier, order the group's order.
	maxTier int
	order   uint64
}

func newOrbits(g games.Game, noSymmetry bool, all func(t int) uint64) orbits {
	gr := games.StartGroup(g, !noSymmetry)
	return orbits{all: all, maxTier: g.MaxTier(), order: uint64(gr.Size())}
}

// of is about the number of positions a run stores in tier t; zero past
// the last tier.
func (o orbits) of(t int) uint64 {
	if t > o.maxTier {
		return 0
	}
	return o.all(t) / o.order
}

package coordinator

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/store"
)

// The positions table of a run that wrote one (--positions) gains an
// outcome column once the run is solved. Its rows are every position of a
// tier shard, written by the census's tier jobs long before the solve: part
// (t, s) holds the whole orbits of the representatives that shard s of
// tier t kept. So each part is rewritten from the kept positions and the
// outcome table of its own shard alone, each row taking the class of its
// orbit's representative (Left and Right exchanged when the map to it
// exchanges the players), and the classes of each tier's rows must add up
// to the solve's counts of that tier, which count every position.

// positionOutcomes rewrites the parts of dir's positions table.
type positionOutcomes struct {
	st   store.Store
	dir  string
	spec jobs.Spec
	// tiers holds the kept positions by tier; tables the tablebase shards
	// of the same shards, in the same order.
	tiers  []KeptTier
	tables [][]jobs.Blob
	// byTier is the solve's classes by tier.
	byTier []solve.Counts
}

// write rewrites every part of dir's positions table with the outcome
// column, each atomically; a run without a positions table has nothing to
// rewrite. A part rewritten already (a stage started again) is rewritten
// the same. It fails when a part is missing or holds a position whose
// representative its shard did not keep, when a tier's classes do not add
// up to the solve's, and when a file cannot be read or written.
func (p *positionOutcomes) write(ctx context.Context) error {
	parts, err := schema.PositionsParts(p.dir)
	if err != nil {
		return err
	}
	if len(parts) == 0 {
		return nil
	}
	rewritten := 0
	for t, kt := range p.tiers {
		var counts solve.Counts
		for i, kb := range kt.Blobs {
			table, err := jobs.ReadOutcomeTable(ctx, p.st, p.spec, t, kt.Shards, []jobs.Blob{kb}, p.tables[t][i:i+1])
			if err != nil {
				return fmt.Errorf("add the outcomes to the positions of tier %d: %w", t, err)
			}
			path := filepath.Join(p.dir, filepath.FromSlash(schema.PositionsPart(t, kb.Bucket)))
			if err := p.part(ctx, path, table, &counts); err != nil {
				return err
			}
			rewritten++
		}
		if counts != p.byTier[t] {
			return fmt.Errorf("the positions table of tier %d holds %v by class, the solve counted %v", t, counts.Map(), p.byTier[t].Map())
		}
	}
	if rewritten != len(parts) {
		return fmt.Errorf("the positions table has %d parts, the kept positions %d shards", len(parts), rewritten)
	}
	return nil
}

// part rewrites the part at path with each row's class from table, the
// outcomes of its shard, and counts the classes into counts.
func (p *positionOutcomes) part(ctx context.Context, path string, table *jobs.OutcomeTable, counts *solve.Counts) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := schema.WriteFileAtomic(path, func(w io.Writer) error {
		pw, err := schema.NewSolvedPositionWriter(w, schema.DefaultRowGroupRows)
		if err != nil {
			return err
		}
		err = schema.ScanPositionsFile(path, func(row schema.Position) error {
			r, ok := table.Record(row.Key)
			if !ok {
				return fmt.Errorf("position %s: its representative was not kept", row.Picture)
			}
			o := r.Outcome()
			counts[o]++
			row.Outcome = o.String()
			row.RemotenessLeftFirst, row.RemotenessRightFirst = int32(r.Left), int32(r.Right)
			return pw.Write(row)
		})
		if err != nil {
			return err
		}
		return pw.Close()
	})
	if err != nil {
		return fmt.Errorf("add the outcomes to %s: %w", path, err)
	}
	return nil
}

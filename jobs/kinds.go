package jobs

import (
	"context"
	"fmt"
	"slices"

	"github.com/census-cgt/census/store"
)

// A job of each kind is a *TierJob, *PieceJob, ... in its field of Job, and
// its result a *TierResult, *PieceResult, ... in its field of Result. kinds
// is the one list of them, in the order a job with more than one field set
// (an invalid one) is taken as: what the rest of census asks of a job (its ID
// and key, its spec, the blobs it consumes, running it) and of a result
// (the blobs it produced) goes through the task and output interfaces that
// each kind implements, never through a switch on the fields.
var kinds = [...]struct {
	// label names the kind in metrics and logs.
	label string
	// task is the job's task when the job is of this kind, else nil.
	task func(Job) task
	// output is the result's output when it is of this kind, else nil.
	output func(Result) output
}{
	{"tier", func(j Job) task { return asTask(j.Tier) }, func(r Result) output { return asOutput(r.Tier) }},
	{"piece", func(j Job) task { return asTask(j.Piece) }, func(r Result) output { return asOutput(r.Piece) }},
	{"class", func(j Job) task { return asTask(j.Class) }, func(r Result) output { return asOutput(r.Class) }},
	{"value", func(j Job) task { return asTask(j.Value) }, func(r Result) output { return asOutput(r.Value) }},
	{"compact", func(j Job) task { return asTask(j.Compact) }, func(r Result) output { return asOutput(r.Compact) }},
	{"solve", func(j Job) task { return asTask(j.Solve) }, func(r Result) output { return asOutput(r.Solve) }},
}

// task is a job of one kind.
type task interface {
	spec() *Spec
	// id and key are Job.ID and Job.Key.
	id() string
	key() string
	// consumes is Job.Consumes.
	consumes() []Blob
	// run runs the job and sets its field of res.
	run(ctx context.Context, st store.Store, opts Options, res *Result) error
}

// output is the result of a job of one kind.
type output interface {
	// produced lists the blobs the job wrote; a blob may come twice.
	produced() []Blob
}

// asTask is p as a task, nil when p is nil.
func asTask[T any, P interface {
	*T
	task
}](p P) task {
	if p == nil {
		return nil
	}
	return p
}

// asOutput is p as an output, nil when p is nil.
func asOutput[T any, P interface {
	*T
	output
}](p P) output {
	if p == nil {
		return nil
	}
	return p
}

// Labels lists the label of every kind of job.
func Labels() []string {
	var l []string
	for _, k := range kinds {
		l = append(l, k.label)
	}
	return l
}

// Label names the kind of the job: "tier", "piece", ...; "unknown" for an
// empty job.
func (j Job) Label() string {
	_, label := j.kind()
	return label
}

// task is the job's task, nil for an empty job.
func (j Job) task() task {
	t, _ := j.kind()
	return t
}

// kind is the job's task and its kind's label; nil and "unknown" for an
// empty job.
func (j Job) kind() (task, string) {
	for _, k := range kinds {
		if t := k.task(j); t != nil {
			return t, k.label
		}
	}
	return nil, "unknown"
}

// output is the result's output, nil for an empty result.
func (r Result) output() output {
	for _, k := range kinds {
		if o := k.output(r); o != nil {
			return o
		}
	}
	return nil
}

func (s *Spec) spec() *Spec { return s }

func (j *TierJob) id() string {
	return fmt.Sprintf("tier-%04d-shard-%05d", j.Tier, j.Shard)
}
func (j *TierJob) key() string       { return fmt.Sprintf("tier.%04d.%05d", j.Tier, j.Shard) }
func (j *TierJob) consumes() []Blob  { return j.Inputs }
func (j *PieceJob) id() string       { return fmt.Sprintf("piece-%05d", j.Bucket) }
func (j *PieceJob) key() string      { return fmt.Sprintf("piece.%05d", j.Bucket) }
func (j *PieceJob) consumes() []Blob { return j.Inputs }
func (j *ClassJob) id() string       { return fmt.Sprintf("class-%05d", j.Bucket) }
func (j *ClassJob) key() string      { return fmt.Sprintf("class.%05d", j.Bucket) }
func (j *ClassJob) consumes() []Blob { return j.Inputs }
func (j *ValueJob) id() string {
	return fmt.Sprintf("value-%04d-shard-%05d", j.Level, j.Shard)
}
func (j *ValueJob) key() string { return fmt.Sprintf("value.%04d.%05d", j.Level, j.Shard) }

// consumes is nothing for a value job: later levels read its tables too.
func (j *ValueJob) consumes() []Blob { return nil }
func (j *CompactJob) id() string {
	return fmt.Sprintf("compact-%04d-bucket-%05d", j.Tier, j.Bucket)
}
func (j *CompactJob) key() string      { return fmt.Sprintf("compact.%04d.%05d", j.Tier, j.Bucket) }
func (j *CompactJob) consumes() []Blob { return j.Inputs }
func (j *SolveJob) id() string         { return fmt.Sprintf("solve-%04d-shard-%05d", j.Tier, j.Shard) }
func (j *SolveJob) key() string        { return fmt.Sprintf("solve.%04d.%05d", j.Tier, j.Shard) }
func (j *SolveJob) consumes() []Blob   { return nil }
func (r *TierResult) produced() []Blob {
	return appendSome(slices.Concat(r.Next, r.Pieces), r.Table, r.Kept)
}
func (r *PieceResult) produced() []Blob { return appendSome(r.Classes, r.Table) }
func (r *ClassResult) produced() []Blob { return nil }
func (r *CompactResult) produced() []Blob {
	return r.Outputs
}
func (r *ValueResult) produced() []Blob { return []Blob{r.Table} }
func (r *SolveResult) produced() []Blob { return []Blob{r.Table} }

// appendSome appends the blobs that are not nil to blobs, never into the
// array blobs shares with its owner.
func appendSome(blobs []Blob, some ...*Blob) []Blob {
	out := slices.Clip(blobs)
	for _, b := range some {
		if b != nil {
			out = append(out, *b)
		}
	}
	return out
}

func (j *TierJob) run(ctx context.Context, st store.Store, opts Options, res *Result) (err error) {
	res.Tier, err = runTier(ctx, st, j, opts)
	return err
}

func (j *PieceJob) run(ctx context.Context, st store.Store, opts Options, res *Result) (err error) {
	res.Piece, err = runPieces(ctx, st, j, opts)
	return err
}

func (j *ClassJob) run(ctx context.Context, st store.Store, opts Options, res *Result) (err error) {
	drainTierBufs()
	res.Class, err = runClasses(ctx, st, j, opts)
	return err
}

func (j *CompactJob) run(ctx context.Context, st store.Store, opts Options, res *Result) (err error) {
	res.Compact, err = runCompact(ctx, st, j, opts)
	return err
}

func (j *SolveJob) run(ctx context.Context, st store.Store, opts Options, res *Result) (err error) {
	drainTierBufs()
	drainPieceBufs()
	res.Solve, err = runSolve(ctx, st, j, opts)
	return err
}

func (j *ValueJob) run(ctx context.Context, st store.Store, opts Options, res *Result) (err error) {
	drainTierBufs()
	drainPieceBufs()
	res.Value, err = runValues(ctx, st, j, opts)
	return err
}

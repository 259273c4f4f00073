package coordinator

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/store"
)

// The solve stage finds the outcome class of every position of a finished
// run that kept its positions (Config.Keep). Every move removes a stone,
// places a domino or burns a square, so a position's options all lie in
// the next tier: the stage runs the tiers backwards, the last first, one
// batch of solve jobs (jobs.SolveJob) per tier, each job a shard of the
// census's own sharding of that tier. A job loads the next tier's outcome
// table whole and looks its positions' options up in it (docs/solve.md
// says why a lookup rather than a join). Done-records in the stage's
// bucket make it resumable. Last, the coordinator adds the counts by class
// to summary.json and rewrites run.json.
//
// The kept positions lie in the outputs, under kept/ (KeptDir), with an
// index (KeptIndexFile); the solve's store is the output directory itself,
// so its jobs name the kept blobs by their paths there, and the outcome
// tables it writes lie under the stage's run ID until it is done.

// Errors of a directory the solve stage cannot solve.
var (
	// ErrNotKept marks a run that did not keep its positions.
	ErrNotKept = errors.New("the run did not keep its positions")
	// ErrNotSolvable marks a game the backward pass over tiers cannot
	// solve.
	ErrNotSolvable = errors.New("not a game the solve stage solves")
)

// KeptDir is the directory of the kept positions in a run's outputs, and
// KeptIndexFile their index.
const (
	KeptDir       = "kept"
	KeptIndexFile = "kept/index.json"
)

// KeptTier is one tier's kept positions: the tier's shards and the blob
// of each shard that holds positions.
type KeptTier struct {
	Shards int         `json:"shards"`
	Blobs  []jobs.Blob `json:"blobs"`
}

func (k *KeptTier) add(b *jobs.Blob) {
	if b != nil {
		k.Blobs = append(k.Blobs, *b)
	}
}

// KeptIndex lists the kept positions of a run.
type KeptIndex struct {
	Run        string     `json:"run"`
	NoSymmetry bool       `json:"no_symmetry,omitempty"`
	Tiers      []KeptTier `json:"tiers"`
}

// writeKept moves the run's kept positions from the store into dir's
// kept/ and writes their index last. Each blob is renamed to its path under
// dir, and leaves the store once copied (unless the run keeps its blobs),
// so the kept positions are on disk once, not twice, at the end of the
// run. A blob already in place (a coordinator that stopped part-way
// through copied it) is not copied again; files an earlier run left under
// kept/ are removed.
func writeKept(ctx context.Context, cfg *Config, res *Result, spec jobs.Spec) error {
	kd, err := beginIndexed(cfg.Out, KeptDir, KeptIndexFile, "kept", "kept positions")
	if err != nil {
		return err
	}
	idx := KeptIndex{Run: spec.Run, NoSymmetry: spec.NoSymmetry, Tiers: make([]KeptTier, len(res.Kept))}
	for t, kt := range res.Kept {
		idx.Tiers[t] = KeptTier{Shards: kt.Shards}
		for _, b := range kt.Blobs {
			rel := fmt.Sprintf("%s/t%04d/s%05d.keep", KeptDir, t, b.Bucket)
			if err := placeKept(ctx, cfg.Store, b, kd.place(rel)); err != nil {
				return err
			}
			cfg.deleteBlobs(ctx, "kept positions copied to the outputs", b.Name)
			b.Name = rel
			idx.Tiers[t].Blobs = append(idx.Tiers[t].Blobs, b)
		}
	}
	return kd.finish(idx)
}

// keptIntact tells whether data is the kept blob b: its size and the
// checksum of all but its last 8 bytes (the checksum and the trailer) are
// those its job recorded.
func keptIntact(data []byte, b jobs.Blob) bool {
	return int64(len(data)) == b.Size && len(data) >= 8 && crc32.Checksum(data[:len(data)-8], castagnoli) == b.Sum
}

// placeKept copies the kept blob b to the file p, unless p holds it
// already.
func placeKept(ctx context.Context, st store.Store, b jobs.Blob, p string) error {
	if data, err := os.ReadFile(p); err == nil && keptIntact(data, b) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("create kept directory: %w", err)
	}
	err := schema.WriteFileAtomic(p, func(w io.Writer) error {
		rc, err := st.Open(ctx, b.Name)
		if err != nil {
			return err
		}
		defer rc.Close()
		_, err = io.Copy(w, rc)
		return err
	})
	if err != nil {
		return fmt.Errorf("keep positions in %s: %w", p, err)
	}
	return nil
}

// copyKept copies the kept positions of idx from cfg.Dir into cfg.Store,
// under the stage's run ID, for workers that see the store but not the
// outputs, and returns idx with the blobs' names in the store. A blob the
// store holds already as the census recorded it (a stage started again)
// is not copied again. It fails with an error wrapping jobs.ErrCorrupt
// when a kept file is not what the census recorded.
func copyKept(ctx context.Context, cfg SolveConfig, idx KeptIndex) (KeptIndex, error) {
	tiers := make([]KeptTier, len(idx.Tiers))
	for t, kt := range idx.Tiers {
		tiers[t] = KeptTier{Shards: kt.Shards}
		for _, b := range kt.Blobs {
			name := jobs.RunPrefix(cfg.Run) + b.Name
			if data, err := readBlob(ctx, cfg.Store, name); err != nil || !keptIntact(data, b) {
				if err := putKept(ctx, cfg.Store, name, filepath.Join(cfg.Dir.Path, filepath.FromSlash(b.Name)), b); err != nil {
					return idx, err
				}
			}
			b.Name = name
			tiers[t].Blobs = append(tiers[t].Blobs, b)
		}
	}
	idx.Tiers = tiers
	return idx, nil
}

// readBlob reads the whole blob name.
func readBlob(ctx context.Context, st store.Store, name string) ([]byte, error) {
	rc, err := st.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// putKept copies the kept blob b from the file p into the store as name.
func putKept(ctx context.Context, st store.Store, name, p string, b jobs.Blob) error {
	data, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("copy kept positions to the store: %w", err)
	}
	if !keptIntact(data, b) {
		return fmt.Errorf("copy kept positions to the store: %s: %w: not the %d bytes with crc32c %08x the census kept", p, jobs.ErrCorrupt, b.Size, b.Sum)
	}
	w, err := st.Create(ctx, name)
	if err != nil {
		return fmt.Errorf("copy kept positions to the store: %w", err)
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return fmt.Errorf("copy kept positions to the store: %w", err)
	}
	if err := w.Commit(); err != nil {
		return fmt.Errorf("copy kept positions to the store: %w", err)
	}
	return nil
}

// solveRunPrefix begins the run ID of every solve stage.
const solveRunPrefix = string(SolveStage) + "-"

// SolveConfig is one solve stage to coordinate. Its Env's Store is the
// store rooted at Dir unless CopyKept says otherwise; Run, when empty, is
// the stage's run ID (StageDir.RunID); Metrics show the stage's progress
// under the census run's ID; KeepBlobs keeps the stage's bucket and
// outcome tables after it finishes.
type SolveConfig struct {
	Env
	// Dir is a finished run's outputs, checked for the solve stage
	// (CheckStageDir): the run kept its positions.
	Dir StageDir
	// MemBudget is the bytes a solve job may hold; the next tier's table
	// takes jobs.SolveBytesNext (some 10.3 bytes) a stored position.
	MemBudget int64
	// CopyKept copies the kept positions from Dir into Store, under Run,
	// before the first job: for a Store that is not Dir, such as a
	// cluster's shared store, which the workers see and Dir is not.
	// Without it the jobs read the kept positions under Dir, which must
	// be Store's root.
	CopyKept bool
	// Progress, when set, is told of every tier begun and finished.
	Progress func(SolveProgress)
}

// StartSolve runs the solve stage over NATS: it sets up the job stream and
// the stage's bucket (onNATS), gives the jobs that failed before another
// chance, runs Solve with jobs published to the workers, and removes the
// bucket once the outputs are written.
func StartSolve(ctx context.Context, cfg SolveConfig, conn *broker.Conn) (*schema.Solved, error) {
	if err := cfg.Env.from(cfg.Dir, SolveStage); err != nil {
		return nil, err
	}
	return onNATS(ctx, conn, &cfg.Env, "solve stage", func(ctx context.Context, s natsStage) (*schema.Solved, error) {
		if err := s.st.clearFailures(ctx); err != nil {
			return nil, fmt.Errorf("clear failed solve jobs: %w", err)
		}
		solved, err := Solve(ctx, cfg)
		if err == nil {
			s.drop(ctx)
		}
		return solved, err
	})
}

// Solve solves every kept position of the finished run in cfg.Dir (see
// the comment at the top of this file), writes the counts by class into
// its summary.json and tiers.parquet, and the class of every position
// into its positions table when it has one. It fails when a job fails or
// an output cannot be written; run again, it resumes.
func Solve(ctx context.Context, cfg SolveConfig) (*schema.Solved, error) {
	if err := cfg.Env.from(cfg.Dir, SolveStage); err != nil {
		return nil, err
	}
	s := newSolveStage(ctx, cfg)
	solved, err := s.run(ctx)
	s.tr.finish(err)
	return solved, err
}

// solveStage is the solve stage as its coordinator goes through it: the
// tiers from the last back, one batch each, then the outputs.
type solveStage struct {
	cfg  SolveConfig
	spec jobs.Spec
	idx  KeptIndex
	tr   *solveTracker
	// byTier counts each tier's positions by class, and tables holds its
	// tablebase shards, by shard as idx holds its kept positions.
	byTier []solve.Counts
	tables [][]jobs.Blob
	start  *solve.Record
	// time is the stage's wall time (from began) and its jobs' CPU time.
	time  schema.StageTime
	began time.Time
}

func newSolveStage(ctx context.Context, cfg SolveConfig) *solveStage {
	m, idx := cfg.Dir.Manifest, cfg.Dir.Kept
	s := &solveStage{cfg: cfg, idx: idx,
		spec: jobs.Spec{Run: cfg.Run, Game: m.Game, Board: m.Board, Start: m.Start, Store: cfg.StoreURL,
			NoSymmetry: idx.NoSymmetry, MemBudget: cfg.MemBudget},
		tr:     newSolveTracker(ctx, cfg, m, idx),
		byTier: make([]solve.Counts, len(idx.Tiers)),
		tables: make([][]jobs.Blob, len(idx.Tiers)),
	}
	withWaiting(cfg.Exec, s.tr.jobs)
	return s
}

// run copies the kept positions into the store when asked to, solves the
// tiers from the last back and writes the outputs.
func (s *solveStage) run(ctx context.Context) (*schema.Solved, error) {
	s.began = time.Now()
	s.tr.begin()
	if s.cfg.CopyKept {
		var err error
		if s.idx, err = copyKept(ctx, s.cfg, s.idx); err != nil {
			return nil, err
		}
	}
	for t := len(s.idx.Tiers) - 1; t >= 0; t-- {
		if err := s.tier(ctx, t); err != nil {
			return nil, err
		}
	}
	return s.finish(ctx)
}

// tier solves tier t, whose next tier is solved.
func (s *solveStage) tier(ctx context.Context, t int) error {
	kt := s.idx.Tiers[t]
	var nextKept KeptTier
	var next []jobs.Blob
	if t+1 < len(s.idx.Tiers) {
		nextKept, next = s.idx.Tiers[t+1], s.tables[t+1]
	}
	var need uint64
	for _, b := range nextKept.Blobs {
		need += b.Count
	}
	if need = uint64(float64(need) * jobs.SolveBytesNext); s.cfg.MemBudget > 0 && int64(need) > s.cfg.MemBudget {
		s.cfg.Log.Info("the next tier's outcome table is larger than the memory budget: unless the jobs of a worker hold it together, each solve job reads it in parts, one pass over its positions a part",
			"tier", t+1, "bytes", need, "budget", s.cfg.MemBudget)
	}
	batch := make([]jobs.Job, len(kt.Blobs))
	for i, b := range kt.Blobs {
		batch[i] = jobs.Job{Solve: &jobs.SolveJob{Spec: s.spec, Tier: t, Shard: b.Bucket, Shards: kt.Shards, Kept: b,
			NextShards: nextKept.Shards, NextKept: nextKept.Blobs, Next: next}}
	}
	s.tr.p.Tier = t
	s.tr.tell()
	results, err := s.cfg.Exec.Execute(ctx, batch, nil)
	if err != nil {
		return fmt.Errorf("solve tier %d: %w", t, err)
	}
	for i, r := range results {
		s.time.Jobs++
		s.time.CPUSeconds += r.Cost.CPU().Seconds()
		sr := r.Solve
		if sr == nil || sr.Table.Count != kt.Blobs[i].Count {
			return fmt.Errorf("solve tier %d: job %s reported no tablebase shard of its %d positions", t, batch[i].ID(), kt.Blobs[i].Count)
		}
		s.tables[t] = append(s.tables[t], sr.Table)
		s.byTier[t].Add(sr.Positions)
		if sr.Start != nil {
			s.start = sr.Start
		}
		s.tr.p.Positions += sr.Table.Count
	}
	s.cfg.Log.Info("solved tier", "tier", t, "outcomes", s.byTier[t].Map())
	s.tr.p.TiersDone++
	s.tr.tell()
	return nil
}

// finish writes the outputs of the solved tiers, then deletes the stage's
// blobs unless they are kept.
func (s *solveStage) finish(ctx context.Context) (*schema.Solved, error) {
	if s.start == nil {
		return nil, fmt.Errorf("solve: no job solved the start")
	}
	solved := &schema.Solved{StartOutcome: s.start.Outcome().String(),
		StartRemoteness: &schema.Remoteness{LeftFirst: int(s.start.Left), RightFirst: int(s.start.Right)}}
	var total solve.Counts
	for _, c := range s.byTier {
		total.Add(c)
		solved.OutcomesByTier = append(solved.OutcomesByTier, c.Map())
	}
	solved.Outcomes = total.Map()
	tb, placed, err := s.placeTablebase(ctx)
	if err != nil {
		return nil, err
	}
	solved.Tablebase = tb
	// The positions table takes its records from the tablebase as placed
	// in the outputs.
	out, err := store.NewDir(s.cfg.Dir.Path)
	if err != nil {
		return nil, err
	}
	pos := &positionOutcomes{st: out, dir: s.cfg.Dir.Path, spec: s.spec, tiers: s.idx.Tiers, tables: placed, byTier: s.byTier}
	if err := writeSolved(ctx, s.cfg.Dir.Path, solved, pos, s.time, s.began); err != nil {
		return nil, err
	}
	if !s.cfg.KeepBlobs {
		if err := s.cfg.Store.DeletePrefix(ctx, jobs.RunPrefix(s.cfg.Run)); err != nil {
			s.cfg.Log.Warn("delete the solve stage's tablebase shards", "err", err)
		}
	}
	return solved, nil
}

// writeSolved adds the outcomes to dir's summary.json, the classes by
// tier to its tiers.parquet and each position's to its positions table
// (pos), after checking that they count every position of the run, then
// rewrites run.json. The stage's time, st (its jobs'), goes into
// summary.json's stages with its wall time from began to the tables
// written.
func writeSolved(ctx context.Context, dir string, solved *schema.Solved, pos *positionOutcomes, st schema.StageTime, began time.Time) error {
	s, err := schema.ReadSummaryJSON(dir)
	if err != nil {
		return err
	}
	summaryPath := filepath.Join(dir, schema.SummaryJSONFile)
	var n uint64
	for _, c := range solved.Outcomes {
		n += c
	}
	if n != s.Positions {
		return fmt.Errorf("solve: outcomes of %d positions, the census counted %d", n, s.Positions)
	}
	if err := pos.write(ctx); err != nil {
		return err
	}
	if err := writeSolvedTiers(dir, solved.OutcomesByTier); err != nil {
		return err
	}
	s.Solved = solved
	st.WallSeconds, st.CPUSeconds = micro(time.Since(began).Seconds()), micro(st.CPUSeconds)
	if s.Stages == nil {
		s.Stages = &schema.Stages{}
	}
	s.Stages.Solve = &st
	if err := schema.WriteFileAtomic(summaryPath, func(w io.Writer) error { return writeJSON(w, s) }); err != nil {
		return fmt.Errorf("write %s: %w", summaryPath, err)
	}
	return rewriteManifest(dir)
}

// writeSolvedTiers rewrites dir's tiers.parquet with each tier's positions
// by class; the file's other columns stay as the census wrote them.
func writeSolvedTiers(dir string, byTier []map[string]uint64) error {
	path := filepath.Join(dir, schema.TiersFile)
	rows, err := schema.ReadTiersFile(path)
	if err != nil {
		return fmt.Errorf("add the outcomes to the tiers: %w", err)
	}
	if len(rows) != len(byTier) {
		return fmt.Errorf("add the outcomes to the tiers: %s has %d tiers, the solve %d", path, len(rows), len(byTier))
	}
	for i := range rows {
		c := byTier[i]
		rows[i].Outcomes = &schema.TierOutcomes{L: c["L"], R: c["R"], N: c["N"], P: c["P"]}
	}
	if err := schema.WriteFileAtomic(path, func(w io.Writer) error { return schema.WriteTiers(w, rows) }); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// placeTablebase moves the stage's tablebase shards from the store into
// the outputs' tablebase directory (or copies them, when the store cannot
// move them there), each file checked against the checksum its job
// recorded, removes files an earlier solve left there, and writes the
// tablebase's index last. It returns the tablebase's size, and its files
// as blobs of a store rooted at the outputs, by tier as s.tables holds
// them.
func (s *solveStage) placeTablebase(ctx context.Context) (*schema.TablebaseSummary, [][]jobs.Blob, error) {
	tb, err := beginIndexed(s.cfg.Dir.Path, schema.TablebaseDir, schema.TablebaseIndexFile, "tablebase", "tablebase files")
	if err != nil {
		return nil, nil, err
	}
	idx := schema.TablebaseIndex{Run: s.idx.Run, Game: s.spec.Game, Board: s.spec.Board, Start: s.spec.Start,
		NoSymmetry: s.idx.NoSymmetry, Tiers: make([]schema.TablebaseTier, len(s.tables))}
	out := make([][]jobs.Blob, len(s.tables))
	sum := &schema.TablebaseSummary{}
	for t, blobs := range s.tables {
		idx.Tiers[t].Shards = s.idx.Tiers[t].Shards
		for _, b := range blobs {
			rel := schema.TablebaseFile(t, b.Bucket)
			p := tb.place(rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, nil, fmt.Errorf("place the tablebase: %w", err)
			}
			if err := placeFile(ctx, s.cfg.Store, b, p, true); err != nil {
				return nil, nil, fmt.Errorf("place the tablebase: %w", err)
			}
			idx.Tiers[t].Files = append(idx.Tiers[t].Files, schema.TablebaseFileEntry{Shard: b.Bucket, Name: rel, Count: b.Count, Size: b.Size, Sum: b.Sum})
			b.Name = rel
			out[t] = append(out[t], b)
			sum.Files++
			sum.Bytes += b.Size
			sum.Stored += b.Count
		}
	}
	idx.Stored, idx.Bytes = sum.Stored, sum.Bytes
	if err := tb.finish(idx); err != nil {
		return nil, nil, err
	}
	if sum.Stored > 0 {
		sum.BytesPerStored = micro(float64(sum.Bytes) / float64(sum.Stored))
	}
	return sum, out, nil
}

package coordinator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values"
)

// The values stage values every distinct live piece of a finished run, as
// jobs on the same work queue as the census. Pieces are grouped into levels
// by size (stones for Clobber, squares for Domineering and Amazons): every
// move shrinks a piece, so a piece's options are sums of pieces of smaller
// levels. The levels run one after another, smallest first, each as a batch
// of value jobs (jobs.ValueJob) over shards of at most ShardPieces pieces;
// a job loads the value tables written by the jobs of every smaller level
// and writes its own. Done-records in the stage's bucket make it resumable:
// the same command skips the jobs that finished. Last, the coordinator loads
// every table and rewrites each pieces part with its value columns, then
// summary.json, then run.json.
//
// A partial stage (MaxSize) runs the levels up to a size only and writes
// null value columns into the rows of larger pieces. It keeps its bucket
// and blobs, so that a later stage of the same run with a larger MaxSize,
// or none, finds the done-records of the levels it ran and extends it
// rather than valuing them again.
//
// Memory. A job holds the values of all smaller levels in one Valuer: a
// memo entry per translated piece (key and value, about 100 bytes with the
// map) and the distinct canonical forms in one hash-consed cgt.Table, with
// the caches of its sums and comparisons. The coordinator holds the same
// for every level while it writes the outputs, plus the value strings. On
// disk the tables take some 27 bytes a piece (Clobber 4x4: 10.6 MB for
// 396,000 pieces). Peak RSS of the whole process (NATS server, two job
// slots, the coordinator), measured: census values of Clobber 4x4, 343 MB;
// census run --values, the census included, of Clobber 3x5 150 MB,
// Domineering 5x5 165 MB and Clobber 3x6 (1.43 million pieces) 910 MB:
// some 600 to 900 bytes a piece.
//
// That is the limit of this design: every worker needs the whole table of
// smaller levels. The way past it is the join of design.md: a job first
// emits (sub-piece key, parent) records for the options of its pieces,
// sorted by sub-piece key; these are merge-joined against the value tables
// of the smaller levels, written sorted by key, and the values are shuffled
// back to the parents' shard, so a job holds one shard's pieces and the
// forms its own options reach. Small levels, the most frequent
// sub-pieces, stay loaded whole in every worker.

// Errors of a directory the values stage cannot value.
var (
	// ErrNotFinished marks a directory without run.json.
	ErrNotFinished = errors.New("not the outputs of a finished census run")
	// ErrOldSchema marks the outputs of another schema version.
	ErrOldSchema = errors.New("outputs of another schema version")
	// ErrValuesClash marks a values stage whose bucket holds the jobs of
	// a stage with another node cap or shard size, whose values would
	// mix with this one's.
	ErrValuesClash = errors.New("the values stage's working data was made with other settings")
)

// DefaultShardPieces is the pieces of one value job. Every job loads the
// values of all smaller levels before it values its shard, and on Clobber
// 4x5 that load (8.5 million pieces below size 13, some 0.3 microseconds of
// processor time a piece) costs a third of valuing 2^16 pieces of size 13:
// shards of 2^18 pieces load a quarter as often, and a job's memory is
// still mostly the smaller levels' values, not its shard's.
const DefaultShardPieces = 1 << 18

// ValuesConfig is one values stage to coordinate. Its Env's Run, when
// empty, is the stage's run ID (StageDir.RunID); KeepBlobs keeps the
// stage's bucket and blobs after it finishes, and a partial stage keeps
// them whatever it says.
type ValuesConfig struct {
	Env
	// Dir is a finished run's outputs, checked for the values stage
	// (CheckStageDir).
	Dir StageDir
	// Cap is the node cap of a canonical form (values.DefaultCap when 0).
	Cap int
	// ShardPieces is the pieces of one value job (DefaultShardPieces
	// when 0).
	ShardPieces int
	// MaxSize, when positive, values only the pieces of up to MaxSize
	// stones or squares. When larger pieces exist the stage is partial:
	// see the comment at the top of this file, and schema.Values.MaxSize.
	MaxSize int
	// Progress, when set, is told of every level begun and finished and,
	// under StartValues, of every value job done.
	Progress func(ValuesProgress)

	// records holds the stage's plan and finished levels; nil, a stage
	// run without a bucket keeps none.
	records *state
}

// StartValues runs the values stage over NATS: it sets up the job stream
// and the stage's bucket (onNATS), gives the jobs that failed before
// another chance, runs Values with jobs published to the workers, and
// removes the bucket once the outputs are written, unless the stage is
// partial.
func StartValues(ctx context.Context, cfg ValuesConfig, conn *broker.Conn) (*schema.Values, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Env.from(cfg.Dir, ValuesStage); err != nil {
		return nil, err
	}
	return onNATS(ctx, conn, &cfg.Env, "values stage", func(ctx context.Context, s natsStage) (*schema.Values, error) {
		if err := s.st.clearFailures(ctx); err != nil {
			return nil, fmt.Errorf("clear failed value jobs: %w", err)
		}
		if err := s.st.valuesPlan(ctx, runstate.ValuesPlan{Cap: cfg.Cap, ShardPieces: cfg.ShardPieces}); err != nil {
			return nil, err
		}
		cfg.records = &s.st
		vals, err := Values(ctx, cfg)
		if err == nil && !vals.Partial() {
			s.drop(ctx)
		}
		return vals, err
	})
}

// Values values every distinct live piece of the finished run in cfg.Dir,
// or with cfg.MaxSize those up to a size (see the comment at the top of
// this file), and writes the value columns into its pieces parts and the
// counts into its summary.json. It fails when a job fails or an output
// cannot be written; run again, it resumes.
func Values(ctx context.Context, cfg ValuesConfig) (*schema.Values, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Env.from(cfg.Dir, ValuesStage); err != nil {
		return nil, err
	}
	levels, err := pieceLevels(cfg.Dir.Path)
	if err != nil {
		return nil, err
	}
	if cfg.MaxSize > 0 {
		levels = slices.DeleteFunc(levels, func(lv level) bool { return lv.size > cfg.MaxSize })
	}
	m := cfg.Dir.Manifest
	s := &valuesStage{cfg: cfg, game: m.Game, tr: newValuesTracker(cfg.Progress),
		spec: jobs.Spec{Run: cfg.Run, Game: m.Game, Board: m.Board, Start: m.Start, Store: cfg.StoreURL}}
	withWaiting(cfg.Exec, s.tr.jobs)
	var pieces uint64
	for _, lv := range levels {
		pieces += uint64(len(lv.keys))
	}
	s.tr.set(func(p *ValuesProgress) { p.Stage, p.Levels, p.Pieces = ValuesStageLevels, len(levels), pieces })
	costs := make([]schema.ValueLevel, len(levels))
	for i, lv := range levels {
		if costs[i], err = s.valueLevel(ctx, i, lv); err != nil {
			return nil, err
		}
	}
	return s.write(ctx, costs)
}

// withDefaults is cfg with its unset fields set to their defaults.
func (cfg ValuesConfig) withDefaults() ValuesConfig {
	cfg.withLog()
	if cfg.ShardPieces <= 0 {
		cfg.ShardPieces = DefaultShardPieces
	}
	if cfg.Cap <= 0 {
		cfg.Cap = values.DefaultCap
	}
	return cfg
}

// valuesStage is one start of the values stage: its levels valued one
// after another by valueLevel, then its outputs written by write.
type valuesStage struct {
	cfg  ValuesConfig
	game string
	spec jobs.Spec
	tr   *valuesTracker
	// tables are the value tables of the levels valued so far.
	tables []jobs.Blob
}

// valueLevel runs the jobs of the i-th level lv, or takes over their
// done-records, and returns what the level cost. A level that an earlier
// start finished keeps the wall time it took then.
func (s *valuesStage) valueLevel(ctx context.Context, i int, lv level) (schema.ValueLevel, error) {
	c := schema.ValueLevel{Size: lv.size, Pieces: uint64(len(lv.keys))}
	batch, err := valueBatch(ctx, s.cfg, s.spec, lv, s.tables)
	if err != nil {
		return c, err
	}
	var earlier runstate.ValueLevel
	var finished bool
	if s.cfg.records != nil {
		if earlier, finished, err = s.cfg.records.valueLevel(ctx, lv.size); err != nil {
			return c, fmt.Errorf("value level %d: %w", lv.size, err)
		}
	}
	s.tr.set(func(p *ValuesProgress) { p.Level, p.Size, p.JobsDone, p.JobsTotal = i, lv.size, 0, len(batch) })
	began := time.Now()
	res, err := s.cfg.Exec.Execute(ctx, batch, nil)
	if err != nil {
		return c, fmt.Errorf("value level %d: %w", lv.size, err)
	}
	c.Jobs, c.WallS = len(batch), time.Since(began).Seconds()
	for j, r := range res {
		if r.Value == nil {
			return c, fmt.Errorf("value level %d: job %s reported no value table", lv.size, batch[j].ID())
		}
		s.tables = append(s.tables, r.Value.Table)
		c.LoadS += time.Duration(r.Value.LoadNS).Seconds()
		if r.Cost != nil {
			c.CPUS += time.Duration(r.Cost.CPUNS).Seconds()
			c.JobWallS += time.Duration(r.Cost.WallNS).Seconds()
		}
	}
	if finished {
		c.WallS = earlier.WallS
	} else if s.cfg.records != nil {
		if err := s.cfg.records.putValueLevel(ctx, lv.size, runstate.ValueLevel{WallS: c.WallS}); err != nil {
			return c, fmt.Errorf("value level %d: %w", lv.size, err)
		}
	}
	s.cfg.Log.Info("valued level", "size", lv.size, "pieces", len(lv.keys), "jobs", len(batch), "finished_before", finished,
		"took", time.Duration(c.WallS*float64(time.Second)).Round(time.Millisecond), "pieces_per_s", int(float64(c.Pieces)/c.WallS))
	s.tr.set(func(p *ValuesProgress) { p.Level, p.PiecesDone = i+1, p.PiecesDone+uint64(len(lv.keys)) })
	return c, nil
}

// write loads the value tables of the levels valued, writes the outputs
// (writeValues) and removes the stage's blobs unless they are kept.
func (s *valuesStage) write(ctx context.Context, costs []schema.ValueLevel) (*schema.Values, error) {
	s.tr.set(func(p *ValuesProgress) { p.Stage, p.JobsDone, p.JobsTotal = ValuesStageOutputs, 0, 0 })
	v, err := values.New(s.game, s.cfg.Cap)
	if err != nil {
		return nil, err
	}
	if err := jobs.LoadValueTables(ctx, s.cfg.Store, v, s.tables); err != nil {
		return nil, err
	}
	vals, err := writeValues(ctx, s.cfg.Dir.Path, v, costs, s.cfg.MaxSize)
	if err != nil {
		return nil, err
	}
	if vals.Partial() {
		s.cfg.Log.Info("partial values stage: its bucket and blobs kept to extend it", "max_size", vals.MaxSize, "pieces_not_valued", vals.PiecesNotValued)
	} else if !s.cfg.KeepBlobs {
		if err := s.cfg.Store.DeletePrefix(ctx, s.cfg.Run+"/"); err != nil {
			s.cfg.Log.Warn("delete the values stage's blobs", "err", err)
		}
	}
	return vals, nil
}

// level is the distinct translated keys of the pieces of one size, sorted.
type level struct {
	size int
	keys []games.PieceKey
}

// pieceLevels reads the keys of every pieces part in dir, by size.
func pieceLevels(dir string) ([]level, error) {
	parts, err := piecesParts(dir)
	if err != nil {
		return nil, err
	}
	bySize := map[int][]games.PieceKey{}
	for _, part := range parts {
		err := schema.ScanPiecesFile(part, func(p schema.Piece) error {
			bySize[int(p.Size)] = append(bySize[int(p.Size)], games.PieceKey{Hi: p.KeyHi, Lo: p.KeyLo})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	var out []level
	for size, keys := range bySize {
		slices.SortFunc(keys, games.PieceKey.Compare)
		out = append(out, level{size: size, keys: slices.Compact(keys)})
	}
	slices.SortFunc(out, func(a, b level) int { return a.size - b.size })
	return out, nil
}

func piecesParts(dir string) ([]string, error) {
	parts, err := schema.PiecesParts(dir)
	if err != nil {
		return nil, fmt.Errorf("list pieces parts of %s: %w", dir, err)
	}
	return parts, nil
}

// valueBatch writes the keys blobs of one level's shards and returns their
// jobs.
func valueBatch(ctx context.Context, cfg ValuesConfig, spec jobs.Spec, lv level, tables []jobs.Blob) ([]jobs.Job, error) {
	var batch []jobs.Job
	for shard, start := 0, 0; start < len(lv.keys); shard, start = shard+1, start+cfg.ShardPieces {
		keys := lv.keys[start:min(start+cfg.ShardPieces, len(lv.keys))]
		kb, err := jobs.PutValueKeys(ctx, cfg.Store, cfg.Run, lv.size, shard, keys)
		if err != nil {
			return nil, err
		}
		batch = append(batch, jobs.Job{Value: &jobs.ValueJob{
			Spec: spec, Level: lv.size, Shard: shard, Cap: cfg.Cap, Keys: kb, Tables: slices.Clone(tables),
		}})
	}
	return batch, nil
}

// writeValues rewrites every pieces part of dir with its value columns,
// each part atomically, then summary.json with the counts, then run.json
// with the new sizes. Every piece of the parts of up to maxSize (all when
// maxSize is 0) must be valued in v, and a larger one gets null value
// columns; costs are the levels' costs, which the forms' sizes complete.
func writeValues(ctx context.Context, dir string, v *values.Valuer, costs []schema.ValueLevel, maxSize int) (*schema.Values, error) {
	parts, err := piecesParts(dir)
	if err != nil {
		return nil, err
	}
	c := newValueCounter(v, costs, maxSize)
	for _, part := range parts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		err := schema.WriteFileAtomic(part, func(w io.Writer) error {
			pw, err := schema.NewPieceWriter(w)
			if err != nil {
				return err
			}
			err = schema.ScanPiecesFile(part, func(p schema.Piece) error {
				p.PieceValue = c.value(p)
				return pw.Write(p)
			})
			if err != nil {
				return err
			}
			return pw.Close()
		})
		if err != nil {
			return nil, fmt.Errorf("write values into %s: %w", part, err)
		}
	}
	vals := c.values()
	s, err := schema.ReadSummaryJSON(dir)
	if err != nil {
		return nil, err
	}
	summaryPath := filepath.Join(dir, schema.SummaryJSONFile)
	s.Values = vals
	if err := schema.WriteFileAtomic(summaryPath, func(w io.Writer) error { return writeJSON(w, s) }); err != nil {
		return nil, fmt.Errorf("write %s: %w", summaryPath, err)
	}
	return vals, rewriteManifest(dir)
}

// rewriteManifest sets the sizes of run.json's files to the files' sizes.
func rewriteManifest(dir string) error {
	m, err := schema.ReadManifest(dir)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, schema.ManifestFile)
	for i, f := range m.Files {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			return fmt.Errorf("rewrite %s: %w", path, err)
		}
		m.Files[i].Bytes = fi.Size()
	}
	if err := schema.WriteJSONAtomic(path, m); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

package probe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/solve"
	"github.com/census-cgt/census/tablebase"
	"github.com/census-cgt/census/values"
)

// Find lists the run directories under root (root itself, or any
// directory below it) that hold a finished run with a tablebase, sorted.
func Find(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		switch d.Name() {
		case schema.TablebaseDir, schema.PositionsDir, schema.PiecesDir, "kept":
			return fs.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, schema.ManifestFile)); err != nil {
			return nil
		}
		if _, err := os.Stat(filepath.Join(p, filepath.FromSlash(schema.TablebaseIndexFile))); err == nil {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find solved runs under %s: %w", root, err)
	}
	slices.Sort(dirs)
	return dirs, nil
}

// Open opens the tablebase of the finished run in dir (OUT/GAME-BOARD),
// and its values when the run was valued. Only the index is read: each
// file is opened (mapped, its header and index checked) when a probe
// first needs it. It fails with an error wrapping ErrNoTablebase for a run
// without one (not solved, or solved before the solve kept a tablebase:
// census solve DIR solves it again to gain one), and with the error of a
// file that cannot be read.
func Open(dir string) (*Table, error) {
	m, err := schema.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: not the outputs of a finished census run: %w", dir, err)
	}
	s, err := schema.ReadSummaryJSON(dir)
	if err != nil {
		return nil, err
	}
	if !s.Solved.HasTablebase() {
		what := "not solved"
		if s.Solved != nil {
			what = "solved before the solve kept a tablebase"
		}
		return nil, fmt.Errorf("%s: %w: the run is %s (census solve %s solves it and keeps one)", dir, ErrNoTablebase, what, dir)
	}
	idx, err := schema.ReadTablebaseIndex(dir)
	if errors.Is(err, schema.ErrNoTablebase) {
		return nil, fmt.Errorf("%s: %w: %v", dir, ErrNoTablebase, err)
	}
	if err != nil {
		return nil, err
	}
	if idx.Run != m.Run || idx.Game != m.Game || idx.Board != m.Board || idx.Start != m.Start {
		return nil, fmt.Errorf("%s: %w: its tablebase is of run %s (%s %s), the outputs of run %s", dir, ErrNoTablebase, idx.Run, idx.Game, idx.Board, m.Run)
	}
	g, err := all.New(m.Game, m.Board, m.Start)
	if err != nil {
		return nil, err
	}
	mv, ok := g.(games.Mover)
	if !ok {
		return nil, fmt.Errorf("%s: %s lists no player's moves", dir, m.Game)
	}
	var x *values.Index
	if s.Values != nil {
		if x, err = values.LoadIndex(dir); err != nil && !errors.Is(err, values.ErrNotValued) {
			return nil, err
		}
	}
	src := newFiles(dir, idx, g)
	info := RunInfo{Name: filepath.Base(dir), Game: m.Game, Board: m.Board, Rows: g.Board().Rows, Cols: g.Board().Cols,
		Start: g.Format(g.Start()), Positions: s.Positions, Stored: idx.Stored, Tiers: len(idx.Tiers),
		StartOutcome: s.Solved.StartOutcome}
	t := New(info, mv, games.StartGroup(g, !idx.NoSymmetry), src, x)
	t.close = src.close
	return t, nil
}

// files is a tablebase's files, each opened when first asked for.
type files struct {
	dir    string
	g      games.Game
	tiers  []schema.TablebaseTier
	coding uint8
	// shard[t][s] is the file of shard s of tier t (nil for a shard with
	// no positions), opened once.
	shard [][]*lazyShard
}

type lazyShard struct {
	once  sync.Once
	entry schema.TablebaseFileEntry
	sh    *tablebase.Shard
	err   error
}

func newFiles(dir string, idx schema.TablebaseIndex, g games.Game) *files {
	f := &files{dir: dir, g: g, tiers: idx.Tiers, shard: make([][]*lazyShard, len(idx.Tiers))}
	for t, tt := range idx.Tiers {
		f.shard[t] = make([]*lazyShard, tt.Shards)
		for _, e := range tt.Files {
			if e.Shard >= 0 && e.Shard < tt.Shards {
				f.shard[t][e.Shard] = &lazyShard{entry: e}
			}
		}
	}
	return f
}

// Record looks canon up in the file of its shard of tier.
func (f *files) Record(tier int, canon uint64) (solve.Record, bool, error) {
	if tier < 0 || tier >= len(f.shard) || len(f.shard[tier]) == 0 {
		return solve.Record{}, false, nil
	}
	ls := f.shard[tier][jobs.Bucket(canon, len(f.shard[tier]))]
	if ls == nil {
		return solve.Record{}, false, nil
	}
	ls.once.Do(func() { ls.sh, ls.err = f.open(tier, ls.entry) })
	if ls.err != nil {
		return solve.Record{}, false, ls.err
	}
	r, ok, err := ls.sh.Lookup(jobs.TableCode(canon, ls.sh.Header().Coding))
	if err != nil {
		return r, false, fmt.Errorf("%w: %s: %v", ErrCorrupt, ls.entry.Name, err)
	}
	return r, ok, nil
}

// open opens the file of e, a shard of tier, and checks that its header
// says so.
func (f *files) open(tier int, e schema.TablebaseFileEntry) (*tablebase.Shard, error) {
	p := filepath.Join(f.dir, filepath.FromSlash(e.Name))
	sh, err := tablebase.Open(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	h, b := sh.Header(), f.g.Board()
	if h.Game != f.g.Name() || h.Rows != b.Rows || h.Cols != b.Cols || h.Tier != tier || h.Shard != e.Shard || sh.Len() != e.Count {
		sh.Close()
		return nil, fmt.Errorf("%w: %s holds %s %dx%d tier %d shard %d (%d positions), the index says %s tier %d shard %d (%d)",
			ErrCorrupt, p, h.Game, h.Rows, h.Cols, h.Tier, h.Shard, sh.Len(), f.g.Name(), tier, e.Shard, e.Count)
	}
	return sh, nil
}

// close unmaps every file opened.
func (f *files) close() error {
	var errs []error
	for _, tier := range f.shard {
		for _, ls := range tier {
			if ls != nil && ls.sh != nil {
				errs = append(errs, ls.sh.Close())
			}
		}
	}
	return errors.Join(errs...)
}

package report

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/census-cgt/census/loopy"
	"github.com/census-cgt/census/schema"
)

// ErrNoRuns is returned by Find when a directory holds no census run.
var ErrNoRuns = errors.New("no census run (no summary.json) under it")

// Run is one census run found on disk: its summary, its tiers, and what its
// run.json says when the run was written complete. The census of a loopy
// game has a states table instead of tiers: its summary is Loopy, and
// Summary and Tiers are empty.
type Run struct {
	// ID names the run in the report and in the names of its PNG files:
	// GAME-BOARD, with a suffix -2, -3 ... when several runs share it.
	ID string
	// Dir is the run's directory.
	Dir     string
	Summary schema.Summary
	Tiers   []schema.Tier
	// Loopy is the summary of a loopy game's census (Mū tōrere), nil for
	// a tiered run.
	Loopy *loopy.Summary
	// Values are the value columns of the pieces, by size, for a run
	// that has been through the values stage and whose directory holds
	// its pieces files; nil otherwise.
	Values []SizeValues
	// Manifest is nil when the directory holds no run.json (a run whose
	// outputs were copied without it, like the published results).
	Manifest *Manifest
}

// Manifest is run.json, the file census writes last into a finished run's
// directory, with the time it was written.
type Manifest struct {
	schema.Manifest
	// Written is the modification time of run.json: when the run finished.
	Written time.Time
}

// Find returns every run under dir (dir itself included), ordered by game
// (in the order census lists them), then board size. A run directory is one
// holding summary.json; it must also hold tiers.parquet, or states.parquet
// for the census of a loopy game (Mū tōrere, see loadLoopyRun); a Kōnane
// census is passed over (see konaneRun). Directories whose
// names start with a dot (census's working data) are not searched. Find
// returns an error wrapping ErrNoRuns when there is no run, and an error
// naming the file when a summary.json, tiers.parquet, states.parquet or run.json cannot be
// read or does not describe the same run.
func Find(dir string) ([]Run, error) {
	var dirs []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == schema.SummaryJSONFile {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("search %s: %w", dir, err)
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoRuns)
	}
	runs := make([]Run, 0, len(dirs))
	for _, d := range dirs {
		if konaneRun(d) {
			continue
		}
		load := loadRun
		if loopyRun(d) {
			load = loadLoopyRun
		}
		r, err := load(d)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoRuns)
	}
	slices.SortStableFunc(runs, compareRuns)
	nameRuns(runs)
	return runs, nil
}

// konaneRun reports whether dir holds a Kōnane census (rows valued by
// arrangement, or the openings of a board): it has neither tiers nor
// states, and the report has no section for it yet; results/README.md
// tabulates it.
func konaneRun(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile))
	if err != nil {
		return false
	}
	var s struct {
		Game string `json:"game"`
	}
	return json.Unmarshal(data, &s) == nil && s.Game == "konane"
}

// Game is the run's game, as census names it.
func (r Run) Game() string {
	if r.Loopy != nil {
		return r.Loopy.Game
	}
	return r.Summary.Game
}

// Board is the run's board: ROWSxCOLS, or the points of a loopy game's
// star with its variant.
func (r Run) Board() string {
	if r.Loopy != nil {
		return r.Loopy.Board
	}
	return r.Summary.Board
}

// gameOrder is the order of census's own listing of the games.
var gameOrder = map[string]int{"clobber": 0, "domineering": 1, "amazons": 2}

// compareRuns orders by game, then by board area, rows, and directory.
func compareRuns(a, b Run) int {
	ga, oka := gameOrder[a.Game()]
	gb, okb := gameOrder[b.Game()]
	if !oka {
		ga = len(gameOrder)
	}
	if !okb {
		gb = len(gameOrder)
	}
	ra, ca := boardSize(a.Board())
	rb, cb := boardSize(b.Board())
	return cmp.Or(cmp.Compare(ga, gb), strings.Compare(a.Game(), b.Game()),
		cmp.Compare(ra*ca, rb*cb), cmp.Compare(ra, rb), strings.Compare(a.Dir, b.Dir))
}

// boardSize parses ROWSxCOLS, or N (the points of a star, with a variant
// after a dash: 8-free-centre) as 1xN; a board it cannot parse sorts first.
func boardSize(board string) (rows, cols int) {
	r, c, ok := strings.Cut(board, "x")
	if !ok {
		n, _, _ := strings.Cut(board, "-")
		if n, err := strconv.Atoi(n); err == nil {
			return 1, n
		}
		return 0, 0
	}
	rows, err1 := strconv.Atoi(r)
	cols, err2 := strconv.Atoi(c)
	if err1 != nil || err2 != nil {
		return 0, 0
	}
	return rows, cols
}

// nameRuns sets the IDs of runs, which are in report order.
func nameRuns(runs []Run) {
	seen := map[string]int{}
	for i := range runs {
		id := schema.RunName(runs[i].Game(), runs[i].Board())
		if seen[id]++; seen[id] > 1 {
			id = fmt.Sprintf("%s-%d", id, seen[id])
		}
		runs[i].ID = id
	}
}

// loadRun reads the run in dir and checks that its files agree.
func loadRun(dir string) (Run, error) {
	r := Run{Dir: dir}
	path := filepath.Join(dir, schema.SummaryJSONFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return Run{}, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &r.Summary); err != nil {
		return Run{}, fmt.Errorf("read %s: %w", path, err)
	}
	if err := checkSummary(r.Summary); err != nil {
		return Run{}, fmt.Errorf("read %s: %w", path, err)
	}
	path = filepath.Join(dir, schema.TiersFile)
	if r.Tiers, err = schema.ReadTiersFile(path); err != nil {
		return Run{}, err
	}
	if err := checkTiers(r.Summary, r.Tiers); err != nil {
		return Run{}, fmt.Errorf("read %s: %w", path, err)
	}
	if r.Values, err = loadValues(dir, r.Summary); err != nil {
		return Run{}, err
	}
	if r.Manifest, err = readManifest(dir); err != nil {
		return Run{}, err
	}
	return r, nil
}

// checkSummary rejects a summary the charts cannot be drawn from.
func checkSummary(s schema.Summary) error {
	switch {
	case s.Game == "" || s.Board == "":
		return errors.New("no game or board")
	case len(s.PositionsByTier) == 0:
		return errors.New("no positions_by_tier")
	case len(s.SplitByTier) != len(s.PositionsByTier):
		return fmt.Errorf("split_by_tier has %d tiers, positions_by_tier %d", len(s.SplitByTier), len(s.PositionsByTier))
	}
	return nil
}

// checkTiers checks that tiers.parquet belongs to the summary.
func checkTiers(s schema.Summary, tiers []schema.Tier) error {
	if len(tiers) != len(s.PositionsByTier) {
		return fmt.Errorf("%d tiers, summary.json %d", len(tiers), len(s.PositionsByTier))
	}
	for i, t := range tiers {
		if t.Game != s.Game || t.Board != s.Board || int(t.Tier) != i || t.Positions != s.PositionsByTier[i] {
			return fmt.Errorf("row %d is tier %d of %s %s with %d positions; summary.json has tier %d of %s %s with %d",
				i, t.Tier, t.Game, t.Board, t.Positions, i, s.Game, s.Board, s.PositionsByTier[i])
		}
	}
	return nil
}

// readManifest reads the run.json of the run in dir; a missing file is no
// error (nil Manifest).
func readManifest(dir string) (*Manifest, error) {
	m, err := schema.ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := &Manifest{Manifest: m}
	if fi, err := os.Stat(filepath.Join(dir, schema.ManifestFile)); err == nil {
		out.Written = fi.ModTime().UTC()
	}
	return out, nil
}

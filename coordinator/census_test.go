package coordinator_test

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/schema"
)

// census runs a census in this process through an embedded NATS server,
// as `census run` does, and returns the summary and the output directory.
func census(t testing.TB, game, board, start string, shards, workers int) (schema.Summary, string) {
	t.Helper()
	res, out := censusCompact(t, game, board, start, shards, workers, 0)
	return res.Summary, out
}

// censusCompact is census with piece fragments compacted once compactMin
// bytes of them are written (coordinator.Config.CompactMin).
func censusCompact(t testing.TB, game, board, start string, shards, workers int, compactMin uint64) (*coordinator.Result, string) {
	t.Helper()
	return runCensus(t, embedded.Options{Game: game, Board: board, Start: start, Workers: workers, Shards: shards, CompactMin: compactMin})
}

// runCensus runs the census o asks for, with outputs and data of its own
// and 64 MiB a job, and returns its result and its output directory.
func runCensus(t testing.TB, o embedded.Options) (*coordinator.Result, string) {
	t.Helper()
	tmp := t.TempDir()
	o.Out = coordinator.OutputDir(filepath.Join(tmp, "out"), o.Game, o.Board)
	o.Data = filepath.Join(tmp, "data")
	o.MemBudget, o.Version = 64<<20, "test"
	res, err := embedded.Run(context.Background(), o)
	if err != nil {
		t.Fatalf("census %s %s: %v", o.Game, o.Board, err)
	}
	return res, o.Out
}

// counts is s without its stage times, which differ from run to run.
func counts(s schema.Summary) schema.Summary {
	s.Stages = nil
	return s
}

// near compares a share or mean to the 4 decimal places the spec gives.
func near(got, want float64) bool { return math.Abs(got-want) < 0.00005 }

// TestSpecClobber checks every Clobber number of census-spec.md.
func TestSpecClobber(t *testing.T) {
	tests := []struct {
		board                                   string
		positions, moves, deadFree, inPlace, tr uint64
		split, meanLive, dead, moved            float64
	}{
		{"4x4", 1809927, 12192184, 791655, 424085, 395947, 0.3290, 2.0852, 0.7475, 0.7158},
		{"2x6", 29463, 139136, 13404, 5836, 4999, 0.2954, 2.0260, 0.6976, 0.6894},
		{"3x4", 35772, 175190, 18327, 12766, 11191, 0.1780, 2.0170, 0.6837, 0.7811},
		{"3x5", 618575, 3800492, 274653, 137708, 126811, 0.3168, 2.0510, 0.7480, 0.7053},
	}
	for _, tc := range tests {
		t.Run(tc.board, func(t *testing.T) {
			s, _ := census(t, "clobber", tc.board, "", 0, 2)
			ints := []struct {
				name      string
				got, want uint64
			}{
				{"positions", s.Positions, tc.positions},
				{"moves", s.Moves, tc.moves},
				{"dead_free_boards", s.DeadFreeBoards, tc.deadFree},
				{"pieces_in_place", s.PiecesInPlace, tc.inPlace},
				{"pieces_translated", s.PiecesTranslated, tc.tr},
				{"joins", s.Joins, 0},
			}
			for _, c := range ints {
				if c.got != c.want {
					t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
				}
			}
			floats := []struct {
				name      string
				got, want float64
			}{
				{"split_share", s.SplitShare, tc.split},
				{"mean_live_pieces_when_split", s.MeanLivePiecesWhenSplit, tc.meanLive},
				{"dead_share", s.DeadShare, tc.dead},
				{"moved_piece_fraction", deref(s.MovedPieceFraction), tc.moved},
			}
			for _, c := range floats {
				if !near(c.got, c.want) {
					t.Errorf("%s = %.6f, want %.4f", c.name, c.got, c.want)
				}
			}
			if tc.board != "4x4" {
				return
			}
			wantTiers := []uint64{1, 48, 878, 7972, 40216, 125696, 274116, 419284, 430528, 313516, 141088, 45856, 8916, 1676, 120, 16}
			wantSplit := []uint64{0, 0, 0, 112, 4366, 33124, 105674, 172568, 169215, 84508, 22584, 3244, 126, 0, 0, 0}
			if !reflect.DeepEqual(s.PositionsByTier, wantTiers) {
				t.Errorf("positions_by_tier = %v, want %v", s.PositionsByTier, wantTiers)
			}
			if !reflect.DeepEqual(s.SplitByTier, wantSplit) {
				t.Errorf("split_by_tier = %v, want %v", s.SplitByTier, wantSplit)
			}
			wantSizes := []uint64{4, 36, 266, 1830, 11100, 41422, 76122, 93688, 82170, 54692, 26682, 7032, 854, 48, 1}
			bySize := map[int]uint64{}
			for i, n := range wantSizes {
				bySize[i+2] = n
			}
			if !reflect.DeepEqual(s.PiecesBySize, bySize) {
				t.Errorf("pieces_by_size = %v, want %v", s.PiecesBySize, bySize)
			}
			if small := s.PiecesBySize[2] + s.PiecesBySize[3]; small != 40 {
				t.Errorf("pieces of three stones or fewer = %d, want 40", small)
			}
			if got := deref(s.MovedPieceFractionAfterSplit); !near(got, 0.6368) {
				t.Errorf("moved_piece_fraction_after_split = %.6f, want 0.6368", got)
			}
			if s.Tiers != 16 {
				t.Errorf("tiers = %d, want 16", s.Tiers)
			}
		})
	}
}

func deref(f *float64) float64 {
	if f == nil {
		return math.NaN()
	}
	return *f
}

func TestSpecDomineering(t *testing.T) {
	s, _ := census(t, "domineering", "4x4", "", 0, 2)
	if s.Positions != 5700 || s.Moves != 32464 {
		t.Errorf("positions, moves = %d, %d; want 5700, 32464", s.Positions, s.Moves)
	}
	want := []uint64{1, 24, 215, 912, 1911, 1868, 704, 64, 1}
	if !reflect.DeepEqual(s.PositionsByTier, want) {
		t.Errorf("positions_by_tier = %v, want %v", s.PositionsByTier, want)
	}
	// The spec gives 47.0%: to one decimal of a percent.
	if math.Abs(s.SplitShare-0.470) >= 0.0005 {
		t.Errorf("split_share = %.4f, want 0.470", s.SplitShare)
	}
	if s.Joins != 0 || s.EdgeRuleJoins != nil || s.MovedPieceFraction != nil {
		t.Errorf("joins %d, edge_rule_joins %v, moved_piece_fraction %v: want 0, absent, absent", s.Joins, s.EdgeRuleJoins, s.MovedPieceFraction)
	}
}

func TestSpecAmazons(t *testing.T) {
	s, _ := census(t, "amazons", "3x4", "", 0, 2)
	if s.Positions != 127583 || s.Moves != 2300392 || s.Joins != 0 {
		t.Errorf("positions, moves, joins = %d, %d, %d; want 127583, 2300392, 0", s.Positions, s.Moves, s.Joins)
	}
	if s.Start != "o..x/..../...." {
		t.Errorf("start = %q, want White on (0,0) and Black on (0,3)", s.Start)
	}
	if s.EdgeRuleJoins == nil || *s.EdgeRuleJoins == 0 || *s.EdgeRuleJoins >= s.Moves {
		t.Errorf("edge_rule_joins = %v, want a count between 0 and the moves", s.EdgeRuleJoins)
	}
}

// TestOutputsReadBack reads every table back with arrow-go and checks it
// against summary.json.
func TestOutputsReadBack(t *testing.T) {
	s, dir := census(t, "clobber", "3x4", "", 3, 2)
	var js schema.Summary
	data, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &js); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(js, s) {
		t.Errorf("summary.json differs from the run's summary:\n%+v\n%+v", js, s)
	}
	checkStages(t, js.Stages, js.Tiers)
	ps, err := schema.ReadSummaryFile(filepath.Join(dir, schema.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	// The stage times are in summary.json only.
	js.Stages = nil
	if !reflect.DeepEqual(ps, js) {
		t.Errorf("summary.parquet differs from summary.json:\n%+v\n%+v", ps, js)
	}
	tiers, err := schema.ReadTiersFile(filepath.Join(dir, schema.TiersFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(tiers) != js.Tiers {
		t.Fatalf("tiers.parquet has %d rows, summary says %d tiers", len(tiers), js.Tiers)
	}
	var positions, moves, split uint64
	for i, tr := range tiers {
		positions += tr.Positions
		moves += tr.Moves
		split += tr.Split
		if int(tr.Tier) != i || tr.Positions != js.PositionsByTier[i] || tr.Split != js.SplitByTier[i] {
			t.Errorf("tiers.parquet row %d = %+v, summary by tier %d, %d", i, tr, js.PositionsByTier[i], js.SplitByTier[i])
		}
	}
	if positions != js.Positions || moves != js.Moves || split != js.SplitPositions {
		t.Errorf("tiers.parquet sums %d, %d, %d; summary %d, %d, %d", positions, moves, split, js.Positions, js.Moves, js.SplitPositions)
	}
	parts, _ := schema.PiecesParts(dir)
	if len(parts) == 0 {
		t.Fatal("no pieces parts")
	}
	bySize := map[int]uint64{}
	sym := map[[2]uint64]bool{}
	neg := map[[2]uint64]bool{}
	selfNeg := map[[2]uint64]bool{}
	keys := map[[2]uint64]bool{}
	for _, p := range parts {
		rows, err := schema.ReadPiecesFile(p)
		if err != nil {
			t.Fatal(err)
		}
		byKey := func(a, b schema.Piece) int {
			return cmp.Or(cmp.Compare(a.KeyHi, b.KeyHi), cmp.Compare(a.KeyLo, b.KeyLo))
		}
		if !slices.IsSortedFunc(rows, byKey) {
			t.Errorf("%s is not sorted by (key_hi, key_lo)", p)
		}
		for _, r := range rows {
			k := [2]uint64{r.KeyHi, r.KeyLo}
			if keys[k] {
				t.Errorf("piece %s appears twice", r.Picture)
			}
			keys[k] = true
			bySize[int(r.Size)]++
			sk := [2]uint64{r.SymmetricHi, r.SymmetricLo}
			sym[sk] = true
			neg[[2]uint64{r.NegationHi, r.NegationLo}] = true
			if r.SelfNegative {
				selfNeg[sk] = true
			}
			if r.Positions == 0 || r.FirstTier < 0 || int(r.FirstTier) >= js.Tiers {
				t.Errorf("piece %s: positions %d, first tier %d", r.Picture, r.Positions, r.FirstTier)
			}
		}
	}
	if uint64(len(keys)) != js.PiecesTranslated || uint64(len(sym)) != js.PiecesSymmetric ||
		uint64(len(neg)) != js.PiecesNegation || uint64(len(selfNeg)) != js.SelfNegativeSymmetric {
		t.Errorf("pieces tables: %d translated, %d symmetric, %d negation, %d self-negative; summary %d, %d, %d, %d",
			len(keys), len(sym), len(neg), len(selfNeg), js.PiecesTranslated, js.PiecesSymmetric, js.PiecesNegation, js.SelfNegativeSymmetric)
	}
	if !reflect.DeepEqual(bySize, js.PiecesBySize) {
		t.Errorf("pieces by size from the table %v, summary %v", bySize, js.PiecesBySize)
	}
	var m schema.Manifest
	data, err = os.ReadFile(filepath.Join(dir, schema.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != len(parts)+3 {
		t.Errorf("run.json lists %d files, want %d", len(m.Files), len(parts)+3)
	}
}

// checkStages checks the stage times of a finished run of tiers tiers
// (one job each at least) as summary.json gives them: every stage with
// jobs took time, the tiers and the piece reduction CPU time too (a class
// job of a small board can take less than the kernel's tick of CPU time),
// and the outputs were written by the coordinator, not by jobs.
func checkStages(t *testing.T, s *schema.Stages, tiers int) {
	t.Helper()
	if s == nil {
		t.Fatal("summary.json has no stages")
	}
	for _, st := range []struct {
		name    string
		st      schema.StageTime
		minJobs int
		cpu     bool
	}{
		{"tiers", s.Tiers, tiers + 1, true}, // the last, empty, tier has a job too
		{"pieces", s.Pieces, 1, true},
		{"classes", s.Classes, 1, false},
	} {
		if st.st.Jobs < st.minJobs || st.st.WallSeconds <= 0 || st.st.CPUSeconds < 0 || (st.cpu && st.st.CPUSeconds == 0) {
			t.Errorf("stage %s: %+v, want at least %d jobs and some wall time (and CPU time: %v)", st.name, st.st, st.minJobs, st.cpu)
		}
		if st.st.InCoordinator > st.st.Jobs {
			t.Errorf("stage %s: %d jobs in the coordinator of %d", st.name, st.st.InCoordinator, st.st.Jobs)
		}
	}
	if s.Outputs.Jobs != 0 || s.Outputs.WallSeconds <= 0 {
		t.Errorf("stage outputs: %+v, want no jobs and some wall time", s.Outputs)
	}
	if s.Compactions.Jobs == 0 && (s.Compactions.WallSeconds != 0 || s.Compactions.CPUSeconds != 0) {
		t.Errorf("stage compactions: %+v: time without jobs", s.Compactions)
	}
}

package coordinator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values/brute"
)

// valueRun runs the values stage of the run in dir through an embedded
// NATS server and returns the summary.json and pieces it leaves.
func valueRun(t *testing.T, dir, data string, shardPieces int, log *slog.Logger) (schema.Summary, []schema.Piece) {
	t.Helper()
	return valueRunCap(t, dir, data, shardPieces, 0, log)
}

func valueRunCap(t *testing.T, dir, data string, shardPieces, cap int, log *slog.Logger) (schema.Summary, []schema.Piece) {
	t.Helper()
	_, err := embedded.RunValues(context.Background(), embedded.ValuesOptions{
		Dir: dir, Data: data, Workers: 2, ShardPieces: shardPieces, Cap: cap, Log: log,
	})
	if err != nil {
		t.Fatalf("values of %s: %v", dir, err)
	}
	return readValued(t, dir)
}

func readValued(t *testing.T, dir string) (schema.Summary, []schema.Piece) {
	t.Helper()
	var s schema.Summary
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(dir, "pieces", "part-*.parquet"))
	var rows []schema.Piece
	for _, p := range parts {
		r, err := schema.ReadPiecesFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r...)
	}
	return s, rows
}

// TestValuesStage values the pieces of small censuses as jobs on NATS and
// checks every row's outcome against a brute-force solver of the whole
// piece, the summary's counts against a recount of the rows, and pieces
// whose values are in the literature (see values.TestKnownValues).
func TestValuesStage(t *testing.T) {
	tests := []struct {
		game, board string
		// cap is the node cap; a small one makes the outcome of the
		// capped pieces come from search.
		cap   int
		known map[string]string // picture -> value
	}{
		{"clobber", "3x4", 0, map[string]string{"xo": "*", "ox": "*", "xxo": "^", "oox": "v"}},
		{"clobber", "3x4", 6, map[string]string{"xo": "*", "xxo": "^"}},
		{"clobber", "2x6", 0, map[string]string{"xo": "*", "xxo": "^"}},
		{"domineering", "4x4", 0, map[string]string{"./.": "1", "..": "-1", "../..": "+-1"}},
		{"amazons", "3x3", 0, nil},
		{"amazons", "3x4", 0, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%s-cap-%d", tt.game, tt.board, tt.cap), func(t *testing.T) {
			if testing.Short() && tt.game == "amazons" && tt.board == "3x4" {
				t.Skip("amazons 3x4 takes some 15s")
			}
			summary, dir := census(t, tt.game, tt.board, "", 2, 2)
			s, rows := valueRunCap(t, dir, t.TempDir(), 300, tt.cap, nil)
			if len(rows) == 0 || uint64(len(rows)) != summary.PiecesTranslated {
				t.Fatalf("%d rows, summary has %d translated pieces", len(rows), summary.PiecesTranslated)
			}
			solver, err := brute.New(tt.game)
			if err != nil {
				t.Fatal(err)
			}
			translated := map[string]uint64{"L": 0, "R": 0, "N": 0, "P": 0}
			symmetric := map[string]uint64{"L": 0, "R": 0, "N": 0, "P": 0}
			symSeen := map[[2]uint64]bool{}
			distinct := map[string]bool{}
			var capped uint64
			byPicture := map[string]string{}
			// The levels' counts, recounted from the rows.
			levels := map[int]*schema.ValueLevel{}
			forms := map[int]int{}
			for _, p := range rows {
				l := levels[int(p.Size)]
				if l == nil {
					l = &schema.ValueLevel{Size: int(p.Size)}
					levels[int(p.Size)] = l
				}
				l.Pieces++
				if p.ValueCapped {
					l.Capped++
				}
				if p.ValueNodes > 0 {
					forms[l.Size]++
					l.MeanNodes += float64(p.ValueNodes)
					l.MaxNodes = max(l.MaxNodes, p.ValueNodes)
				}
				if !p.Valued {
					t.Fatalf("%s: no value", p.Picture)
				}
				want, err := solver.PieceOutcome(games.PieceKey{Hi: p.KeyHi, Lo: p.KeyLo})
				if err != nil {
					t.Fatal(err)
				}
				if p.Outcome != want {
					t.Errorf("%s: outcome %s, brute force says %s", p.Picture, p.Outcome, want)
				}
				if p.ValueCapped != (p.Value == "") || (p.ValueNodes <= 0) != (tt.cap > 0 && p.ValueCapped) || p.Cost <= 0 {
					t.Errorf("%s: value %q capped %t nodes %d cost %d", p.Picture, p.Value, p.ValueCapped, p.ValueNodes, p.Cost)
				}
				translated[p.Outcome]++
				if k := [2]uint64{p.SymmetricHi, p.SymmetricLo}; !symSeen[k] {
					symSeen[k] = true
					symmetric[p.Outcome]++
				}
				if p.ValueCapped {
					capped++
				} else {
					distinct[p.Value] = true
				}
				byPicture[p.Picture] = p.Value
			}
			if s.Values == nil {
				t.Fatal("summary.json has no value counts")
			}
			if tt.cap > 0 && capped == 0 {
				t.Errorf("cap %d: no piece capped", tt.cap)
			}
			want := schema.Values{OutcomesTranslated: translated, OutcomesSymmetric: symmetric,
				DistinctValues: uint64(len(distinct)), ValuesCapped: capped}
			if got := valueCounts(*s.Values); !reflect.DeepEqual(got, want) {
				t.Errorf("summary.json value counts %+v, recount %+v", got, want)
			}
			checkLevels(t, s.Values.Levels, levels, forms)
			var sum uint64
			for _, n := range symmetric {
				sum += n
			}
			if sum != summary.PiecesSymmetric {
				t.Errorf("outcomes_symmetric add up to %d, pieces_symmetric is %d", sum, summary.PiecesSymmetric)
			}
			for pic, val := range tt.known {
				got, ok := byPicture[pic]
				if !ok {
					t.Errorf("no piece %s in the census", pic)
				} else if got != val {
					t.Errorf("%s = %s, want %s", pic, got, val)
				}
			}
			if data, err := os.ReadFile(filepath.Join(dir, "run.json")); err != nil || !strings.Contains(string(data), fmt.Sprintf(`"schema_version": %d`, schema.Version)) {
				t.Errorf("run.json: %v %s", err, data)
			}
		})
	}
}

// valueCounts is v without its levels, whose costs differ from run to run.
func valueCounts(v schema.Values) schema.Values {
	v.Levels = nil
	return v
}

// levelCounts is the levels without their costs.
func levelCounts(levels []schema.ValueLevel) []schema.ValueLevel {
	var out []schema.ValueLevel
	for _, l := range levels {
		l.WallS, l.CPUS, l.JobWallS, l.LoadS = 0, 0, 0, 0
		out = append(out, l)
	}
	return out
}

// checkLevels compares summary.json's levels with the recount of the rows
// (mean nodes as a sum over forms of each size), and checks that each
// level's time was measured.
func checkLevels(t *testing.T, got []schema.ValueLevel, want map[int]*schema.ValueLevel, forms map[int]int) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d levels in summary.json, %d sizes among the rows", len(got), len(want))
	}
	for i, l := range got {
		if i > 0 && l.Size <= got[i-1].Size {
			t.Errorf("levels out of order: size %d after %d", l.Size, got[i-1].Size)
		}
		w := want[l.Size]
		if w == nil {
			t.Errorf("level of size %d, which no row has", l.Size)
			continue
		}
		if n := forms[l.Size]; n > 0 {
			w.MeanNodes /= float64(n)
		}
		if l.Pieces != w.Pieces || l.Capped != w.Capped || l.MaxNodes != w.MaxNodes || math.Abs(l.MeanNodes-w.MeanNodes) > 1e-9 {
			t.Errorf("level %d: %+v, recount %+v", l.Size, l, *w)
		}
		if l.Jobs < 1 || l.WallS <= 0 || l.CPUS <= 0 || l.JobWallS <= 0 || l.LoadS < 0 || l.LoadS > l.JobWallS {
			t.Errorf("level %d: jobs %d, wall %gs, CPU %gs, job wall %gs, load %gs", l.Size, l.Jobs, l.WallS, l.CPUS, l.JobWallS, l.LoadS)
		}
	}
}

// stopAfter is a log handler that cancels a context at its n-th "valued
// level" record: an interruption between two levels.
type stopAfter struct {
	n      atomic.Int32
	cancel context.CancelFunc
}

func (s *stopAfter) Enabled(context.Context, slog.Level) bool { return true }
func (s *stopAfter) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "valued level" && s.n.Add(-1) == 0 {
		s.cancel()
	}
	return nil
}
func (s *stopAfter) WithAttrs([]slog.Attr) slog.Handler { return s }
func (s *stopAfter) WithGroup(string) slog.Handler      { return s }

// TestValuesResume interrupts the values stage after its third level and
// runs it again on the same data: it finishes with the rows and counts of an
// uninterrupted stage.
func TestValuesResume(t *testing.T) {
	_, dir := census(t, "clobber", "3x4", "", 2, 2)
	_, clean := census(t, "clobber", "3x4", "", 2, 2)
	wantSummary, wantRows := valueRun(t, clean, t.TempDir(), 200, nil)

	data := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := &stopAfter{cancel: cancel}
	h.n.Store(3)
	_, err := embedded.RunValues(ctx, embedded.ValuesOptions{Dir: dir, Data: data, Workers: 2, ShardPieces: 200, Log: slog.New(h)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted stage: err %v, want context.Canceled", err)
	}
	if _, rows := readValued(t, dir); rows[0].Valued {
		t.Fatal("an interrupted stage wrote values")
	}
	gotSummary, gotRows := valueRun(t, dir, data, 200, nil)
	if !reflect.DeepEqual(gotRows, wantRows) || !reflect.DeepEqual(valueCounts(*gotSummary.Values), valueCounts(*wantSummary.Values)) ||
		!reflect.DeepEqual(levelCounts(gotSummary.Values.Levels), levelCounts(wantSummary.Values.Levels)) {
		t.Error("resumed stage differs from an uninterrupted one")
	}
}

// TestValuesBadDir checks that a directory without a finished run, or with
// a run of another schema version, is refused before anything is written.
func TestValuesBadDir(t *testing.T) {
	_, dir := census(t, "clobber", "2x3", "", 1, 1)
	old := filepath.Join(t.TempDir(), "old")
	if err := os.CopyFS(old, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	manifest, _ := os.ReadFile(filepath.Join(old, "run.json"))
	manifest = []byte(strings.Replace(string(manifest), fmt.Sprintf(`"schema_version": %d`, schema.Version), fmt.Sprintf(`"schema_version": %d`, schema.Version-1), 1))
	if err := os.WriteFile(filepath.Join(old, "run.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir string
		want      error
	}{
		{"no run.json", filepath.Dir(dir), coordinator.ErrNotFinished},
		{"empty directory", t.TempDir(), coordinator.ErrNotFinished},
		{"an older schema version", old, coordinator.ErrOldSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := listing(t, tt.dir)
			data := filepath.Join(t.TempDir(), "data")
			_, err := embedded.RunValues(context.Background(), embedded.ValuesOptions{Dir: tt.dir, Data: data, Workers: 1})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
			if after := listing(t, tt.dir); !reflect.DeepEqual(after, before) {
				t.Errorf("files changed:\n%v\n%v", before, after)
			}
			if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("data directory %s made: %v", data, err)
			}
		})
	}
}

// listing is every file under dir with its size and modification time.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %s", p, fi.Size(), fi.ModTime()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

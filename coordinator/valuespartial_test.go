package coordinator_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
)

// doneJobs is a log handler that collects the IDs of the jobs the workers
// log as done: the jobs that ran, not those whose done-records an earlier
// stage left.
type doneJobs struct {
	job  string // the job a logger made With it logs about
	seen *jobList
}

type jobList struct {
	mu  sync.Mutex
	ids []string
}

func newDoneJobs() *doneJobs { return &doneJobs{seen: &jobList{}} }

func (d *doneJobs) Enabled(context.Context, slog.Level) bool { return true }
func (d *doneJobs) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "job done" && d.job != "" {
		d.seen.mu.Lock()
		d.seen.ids = append(d.seen.ids, d.job)
		d.seen.mu.Unlock()
	}
	return nil
}
func (d *doneJobs) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *d
	for _, a := range attrs {
		if a.Key == "job" {
			c.job = a.Value.String()
		}
	}
	return &c
}
func (d *doneJobs) WithGroup(string) slog.Handler { return d }

// ids returns the jobs seen done, sorted.
func (d *doneJobs) ids() []string {
	d.seen.mu.Lock()
	defer d.seen.mu.Unlock()
	return slices.Sorted(slices.Values(d.seen.ids))
}

// partialRun values the run in dir up to maxSize (every size when 0) on
// data, logging to log, and returns the summary.json and pieces it leaves.
func partialRun(t *testing.T, dir, data string, maxSize int, log slog.Handler) (schema.Summary, []schema.Piece) {
	t.Helper()
	_, err := embedded.RunValues(context.Background(), embedded.ValuesOptions{
		Dir: dir, Data: data, Workers: 2, ShardPieces: 200, MaxSize: maxSize, Log: slog.New(log),
	})
	if err != nil {
		t.Fatalf("values of %s up to size %d: %v", dir, maxSize, err)
	}
	return readValued(t, dir)
}

// recountUpTo counts, from the rows of a complete values stage, what
// summary.json says of the pieces of up to maxSize.
func recountUpTo(rows []schema.Piece, maxSize int32) schema.Values {
	v := schema.Values{
		OutcomesTranslated: map[string]uint64{"L": 0, "R": 0, "N": 0, "P": 0},
		OutcomesSymmetric:  map[string]uint64{"L": 0, "R": 0, "N": 0, "P": 0},
	}
	symSeen := map[[2]uint64]bool{}
	distinct := map[string]bool{}
	for _, p := range rows {
		if p.Size > maxSize {
			v.PiecesNotValued++
			continue
		}
		v.OutcomesTranslated[p.Outcome]++
		if k := [2]uint64{p.SymmetricHi, p.SymmetricLo}; !symSeen[k] {
			symSeen[k] = true
			v.OutcomesSymmetric[p.Outcome]++
		}
		if p.ValueCapped {
			v.ValuesCapped++
		} else {
			distinct[p.Value] = true
		}
	}
	v.DistinctValues = uint64(len(distinct))
	if v.PiecesNotValued > 0 {
		v.MaxSize = int(maxSize)
	}
	return v
}

// withoutTimes is s with its stage times and its levels' costs left out,
// which differ from run to run.
func withoutTimes(s schema.Summary) schema.Summary {
	s.Stages = nil
	if s.Values != nil {
		v := *s.Values
		v.Levels = levelCounts(v.Levels)
		s.Values = &v
	}
	return s
}

// TestValuesMaxSize values a run up to a piece size, then extends it to
// every size on the same data. The partial stage leaves the rows of the
// pieces up to that size as a complete stage does and the larger ones
// null, and summary.json counts only the pieces it valued; the extension
// runs only the jobs of the larger sizes and ends as a complete stage does.
func TestValuesMaxSize(t *testing.T) {
	_, full := census(t, "clobber", "3x4", "", 2, 2)
	fullSummary, fullRows := partialRun(t, full, t.TempDir(), 0, slog.DiscardHandler)
	var sizes []int32
	for _, p := range fullRows {
		sizes = append(sizes, p.Size)
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	if len(sizes) < 3 {
		t.Fatalf("pieces of %d sizes, want 3 or more", len(sizes))
	}
	k := sizes[len(sizes)/2]
	fullByKey := map[[2]uint64]schema.Piece{}
	for _, p := range fullRows {
		fullByKey[[2]uint64{p.KeyHi, p.KeyLo}] = p
	}

	_, dir := census(t, "clobber", "3x4", "", 2, 2)
	data := t.TempDir()
	ran := newDoneJobs()
	partial, rows := partialRun(t, dir, data, int(k), ran)
	if len(rows) != len(fullRows) {
		t.Fatalf("%d rows, a complete stage leaves %d", len(rows), len(fullRows))
	}
	for _, p := range rows {
		want := fullByKey[[2]uint64{p.KeyHi, p.KeyLo}]
		if p.Size > k {
			want.PieceValue = schema.PieceValue{}
		}
		if p.PieceValue != want.PieceValue {
			t.Errorf("%s (size %d): %+v, a complete stage %+v", p.Picture, p.Size, p.PieceValue, want.PieceValue)
		}
	}
	if !partial.Partial() || partial.MaxSize != int(k) {
		t.Fatalf("summary.json of values up to size %d: %+v", k, partial.Values)
	}
	if got, want := valueCounts(*partial.Values), recountUpTo(fullRows, k); !reflect.DeepEqual(got, want) {
		t.Errorf("summary.json of values up to size %d: %+v, recount of a complete stage's rows %+v", k, got, want)
	}
	wantLevels := slices.DeleteFunc(slices.Clone(fullSummary.Levels), func(l schema.ValueLevel) bool { return l.Size > int(k) })
	if got, want := levelCounts(partial.Levels), levelCounts(wantLevels); !reflect.DeepEqual(got, want) {
		t.Errorf("levels up to size %d: %+v, a complete stage's %+v", k, got, want)
	}
	var wantJobs []string
	for _, l := range wantLevels {
		for shard := range l.Jobs {
			wantJobs = append(wantJobs, jobID(l.Size, shard))
		}
	}
	if got := ran.ids(); !slices.Equal(got, wantJobs) {
		t.Errorf("values up to size %d ran jobs %v, want %v", k, got, wantJobs)
	}
	if s, f := withoutValues(partial), withoutValues(fullSummary); !reflect.DeepEqual(s, f) {
		t.Errorf("summary.json's census keys changed:\n%+v\n%+v", s, f)
	}

	// Its data cannot be extended with another node cap: the forms of the
	// smaller pieces would be capped at one, the larger at the other.
	before := listing(t, dir)
	_, err := embedded.RunValues(context.Background(), embedded.ValuesOptions{
		Dir: dir, Data: data, Workers: 2, ShardPieces: 200, Cap: 50,
	})
	if !errors.Is(err, coordinator.ErrValuesClash) {
		t.Errorf("extended with another cap: err %v, want ErrValuesClash", err)
	}
	if after := listing(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("extending with another cap changed files:\n%v\n%v", before, after)
	}

	ran = newDoneJobs()
	extended, rows := partialRun(t, dir, data, 0, ran)
	if !reflect.DeepEqual(rows, fullRows) {
		t.Error("the extended stage's rows differ from a complete stage's")
	}
	if got, want := withoutTimes(extended), withoutTimes(fullSummary); !reflect.DeepEqual(got, want) {
		t.Errorf("extended stage's summary.json\n%+v\ncomplete stage's\n%+v", got.Values, want.Values)
	}
	wantJobs = nil
	for _, l := range fullSummary.Levels {
		for shard := range l.Jobs {
			if l.Size > int(k) {
				wantJobs = append(wantJobs, jobID(l.Size, shard))
			}
		}
	}
	if got := ran.ids(); !slices.Equal(got, wantJobs) {
		t.Errorf("the extension ran jobs %v, want those of the sizes over %d: %v", got, k, wantJobs)
	}
	// The levels it took over keep the costs the partial stage measured.
	for i, l := range partial.Levels {
		if e := extended.Levels[i]; e != l {
			t.Errorf("level %d: extended with costs %+v, valued with %+v", l.Size, e, l)
		}
	}
	if text, err := os.ReadFile(filepath.Join(dir, schema.SummaryJSONFile)); err != nil || strings.Contains(string(text), "values_max_size") || strings.Contains(string(text), "pieces_not_valued") {
		t.Errorf("summary.json of the extended stage: %v\n%s", err, text)
	}
}

// TestValuesMaxSizeAll checks that a --max-size of the largest piece size
// or more values every piece: a complete stage, not a partial one.
func TestValuesMaxSizeAll(t *testing.T) {
	_, full := census(t, "clobber", "2x3", "", 1, 1)
	want, wantRows := partialRun(t, full, t.TempDir(), 0, slog.DiscardHandler)
	largest := slices.MaxFunc(wantRows, func(a, b schema.Piece) int { return int(a.Size - b.Size) }).Size
	for _, maxSize := range []int{int(largest), int(largest) + 5} {
		_, dir := census(t, "clobber", "2x3", "", 1, 1)
		got, rows := partialRun(t, dir, t.TempDir(), maxSize, slog.DiscardHandler)
		if got.Partial() || !reflect.DeepEqual(rows, wantRows) || !reflect.DeepEqual(withoutTimes(got), withoutTimes(want)) {
			t.Errorf("values up to size %d of pieces of up to %d: %+v, want a complete stage's %+v", maxSize, largest, got.Values, want.Values)
		}
	}
}

// jobID is the ID of the value job of shard of level.
func jobID(level, shard int) string {
	return jobs.Job{Value: &jobs.ValueJob{Level: level, Shard: shard}}.ID()
}

// withoutValues is s without the values stage's keys and the stage times.
func withoutValues(s schema.Summary) schema.Summary {
	s.Stages, s.Values = nil, nil
	return s
}

package jobs

import (
	"context"
	"errors"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/store"
	"github.com/census-cgt/census/values"
)

// clobberRow is the translated key of a Clobber piece of one row.
func clobberRow(t *testing.T, row string) games.PieceKey {
	t.Helper()
	g, err := all.New("clobber", "1x"+string(rune('0'+len(row))), row)
	if err != nil {
		t.Fatal(err)
	}
	ps := g.Pieces(g.Start(), nil)
	if len(ps) != 1 {
		t.Fatalf("%s: %d pieces", row, len(ps))
	}
	return g.Translate(ps[0].Key)
}

// TestValueJob values two levels of Clobber rows as value jobs, the second
// from the first's table, and checks the values, that a rerun writes the
// same table, and that damaged or invalid jobs fail as they should.
func TestValueJob(t *testing.T) {
	ctx := context.Background()
	st, err := store.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Run: "run", Game: "clobber", Board: "1x4", Store: "unused"}
	run := func(level int, keys []games.PieceKey, tables []Blob) (*ValueJob, *ValueResult) {
		t.Helper()
		kb, err := PutValueKeys(ctx, st, spec.Run, level, 0, keys)
		if err != nil {
			t.Fatal(err)
		}
		j := &ValueJob{Spec: spec, Level: level, Keys: kb, Tables: tables}
		res, err := Run(ctx, st, Job{Value: j}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return j, res.Value
	}
	xo, xxo, xxxo := clobberRow(t, "xo"), clobberRow(t, "xxo"), clobberRow(t, "xxxo")
	_, r2 := run(2, []games.PieceKey{xo}, nil)
	j3, r3 := run(3, []games.PieceKey{xxo}, []Blob{r2.Table})
	if r3.Pieces != 1 {
		t.Errorf("level 3: %d pieces, want 1", r3.Pieces)
	}
	// Level 3's table holds xxo and the pieces it was derived from (its
	// class representative), but not xo, which level 2's table gave it.
	only3, _ := values.New("clobber", 0)
	if err := LoadValueTables(ctx, st, only3, []Blob{r3.Table}); err != nil {
		t.Fatal(err)
	}
	only3.Each(func(k games.PieceKey, _ values.Value) {
		if r, c := k.Dims(); r*c < 3 {
			t.Errorf("level 3's table holds %v, a piece of level 2", k)
		}
	})
	if only3.Len() != int(r3.Table.Count) || only3.Len() == 0 {
		t.Errorf("level 3's table loads %d values, its count is %d", only3.Len(), r3.Table.Count)
	}
	_, r4 := run(4, []games.PieceKey{xxxo}, []Blob{r2.Table, r3.Table})
	v, _ := values.New("clobber", 0)
	if err := LoadValueTables(ctx, st, v, []Blob{r2.Table, r3.Table, r4.Table}); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[games.PieceKey]string{xo: "*", xxo: "^", xxxo: "^^*"} {
		if got := v.String(v.Value(k)); got != want {
			t.Errorf("%v = %s, want %s", k, got, want)
		}
	}
	if fresh := v.Fresh(); len(fresh) != 0 {
		t.Errorf("%d pieces valued again after loading the tables", len(fresh))
	}
	res, err := Run(ctx, st, Job{Value: j3}, Options{})
	if err != nil || res.Value.Table != r3.Table {
		t.Errorf("rerun: %+v, %v; want %+v", res.Value, err, r3.Table)
	}

	bad := func(f func(*ValueJob)) Job {
		j := *j3
		f(&j)
		return Job{Value: &j}
	}
	tests := []struct {
		name string
		job  Job
		want error
	}{
		{"unknown game", bad(func(j *ValueJob) { j.Game = "chess" }), ErrInvalid},
		{"no run", bad(func(j *ValueJob) { j.Run = "" }), ErrInvalid},
		{"negative level", bad(func(j *ValueJob) { j.Level = -1 }), ErrInvalid},
		{"keys of another size", bad(func(j *ValueJob) { j.Keys.Size++ }), ErrCorrupt},
		{"keys of another checksum", bad(func(j *ValueJob) { j.Keys.Sum++ }), ErrCorrupt},
		{"a key too many", bad(func(j *ValueJob) { j.Keys.Count++ }), ErrCorrupt},
		{"damaged table", bad(func(j *ValueJob) {
			j.Tables = []Blob{{Name: j.Tables[0].Name, Size: j.Tables[0].Size, Sum: j.Tables[0].Sum + 1}}
		}), ErrCorrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Run(ctx, st, tt.job, Options{}); !errors.Is(err, tt.want) {
				t.Errorf("err %v, want %v", err, tt.want)
			}
		})
	}
}

package jobs

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

// FuzzJobDecode decodes arbitrary bytes as a job message and runs the job
// on an empty store: Run returns an error or a result, never panics.
func FuzzJobDecode(f *testing.F) {
	spec := Spec{Run: "run", Game: "clobber", Board: "2x2", Store: "x", MemBudget: 1 << 20}
	blob := Blob{Name: "run/t0000/s00000-p000.frag", Kind: KindPositions, Size: 47, Sum: 1, Count: 1}
	for _, j := range []Job{
		{Tier: &TierJob{Spec: spec, Shards: 1, NextShards: 2, ReduceShards: 2}},
		{Tier: &TierJob{Spec: spec, Shards: 1, NextShards: 2, ReduceShards: 2, Inputs: []Blob{blob}}},
		{Tier: &TierJob{Spec: spec, Tier: 1, Shard: 1, Shards: 2, NextShards: 1, ReduceShards: 1, Inputs: []Blob{{Name: "../x", Kind: KindPositions}}}},
		{Piece: &PieceJob{Spec: spec, ClassShards: 2}},
		{Piece: &PieceJob{Spec: spec, Bucket: 1, ClassShards: 1, Inputs: []Blob{{Name: "a", Kind: KindDeadFree}, {Name: "b", Kind: KindPieces}}}},
		{Class: &ClassJob{Spec: spec}},
		{Class: &ClassJob{Spec: spec, Inputs: []Blob{{Name: "c", Kind: KindClasses, Count: 3}}}},
		{Tier: &TierJob{Spec: Spec{Run: "r", Game: "domineering", Board: "4x4", Start: "#.../..../..../...#", NoSymmetry: true}, Shards: 1, NextShards: 1, ReduceShards: 1}},
		{Tier: &TierJob{Spec: Spec{Run: "r", Game: "amazons", Board: "3x3"}, Shards: 1, NextShards: 1, ReduceShards: 1}},
		{Tier: &TierJob{Spec: Spec{Run: "r", Game: "chess", Board: "8x8"}, Shards: 1, NextShards: 1, ReduceShards: 1}},
		{},
	} {
		data, err := json.Marshal(j)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"tier":{"run":"r","game":"clobber","board":"2x2","shards":0}}`))
	f.Add([]byte(`{"piece":null,"class":{}}`))
	f.Add([]byte(`{"tier":{},"piece":{}}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var j Job
		if err := json.Unmarshal(data, &j); err != nil {
			return
		}
		s := j.Spec()
		if s == nil {
			return
		}
		if fuzzJobTooBig(j, s) {
			t.Skip("too big a job to fuzz")
		}
		st, err := store.NewDir(filepath.Join(t.TempDir(), "store"))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		res, err := Run(ctx, st, j, Options{})
		if err != nil {
			if res != (Result{}) {
				t.Fatalf("Run returned a result with error %v", err)
			}
			return
		}
		switch {
		case j.Tier != nil && res.Tier == nil, j.Tier == nil && j.Piece != nil && res.Piece == nil,
			j.Tier == nil && j.Piece == nil && res.Class == nil:
			t.Fatalf("job %s ran without an error to %+v", j.ID(), res)
		}
	})
}

// fuzzJobTooBig reports whether a job is too much work for one fuzz input.
func fuzzJobTooBig(j Job, s *Spec) bool {
	if rows, cols, err := games.ParseBoard(s.Board); err == nil && (rows > 16 || cols > 16 || rows*cols > 16) {
		return true
	}
	var inputs []Blob
	shards := []int{}
	switch {
	case j.Tier != nil:
		inputs = j.Tier.Inputs
		shards = append(shards, j.Tier.Shards, j.Tier.NextShards, j.Tier.ReduceShards)
	case j.Piece != nil:
		inputs = j.Piece.Inputs
		shards = append(shards, j.Piece.ClassShards)
	case j.Class != nil:
		inputs = j.Class.Inputs
	}
	if len(inputs) > 8 {
		return true
	}
	for _, n := range shards {
		if n > 64 {
			return true
		}
	}
	return false
}

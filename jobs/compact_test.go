package jobs

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/census-cgt/census/store"
)

// bucketRecords are what a piece job reads of a bucket's fragments: its
// distinct keys of both kinds and its pieces, folded.
type bucketRecords struct {
	deadFree, inPlace []uint64
	pieces            []PieceRecord
	records           uint64 // records in the fragments, repeats included
}

func readBucket(t *testing.T, st store.Store, blobs []Blob, spec Spec) bucketRecords {
	t.Helper()
	ctx := context.Background()
	game, err := spec.game()
	if err != nil {
		t.Fatal(err)
	}
	var r bucketRecords
	for _, b := range blobs {
		r.records += b.Count
	}
	if err := mergeUnique(ctx, st, blobs, KindDeadFree, game, 1<<20, func(k uint64) error { r.deadFree = append(r.deadFree, k); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := mergeUnique(ctx, st, blobs, KindInPlace, game, 1<<20, func(k uint64) error { r.inPlace = append(r.inPlace, k); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := mergePieces(ctx, st, blobs, game, 1<<20, func(p PieceRecord) error { r.pieces = append(r.pieces, p); return nil }); err != nil {
		t.Fatal(err)
	}
	return r
}

func compact(t *testing.T, st store.Store, spec Spec, tier, bucket int, in []Blob) []Blob {
	t.Helper()
	res, err := Run(context.Background(), st, Job{Compact: &CompactJob{Spec: spec, Tier: tier, Bucket: bucket, Inputs: in}}, Options{})
	if err != nil {
		t.Fatalf("compact bucket %d after tier %d: %v", bucket, tier, err)
	}
	c := res.Compact
	if c.Tier != tier || c.Bucket != bucket {
		t.Fatalf("compaction of bucket %d after tier %d reports %d, %d", bucket, tier, c.Bucket, c.Tier)
	}
	for _, b := range c.Outputs {
		if b.Bucket != bucket {
			t.Fatalf("compaction of bucket %d wrote %+v", bucket, b)
		}
	}
	return c.Outputs
}

// TestCompact compacts the piece fragments of every bucket of Clobber 3x4
// and Domineering 4x4, in one step and in two (the first tiers, then their
// run with the rest): a piece job must read the same distinct keys and
// folded pieces from the runs as from the fragments, the runs must hold
// each record once, and compacting again must write the same bytes.
func TestCompact(t *testing.T) {
	for _, tc := range []struct{ game, board string }{{"clobber", "3x4"}, {"domineering", "4x4"}} {
		t.Run(tc.game+"-"+tc.board, func(t *testing.T) {
			st := newStore(t)
			spec := Spec{Run: "compact", Game: tc.game, Board: tc.board, MemBudget: 1 << 20}
			const reduce = 3
			byTier := runJobs(t, st, spec, func(int) int { return 2 }, reduce, 2).piecesByTier
			last, half := len(byTier)-1, len(byTier)/2
			for b := 0; b < reduce; b++ {
				var all, first, rest []Blob
				for tier, buckets := range byTier {
					all = append(all, buckets[b]...)
					if tier < half {
						first = append(first, buckets[b]...)
					} else {
						rest = append(rest, buckets[b]...)
					}
				}
				want := readBucket(t, st, all, spec)
				once := compact(t, st, spec, last, b, all)
				got := readBucket(t, st, once, spec)
				if got.records != uint64(len(got.deadFree)+len(got.inPlace)+len(got.pieces)) {
					t.Errorf("bucket %d: the runs hold %d records for %d distinct", b, got.records, len(got.deadFree)+len(got.inPlace)+len(got.pieces))
				}
				if got.records >= want.records {
					t.Errorf("bucket %d: the runs hold %d records, the fragments %d: nothing was folded", b, got.records, want.records)
				}
				got.records, want.records = 0, 0
				if !reflect.DeepEqual(got, want) {
					t.Errorf("bucket %d: the runs read differently from the fragments", b)
				}
				bytesOnce := readStore(t, st, once[0].Name)
				// Records that outgrow the memory a compaction may hold are
				// merged twice: the same runs, the same bytes.
				for _, output := range []int64{0, 64} {
					res, err := compactHolding(context.Background(), st, &CompactJob{Spec: spec, Tier: last, Bucket: b, Inputs: all}, Options{}, output)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(res.Outputs, once) {
						t.Errorf("bucket %d: holding %d bytes, the compaction names other runs:\n%+v\n%+v", b, output, res.Outputs, once)
					}
					if got := readStore(t, st, res.Outputs[0].Name); !bytes.Equal(got, bytesOnce) {
						t.Errorf("bucket %d: holding %d bytes, the compaction wrote other bytes", b, output)
					}
				}
				// Two steps: the first tiers, then their run with the rest.
				early := compact(t, st, spec, half-1, b, first)
				twice := compact(t, st, spec, last, b, append(early, rest...))
				if got := readStore(t, st, twice[0].Name); !bytes.Equal(got, bytesOnce) {
					t.Errorf("bucket %d: compacting in two steps wrote other bytes than in one", b)
				}
				if !reflect.DeepEqual(twice, once) {
					t.Errorf("bucket %d: compacting in two steps names other runs:\n%+v\n%+v", b, twice, once)
				}
			}
		})
	}
}

// TestCompactRejects refuses compactions that cannot succeed.
func TestCompactRejects(t *testing.T) {
	st := newStore(t)
	spec := Spec{Run: "compact", Game: "clobber", Board: "2x3", MemBudget: 1 << 20}
	for name, j := range map[string]*CompactJob{
		"positions input": {Spec: spec, Tier: 1, Bucket: 0, Inputs: []Blob{{Name: "x", Kind: KindPositions}}},
		"other bucket":    {Spec: spec, Tier: 1, Bucket: 0, Inputs: []Blob{{Name: "x", Kind: KindPieces, Bucket: 1}}},
		"negative tier":   {Spec: spec, Tier: -1, Bucket: 0},
		"no run":          {Spec: Spec{Game: "clobber", Board: "2x3"}, Tier: 1},
	} {
		if _, err := Run(context.Background(), st, Job{Compact: j}, Options{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
}

package jobs

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/census-cgt/census/codec/fragment"
)

// BenchmarkReadKeyBatches measures decoding and checking a fragment from
// memory as the merges read one: by NextKeys, a batch of 1Ki keys at a
// time.
func BenchmarkReadKeyBatches(b *testing.B) {
	for _, ks := range benchEncodeSets(b) {
		b.Run(ks.name, func(b *testing.B) {
			data := benchKeyFragment(b, ks.keys)
			r := bytes.NewReader(data)
			batch := make([]uint64, 1<<10)
			var sink uint64
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				r.Reset(data)
				fr, err := fragment.NewReader(r, KindPositions, fragment.Options{Name: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				for {
					m, err := fr.NextKeys(batch)
					if err != nil {
						b.Fatal(err)
					}
					if m == 0 {
						break
					}
					sink ^= batch[m-1]
					n += m
				}
			}
			reportKeyRate(b, n, "keys/s")
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}

// BenchmarkKeyMerge measures the merge of a tier job's or a compaction's
// inputs: keyMerge over N fragments, in a store in memory, of the
// realistic tier's successors, each key in two of them, as fragments of
// the shards of a previous tier overlap. keys/s counts the records read.
func BenchmarkKeyMerge(b *testing.B) {
	d := benchTier(b)
	ctx := context.Background()
	h := Header{Kind: KindPositions, Game: "clobber", Rows: 4, Cols: 4, Tier: d.tier + 1}
	for _, n := range []int{2, 8, 64} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			st := newMemStore()
			parts := make([][]uint64, n)
			for i, k := range d.unique {
				parts[i%n] = append(parts[i%n], k)
				parts[(i+1)%n] = append(parts[(i+1)%n], k)
			}
			var blobs []Blob
			for i, p := range parts {
				blob, err := putKeys(ctx, st, fmt.Sprintf("bench/%d.frag", i), h, p)
				if err != nil {
					b.Fatal(err)
				}
				blobs = append(blobs, blob)
			}
			g := d.g
			var sink uint64
			b.ReportAllocs()
			total := 0
			for b.Loop() {
				var m keyMerge
				err := m.run(ctx, st, blobs, KindPositions, g, 4<<20, func(k uint64) error { sink ^= k; return nil })
				if err != nil {
					b.Fatal(err)
				}
				total += int(m.Read)
			}
			reportKeyRate(b, total, "keys/s")
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}

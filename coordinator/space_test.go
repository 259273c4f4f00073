package coordinator

import (
	"errors"
	"strings"
	"testing"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
)

func TestSpaceBudget(t *testing.T) {
	free := map[string]uint64{"/a": 3000, "/b": 2000}
	b := &spaceBudget{dirs: []string{"/a", "/b"}, free: func(d string) (uint64, bool, error) {
		n, ok := free[d]
		return n, ok, nil
	}}
	if err := b.checkTier(0, 1000, 0); err != nil {
		t.Errorf("before any tier is known: %v", err)
	}
	b.learn(100, 1000) // 10 bytes a record
	if err := b.checkTier(1, 150, 0); err != nil {
		t.Errorf("150 records (1875 bytes with the margin) in 2000 free: %v", err)
	}
	err := b.checkTier(2, 200, 0)
	var ns *NoSpaceError
	if !errors.As(err, &ns) || !errors.Is(err, ErrNoSpace) || ns.Dir != "/b" || ns.Need != 2500 || ns.Free != 2000 || ns.Stage != "tier 2" {
		t.Errorf("200 records (2500 bytes with the margin) in 2000 free: %v", err)
	}
	delete(free, "/b") // a filesystem that cannot tell
	if err := b.checkTier(2, 200, 0); err != nil {
		t.Errorf("only /a tells, with 3000 free: %v", err)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[uint64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 30: "5.0 GiB", 3 << 40: "3.0 TiB"} {
		if got := ByteSize(n); got != want {
			t.Errorf("ByteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestSpaceEstimates checks what the compactions beside a tier and the
// piece reduction are taken to write.
func TestSpaceEstimates(t *testing.T) {
	b := &spaceBudget{dirs: []string{"/a"}, free: func(string) (uint64, bool, error) { return 3000, true, nil }}
	b.learn(100, 1000) // 10 bytes a record
	// 150 records, 1500 bytes, and 900 bytes of compactions: 3000 with the margin.
	if err := b.checkTier(1, 150, 900); err != nil {
		t.Errorf("1500 bytes of tier and 900 of compactions (3000 with the margin) in 3000 free: %v", err)
	}
	if err := b.checkTier(1, 150, 901); !errors.Is(err, ErrNoSpace) {
		t.Errorf("1500 bytes of tier and 901 of compactions in 3000 free: %v", err)
	}
	blobs := []jobs.Blob{
		{Kind: jobs.KindPieces, Count: 10, Size: 100},
		{Kind: jobs.KindDeadFree, Count: 1000, Size: 50},
		{Kind: jobs.KindPieces, Count: 5, Size: 40},
	}
	// 15 piece records, orbits of up to 8: 120 rows of 24 bytes of table,
	// the runs of the jobs running at once, 24 bytes a row of their share
	// of the rows, and the 190 bytes of the records.
	for _, c := range []struct {
		jobs, parallel int
		want           uint64
	}{
		{16, 2, 120*24 + 120*24*2/16 + 190}, // two of sixteen at once
		{16, 16, 120*24 + 120*24 + 190},     // every job at once
		{4, 8, 120*24 + 120*24 + 190},       // fewer jobs than slots
		{16, 0, 120*24 + 120*24 + 190},      // no bound known
	} {
		if got := pieceReductionBytes(blobs, 8, c.jobs, c.parallel, schema.CodecZstd); got != c.want {
			t.Errorf("piece reduction estimate, %d jobs %d at once: %d, want %d", c.jobs, c.parallel, got, c.want)
		}
	}
	// A faster codec's larger rows: 42 bytes of table a row.
	for _, codec := range []schema.Codec{schema.CodecSnappy, schema.CodecLZ4Raw} {
		if got, want := pieceReductionBytes(blobs, 8, 16, 2, codec), uint64(120*42+120*24*2/16+190); got != want {
			t.Errorf("piece reduction estimate with %s: %d, want %d", codec, got, want)
		}
	}
}

// TestProjection checks the refusal before tier 0: Clobber 5x5 (either
// way round) from the standard start needs at least half its published
// peak, and no other board, nor another start, has a projection.
func TestProjection(t *testing.T) {
	free := uint64(20_000_000_000)
	b := &spaceBudget{dirs: []string{"/a"}, free: func(string) (uint64, bool, error) { return free, true, nil }}
	for _, tc := range []struct {
		game       string
		rows, cols int
	}{
		{"clobber", 5, 5}, // 18.5 GB of 20 free
		{"domineering", 5, 5},
		{"clobber", 4, 5},
	} {
		if err := b.checkProjection(tc.game, tc.rows, tc.cols, ""); err != nil {
			t.Errorf("%s %dx%d with 20 GB free: %v", tc.game, tc.rows, tc.cols, err)
		}
	}
	free = 18_000_000_000
	err := b.checkProjection("clobber", 5, 5, "")
	var ns *NoSpaceError
	if !errors.As(err, &ns) || ns.Need != 18_500_000_000 || ns.Free != free || ns.Dir != "/a" {
		t.Fatalf("clobber 5x5 with 18 GB free: %v", err)
	}
	t.Log(err)
	for _, s := range []string{"results/clobber-5x5", "34.5 GiB"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("the refusal %q does not name %q", err, s)
		}
	}
	if err := b.checkProjection("clobber", 5, 5, "xoxox/oxoxo/xoxox/oxoxo/xoxo."); err != nil {
		t.Errorf("clobber 5x5 from another start: %v", err)
	}
	if err := b.checkProjection("clobber", 4, 6, ""); err != nil {
		t.Errorf("clobber 4x6 has no projection: %v", err)
	}
}

// TestShardsWholeWaves checks that a tier split for parallelism gets the
// largest multiple of the jobs run at once not above what its size asks
// for (and at least twice that many), and that a small tier stays in one
// shard and --shards is taken as it is.
func TestShardsWholeWaves(t *testing.T) {
	const budget = 64 << 20
	per := jobs.ShardPositions(budget)
	for _, p := range []int{1, 2, 3, 8} {
		cfg := Config{Tuning: Tuning{Parallelism: p, MemBudget: budget}}
		for _, est := range []uint64{minShardPositions, per, 7*per - 1, 7 * per, 7*per + 1, 11 * per, 17*per + 5, 1000 * per} {
			n := cfg.shards(est)
			least := int((est + per - 1) / per)
			if want := max(least, 2*p); n%p != 0 || n > want || n <= want-p {
				t.Errorf("parallelism %d, %d positions (%d shards' worth): %d shards, want the largest multiple of %d up to %d", p, est, least, n, p, want)
			}
		}
		if n := cfg.shards(minShardPositions - 1); n != 1 {
			t.Errorf("parallelism %d, a small tier: %d shards, want 1", p, n)
		}
	}
	if n := (&Config{Census: Census{Shards: 7}, Tuning: Tuning{Parallelism: 2, MemBudget: budget}}).shards(100 * per); n != 7 {
		t.Errorf("--shards 7: %d shards", n)
	}
}

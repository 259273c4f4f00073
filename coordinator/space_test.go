package coordinator

import (
	"errors"
	"testing"
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

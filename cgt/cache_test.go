package cgt

import "testing"

// TestPairCacheBounded fills a cache far past its limit: it never grows
// beyond the limit, answers what it holds correctly, and holds what was
// put since it was last emptied.
func TestPairCacheBounded(t *testing.T) {
	c := pairCache{limit: 1 << 12}
	const n = 100_000
	for k := uint64(1); k <= n; k++ {
		c.put(k, uint32(k*7))
		if len(c.slots) > c.limit {
			t.Fatalf("after %d puts: %d slots, limit %d", k, len(c.slots), c.limit)
		}
	}
	held := 0
	for k := uint64(1); k <= n; k++ {
		v, ok := c.get(k)
		if ok {
			held++
			if v != uint32(k*7) {
				t.Fatalf("key %d: %d, want %d", k, v, k*7)
			}
		}
	}
	if held != c.n || held == 0 {
		t.Errorf("%d keys answered, cache counts %d", held, c.n)
	}
	// The last key put is always held.
	if _, ok := c.get(n); !ok {
		t.Error("the last key put is not held")
	}
}

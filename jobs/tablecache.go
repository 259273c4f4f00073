package jobs

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// TableCache lets the solve jobs of one process share the next tier's
// outcome table. Every solve job of tier t loads the whole of tier t+1's
// table (every shard's kept positions and outcomes) before it folds its
// own positions' options, so a tier of S shards loaded the next tier S
// times, each time into fresh memory; a worker's jobs of one tier now load
// it once and share it, read-only. The table is a pure function of the
// blobs it is read from, which the key names with their sizes and
// checksums; it holds one table, the last loaded, and a job that needs
// another evicts it (the coordinator runs the tiers one after another, so
// the jobs running at once need the same table); a job of another kind
// lets it go. Only a table loaded
// whole is shared: a job whose memory budget splits the next tier into
// passes reads each pass itself.
type TableCache struct {
	mu    sync.Mutex
	key   string
	table *OutcomeTable
	// loading, when set, is closed once the load under way ends.
	loading chan struct{}
	loads   int
	// jobs is how many jobs of the process may run at once and share it.
	jobs int
}

// NewTableCache returns an empty cache for a process that runs up to jobs
// jobs at once: a table they share may take the memory budget of them
// all (see runSolve).
func NewTableCache(jobs int) *TableCache { return &TableCache{jobs: max(jobs, 1)} }

// sharers is how many jobs may share a table of c: 1 for a nil cache.
func (c *TableCache) sharers() int {
	if c == nil {
		return 1
	}
	return c.jobs
}

// Loads is how many tables the cache has loaded.
func (c *TableCache) Loads() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.loads
}

// drop lets the table held go, so that a worker that turns to other jobs
// does not keep it beyond its budget; a job still reading it keeps it
// until it ends. drop on a nil cache does nothing.
func (c *TableCache) drop() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loading == nil {
		c.key, c.table = "", nil
	}
}

// get returns the table of key, loading it with load unless the cache
// holds it; while one job loads, the others wait for it rather than load
// the same table beside it.
func (c *TableCache) get(ctx context.Context, key string, load func() (*OutcomeTable, error)) (*OutcomeTable, error) {
	for {
		c.mu.Lock()
		if c.table != nil && c.key == key {
			t := c.table
			c.mu.Unlock()
			return t, nil
		}
		if ch := c.loading; ch != nil {
			c.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		ch := make(chan struct{})
		// Let the old table go before the next is read.
		c.loading, c.key, c.table = ch, "", nil
		c.mu.Unlock()
		t, err := load()
		c.mu.Lock()
		c.loading = nil
		if err == nil {
			c.key, c.table = key, t
			c.loads++
		}
		c.mu.Unlock()
		close(ch)
		return t, err
	}
}

// tableKey names the outcome table of tier of run read from the blobs
// kept and outs, out of shards.
func tableKey(spec Spec, tier, shards int, kept, outs []Blob) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%s|%s|%v|%d|%d", spec.Store, spec.Run, spec.Game, spec.Board, spec.Start, spec.NoSymmetry, tier, shards)
	for i := range kept {
		for _, x := range []Blob{kept[i], outs[i]} {
			fmt.Fprintf(&b, "|%s@%d+%d:%d#%08x/%d", x.Name, x.Bucket, x.Offset, x.Size, x.Sum, x.Count)
		}
	}
	return b.String()
}

package coordinator_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/embedded"
)

// TestKeptOutputs writes the outputs of a census that kept its positions
// and of one that did not, and asks KeptOutputs whether each
// configuration's census is finished in them: only the one that ran it
// with the same options is.
func TestKeptOutputs(t *testing.T) {
	tmp := t.TempDir()
	run := func(name string, keep, positions bool) string {
		out := coordinator.OutputDir(filepath.Join(tmp, name), "clobber", "2x3")
		if _, err := embedded.Run(context.Background(), embedded.Options{Game: "clobber", Board: "2x3", Out: out,
			Data: filepath.Join(tmp, name+"-data"), Workers: 2, Shards: 2, MemBudget: 64 << 20, Version: "test", Keep: keep, Positions: positions}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	kept, plain := run("kept", true, true), run("plain", false, true)
	base := coordinator.Config{Census: coordinator.Census{Game: "clobber", Board: "2x3", Shards: 2, Keep: true, Positions: true}, Outputs: coordinator.Outputs{Out: kept}}
	id, err := base.ID()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit func(c *coordinator.Config)
		want bool
	}{
		{"the same run", func(c *coordinator.Config) {}, true},
		{"the same run by its ID", func(c *coordinator.Config) { c.Run = id }, true},
		{"another run ID", func(c *coordinator.Config) { c.Run = "other" }, false},
		{"another sharding", func(c *coordinator.Config) { c.Shards = 3 }, false},
		{"another sharding, same ID", func(c *coordinator.Config) { c.Shards, c.Run = 3, id }, false},
		{"without the positions table", func(c *coordinator.Config) { c.Positions = false }, false},
		{"without the positions table, same ID", func(c *coordinator.Config) { c.Positions, c.Run = false, id }, false},
		{"without symmetry, same ID", func(c *coordinator.Config) { c.NoSymmetry, c.Run = true, id }, false},
		{"another start, same ID", func(c *coordinator.Config) { c.Start, c.Run = "x.o/ox.", id }, false},
		{"a census that kept nothing", func(c *coordinator.Config) { c.Out = plain }, false},
		{"no outputs", func(c *coordinator.Config) { c.Out = filepath.Join(tmp, "none") }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			tc.edit(&cfg)
			m, got := coordinator.KeptOutputs(cfg)
			if got != tc.want {
				t.Errorf("KeptOutputs = %v (manifest of run %q), want %v", got, m.Run, tc.want)
			}
		})
	}
}

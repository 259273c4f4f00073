package coordinator

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// TestWriteOutputsPlaced checks that writeOutputs keeps a pieces table part
// this process placed as it is, without reading it, and checks one it did
// not place: the part in the outputs does not match its job's record, and
// the store no longer holds it (a placed part has left the store), so a
// check fails the outputs and no run.json is written.
func TestWriteOutputsPlaced(t *testing.T) {
	ctx := context.Background()
	st, err := store.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	part := jobs.Blob{Name: "pieces-table-00000", Bucket: 0, Size: 1 << 20, Sum: 0x1234}
	res := &Result{Summary: schema.Summary{Game: "clobber", Board: "1x2"}, Tables: []jobs.Blob{part}}
	for _, tc := range []struct {
		name   string
		placed bool
	}{{"placed here", true}, {"placed before", false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, filepath.FromSlash(schema.PiecesPart(0)))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("not the part its job recorded"), 0o644); err != nil {
				t.Fatal(err)
			}
			var placed sync.Map
			if tc.placed {
				placed.Store(part.Name, true)
			}
			err := writeOutputs(ctx, st, res, "r", "test", dir, &placed, func() {})
			_, manifest := os.Stat(filepath.Join(dir, schema.ManifestFile))
			if tc.placed && (err != nil || manifest != nil) {
				t.Errorf("writeOutputs: %v, run.json: %v; want the outputs written", err, manifest)
			}
			if !tc.placed && (err == nil || manifest == nil) {
				t.Errorf("writeOutputs: %v, run.json: %v; want an error and no run.json", err, manifest)
			}
		})
	}
}

package coordinator_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// inspecting runs batches through a NATS executor and, after the
// coordinator has taken in each job's result, checks what the store and
// the outputs hold: every blob whose readers in the batch are all done is
// gone, a blob that a job still to finish reads is there, and a finished
// piece job's table part is in the outputs and no longer in the store.
type inspecting struct {
	t     *testing.T
	inner coordinator.Executor
	st    store.Store
	out   string
	moves bool // the coordinator moves table parts to out (TablesToOut)

	mu      sync.Mutex
	deleted int // blobs seen gone once their readers were done
	kept    int // blobs seen still there for a reader to come
	placed  int // table parts seen in the outputs
}

func (x *inspecting) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	finished := make([]bool, len(batch))
	return x.inner.Execute(ctx, batch, func(i int, r jobs.Result) error {
		if err := done(i, r); err != nil {
			return err
		}
		x.mu.Lock()
		defer x.mu.Unlock()
		finished[i] = true
		for _, b := range batch[i].Consumes() {
			pending := false
			for k, j := range batch {
				if !finished[k] && slices.ContainsFunc(j.Consumes(), func(o jobs.Blob) bool { return o.Name == b.Name }) {
					pending = true
				}
			}
			rc, err := x.st.Open(ctx, b.Name)
			switch {
			case err == nil:
				rc.Close()
				if !pending {
					x.t.Errorf("after %s: its input %s, read by no job to come, is still in the store", batch[i].ID(), b.Name)
				}
				x.kept++
			case errors.Is(err, store.ErrNotFound):
				if pending {
					x.t.Errorf("after %s: input %s is gone, but a job still to finish reads it", batch[i].ID(), b.Name)
				}
				x.deleted++
			default:
				x.t.Errorf("open %s: %v", b.Name, err)
			}
		}
		if r.Piece != nil && r.Piece.Table != nil && !x.moves {
			// Another coordinator may take the run over: the part stays.
			rc, err := x.st.Open(ctx, r.Piece.Table.Name)
			if err != nil {
				x.t.Errorf("after %s: its table %s is not in the store: %v", batch[i].ID(), r.Piece.Table.Name, err)
			} else {
				rc.Close()
			}
		}
		if r.Piece != nil && r.Piece.Table != nil && x.moves {
			if _, err := x.st.Open(ctx, r.Piece.Table.Name); !errors.Is(err, store.ErrNotFound) {
				x.t.Errorf("after %s: its table %s is still in the store (%v)", batch[i].ID(), r.Piece.Table.Name, err)
			}
			p := filepath.Join(x.out, filepath.FromSlash(schema.PiecesPart(r.Piece.Table.Bucket)))
			if fi, err := os.Stat(p); err != nil || fi.Size() != r.Piece.Table.Size {
				x.t.Errorf("after %s: %s in the outputs: %v", batch[i].ID(), p, err)
			}
			x.placed++
		}
		return nil
	})
}

// TestInputsLeaveTheStore runs a census whose tiers have several shards,
// which compacts beside every tier: each job's inputs leave the store as
// soon as the last job of its batch that reads them is done, each pieces
// table part moves to the outputs as its job is done (with TablesToOut;
// without, it stays in the store until the outputs are written), and the
// outputs equal those of a run that keeps everything to the end.
func TestInputsLeaveTheStore(t *testing.T) {
	want, wantDir := censusCompact(t, "clobber", "3x4", "", 3, 2, 1<<62)
	wantPieces := readPieces(t, wantDir)
	for _, moves := range []bool{true, false} {
		t.Run(fmt.Sprintf("TablesToOut=%v", moves), func(t *testing.T) {
			inputsLeave(t, moves, want, wantPieces)
		})
	}
}

func inputsLeave(t *testing.T, moves bool, want *coordinator.Result, wantPieces []schema.Piece) {
	run := fmt.Sprintf("inputs-leave-%v", moves)
	ctx, conn, st, kv := natsRun(t, run)
	out := filepath.Join(t.TempDir(), "out")
	x := &inspecting{t: t, inner: &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "n"}, st: st, out: out, moves: moves}
	res, err := coordinator.Run(ctx, coordinator.Config{
		Game: "clobber", Board: "3x4", Run: run, Shards: 3, Parallelism: 2, MemBudget: 64 << 20,
		Store: st, StoreURL: st.Root(), KV: kv, Out: out, Version: "test", CompactMin: 1, Exec: x, TablesToOut: moves,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(counts(res.Summary), counts(want.Summary)) {
		t.Errorf("summary differs:\n%+v\n%+v", res.Summary, want.Summary)
	}
	if p := readPieces(t, out); !reflect.DeepEqual(p, wantPieces) {
		t.Errorf("pieces table differs (%d rows vs %d)", len(p), len(wantPieces))
	}
	// Three shards read every blob of a tier: most jobs leave their inputs
	// for the others, the last deletes them.
	placed := len(res.Tables)
	if !moves {
		placed = 0
	}
	if x.deleted == 0 || x.kept == 0 || x.placed != placed {
		t.Errorf("saw %d inputs deleted, %d kept for a job to come, %d of %d table parts placed", x.deleted, x.kept, x.placed, len(res.Tables))
	}
	if len(res.Compactions) == 0 {
		t.Error("the run made no compactions")
	}
}

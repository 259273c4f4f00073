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

// inspecting runs batches through a NATS executor and checks what the
// store and the outputs hold: a blob that a job still to finish reads is
// there after each job's result is taken in, and is never deleted; every
// blob a job consumes is deleted by name (the coordinator's deletes run in
// the background, so this is checked at the end, in deletes); and a
// finished piece job's table part is in the outputs and no longer in the
// store.
type inspecting struct {
	t     *testing.T
	inner coordinator.Executor
	st    store.Store
	out   string
	moves bool // the coordinator moves table parts to out (TablesToOut)

	mu       sync.Mutex
	batch    []jobs.Job // the batch running, and which of its jobs are done
	finished []bool
	consumed map[string]bool // every blob a job of the run consumed
	deleted  map[string]bool // the blobs deleted by name
	released int             // inputs whose readers were all done
	kept     int             // blobs seen still there for a reader to come
	placed   int             // table parts seen in the outputs
}

// pending reports whether a job of the batch that is not done reads the
// blob; x.mu is held.
func (x *inspecting) pending(name string) bool {
	for k, j := range x.batch {
		if !x.finished[k] && slices.ContainsFunc(j.Consumes(), func(o jobs.Blob) bool { return o.Name == name }) {
			return true
		}
	}
	return false
}

func (x *inspecting) Execute(ctx context.Context, batch []jobs.Job, done func(int, jobs.Result) error) ([]jobs.Result, error) {
	x.mu.Lock()
	x.batch, x.finished = batch, make([]bool, len(batch))
	x.mu.Unlock()
	return x.inner.Execute(ctx, batch, func(i int, r jobs.Result) error {
		// Done before done is called: the deletes it asks for may run
		// at once, and watchedStore must not take them for early ones.
		x.mu.Lock()
		x.finished[i] = true
		x.mu.Unlock()
		if err := done(i, r); err != nil {
			return err
		}
		x.mu.Lock()
		defer x.mu.Unlock()
		for _, b := range batch[i].Consumes() {
			x.consumed[b.Name] = true
			if !x.pending(b.Name) {
				x.released++
				continue
			}
			rc, err := x.st.Open(ctx, b.Name)
			if err != nil {
				x.t.Errorf("after %s: input %s is gone (%v), but a job still to finish reads it", batch[i].ID(), b.Name, err)
				continue
			}
			rc.Close()
			x.kept++
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

// watchedStore is the run's store, whose deletes by name x checks: none
// is of a blob that a job still to finish reads.
type watchedStore struct {
	*store.Dir
	x *inspecting
}

func (w watchedStore) Delete(ctx context.Context, names ...string) error {
	w.x.mu.Lock()
	for _, n := range names {
		if w.x.pending(n) {
			w.x.t.Errorf("%s deleted while a job still to finish reads it", n)
		}
		w.x.deleted[n] = true
	}
	w.x.mu.Unlock()
	return w.Dir.Delete(ctx, names...)
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
	x := &inspecting{t: t, inner: &coordinator.NATS{Conn: conn, KV: kv, Run: run, Nonce: "n"}, st: st, out: out, moves: moves,
		consumed: map[string]bool{}, deleted: map[string]bool{}}
	res, err := coordinator.Run(ctx, coordinator.Config{
		Census:  coordinator.Census{Game: "clobber", Board: "3x4", Shards: 3},
		Env:     coordinator.Env{Run: run, Store: watchedStore{st, x}, StoreURL: st.Root(), KV: kv, Exec: x},
		Tuning:  coordinator.Tuning{Parallelism: 2, MemBudget: 64 << 20, CompactMin: 1},
		Outputs: coordinator.Outputs{Out: out, Version: "test", TablesToOut: moves},
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
	// for the others, the last releases them, and each is deleted by name
	// before the run ends.
	placed := len(res.Tables)
	if !moves {
		placed = 0
	}
	if x.released == 0 || x.kept == 0 || x.placed != placed {
		t.Errorf("saw %d inputs released, %d kept for a job to come, %d of %d table parts placed", x.released, x.kept, x.placed, len(res.Tables))
	}
	for n := range x.consumed {
		if !x.deleted[n] {
			t.Errorf("input %s was not deleted once its readers were done", n)
		}
	}
	if len(res.Compactions) == 0 {
		t.Error("the run made no compactions")
	}
}

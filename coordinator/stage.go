package coordinator

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/broker"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/runstate"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/store"
)

// Env is what a stage runs with, whatever it computes: the census
// (Config), its values stage (ValuesConfig) and its solve stage
// (SolveConfig) each have one, and each of their Start functions sets it
// up over NATS the same way (onNATS).
type Env struct {
	// Run names the stage's run: its bucket and the prefix of its blobs.
	Run string
	// Store holds the stage's blobs; StoreURL locates it for the workers.
	Store    store.Store
	StoreURL string
	// KV is the stage's bucket: its plan, its status and the workers'
	// done-records. The Start functions set it.
	KV jetstream.KeyValue
	// Exec runs the stage's jobs. The Start functions set it to the
	// workers on NATS.
	Exec Executor
	Log  *slog.Logger
	// Metrics, when set, show the stage's progress.
	Metrics *Metrics
	// KeepBlobs keeps the stage's blobs in the store, and the bucket of a
	// stage after the census, once the stage is done.
	KeepBlobs bool
	// AckWait is how long a job may go without a heartbeat before it is
	// delivered to another worker, set on the workers' consumer; zero
	// means broker.DefaultAckWait.
	AckWait time.Duration
}

// withLog sets e.Log, when it is not set, to a log that drops everything.
func (e *Env) withLog() {
	if e.Log == nil {
		e.Log = slog.New(slog.DiscardHandler)
	}
}

// natsStage is a stage set up over NATS by onNATS: what it is, its
// connection, its Env and its bucket.
type natsStage struct {
	what string
	conn *broker.Conn
	env  *Env
	st   state
}

// onNATS runs a stage (census, solve or values: what) of env.Run over
// NATS: it checks the run ID, shows the stage's waits for NATS (natsWait),
// sets up the job stream and the stage's bucket, retried through server
// elections (a denied permission is final), makes the bucket env.KV and
// the workers env.Exec, and runs body. An error of a NATS server whose
// store is full wraps broker.ErrStoreFull and names the server.
func onNATS[T any](ctx context.Context, conn *broker.Conn, env *Env, what string, body func(context.Context, natsStage) (T, error)) (T, error) {
	res, err := setUpNATS(ctx, conn, env, what, body)
	if errors.Is(err, broker.ErrStoreFull) {
		err = fmt.Errorf("NATS server %s: %w", conn.NC.ConnectedUrlRedacted(), err)
	}
	return res, err
}

// setUpNATS is onNATS but for the naming of a server whose store is full.
func setUpNATS[T any](ctx context.Context, conn *broker.Conn, env *Env, what string, body func(context.Context, natsStage) (T, error)) (T, error) {
	var zero T
	env.withLog()
	if err := broker.CheckRun(env.Run); err != nil {
		return zero, err
	}
	ctx = withNATSWait(ctx, &natsWait{run: env.Run, log: env.Log, m: env.Metrics})
	replicas := broker.Replicas(ctx, conn)
	err := retry(ctx, func(ctx context.Context) error {
		return deniedIsPermanent(conn.Do(ctx, func(ctx context.Context) error {
			if _, err := broker.Setup(ctx, conn.JS, replicas, env.AckWait); err != nil {
				return err
			}
			var err error
			env.KV, err = broker.RunBucket(ctx, conn.JS, env.Run, replicas)
			return err
		}))
	})
	if err != nil {
		return zero, fmt.Errorf("set up %s %s: %w", what, env.Run, err)
	}
	env.Exec = &NATS{Conn: conn, KV: env.KV, Run: env.Run, Log: env.Log, Nonce: nonce()}
	return body(ctx, natsStage{what: what, conn: conn, env: env, st: state{runstate.New(conn.JS, env.KV)}})
}

// drop removes the bucket of a stage whose outputs are written, unless
// its Env keeps its blobs: no later start needs its records.
func (s natsStage) drop(ctx context.Context) {
	if s.env.KeepBlobs {
		return
	}
	if err := s.conn.JS.DeleteKeyValue(ctx, broker.Bucket(s.env.Run)); err != nil {
		s.env.Log.Warn("delete the "+s.what+"'s bucket", "err", err)
	}
}

// withWaiting tells the workers' executor, when exec is one, of every
// job of its batches done and running.
func withWaiting(exec Executor, waiting func(done, running, total int)) {
	if n, ok := exec.(*NATS); ok {
		n.Waiting = waiting
	}
}

// Stage is a stage that starts from the outputs of a finished census.
type Stage string

// The stages after the census.
const (
	ValuesStage Stage = "values"
	SolveStage  Stage = "solve"
)

// RunID is the run ID of stage s of the census run m: the name of the
// stage's bucket and the prefix of its blobs.
func (s Stage) RunID(m schema.Manifest) string {
	h := sha256.Sum256([]byte(m.Run + "\x00" + m.Game + "\x00" + m.Board + "\x00" + m.Start))
	return string(s) + "-" + hex.EncodeToString(h[:8])
}

// StageDir is the output directory of a finished census run, checked for
// a stage (CheckStageDir).
type StageDir struct {
	// Path is the directory, OUT/GAME-BOARD.
	Path  string
	Stage Stage
	// Manifest is the run's run.json.
	Manifest schema.Manifest
	// Kept indexes the run's kept positions; the solve stage's only.
	Kept KeptIndex
}

// RunID is the run ID of the stage d was checked for.
func (d StageDir) RunID() string { return d.Stage.RunID(d.Manifest) }

// from readies e for stage s, which starts from the outputs d: d must
// have been checked for s (CheckStageDir); an empty Run becomes the
// stage's run ID, a nil Log one that drops everything.
func (e *Env) from(d StageDir, s Stage) error {
	e.withLog()
	if d.Stage != s {
		return fmt.Errorf("outputs %q not checked for the %s stage (CheckStageDir)", d.Path, s)
	}
	if e.Run == "" {
		e.Run = d.RunID()
	}
	return nil
}

// CheckStageDir reads dir's run.json, and for the solve stage its kept
// index, and returns them when dir holds the finished outputs, of this
// schema version, of a run that stage s starts from. It fails with an
// error wrapping ErrNotFinished or ErrOldSchema, or when run.json is
// unreadable; for the solve stage also with one wrapping ErrNotSolvable
// (a game the stage does not solve) or ErrNotKept (a run that did not
// keep its positions).
func CheckStageDir(dir string, s Stage) (StageDir, error) {
	d := StageDir{Path: dir, Stage: s}
	m, err := schema.ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return d, fmt.Errorf("%s has no %s: %w", dir, schema.ManifestFile, ErrNotFinished)
	}
	if err != nil {
		return d, fmt.Errorf("%s: %w", dir, err)
	}
	d.Manifest = m
	if m.SchemaVersion != schema.Version {
		return d, fmt.Errorf("%s: %s has schema_version %d, this census values version %d (run the census again): %w",
			dir, schema.ManifestFile, m.SchemaVersion, schema.Version, ErrOldSchema)
	}
	if s == SolveStage {
		d.Kept, err = readKept(dir, m)
	}
	return d, err
}

// readKept reads the kept index of dir, which holds the outputs of the
// census run m, when the solve stage can solve it.
func readKept(dir string, m schema.Manifest) (KeptIndex, error) {
	var idx KeptIndex
	g, err := all.New(m.Game, m.Board, m.Start)
	if err != nil {
		return idx, fmt.Errorf("%s: game %s: %w", dir, m.Game, ErrNotSolvable)
	}
	if _, ok := g.(games.Mover); !ok {
		return idx, fmt.Errorf("%s: %s does not list each player's moves: %w", dir, m.Game, ErrNotSolvable)
	}
	p := filepath.Join(dir, filepath.FromSlash(KeptIndexFile))
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return idx, fmt.Errorf("%s has no %s: %w", dir, KeptIndexFile, ErrNotKept)
	}
	if err != nil {
		return idx, err
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return idx, fmt.Errorf("read %s: %w", p, err)
	}
	if idx.Run != m.Run {
		return idx, fmt.Errorf("%s is of run %s, the outputs of run %s: %w", p, idx.Run, m.Run, ErrNotKept)
	}
	return idx, nil
}

// Package runstate owns a run's key-value bucket: the name of every key in
// it, the record stored under each, and typed reads, writes, listings and
// watches of them. The coordinator, the workers and `census status` agree
// on the bucket only through this package.
//
// The bucket of a run holds:
//
//	plan                 the Plan, stored once when the run starts
//	plan.tier.NNNN       the TierPlan of tier NNNN
//	plan.values          the ValuesPlan of a values stage, stored when it starts
//	level.NNNN           the ValueLevel of the finished level of size NNNN of a values stage
//	status               the Status `census status` shows
//	done.<job key>       a finished job's jobs.Result (JSON)
//	failed.<job key>     why a job can never succeed (text)
//	lease                the Lease of the coordinator that holds the run
//	solve                the SolveStatus, in the bucket of a solve stage
//
// A job key is jobs.Job.Key(). Every call is one attempt: callers that ride
// out a server election wrap them in their own retry.
package runstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/census-cgt/census/jobs"
	"github.com/census-cgt/census/schema"
)

// Key names. Records of jobs are the prefix followed by the job's key.
const (
	keyPlan      = "plan"
	keyStatus    = "status"
	keyLease     = "lease"
	keySolve     = "solve"
	tierPlanFmt  = "plan.tier.%04d"
	keyValues    = "plan.values"
	levelFmt     = "level.%04d"
	donePrefix   = "done."
	failedPrefix = "failed."
)

// ErrBadRecord is returned when a record in the bucket cannot be decoded;
// reading it again does not help.
var ErrBadRecord = errors.New("undecodable record in the run's bucket")

// Plan is what fixes a run's outputs; it is stored once, when the run
// starts, and a restarted coordinator continues with it.
type Plan struct {
	Game         string `json:"game"`
	Board        string `json:"board"`
	Start        string `json:"start"`
	Shards       int    `json:"shards"`
	ReduceShards int    `json:"reduce_shards"`
	MemBudget    int64  `json:"mem_budget"`
	Store        string `json:"store"`
	NoSymmetry   bool   `json:"no_symmetry,omitempty"`
	Positions    bool   `json:"positions,omitempty"`
	// Keep keeps every tier's positions for the solve stage.
	Keep bool `json:"keep,omitempty"`
	// CompactMin is the bytes of piece fragments written since the last
	// compaction below which the run does not compact them; zero (a plan
	// of a version before compactions) never compacts.
	CompactMin uint64 `json:"compact_min,omitempty"`
	// PiecesCodec is the codec of the pieces table's pages (a
	// schema.Codec's name); empty is zstd.
	PiecesCodec string `json:"pieces_codec,omitempty"`
	// Backward finds each tier from the one before it backwards
	// (jobs.Spec.Backward); a run resumed keeps the way it began with.
	Backward bool `json:"backward,omitempty"`
	// Listed finds each tier on its own (jobs.Spec.Listed); a run
	// resumed keeps the way it began with.
	Listed bool `json:"listed,omitempty"`
}

// TierPlan is the sharding of one tier, stored before its jobs are
// published so that a restarted coordinator publishes the same jobs, and
// stored again once the tier is done with the wall time it took, for a
// later start that replays the tier's done-records to report instead of
// its own (zero: the tier is not done, or took too little to keep).
type TierPlan struct {
	Shards     int `json:"shards"`
	NextShards int `json:"next_shards"`
	// WallS is the tier's wall time in the start that finished it;
	// CompactWallS the part of it during which compactions ran.
	WallS        float64 `json:"wall_s,omitempty"`
	CompactWallS float64 `json:"compact_wall_s,omitempty"`
}

// ValuesPlan is what fixes the jobs of a values stage: it is stored once,
// when the stage starts, and a later start that takes over the stage's
// done-records (resumed, or extended to larger pieces) must value with
// the same.
type ValuesPlan struct {
	Cap         int `json:"cap"`
	ShardPieces int `json:"shard_pieces"`
}

// ValueLevel is a level of a values stage whose jobs are all done: the
// wall time it took in the start that finished it, which a later start
// that finds its jobs done reports rather than its own.
type ValueLevel struct {
	WallS float64 `json:"wall_s"`
}

// Status is the run's progress as `census status` shows it.
type Status struct {
	State     string `json:"state"` // one of the State constants
	Stage     string `json:"stage"` // one of the Stage constants
	Tier      int    `json:"tier"`
	MaxTier   int    `json:"max_tier"`
	Positions uint64 `json:"positions"`
	// StoreBytes is the bytes the run's working data takes in the store
	// after the last finished tier.
	StoreBytes uint64 `json:"store_bytes,omitempty"`
	// Stages is where the run's time went so far, as summary.json says
	// at its end; the wall times are of this start of the run, but for
	// the tiers that earlier starts finished (see TierPlan).
	Stages  *schema.Stages `json:"stages,omitempty"`
	Error   string         `json:"error,omitempty"`
	Updated time.Time      `json:"updated"`
}

// SolveStatus is a solve stage's progress as `census status` shows it.
// A solve stage is a run of its own (its bucket holds no plan); this
// record names the census run it solves, so that status shows the two as
// one run.
type SolveStatus struct {
	// Run is the ID of the census run being solved, Game and Board its.
	Run   string `json:"run"`
	Game  string `json:"game"`
	Board string `json:"board"`
	State string `json:"state"` // one of the State constants
	// Tier is the tier being solved, Tiers the run's tiers and TiersDone
	// how many are solved, from the last back.
	Tier      int `json:"tier"`
	Tiers     int `json:"tiers"`
	TiersDone int `json:"tiers_done"`
	// Positions counts the stored positions solved so far, of Stored.
	Positions uint64 `json:"positions"`
	Stored    uint64 `json:"stored"`
	// JobsDone and JobsTotal count the solve jobs of the tier being
	// solved.
	JobsDone  int       `json:"jobs_done"`
	JobsTotal int       `json:"jobs_total"`
	Error     string    `json:"error,omitempty"`
	Updated   time.Time `json:"updated"`
}

// Status states.
const (
	StateRunning = "running"
	StateDone    = "done"
	StateFailed  = "failed"
)

// Stages of a run, in order.
const (
	StageTier    = "tier"
	StagePieces  = "pieces"
	StageClasses = "classes"
	StageOutputs = "outputs"
	StageDone    = "done"
)

// Bucket is a run's bucket.
type Bucket struct {
	KV jetstream.KeyValue
	// JS publishes the lease's renewals; only the coordinator needs it.
	JS jetstream.JetStream
}

// New returns the Bucket over kv; js may be nil for a caller that does
// not hold leases.
func New(js jetstream.JetStream, kv jetstream.KeyValue) Bucket { return Bucket{KV: kv, JS: js} }

// get decodes the JSON record under key into v; false when there is none.
func (b Bucket) get(ctx context.Context, key string, v any) (bool, error) {
	e, err := b.KV.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s: %w", key, err)
	}
	if err := json.Unmarshal(e.Value(), v); err != nil {
		return false, fmt.Errorf("read %s: %w: %v", key, ErrBadRecord, err)
	}
	return true, nil
}

func (b Bucket) put(ctx context.Context, key string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	if _, err := b.KV.Put(ctx, key, data); err != nil {
		return fmt.Errorf("write %s: %w", key, err)
	}
	return nil
}

// Plan reads the run's plan; false when it has none yet.
func (b Bucket) Plan(ctx context.Context) (Plan, bool, error) {
	var p Plan
	found, err := b.get(ctx, keyPlan, &p)
	return p, found, err
}

// PutPlan stores the run's plan.
func (b Bucket) PutPlan(ctx context.Context, p Plan) error { return b.put(ctx, keyPlan, p) }

// TierPlan reads the plan of tier t; false when it has none yet.
func (b Bucket) TierPlan(ctx context.Context, t int) (TierPlan, bool, error) {
	var p TierPlan
	found, err := b.get(ctx, fmt.Sprintf(tierPlanFmt, t), &p)
	return p, found, err
}

// PutTierPlan stores the plan of tier t.
func (b Bucket) PutTierPlan(ctx context.Context, t int, p TierPlan) error {
	return b.put(ctx, fmt.Sprintf(tierPlanFmt, t), p)
}

// ValuesPlan reads the values stage's plan; false when it has none yet.
func (b Bucket) ValuesPlan(ctx context.Context) (ValuesPlan, bool, error) {
	var p ValuesPlan
	found, err := b.get(ctx, keyValues, &p)
	return p, found, err
}

// PutValuesPlan stores the values stage's plan.
func (b Bucket) PutValuesPlan(ctx context.Context, p ValuesPlan) error {
	return b.put(ctx, keyValues, p)
}

// ValueLevel reads the record of the finished level of size; false when
// the level has not finished.
func (b Bucket) ValueLevel(ctx context.Context, size int) (ValueLevel, bool, error) {
	var l ValueLevel
	found, err := b.get(ctx, fmt.Sprintf(levelFmt, size), &l)
	return l, found, err
}

// PutValueLevel records that the level of size finished.
func (b Bucket) PutValueLevel(ctx context.Context, size int, l ValueLevel) error {
	return b.put(ctx, fmt.Sprintf(levelFmt, size), l)
}

// Status reads the run's status; false when it has none yet.
func (b Bucket) Status(ctx context.Context) (Status, bool, error) {
	var s Status
	found, err := b.get(ctx, keyStatus, &s)
	return s, found, err
}

// PutStatus stores the run's status.
func (b Bucket) PutStatus(ctx context.Context, s Status) error { return b.put(ctx, keyStatus, s) }

// SolveStatus reads a solve stage's status; false when the bucket has
// none (a census run's bucket, or a stage that has not begun).
func (b Bucket) SolveStatus(ctx context.Context) (SolveStatus, bool, error) {
	var s SolveStatus
	found, err := b.get(ctx, keySolve, &s)
	return s, found, err
}

// PutSolveStatus stores a solve stage's status.
func (b Bucket) PutSolveStatus(ctx context.Context, s SolveStatus) error {
	return b.put(ctx, keySolve, s)
}

// Done reads the done-record of the job with key jobKey; false when the
// job is not done.
func (b Bucket) Done(ctx context.Context, jobKey string) (jobs.Result, bool, error) {
	var r jobs.Result
	found, err := b.get(ctx, donePrefix+jobKey, &r)
	return r, found, err
}

// PutDone records that the job with key jobKey finished with res.
func (b Bucket) PutDone(ctx context.Context, jobKey string, res jobs.Result) error {
	return b.put(ctx, donePrefix+jobKey, res)
}

// Failed reads why the job with key jobKey can never succeed; false when
// it has no failed-record.
func (b Bucket) Failed(ctx context.Context, jobKey string) (string, bool, error) {
	e, err := b.KV.Get(ctx, failedPrefix+jobKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read %s%s: %w", failedPrefix, jobKey, err)
	}
	return string(e.Value()), true, nil
}

// PutFailed records why the job with key jobKey can never succeed, which
// fails the run.
func (b Bucket) PutFailed(ctx context.Context, jobKey, reason string) error {
	if _, err := b.KV.Put(ctx, failedPrefix+jobKey, []byte(reason)); err != nil {
		return fmt.Errorf("write %s%s: %w", failedPrefix, jobKey, err)
	}
	return nil
}

// ClearFailures removes every failed-record, so that a restarted run gives
// those jobs another chance.
func (b Bucket) ClearFailures(ctx context.Context) error {
	keys, err := b.keys(ctx, failedPrefix+">")
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.KV.Purge(ctx, k); err != nil {
			return fmt.Errorf("remove %s: %w", k, err)
		}
	}
	return nil
}

// Reset removes every record but the lease: the run starts afresh under
// the coordinator that holds it.
func (b Bucket) Reset(ctx context.Context) error {
	keys, err := b.keys(ctx, ">")
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k == keyLease {
			continue
		}
		if err := b.KV.Purge(ctx, k); err != nil {
			return fmt.Errorf("remove %s: %w", k, err)
		}
	}
	return nil
}

func (b Bucket) keys(ctx context.Context, filter string) ([]string, error) {
	lister, err := b.KV.ListKeysFiltered(ctx, filter)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", filter, err)
	}
	var keys []string
	for k := range lister.Keys() {
		keys = append(keys, k)
	}
	return keys, nil
}

// Records are the job records in the bucket, as sets of job keys.
type Records struct {
	Done, Failed map[string]bool
}

// Records lists the done- and failed-records.
func (b Bucket) Records(ctx context.Context) (Records, error) {
	r := Records{Done: map[string]bool{}, Failed: map[string]bool{}}
	keys, err := b.keys(ctx, ">")
	if err != nil && !errors.Is(err, jetstream.ErrNoKeysFound) {
		return r, err
	}
	for _, k := range keys {
		if job, ok := strings.CutPrefix(k, donePrefix); ok {
			r.Done[job] = true
		} else if job, ok := strings.CutPrefix(k, failedPrefix); ok {
			r.Failed[job] = true
		}
	}
	return r, nil
}

// Record is a done- or failed-record as a watch sees it arrive.
type Record struct {
	// Job is the job's key.
	Job string
	// Failed tells a failed-record, whose Reason is set, from a
	// done-record, whose Result is set.
	Failed bool
	Reason string
	Result jobs.Result
}

// Watcher follows the job records written after it started.
type Watcher struct {
	w    jetstream.KeyWatcher
	c    chan Record
	stop chan struct{}
	once sync.Once
}

// WatchRecords follows the done- and failed-records written from now on,
// until ctx ends or Stop. Its channel closes when the watch ends (a
// reconnect ends it: start another). An undecodable done-record arrives as
// a failed-record saying so.
func (b Bucket) WatchRecords(ctx context.Context) (*Watcher, error) {
	kw, err := b.KV.WatchFiltered(ctx, []string{donePrefix + ">", failedPrefix + ">"}, jetstream.UpdatesOnly())
	if err != nil {
		return nil, fmt.Errorf("watch the run's job records: %w", err)
	}
	w := &Watcher{w: kw, c: make(chan Record), stop: make(chan struct{})}
	go func() {
		defer close(w.c)
		for e := range kw.Updates() {
			if e == nil || e.Operation() != jetstream.KeyValuePut {
				continue
			}
			r, ok := decode(e.Key(), e.Value())
			if !ok {
				continue
			}
			select {
			case w.c <- r:
			case <-ctx.Done():
				return
			case <-w.stop:
				return
			}
		}
	}()
	return w, nil
}

// Records delivers the records as they are written.
func (w *Watcher) Records() <-chan Record { return w.c }

// Stop ends the watch.
func (w *Watcher) Stop() error {
	w.once.Do(func() { close(w.stop) })
	return w.w.Stop()
}

func decode(key string, value []byte) (Record, bool) {
	if job, ok := strings.CutPrefix(key, failedPrefix); ok {
		return Record{Job: job, Failed: true, Reason: string(value)}, true
	}
	job, ok := strings.CutPrefix(key, donePrefix)
	if !ok {
		return Record{}, false
	}
	r := Record{Job: job}
	if err := json.Unmarshal(value, &r.Result); err != nil {
		return Record{Job: job, Failed: true, Reason: fmt.Sprintf("%v: %v", ErrBadRecord, err)}, true
	}
	return r, true
}

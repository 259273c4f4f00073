// Package broker is the NATS side that coordinator and workers share:
// connecting (credentials, token, TLS), the embedded server, and the names
// and settings of the job stream, the workers' consumer and the run buckets.
package broker

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the JetStream objects of census.
const (
	// Stream is the work-queue stream every job travels on.
	Stream = "CENSUS_JOBS"
	// SubjectPrefix starts the subject of every job: census.jobs.<run>.
	SubjectPrefix = "census.jobs."
	// Consumer is the one durable pull consumer all workers share.
	Consumer = "census-workers"
	// BucketPrefix starts the KV bucket of a run: census_<run>.
	BucketPrefix = "census_"
)

// Settings of the workers' consumer.
const (
	// DefaultAckWait is how long a job may go without a heartbeat before
	// it is delivered to another worker.
	DefaultAckWait = 30 * time.Second
	// MaxDeliver is how many times a job is delivered before it is given
	// up and the run fails. Jobs that fail and workers that die spend
	// deliveries; NATS electing a leader does not, as a worker holding a
	// job waits for NATS rather than give the job back (see package
	// worker).
	MaxDeliver = 5
)

// ErrBadRun is returned for a run ID that cannot name NATS objects.
var ErrBadRun = errors.New("bad run id")

var runPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)

// CheckRun checks that run can name a subject and a bucket.
func CheckRun(run string) error {
	if !runPattern.MatchString(run) {
		return fmt.Errorf("%w %q: use letters, digits, '-' and '_' (at most 100)", ErrBadRun, run)
	}
	return nil
}

// Subject is the subject of the jobs of run.
func Subject(run string) string { return SubjectPrefix + run }

// Bucket is the KV bucket of run.
func Bucket(run string) string { return BucketPrefix + run }

// Setup creates or updates the job stream and the workers' consumer, with
// replicas copies of each (1 for a single server, 3 for a cluster), and
// ackWait the time a job may go without a heartbeat before it is delivered
// to another worker (zero means DefaultAckWait).
func Setup(ctx context.Context, js jetstream.JetStream, replicas int, ackWait time.Duration) (jetstream.Consumer, error) {
	if ackWait == 0 {
		ackWait = DefaultAckWait
	}
	_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        Stream,
		Description: "census jobs, one subject per run",
		Subjects:    []string{SubjectPrefix + ">"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    replicas,
		Duplicates:  10 * time.Minute,
	})
	if err != nil {
		return nil, fmt.Errorf("create stream %s: %w", Stream, err)
	}
	c, err := js.CreateOrUpdateConsumer(ctx, Stream, jetstream.ConsumerConfig{
		Durable:       Consumer,
		Description:   "census workers",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       ackWait,
		MaxDeliver:    MaxDeliver,
		MaxAckPending: -1,
		Replicas:      replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("create consumer %s: %w", Consumer, err)
	}
	return c, nil
}

// RunBucket creates (or opens) the KV bucket of run. Its keys may carry a
// time to live (the coordinator's lease does, see runstate.Lease); the
// marker an expired key leaves lasts LimitMarkerTTL.
func RunBucket(ctx context.Context, js jetstream.JetStream, run string, replicas int) (jetstream.KeyValue, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:         Bucket(run),
		Description:    "census run " + run,
		Storage:        jetstream.FileStorage,
		Replicas:       replicas,
		History:        1,
		LimitMarkerTTL: time.Minute,
	})
	if err != nil {
		return nil, fmt.Errorf("create bucket of run %s: %w", run, err)
	}
	return kv, nil
}

// OpenRunBucket opens the KV bucket of an existing run.
func OpenRunBucket(ctx context.Context, js jetstream.JetStream, run string) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, Bucket(run))
	if err != nil {
		return nil, fmt.Errorf("open bucket of run %s: %w", run, err)
	}
	return kv, nil
}

// Conn bundles a connection with its JetStream context.
type Conn struct {
	NC *nats.Conn
	JS jetstream.JetStream
	// denials are the permission violations the server reported; nil for
	// a Conn not made by Connect.
	denials *denials
	// closed is closed when the connection is; nil for a Conn not made by
	// Connect.
	closed chan struct{}
}

// Close drains the connection and waits until it is closed (at most
// closeWait), so that what was published is sent before the process ends.
func (c *Conn) Close() {
	if c == nil || c.NC == nil {
		return
	}
	if c.closed == nil || !c.NC.IsConnected() {
		// Nothing to drain to: a server that is gone would only make
		// Close wait.
		c.NC.Close()
		return
	}
	if err := c.NC.Drain(); err != nil {
		c.NC.Close()
	}
	select {
	case <-c.closed:
	case <-time.After(closeWait):
		c.NC.Close()
	}
}

// Finish closes a connection whose work is done, with nothing left to
// receive: it waits until the server has what was published (a flush,
// one round trip), then closes without draining. Close drains, and
// nats.go's drain polls its subscriptions every 10 ms until they are
// gone, once more for the request subscription: some 20 ms a connection,
// a tenth of the smallest boards' runs.
func (c *Conn) Finish() {
	if c == nil || c.NC == nil {
		return
	}
	if c.NC.IsConnected() {
		if err := c.NC.FlushTimeout(closeWait); err != nil {
			// What the server may not have: let Close's drain try.
			c.Close()
			return
		}
	}
	c.NC.Close()
}

// closeWait bounds how long Close waits for a drain.
const closeWait = 10 * time.Second

// Replicas is the replica count for streams and buckets: 3 when the server
// is part of a cluster of at least three, else 1.
func Replicas(ctx context.Context, c *Conn) int {
	if len(c.NC.Servers()) >= 3 {
		return 3
	}
	return 1
}

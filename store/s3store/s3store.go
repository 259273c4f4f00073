// Package s3store is a store.Store on any S3-compatible service (Amazon S3,
// MinIO, Ceph, R2, ...) through minio-go.
//
// Blob names map to object keys under a fixed key prefix in one bucket. A
// blob is written to a temporary file on local disk and uploaded whole by
// Commit, so a blob of many GB needs no memory and nothing is visible in the
// bucket before Commit.
package s3store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/census-cgt/census/store"
)

// ErrNoBucket is wrapped by the error New returns when the bucket does not
// exist.
var ErrNoBucket = errors.New("bucket does not exist")

// Config says where a Store keeps its blobs and how it reaches them.
type Config struct {
	// Endpoint is the service's host[:port], without a scheme, e.g.
	// "s3.amazonaws.com" or "minio.local:9000".
	Endpoint string
	// Bucket must already exist.
	Bucket string
	// Prefix is the key prefix under which the blobs live, without leading
	// or trailing slashes; empty means the root of the bucket.
	Prefix string
	// AccessKey, SecretKey and SessionToken are static credentials; without
	// both an AccessKey and a SecretKey the requests are anonymous.
	AccessKey, SecretKey, SessionToken string
	// Region is the bucket's region; empty asks the service.
	Region string
	// Secure selects HTTPS.
	Secure bool
	// TempDir holds the local temporary files of blobs being written; empty
	// means os.TempDir() (which honours $TMPDIR). It needs room for the
	// largest blob being written, times the writers in flight.
	TempDir string
}

// String is the store's URL, s3://bucket/prefix; it holds no credentials.
func (c Config) String() string {
	if c.Prefix == "" {
		return "s3://" + c.Bucket
	}
	return "s3://" + c.Bucket + "/" + c.Prefix
}

// endpointURL names the endpoint in messages.
func (c Config) endpointURL() string {
	if c.Secure {
		return "https://" + c.Endpoint
	}
	return "http://" + c.Endpoint
}

// Store is a store.Store in an S3 bucket. It is safe for concurrent use.
type Store struct {
	cfg    Config
	client *minio.Client
	core   minio.Core
	base   string // key prefix of every blob: cfg.Prefix + "/", or ""
}

var _ store.Store = (*Store)(nil)

// New connects to the service and checks that the bucket exists. A missing
// bucket gives an error that wraps ErrNoBucket and names the bucket and the
// endpoint; failing to reach the service or being refused gives the
// service's error.
func New(ctx context.Context, cfg Config) (*Store, error) {
	cfg.Prefix = strings.Trim(cfg.Prefix, "/")
	if cfg.Endpoint == "" {
		return nil, fmt.Errorf("open %s: no endpoint", cfg)
	}
	if cfg.Bucket == "" {
		return nil, errors.New("open S3 store: no bucket")
	}
	// Static credentials with no access or secret key sign nothing: the
	// requests are anonymous.
	creds := credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, cfg.SessionToken)
	// BucketLookupAuto addresses buckets by virtual host on Amazon and
	// Google, whose TLS certificates expect it, and by path elsewhere
	// (MinIO, gofakes3, most self-hosted services).
	client, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:        creds,
		Secure:       cfg.Secure,
		Region:       cfg.Region,
		BucketLookup: minio.BucketLookupAuto,
		MaxRetries:   maxRetries,
	})
	if err != nil {
		return nil, fmt.Errorf("open %s at endpoint %s: %w", cfg, cfg.endpointURL(), err)
	}
	ok, err := client.BucketExists(ctx, cfg.Bucket)
	if err != nil && minio.ToErrorResponse(err).StatusCode == http.StatusForbidden {
		// The check is a HEAD request, whose answer has no body to say
		// why: a wrong secret, an unknown key and a key without rights
		// all read "Access Denied".
		return nil, fmt.Errorf("open %s: check bucket %q at endpoint %s: %w (check the credentials, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, and that they may list the bucket)", cfg, cfg.Bucket, cfg.endpointURL(), err)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: check bucket %q at endpoint %s: %w", cfg, cfg.Bucket, cfg.endpointURL(), err)
	}
	if !ok {
		return nil, &noBucketError{bucket: cfg.Bucket, endpoint: cfg.endpointURL()}
	}
	s := &Store{cfg: cfg, client: client, core: minio.Core{Client: client}}
	if cfg.Prefix != "" {
		s.base = cfg.Prefix + "/"
	}
	return s, nil
}

// maxRetries is how many times a request that failed for a reason that
// may pass (no connection, a 5xx, a slow-down) is sent: minio waits a
// random time up to 200ms doubled per attempt, at most a second, between
// two, so 40 ride out about twenty seconds of an unreachable or
// restarting service before the error reaches the job (minio's default, 10,
// about five), and a restart of the service does not cost a job one of its
// deliveries. Refusals (4xx) are not retried.
const maxRetries = 40

// noBucketError reads `bucket "x" does not exist at endpoint ...` and is
// ErrNoBucket to errors.Is.
type noBucketError struct{ bucket, endpoint string }

func (e *noBucketError) Error() string {
	return fmt.Sprintf("bucket %q does not exist at endpoint %s", e.bucket, e.endpoint)
}

func (e *noBucketError) Unwrap() error { return ErrNoBucket }

// String is the store's URL, s3://bucket/prefix; it holds no credentials.
func (s *Store) String() string { return s.cfg.String() }

// Config is the store's configuration, with the prefix trimmed of slashes.
func (s *Store) Config() Config { return s.cfg }

// key maps a blob name to its object key. Names are cleaned and refused
// exactly as store.Dir does: an empty name, an absolute one or one that
// climbs out of the store with ".." is an error; "a/./b", "a//b" and
// "a/x/../b" all name the blob "a/b".
func (s *Store) key(name string) (string, error) {
	clean := path.Clean(name)
	if name == "" || clean == "." || strings.HasPrefix(clean, "/") || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("bad blob name %q", name)
	}
	return s.base + clean, nil
}

// Create buffers the blob in a temporary file under Config.TempDir; Commit
// uploads it (in parts when it is large) and removes the file. ctx governs
// the upload in Commit as well.
func (s *Store) Create(ctx context.Context, name string) (store.Writer, error) {
	key, err := s.key(name)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(s.cfg.TempDir, "s3store-*")
	if err != nil {
		return nil, fmt.Errorf("create blob %s: %w", name, err)
	}
	return &writer{ctx: ctx, s: s, name: name, key: key, f: f}, nil
}

type writer struct {
	ctx  context.Context
	s    *Store
	name string
	key  string
	f    *os.File
	done bool
}

func (w *writer) Write(p []byte) (int, error) { return w.f.Write(p) }

// putOptions sends every upload with an unsigned payload of known length,
// as minio-go does by default over HTTPS. Over plain HTTP minio-go would
// otherwise sign the payload in aws-chunked streaming form, which not every
// S3-compatible service decodes (gofakes3 stores the chunk headers of a
// multipart part as data), and which it sends for an empty blob with
// Transfer-Encoding: chunked and no Content-Length, which S3 refuses.
var putOptions = minio.PutObjectOptions{
	ContentType:          "application/octet-stream",
	DisableContentSha256: true,
}

// Commit uploads the temporary file with its size known, so that minio
// switches to a multipart upload for large blobs; S3 makes an object
// visible only when its upload completes, which gives the atomicity.
func (w *writer) Commit() error {
	if w.done {
		return errors.New("blob already committed or aborted")
	}
	w.done = true
	defer w.discard()
	size, err := w.f.Seek(0, io.SeekCurrent)
	if err == nil {
		_, err = w.f.Seek(0, io.SeekStart)
	}
	if err == nil {
		_, err = w.s.client.PutObject(w.ctx, w.s.cfg.Bucket, w.key, w.f, size, putOptions)
	}
	if err != nil {
		return fmt.Errorf("commit blob %s to %s: %w", w.name, w.s, err)
	}
	return nil
}

// Abort discards the temporary file; it is a no-op after Commit.
func (w *writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.discard()
}

func (w *writer) discard() {
	w.f.Close()
	os.Remove(w.f.Name())
}

// Open reads a blob with one GET, sent before Open returns, so that a
// missing blob fails here with store.ErrNotFound rather than on the first
// Read (minio's Client.GetObject is lazy; its Core.GetObject is not). The
// reader streams the response body and stops when ctx ends.
func (s *Store) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	key, err := s.key(name)
	if err != nil {
		return nil, err
	}
	body, _, _, err := s.core.GetObject(ctx, s.cfg.Bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.openError(name, err)
	}
	return body, nil
}

// OpenRange reads length bytes from offset on with one ranged GET. The
// service clips a range that runs past the end of the object, and answers
// InvalidRange to one that starts at or after it, which gives an empty
// reader. A negative offset is an error; a length of zero or less gives an
// empty reader for a blob that exists.
func (s *Store) OpenRange(ctx context.Context, name string, offset, length int64) (io.ReadCloser, error) {
	key, err := s.key(name)
	if err != nil {
		return nil, err
	}
	if offset < 0 {
		return nil, fmt.Errorf("open blob %s at %d: negative offset", name, offset)
	}
	if length <= 0 {
		// No byte range is empty, so only ask whether the blob exists.
		if _, err := s.client.StatObject(ctx, s.cfg.Bucket, key, minio.StatObjectOptions{}); err != nil {
			return nil, s.openError(name, err)
		}
		return io.NopCloser(strings.NewReader("")), nil
	}
	var opts minio.GetObjectOptions
	switch {
	case length <= math.MaxInt64-offset:
		err = opts.SetRange(offset, offset+length-1)
	case offset > 0:
		err = opts.SetRange(offset, 0) // to the end: bytes=offset-
	}
	if err != nil {
		return nil, fmt.Errorf("open blob %s at %d: %w", name, offset, err)
	}
	body, _, header, err := s.core.GetObject(ctx, s.cfg.Bucket, key, opts)
	if minio.ToErrorResponse(err).Code == minio.InvalidRange {
		// Only an existing object has a size to be out of range of.
		return io.NopCloser(strings.NewReader("")), nil
	}
	if err != nil {
		return nil, s.openError(name, err)
	}
	// A service that ignores the range answers 200 with the whole object:
	// reading on would return the blob's first bytes as those at offset.
	if offset > 0 && !rangeStartsAt(header.Get("Content-Range"), offset) {
		body.Close()
		return nil, fmt.Errorf("open blob %s in %s at %d: the service did not answer with that byte range (Content-Range %q)", name, s, offset, header.Get("Content-Range"))
	}
	// Guard against a service that sends more than the range asked for.
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(body, length), body}, nil
}

// rangeStartsAt says whether a Content-Range header, "bytes FIRST-LAST/SIZE",
// starts at offset.
func rangeStartsAt(contentRange string, offset int64) bool {
	rest, ok := strings.CutPrefix(contentRange, "bytes ")
	if !ok {
		return false
	}
	first, _, ok := strings.Cut(rest, "-")
	n, err := strconv.ParseInt(first, 10, 64)
	return ok && err == nil && n == offset
}

// openError wraps store.ErrNotFound for a missing object.
func (s *Store) openError(name string, err error) error {
	if minio.ToErrorResponse(err).Code == minio.NoSuchKey {
		return fmt.Errorf("open blob %s: %w", name, store.ErrNotFound)
	}
	return fmt.Errorf("open blob %s in %s: %w", name, s, err)
}

// List returns the names, relative to the store's prefix, of the blobs
// whose names start with prefix, sorted. Keys ending in "/" (folder markers
// made by consoles) are not blobs and are left out.
func (s *Store) List(ctx context.Context, prefix string) ([]string, error) {
	keys, err := s.keys(ctx, prefix)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(keys))
	for _, k := range keys {
		if !strings.HasSuffix(k, "/") {
			names = append(names, strings.TrimPrefix(k, s.base))
		}
	}
	sort.Strings(names)
	return names, nil
}

// keys lists every object key under the store's prefix plus prefix.
func (s *Store) keys(ctx context.Context, prefix string) ([]string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops minio's listing goroutine on an early return
	var keys []string
	for obj := range s.client.ListObjects(ctx, s.cfg.Bucket, minio.ListObjectsOptions{
		Prefix:    s.base + prefix,
		Recursive: true,
	}) {
		if obj.Err != nil {
			return nil, fmt.Errorf("list blobs under %q in %s: %w", prefix, s, obj.Err)
		}
		keys = append(keys, obj.Key)
	}
	// The channel also closes, without an error, when ctx ends.
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("list blobs under %q in %s: %w", prefix, s, err)
	}
	return keys, nil
}

// DeletePrefix removes every object whose name starts with prefix, in
// batches of up to 1000 keys per request.
func (s *Store) DeletePrefix(ctx context.Context, prefix string) error {
	keys, err := s.keys(ctx, prefix)
	if err != nil || len(keys) == 0 {
		return err
	}
	return s.remove(ctx, keys, fmt.Sprintf("blobs under %q", prefix))
}

// Delete removes the named objects, in batches of up to 1000 keys per
// request; S3 does not tell a missing key from a removed one.
func (s *Store) Delete(ctx context.Context, names ...string) error {
	keys := make([]string, 0, len(names))
	for _, n := range names {
		k, err := s.key(n)
		if err != nil {
			return err
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil
	}
	return s.remove(ctx, keys, fmt.Sprintf("%d blobs", len(keys)))
}

// remove deletes the objects of keys; what names them in an error.
func (s *Store) remove(ctx context.Context, keys []string, what string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	objects := make(chan minio.ObjectInfo)
	go func() {
		defer close(objects)
		for _, k := range keys {
			select {
			case objects <- minio.ObjectInfo{Key: k}:
			case <-ctx.Done():
				return
			}
		}
	}()
	var first error
	for rerr := range s.client.RemoveObjects(ctx, s.cfg.Bucket, objects, minio.RemoveObjectsOptions{}) {
		if first == nil {
			first = fmt.Errorf("delete blob %s from %s: %w", strings.TrimPrefix(rerr.ObjectName, s.base), s, rerr.Err)
		}
	}
	if first == nil && ctx.Err() != nil {
		first = fmt.Errorf("delete %s in %s: %w", what, s, ctx.Err())
	}
	return first
}

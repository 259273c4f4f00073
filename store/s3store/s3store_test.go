package s3store

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/census-cgt/census/internal/testbin/seaweed"
	"github.com/census-cgt/census/store"
)

// testS3 is one test's bucket on a real S3 service: the SeaweedFS server
// the package's tests share (internal/testbin/seaweed; without its binary
// the tests skip, or fail with CI=true), one new bucket per test.
type testS3 struct {
	srv      *seaweed.Server
	bucket   string
	endpoint string // host:port
}

var (
	sharedOnce sync.Once
	shared     *seaweed.Server
	sharedErr  error
	sharedDir  string
	buckets    atomic.Int64
)

// reader is an identity that may read and list every bucket, not write.
var reader = seaweed.Identity{
	Name: "census-reader", AccessKey: "census-test-reader", SecretKey: "census-test-reader-secret",
	Actions: []string{"Read", "List"},
}

// server is the shared SeaweedFS, started by the first test that asks.
func server(t *testing.T) *seaweed.Server {
	t.Helper()
	seaweed.Binary(t) // skips, or fails with CI=true, without it
	sharedOnce.Do(func() {
		sharedDir, sharedErr = os.MkdirTemp("", "census-s3store-seaweedfs-*")
		if sharedErr == nil {
			shared, sharedErr = seaweed.StartMain(sharedDir, reader, leastPrivilege)
		}
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func TestMain(m *testing.M) {
	flag.Parse()
	if err := buildCensus(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if shared != nil {
		shared.Stop()
	}
	if sharedDir != "" {
		os.RemoveAll(sharedDir)
	}
	os.Exit(code)
}

// newS3 makes a bucket of the test's own on the shared server.
func newS3(t *testing.T) *testS3 {
	t.Helper()
	srv := server(t)
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, t.Name())
	name = fmt.Sprintf("t%d-%s", buckets.Add(1), name)
	name = strings.TrimRight(name[:min(len(name), 60)], "-")
	if err := srv.CreateBucket(name); err != nil {
		t.Fatal(err)
	}
	return &testS3{srv: srv, bucket: name, endpoint: srv.Endpoint}
}

func (f *testS3) config(prefix string) Config {
	return Config{
		Endpoint:  f.endpoint,
		Bucket:    f.bucket,
		Prefix:    prefix,
		AccessKey: seaweed.Admin.AccessKey,
		SecretKey: seaweed.Admin.SecretKey,
		Region:    seaweed.Region,
		Secure:    false,
	}
}

// newStore opens a store on f under prefix, with its temporary files in a
// directory of the test's own, which it returns.
func (f *testS3) newStore(t *testing.T, prefix string) (*Store, string) {
	t.Helper()
	cfg := f.config(prefix)
	cfg.TempDir = t.TempDir()
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, cfg.TempDir
}

// rawKeys lists every key in the bucket, bypassing the store.
func (f *testS3) rawKeys(t *testing.T) []string {
	t.Helper()
	s, err := New(context.Background(), f.config(""))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := s.keys(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// parts is the number of parts the object at key was uploaded in, read
// from its ETag ("MD5-N" for a multipart upload); 1 for a single PUT.
func (f *testS3) parts(t *testing.T, key string) int {
	t.Helper()
	info, err := f.srv.Client(seaweed.Admin).StatObject(context.Background(), f.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, n, ok := strings.Cut(strings.Trim(info.ETag, `"`), "-")
	if !ok {
		return 1
	}
	parts, err := strconv.Atoi(n)
	if err != nil {
		t.Fatalf("ETag %q of %s: %v", info.ETag, key, err)
	}
	return parts
}

func put(t *testing.T, s store.Store, name string, data []byte) {
	t.Helper()
	if err := putErr(s, name, data); err != nil {
		t.Fatal(err)
	}
}

func putErr(s store.Store, name string, data []byte) error {
	w, err := s.Create(context.Background(), name)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

func get(t *testing.T, s store.Store, name string) []byte {
	t.Helper()
	rc, err := s.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func assertEmptyDir(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 0 {
		t.Errorf("temporary directory holds %d files, want none: first %s", len(ents), ents[0].Name())
	}
}

func TestRoundTrip(t *testing.T) {
	f := newS3(t)
	s, tmp := f.newStore(t, "runs/r1")
	for _, tc := range []struct {
		name string
		size int
	}{
		{"empty", 0},
		{"small", 100},
		{"tier/07/shard-003.bin", 64 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := make([]byte, tc.size)
			rand.Read(data)
			put(t, s, tc.name, data)
			if got := get(t, s, tc.name); !bytes.Equal(got, data) {
				t.Fatalf("read back %d bytes, differing from the %d written", len(got), len(data))
			}
			assertEmptyDir(t, tmp)
		})
	}
	if keys, want := f.rawKeys(t), []string{"runs/r1/empty", "runs/r1/small", "runs/r1/tier/07/shard-003.bin"}; !slices.Equal(keys, want) {
		t.Errorf("keys in bucket = %q, want %q", keys, want)
	}
}

// TestLargeBlob writes a blob bigger than minio's 16 MiB part size, which
// goes up as a multipart upload.
func TestLargeBlob(t *testing.T) {
	f := newS3(t)
	s, tmp := f.newStore(t, "big")
	data := make([]byte, 20<<20)
	rand.Read(data)
	w, err := s.Create(context.Background(), "blob")
	if err != nil {
		t.Fatal(err)
	}
	// Write in uneven pieces, as an encoder would.
	for rest := data; len(rest) > 0; {
		n := min(len(rest), 1<<20+7)
		if _, err := w.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := f.parts(t, "big/blob"); n < 2 {
		t.Errorf("uploaded in %d part(s), want a multipart upload of at least 2", n)
	}
	if got := get(t, s, "blob"); !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes, differing from the %d written", len(got), len(data))
	}
	rc, err := s.OpenRange(context.Background(), "blob", 16<<20-3, 6)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, data[16<<20-3:16<<20+3]) {
		t.Errorf("range across the part boundary = %x, %v; want %x", got, err, data[16<<20-3:16<<20+3])
	}
	assertEmptyDir(t, tmp)
}

func TestAbortAndUncommitted(t *testing.T) {
	f := newS3(t)
	s, tmp := f.newStore(t, "p")
	ctx := context.Background()

	w, err := s.Create(ctx, "pending")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("not yet")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "pending"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Open of an uncommitted blob: %v, want ErrNotFound", err)
	}
	if names, _ := s.List(ctx, ""); len(names) != 0 {
		t.Errorf("List shows uncommitted blobs %q", names)
	}
	if keys := f.rawKeys(t); len(keys) != 0 {
		t.Errorf("bucket holds %q before Commit", keys)
	}

	w.Abort()
	w.Abort() // a second Abort is harmless
	if err := w.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
	if keys := f.rawKeys(t); len(keys) != 0 {
		t.Errorf("bucket holds %q after Abort", keys)
	}
	assertEmptyDir(t, tmp)

	put(t, s, "done", []byte("x"))
	// Abort after Commit is a no-op: the blob stays.
	w, _ = s.Create(ctx, "done2")
	w.Write([]byte("y"))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if err := w.Commit(); err == nil {
		t.Error("second Commit succeeded")
	}
	if got := get(t, s, "done2"); string(got) != "y" {
		t.Errorf("done2 = %q after Abort following Commit, want %q", got, "y")
	}
}

func TestCommitFailureRemovesTempFile(t *testing.T) {
	f := newS3(t)
	s, tmp := f.newStore(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	w, err := s.Create(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("data"))
	cancel()
	if err := w.Commit(); !errors.Is(err, context.Canceled) {
		t.Errorf("Commit with a cancelled context: %v, want context.Canceled", err)
	}
	assertEmptyDir(t, tmp)
	if keys := f.rawKeys(t); len(keys) != 0 {
		t.Errorf("bucket holds %q after a failed Commit", keys)
	}
}

func TestOpenRange(t *testing.T) {
	f := newS3(t)
	s, _ := f.newStore(t, "r")
	const digits = "0123456789"
	put(t, s, "digits", []byte(digits))
	put(t, s, "empty", nil)
	for _, tc := range []struct {
		name           string
		offset, length int64
		want           string
	}{
		{"digits", 0, 10, digits},
		{"digits", 0, 3, "012"},
		{"digits", 3, 4, "3456"},
		{"digits", 9, 1, "9"},
		{"digits", 7, 10, "789"},       // runs past the end
		{"digits", 0, 1 << 40, digits}, // far past the end
		{"digits", 10, 1, ""},          // starts at the end
		{"digits", 11, 5, ""},          // starts past the end
		{"digits", 5, 0, ""},
		{"digits", 5, -1, ""},
		{"digits", 0, 1<<63 - 1, digits},
		{"digits", 4, 1<<63 - 1, "456789"},
		{"empty", 0, 5, ""},
		{"empty", 0, 0, ""},
	} {
		t.Run(fmt.Sprintf("%s@%d+%d", tc.name, tc.offset, tc.length), func(t *testing.T) {
			rc, err := s.OpenRange(context.Background(), tc.name, tc.offset, tc.length)
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			got, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := s.OpenRange(context.Background(), "digits", -1, 3); err == nil {
		t.Error("negative offset accepted")
	}
}

func TestNotFound(t *testing.T) {
	f := newS3(t)
	s, _ := f.newStore(t, "nf")
	put(t, s, "there", []byte("x"))
	ctx := context.Background()
	for _, tc := range []struct {
		op   string
		open func() (io.ReadCloser, error)
	}{
		{"Open", func() (io.ReadCloser, error) { return s.Open(ctx, "missing/blob") }},
		{"OpenRange", func() (io.ReadCloser, error) { return s.OpenRange(ctx, "missing/blob", 2, 5) }},
		{"OpenRange past end", func() (io.ReadCloser, error) { return s.OpenRange(ctx, "missing/blob", 100, 5) }},
		{"OpenRange empty", func() (io.ReadCloser, error) { return s.OpenRange(ctx, "missing/blob", 0, 0) }},
	} {
		t.Run(tc.op, func(t *testing.T) {
			rc, err := tc.open()
			if err == nil {
				rc.Close()
			}
			if !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("got %v, want ErrNotFound", err)
			}
			if !strings.Contains(err.Error(), "missing/blob") {
				t.Errorf("error %q does not name the blob", err)
			}
		})
	}
}

func TestBadNames(t *testing.T) {
	f := newS3(t)
	s, tmp := f.newStore(t, "jail")
	ctx := context.Background()
	for _, name := range []string{"", ".", "/abs", "/", "..", "../escape", "a/../../escape", "./.."} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			if w, err := s.Create(ctx, name); err == nil {
				w.Abort()
				t.Error("Create accepted it")
			}
			if _, err := s.Open(ctx, name); err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("Open: %v, want a bad-name error", err)
			}
			if _, err := s.OpenRange(ctx, name, 0, 1); err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("OpenRange: %v, want a bad-name error", err)
			}
		})
	}
	assertEmptyDir(t, tmp)
	// Names are cleaned as store.Dir cleans them.
	put(t, s, "a/./b//c/../d/", []byte("x"))
	if keys, want := f.rawKeys(t), []string{"jail/a/b/d"}; !slices.Equal(keys, want) {
		t.Errorf("keys = %q, want %q", keys, want)
	}
}

func TestListAndDeletePrefix(t *testing.T) {
	f := newS3(t)
	ctx := context.Background()
	// Neighbours that share the first bytes of the store's prefix must stay
	// out of its listings and deletions.
	outside, _ := f.newStore(t, "")
	for _, n := range []string{"run", "run1/x", "runa", "other/run/x"} {
		put(t, outside, n, []byte("o"))
	}
	s, _ := f.newStore(t, "/run/") // slashes are trimmed
	if got := s.String(); got != "s3://"+f.bucket+"/run" {
		t.Errorf("String() = %q", got)
	}
	// Written out of order, to see List sort.
	for _, n := range []string{"z", "dir/b", "dir/a", "dir/sub/c", "dir2/d", "di", "a"} {
		put(t, s, n, []byte(n))
	}
	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"", []string{"a", "di", "dir/a", "dir/b", "dir/sub/c", "dir2/d", "z"}},
		{"d", []string{"di", "dir/a", "dir/b", "dir/sub/c", "dir2/d"}},
		{"dir", []string{"dir/a", "dir/b", "dir/sub/c", "dir2/d"}},
		{"dir/", []string{"dir/a", "dir/b", "dir/sub/c"}},
		{"dir/sub", []string{"dir/sub/c"}},
		{"dir/a", []string{"dir/a"}},
		{"nothing", nil},
	} {
		t.Run("List "+tc.prefix, func(t *testing.T) {
			got, err := s.List(ctx, tc.prefix)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("List(%q) = %q, want %q", tc.prefix, got, tc.want)
			}
		})
	}

	for _, tc := range []struct {
		prefix string
		left   []string
	}{
		{"nothing", []string{"a", "di", "dir/a", "dir/b", "dir/sub/c", "dir2/d", "z"}},
		{"dir/", []string{"a", "di", "dir2/d", "z"}},
		{"d", []string{"a", "z"}},
		{"", nil},
	} {
		if err := s.DeletePrefix(ctx, tc.prefix); err != nil {
			t.Fatalf("DeletePrefix(%q): %v", tc.prefix, err)
		}
		if got, _ := s.List(ctx, ""); !slices.Equal(got, tc.left) {
			t.Errorf("after DeletePrefix(%q), List = %q, want %q", tc.prefix, got, tc.left)
		}
	}
	if keys, want := f.rawKeys(t), []string{"other/run/x", "run", "run1/x", "runa"}; !slices.Equal(keys, want) {
		t.Errorf("keys outside the store = %q, want %q untouched", keys, want)
	}
}

// TestDeleteMany deletes more than one DeleteObjects batch (1000 keys).
func TestDeleteMany(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1100 blobs")
	}
	f := newS3(t)
	s, _ := f.newStore(t, "many")
	ctx := context.Background()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for i := range 1100 {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := putErr(s, fmt.Sprintf("b/%04d", i), []byte{byte(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	names, err := s.List(ctx, "b/")
	if err != nil || len(names) != 1100 || !slices.IsSorted(names) {
		t.Fatalf("List: %d names, sorted %v, err %v; want 1100 sorted", len(names), slices.IsSorted(names), err)
	}
	if err := s.DeletePrefix(ctx, "b/"); err != nil {
		t.Fatal(err)
	}
	if keys := f.rawKeys(t); len(keys) != 0 {
		t.Errorf("%d keys left, first %q", len(keys), keys[0])
	}
}

func TestMissingBucket(t *testing.T) {
	f := newS3(t)
	cfg := f.config("x")
	cfg.Bucket = "no-such-bucket"
	_, err := New(context.Background(), cfg)
	if !errors.Is(err, ErrNoBucket) {
		t.Fatalf("New: %v, want ErrNoBucket", err)
	}
	want := fmt.Sprintf(`bucket "no-such-bucket" does not exist at endpoint http://%s`, f.endpoint)
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	if strings.Contains(err.Error(), cfg.SecretKey) {
		t.Errorf("error %q shows the secret key", err)
	}
}

// TestUnreachableEndpoint needs no server: a port nothing listens on.
func TestUnreachableEndpoint(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := (&testS3{bucket: "census", endpoint: l.Addr().String()}).config("")
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	_, err = New(ctx, cfg)
	if err == nil || errors.Is(err, ErrNoBucket) {
		t.Fatalf("New against a closed server: %v, want a connection error", err)
	}
	if !strings.Contains(err.Error(), cfg.Endpoint) || strings.Contains(err.Error(), cfg.SecretKey) {
		t.Errorf("error %q should name the endpoint and not the secret key", err)
	}
}

// TestFromURL connects through ConfigFromURL and the environment, as the
// command line does.
func TestFromURL(t *testing.T) {
	f := newS3(t)
	clearEnv(t)
	t.Setenv("AWS_ENDPOINT_URL", f.srv.URL())
	t.Setenv("AWS_ACCESS_KEY_ID", seaweed.Admin.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", seaweed.Admin.SecretKey)
	t.Setenv("AWS_REGION", seaweed.Region)
	cfg, err := ConfigFromURL("s3://" + f.bucket + "/from/url")
	if err != nil {
		t.Fatal(err)
	}
	cfg.TempDir = t.TempDir()
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "blob", []byte("via url"))
	if keys, want := f.rawKeys(t), []string{"from/url/blob"}; !slices.Equal(keys, want) {
		t.Errorf("keys = %q, want %q", keys, want)
	}
}

func TestConcurrentWriters(t *testing.T) {
	f := newS3(t)
	s, tmp := f.newStore(t, "c")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			w, err := s.Create(context.Background(), fmt.Sprintf("w%d", i))
			if err != nil {
				t.Error(err)
				return
			}
			w.Write(bytes.Repeat([]byte{byte(i)}, 1000))
			if i%2 == 0 {
				w.Abort()
			} else if err := w.Commit(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	names, err := s.List(context.Background(), "")
	if want := []string{"w1", "w3", "w5", "w7"}; err != nil || !slices.Equal(names, want) {
		t.Errorf("List = %q, %v; want %q", names, err, want)
	}
	assertEmptyDir(t, tmp)
}

package s3store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/census-cgt/census/internal/testbin"
	"github.com/census-cgt/census/internal/testbin/seaweed"
	"github.com/census-cgt/census/store"
)

// lpBucket is the one bucket leastPrivilege may use.
const lpBucket = "census-least-privilege"

// leastPrivilege holds the rights docs/security.md says census needs:
// read, write (which in SeaweedFS covers multipart uploads and deletes)
// and list, on one bucket.
var leastPrivilege = seaweed.Identity{
	Name: "census-store", AccessKey: "census-test-store", SecretKey: "census-test-store-secret",
	Actions: []string{"Read:" + lpBucket, "Write:" + lpBucket, "List:" + lpBucket},
}

// TestWrongCredentials: a secret key the service does not know, or an
// access key it has never heard of, is refused at New: the bucket check is
// a HEAD request, whose 403 has no body, so the error is AccessDenied with
// a hint to check the keys. It names the bucket and the endpoint, and
// never shows the secret. A write with them gets the service's own code.
func TestWrongCredentials(t *testing.T) {
	f := newS3(t)
	for _, tc := range []struct {
		name, access, secret, code string
	}{
		{"wrong secret", seaweed.Admin.AccessKey, "not-the-secret-key-at-all", "SignatureDoesNotMatch"},
		{"unknown access key", "no-such-access-key", "whatever-secret-key", "InvalidAccessKeyId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := f.config("x")
			cfg.AccessKey, cfg.SecretKey = tc.access, tc.secret
			_, err := New(context.Background(), cfg)
			if err == nil {
				t.Fatal("New accepted them")
			}
			if errors.Is(err, ErrNoBucket) {
				t.Fatalf("got %v: wrong credentials are not a missing bucket", err)
			}
			msg := err.Error()
			for _, want := range []string{"Access Denied", "AWS_ACCESS_KEY_ID", f.bucket, f.endpoint} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q lacks %q", msg, want)
				}
			}
			if strings.Contains(msg, tc.secret) {
				t.Errorf("error %q shows the secret key", err)
			}
			// The same keys on a request with a body: the service says why.
			c, cerr := minio.New(f.endpoint, &minio.Options{Creds: credentials.NewStaticV4(tc.access, tc.secret, ""), Region: seaweed.Region})
			if cerr != nil {
				t.Fatal(cerr)
			}
			_, err = c.PutObject(context.Background(), f.bucket, "x/blob", strings.NewReader("x"), 1, putOptions)
			if code := minio.ToErrorResponse(err).Code; code != tc.code {
				t.Errorf("PUT with them: %v (code %q), want %s", err, code, tc.code)
			}
		})
	}
	// Anonymous requests are refused too.
	cfg := f.config("")
	cfg.AccessKey, cfg.SecretKey = "", ""
	if s, err := New(context.Background(), cfg); err == nil {
		if err := putErr(s, "anon", []byte("x")); err == nil {
			t.Error("an anonymous write was accepted")
		}
	}
	if keys := f.rawKeys(t); len(keys) != 0 {
		t.Errorf("refused writes left %q", keys)
	}
}

// TestReadOnlyIdentity: credentials that may read and list but not write
// open the store and read it, and Commit fails with AccessDenied; nothing
// is left behind.
func TestReadOnlyIdentity(t *testing.T) {
	f := newS3(t)
	admin, _ := f.newStore(t, "ro")
	put(t, admin, "there", []byte("readable"))
	cfg := f.config("ro")
	cfg.AccessKey, cfg.SecretKey = reader.AccessKey, reader.SecretKey
	cfg.TempDir = t.TempDir()
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, "there"); string(got) != "readable" {
		t.Errorf("read %q", got)
	}
	if names, err := s.List(context.Background(), ""); err != nil || !slices.Equal(names, []string{"there"}) {
		t.Errorf("List = %q, %v", names, err)
	}
	err = putErr(s, "new", []byte("x"))
	if code := minio.ToErrorResponse(errors.Unwrap(err)).Code; err == nil || (code != "AccessDenied" && !strings.Contains(err.Error(), "Access Denied")) {
		t.Errorf("Commit as a reader: %v (code %q), want AccessDenied", err, code)
	}
	if err := s.DeletePrefix(context.Background(), ""); err == nil {
		t.Error("DeletePrefix as a reader succeeded")
	}
	assertEmptyDir(t, cfg.TempDir)
	if keys := f.rawKeys(t); !slices.Equal(keys, []string{"ro/there"}) {
		t.Errorf("keys = %q, want the one blob untouched", keys)
	}
}

// TestLeastPrivilege: the store does everything it does (the conformance
// transcript, a multipart upload, a listing and delete of more than one
// page) with only read, write and list on its bucket, and is refused
// another bucket.
func TestLeastPrivilege(t *testing.T) {
	srv := server(t)
	if err := srv.CreateBucket(lpBucket); err != nil {
		t.Fatal(err)
	}
	f := &testS3{srv: srv, bucket: lpBucket, endpoint: srv.Endpoint}
	cfg := f.config("lp")
	cfg.AccessKey, cfg.SecretKey = leastPrivilege.AccessKey, leastPrivilege.SecretKey
	cfg.TempDir = t.TempDir()
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := store.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := transcript(t, s), transcript(t, dir); !slices.Equal(got, want) {
		t.Errorf("transcript with least privilege differs from store.Dir's:\n%s", diffLines(got, want))
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 17<<20/16)
	put(t, s, "big", big)
	if n := f.parts(t, "lp/big"); n < 2 {
		t.Errorf("uploaded in %d part(s), want multipart", n)
	}
	if got := get(t, s, "big"); !bytes.Equal(got, big) {
		t.Error("the multipart blob reads back different")
	}
	if err := s.DeletePrefix(context.Background(), ""); err != nil {
		t.Fatal(err)
	}

	other := newS3(t)
	ocfg := other.config("")
	ocfg.AccessKey, ocfg.SecretKey = leastPrivilege.AccessKey, leastPrivilege.SecretKey
	if os2, err := New(context.Background(), ocfg); err == nil {
		if err := putErr(os2, "x", []byte("x")); err == nil {
			t.Errorf("a write to bucket %s, outside the identity's rights, was accepted", other.bucket)
		}
	}
}

// diffLines lists the steps at which two store transcripts differ.
func diffLines(got, want []string) string {
	var b strings.Builder
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			fmt.Fprintf(&b, "step %d: S3 store: %s\n\t  store.Dir: %s\n", i, g, w)
		}
	}
	return b.String()
}

// TestServerRestart runs a census whose fragments live in SeaweedFS, stops
// the server in the middle of the run and starts it again: the run must
// carry on (its jobs retried) and its outputs equal those of a census on
// local disk.
func TestServerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs a census")
	}
	srv := seaweed.Start(t)
	if censusBin == "" {
		t.Fatal("TestMain built no census binary")
	}
	census, cmpout := censusBin, cmpoutBin
	const bucket, game, board = "census-restart", "clobber", "4x4"
	if err := srv.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ref := filepath.Join(tmp, "ref")
	if out, err := exec.Command(census, "run", game, board, "--out", ref, "--metrics-addr", "", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("reference census run: %v\n%s", err, out)
	}

	// The bound is for the run, on a busy machine; it takes seconds idle.
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	out := filepath.Join(tmp, "s3")
	url := fmt.Sprintf("s3://%s/runs/restart?endpoint=%s", bucket, srv.URL())
	cmd := exec.CommandContext(ctx, census, "run", game, board, "--out", out, "--store", url,
		"--metrics-addr", "", "--jobs", "2")
	cmd.Env = append(os.Environ(),
		"AWS_ACCESS_KEY_ID="+seaweed.Admin.AccessKey, "AWS_SECRET_ACCESS_KEY="+seaweed.Admin.SecretKey,
		"AWS_REGION="+seaweed.Region, "CENSUS_LOG=info")
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// Stop the server once the run has written a few fragments.
	c := srv.Client(seaweed.Admin)
	for n := 0; n < 3; {
		select {
		case err := <-done:
			t.Fatalf("the census ended (%v) before the server could be stopped; make the board bigger\n%s", err, log.String())
		case <-time.After(100 * time.Millisecond):
		}
		n = 0
		for obj := range c.ListObjects(ctx, bucket, minio.ListObjectsOptions{Prefix: "runs/restart/", Recursive: true}) {
			if obj.Err == nil {
				n++
			}
		}
	}
	srv.Kill()
	t.Log("SeaweedFS killed mid-run")
	time.Sleep(2 * time.Second)
	select {
	case err := <-done:
		t.Fatalf("the census ended (%v) while the server was down\n%s", err, log.String())
	default:
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	t.Log("SeaweedFS started again")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("census run against the restarted server: %v\n%s\nSeaweedFS log:\n%s", err, log.String(), srv.Log())
		}
	case <-ctx.Done():
		t.Fatalf("the census did not finish within the bound\n%s", log.String())
	}
	if !strings.Contains(log.String(), "will retry") {
		t.Logf("no job was retried: the outage fell between requests\n%s", log.String())
	}
	cmp, err := exec.Command(cmpout, filepath.Join(ref, game+"-"+board), filepath.Join(out, game+"-"+board)).CombinedOutput()
	if err != nil {
		t.Fatalf("the census through a restarted S3 server differs from the one on disk: %v\n%s", err, cmp)
	}
}

// censusBin and cmpoutBin are the census binary and test/docker/cmpout,
// which TestServerRestart runs. TestMain builds them (internal/testbin:
// once per source tree, cached, shared by the packages) before any test
// starts, when that test will run.
var censusBin, cmpoutBin string

func buildCensus() error {
	if testing.Short() {
		return nil
	}
	if _, err := testbin.SeaweedFSBinary(); err != nil {
		return nil // the test skips, or fails on its own with CI=true
	}
	var err error
	if censusBin, err = testbin.Census(testbin.Plain); err == nil {
		cmpoutBin, err = testbin.Build("./test/docker/cmpout", testbin.Plain)
	}
	return err
}

package s3store

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Faults a real S3 server does not make are made with gofakes3 behind a
// handler that misbehaves.

// TestRangeIgnored: a service that ignores a GET's Range header answers
// 200 with the whole object. OpenRange must refuse that, not hand out the
// blob's first bytes as those at the offset.
func TestRangeIgnored(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("census"); err != nil {
		t.Fatal(err)
	}
	h := gofakes3.New(backend).Server()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Header.Del("Range")
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cfg := (&testS3{bucket: "census", endpoint: strings.TrimPrefix(srv.URL, "http://")}).config("p")
	cfg.TempDir = t.TempDir()
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "digits", []byte("0123456789"))
	rc, err := s.OpenRange(context.Background(), "digits", 3, 4)
	if err == nil {
		got, _ := io.ReadAll(rc)
		rc.Close()
		t.Fatalf("OpenRange at 3 read %q from a service that ignores ranges, want an error", got)
	}
	if !strings.Contains(err.Error(), "byte range") || !strings.Contains(err.Error(), "digits") {
		t.Errorf("error %q should name the blob and the range", err)
	}
	// From offset 0 the whole object's first bytes are the right ones.
	rc, err = s.OpenRange(context.Background(), "digits", 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, []byte("0123")) {
		t.Errorf("OpenRange at 0 = %q, want 0123", got)
	}
}

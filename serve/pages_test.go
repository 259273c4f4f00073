package serve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPages fetches the index, the explorers and their assets; the pages
// name nothing outside the server.
func TestPages(t *testing.T) {
	h, _, ts := testServer(t)
	tests := []struct {
		name, target string
		code         int
		contentType  string
		has          []string
	}{
		{"index", "/", 200, "text/html", []string{`href="/runs/clobber-2x3/"`, `href="/runs/amazons-2x3/"`, "o.x/...", "xox/oxo"}},
		{"explorer", "/runs/clobber-2x3/", 200, "text/html", []string{`data-run="clobber-2x3"`, `id="board"`, `id="moves"`,
			`id="undo"`, `id="redo"`, `id="best"`, `id="play-vs"`, `id="to-move"`, `id="result"`, `src="/static/explorer.js"`}},
		{"explorer with a position", "/runs/amazons-2x3/?d=o.x%2F...&to_move=right", 200, "text/html", []string{`data-run="amazons-2x3"`}},
		{"unknown run", "/runs/chess-8x8/", 404, "text/html", []string{"chess-8x8"}},
		{"script", "/static/explorer.js", 200, "javascript", []string{"/api/v1/runs/"}},
		{"board script", "/static/board.js", 200, "javascript", []string{"export function draw"}},
		{"style", "/static/style.css", 200, "text/css", []string{"--win"}},
		{"icon", "/static/icon.svg", 200, "image/svg+xml", []string{"<svg"}},
		{"no listing", "/static/", 404, "application/json", nil},
		{"no such asset", "/static/nope.js", 404, "", nil},
		{"no escape", "/static/..%2fserve.go", 404, "", nil},
		{"no page", "/nothing/here", 404, "application/json", nil},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			code, hdr, body := do(t, h, "GET", c.target, nil)
			if code != c.code {
				t.Fatalf("GET %s: %d, want %d: %.200s", c.target, code, c.code, body)
			}
			if !strings.Contains(hdr.Get("Content-Type"), c.contentType) {
				t.Errorf("Content-Type %q, want %s", hdr.Get("Content-Type"), c.contentType)
			}
			for _, s := range c.has {
				if !strings.Contains(string(body), s) {
					t.Errorf("GET %s lacks %q", c.target, s)
				}
			}
			if strings.Contains(string(body), "package serve") {
				t.Errorf("GET %s served a Go file", c.target)
			}
			if strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
				if csp := hdr.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
					t.Errorf("Content-Security-Policy %q", csp)
				}
				for _, away := range []string{"http://", "https://", "//cdn"} {
					if strings.Contains(string(body), away) {
						t.Errorf("the page names %s", away)
					}
				}
			}
		})
	}
	t.Run("redirect", func(t *testing.T) {
		code, hdr, _ := do(t, h, "GET", "/runs/clobber-2x3?d=xox%2Foxo", nil)
		if code != http.StatusMovedPermanently || hdr.Get("Location") != "/runs/clobber-2x3/?d=xox%2Foxo" {
			t.Errorf("%d to %q, want 301 to /runs/clobber-2x3/?d=xox%%2Foxo", code, hdr.Get("Location"))
		}
	})
	t.Run("html not found", func(t *testing.T) {
		req, _ := http.NewRequest("GET", "/nothing/here", nil)
		req.Header.Set("Accept", "text/html,*/*")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 404 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Errorf("%d %s, want a 404 page", rec.Code, rec.Header().Get("Content-Type"))
		}
	})
	t.Run("post page", func(t *testing.T) {
		if code, _, body := do(t, h, "POST", "/runs/clobber-2x3/", nil); code != 405 {
			t.Errorf("POST an explorer: %d %s", code, body)
		}
	})
	_ = ts
}

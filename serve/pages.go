package serve

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

	"github.com/census-cgt/census/probe"
)

// web holds the pages' templates and, under static/, the scripts, styles
// and icon they load: the only files the server ever reads for a request.
//
//go:embed web
var web embed.FS

// contentSecurity keeps the pages to this server: no script, style or
// request goes anywhere else.
const contentSecurity = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// pages renders the HTML pages.
type pages struct {
	index, explorer, missing *template.Template
	assets                   http.Handler
}

func newPages() (*pages, error) {
	parse := func(name string) (*template.Template, error) {
		t, err := template.ParseFS(web, "web/layout.html", "web/"+name)
		if err != nil {
			return nil, fmt.Errorf("serve: parse page %s: %w", name, err)
		}
		return t, nil
	}
	p := &pages{}
	var err error
	if p.index, err = parse("index.html"); err != nil {
		return nil, err
	}
	if p.explorer, err = parse("explorer.html"); err != nil {
		return nil, err
	}
	if p.missing, err = parse("missing.html"); err != nil {
		return nil, err
	}
	static, err := fs.Sub(web, "web/static")
	if err != nil {
		return nil, err
	}
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	p.assets = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// No directory listings: only the files themselves.
		if strings.HasSuffix(r.URL.Path, "/") {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no file %s", r.URL.Path))
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
	return p, nil
}

// static serves the embedded assets under /static/.
func (p *pages) static() http.HandlerFunc { return p.assets.ServeHTTP }

// render writes the page t with data, whole or not at all.
func render(w http.ResponseWriter, code int, t *template.Template, data any) {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", data); err != nil {
		writeError(w, http.StatusInternalServerError, "render the page: "+err.Error())
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", contentSecurity)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

// indexPage is the data of the index page.
type indexPage struct {
	Title string
	Runs  []probe.RunInfo
}

// explorerPage is the data of a run's position explorer.
type explorerPage struct {
	Title string
	Run   probe.RunInfo
}

// missingPage is the data of the page of an unknown address.
type missingPage struct {
	Title   string
	Message string
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusOK, s.pages.index, indexPage{Title: "census: solved runs", Runs: s.infos()})
}

func (s *Server) explorer(w http.ResponseWriter, r *http.Request) {
	run := s.run(r)
	if run == nil {
		s.missingRun(w, r)
		return
	}
	info := run.Info()
	render(w, http.StatusOK, s.pages.explorer, explorerPage{Title: "census: " + info.Name, Run: info})
}

// explorerRedirect sends /runs/RUN to /runs/RUN/, keeping the query.
func (s *Server) explorerRedirect(w http.ResponseWriter, r *http.Request) {
	if s.run(r) == nil {
		s.missingRun(w, r)
		return
	}
	u := url.URL{Path: "/runs/" + r.PathValue("run") + "/", RawQuery: r.URL.RawQuery}
	http.Redirect(w, r, u.String(), http.StatusMovedPermanently)
}

func (s *Server) missingRun(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusNotFound, s.pages.missing, missingPage{Title: "census: no such run",
		Message: fmt.Sprintf("No run %q is served here.", r.PathValue("run"))})
}

// notFound answers an address of no route: a page for a browser, JSON
// for the rest.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if strings.Contains(r.Header.Get("Accept"), "text/html") {
		render(w, http.StatusNotFound, s.pages.missing, missingPage{Title: "census: not found",
			Message: fmt.Sprintf("Nothing is served at %s.", r.URL.Path)})
		return
	}
	writeError(w, http.StatusNotFound, fmt.Sprintf("nothing is served at %s; the API is under /api/v1/runs", r.URL.Path))
}

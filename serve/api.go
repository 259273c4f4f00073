package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/census-cgt/census/probe"
)

// runsReply is the answer to GET /api/v1/runs.
type runsReply struct {
	Runs []probe.RunInfo `json:"runs"`
}

// batchRequest is the body of POST /api/v1/runs/{run}/positions.
type batchRequest struct {
	Diagrams []string `json:"diagrams"`
	// ToMove is "left", "right", or "" for both.
	ToMove string `json:"to_move"`
}

// batchReply answers a batch: for each diagram in order, its
// *probe.Answer or a batchError.
type batchReply struct {
	Answers []any `json:"answers"`
}

// batchError answers, in place, a diagram of a batch that is bad or not
// in the run.
type batchError struct {
	Diagram string `json:"diagram"`
	Error   string `json:"error"`
}

// errorReply is every API error's body.
type errorReply struct {
	Error string `json:"error"`
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, runsReply{Runs: s.infos()})
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request) {
	run := s.knownRun(w, r)
	if run == nil {
		return
	}
	writeJSON(w, http.StatusOK, run.Info())
}

// position answers GET /api/v1/runs/{run}/position?diagram=D&to_move=P.
func (s *Server) position(w http.ResponseWriter, r *http.Request) {
	run := s.knownRun(w, r)
	if run == nil {
		return
	}
	q := r.URL.Query()
	if !q.Has("diagram") || q.Get("diagram") == "" {
		writeError(w, http.StatusBadRequest, "missing diagram: ask ?diagram=ROWS, rows top to bottom separated by '/'")
		return
	}
	toMove, err := probe.ParsePlayer(q.Get("to_move"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "to_move: "+err.Error())
		return
	}
	a, err := run.Probe(q.Get("diagram"), toMove)
	if err != nil {
		writeError(w, probeStatus(err), err.Error())
		return
	}
	writeJSON(w, http.StatusOK, a)
}

// positions answers a batch. A diagram that is bad or not in the run is
// answered in place and the others go on; a corrupt tablebase fails the
// whole request.
func (s *Server) positions(w http.ResponseWriter, r *http.Request) {
	run := s.knownRun(w, r)
	if run == nil {
		return
	}
	var req batchRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(&req)
	if err == nil {
		if _, err = dec.Token(); err == io.EOF {
			err = nil
		} else if !errors.As(err, new(*http.MaxBytesError)) {
			err = errors.New("data after the JSON object")
		}
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", MaxBody))
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, `bad JSON: `+err.Error()+`; want {"diagrams": [...], "to_move": "left"}`)
		return
	case req.Diagrams == nil:
		writeError(w, http.StatusBadRequest, `missing diagrams: want {"diagrams": [...], "to_move": "left"}`)
		return
	case len(req.Diagrams) > MaxBatch:
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%d diagrams, at most %d a request", len(req.Diagrams), MaxBatch))
		return
	}
	toMove, err := probe.ParsePlayer(req.ToMove)
	if err != nil {
		writeError(w, http.StatusBadRequest, "to_move: "+err.Error())
		return
	}
	reply := batchReply{Answers: make([]any, 0, len(req.Diagrams))}
	for _, d := range req.Diagrams {
		a, err := run.Probe(d, toMove)
		switch {
		case err == nil:
			reply.Answers = append(reply.Answers, a)
		case probeStatus(err) == http.StatusInternalServerError:
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		default:
			reply.Answers = append(reply.Answers, batchError{Diagram: d, Error: err.Error()})
		}
	}
	writeJSON(w, http.StatusOK, reply)
}

// knownRun is the run the path names; for an unknown one it answers 404
// and returns nil.
func (s *Server) knownRun(w http.ResponseWriter, r *http.Request) Run {
	run := s.run(r)
	if run == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no run %q; the runs are %s", r.PathValue("run"), strings.Join(s.sortedNames(), ", ")))
	}
	return run
}

// probeStatus is the status of a probe's error: 400 for a bad diagram,
// 404 for a position not in the run, 500 for the rest (a corrupt
// tablebase).
func probeStatus(err error) int {
	switch {
	case errors.Is(err, probe.ErrBadDiagram):
		return http.StatusBadRequest
	case errors.Is(err, probe.ErrNotInRun):
		return http.StatusNotFound
	}
	return http.StatusInternalServerError
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		code = http.StatusInternalServerError
		data, _ = json.Marshal(errorReply{Error: "encode the answer: " + err.Error()})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(data, '\n'))
}

// writeError answers {"error": msg}, msg on one line.
func writeError(w http.ResponseWriter, code int, msg string) {
	msg = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(msg)
	writeJSON(w, code, errorReply{Error: msg})
}

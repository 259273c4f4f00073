package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/games"
)

// progress tells a person how a run is going: a line redrawn in place on a
// terminal, plain lines otherwise, nothing with --quiet.
type progress struct {
	w        io.Writer
	quiet    bool
	terminal bool
	maxTier  int
	last     time.Time
}

func newProgress(w *os.File, quiet bool, g games.Game) *progress {
	fi, err := w.Stat()
	return &progress{w: w, quiet: quiet, terminal: err == nil && fi.Mode()&os.ModeCharDevice != 0, maxTier: g.MaxTier()}
}

func (p *progress) update(pr coordinator.Progress) {
	if p.quiet {
		return
	}
	rate := float64(pr.Positions) / max(pr.Elapsed.Seconds(), 1e-9)
	line := fmt.Sprintf("tier %d of at most %d  positions %d  %.0f positions/s  %s", pr.Tier, p.maxTier, pr.Positions, rate, pr.Elapsed.Round(time.Millisecond))
	if pr.Stage != "tier" {
		line = fmt.Sprintf("%s: pieces and classes  positions %d  %s", pr.Stage, pr.Positions, pr.Elapsed.Round(time.Millisecond))
	}
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		return
	}
	// Plain lines at most every few seconds, so logs stay short.
	if time.Since(p.last) >= 5*time.Second || pr.Stage != "tier" {
		fmt.Fprintln(p.w, line)
		p.last = time.Now()
	}
}

func (p *progress) done() {
	if p.terminal && !p.quiet {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

func (p *progress) finish(res *coordinator.Result, dir string) {
	if p.quiet {
		return
	}
	p.done()
	s := res.Summary
	fmt.Fprintf(p.w, "%s %s: %d positions, %d moves, %d tiers, %d translated live pieces -> %s\n",
		s.Game, s.Board, s.Positions, s.Moves, s.Tiers, s.PiecesTranslated, dir)
}

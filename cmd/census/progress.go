package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/census-cgt/census/coordinator"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/runstate"
)

// progress tells a person how a run is going: a bar redrawn in place on a
// terminal, a plain line every few seconds otherwise, nothing with --quiet.
type progress struct {
	w        io.Writer
	quiet    bool
	terminal bool
	every    time.Duration
	last     time.Time
	stage    string
	drawn    bool
}

func newProgress(w *os.File, quiet bool, g games.Game) *progress {
	fi, err := w.Stat()
	return &progress{w: w, quiet: quiet, terminal: err == nil && fi.Mode()&os.ModeCharDevice != 0, every: 10 * time.Second}
}

func (p *progress) update(pr coordinator.Progress) {
	if p.quiet {
		return
	}
	if p.terminal {
		// Redraw at most ten times a second.
		if time.Since(p.last) < 100*time.Millisecond && pr.Stage == p.stage {
			return
		}
		p.last, p.stage, p.drawn = time.Now(), pr.Stage, true
		fmt.Fprintf(p.w, "\r\033[K%s %s", bar(pr, 24), describe(pr))
		return
	}
	if pr.Stage != p.stage || time.Since(p.last) >= p.every {
		p.last, p.stage = time.Now(), pr.Stage
		fmt.Fprintf(p.w, "census: %s\n", describe(pr))
	}
}

// describe is one line of progress: tier k/n, positions, rate, ETA.
func describe(pr coordinator.Progress) string {
	rate := float64(pr.Positions) / max(pr.Elapsed.Seconds(), 1e-3)
	var sb strings.Builder
	switch pr.Stage {
	case runstate.StageTier:
		fmt.Fprintf(&sb, "tier %d/%d", pr.Tier, pr.MaxTier)
	default:
		fmt.Fprintf(&sb, "%s", pr.Stage)
	}
	if pr.JobsTotal > 0 {
		fmt.Fprintf(&sb, "  jobs %d/%d", pr.JobsDone, pr.JobsTotal)
	}
	fmt.Fprintf(&sb, "  %d positions  %.0f positions/s  %s", pr.Positions, rate, pr.Elapsed.Round(time.Second))
	if pr.ETA > 0 {
		fmt.Fprintf(&sb, "  ETA %s", pr.ETA.Round(time.Second))
	}
	return sb.String()
}

// bar draws the share of the run done, counting tiers and the reductions.
func bar(pr coordinator.Progress, width int) string {
	units := float64(pr.MaxTier + 2)
	done := float64(pr.Tier)
	switch pr.Stage {
	case runstate.StagePieces, runstate.StageClasses:
		done = units - 1
	case runstate.StageOutputs, runstate.StageDone:
		done = units
	}
	if pr.JobsTotal > 0 {
		done += float64(pr.JobsDone) / float64(pr.JobsTotal)
	}
	n := int(float64(width) * min(done/units, 1))
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]"
}

func (p *progress) done() {
	if p.terminal && p.drawn && !p.quiet {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
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

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
	stage := pr.Stage
	if pr.NATSWait > 0 {
		stage += " waiting" // a wait begun or ended prints at once
	}
	p.show(stage, describe(pr), func(width int) string { return bar(pr, width) })
}

// updateValues shows the progress of a values stage.
func (p *progress) updateValues(vp coordinator.ValuesProgress) {
	p.show(fmt.Sprintf("values %s %d", vp.Stage, vp.Level), describeValues(vp), func(width int) string {
		done := float64(vp.Level)
		if vp.JobsTotal > 0 {
			done += float64(vp.JobsDone) / float64(vp.JobsTotal)
		}
		return drawBar(done/float64(max(vp.Levels, 1)), width)
	})
}

// show draws a line of progress of stage: redrawn in place with its bar on
// a terminal, printed when the stage changes or every p.every otherwise.
func (p *progress) show(stage, line string, bar func(width int) string) {
	if p.quiet {
		return
	}
	if p.terminal {
		// Redraw at most ten times a second.
		if time.Since(p.last) < 100*time.Millisecond && stage == p.stage {
			return
		}
		p.last, p.stage, p.drawn = time.Now(), stage, true
		fmt.Fprintf(p.w, "\r\033[K%s %s", bar(24), line)
		return
	}
	if stage != p.stage || time.Since(p.last) >= p.every {
		p.last, p.stage = time.Now(), stage
		fmt.Fprintf(p.w, "census: %s\n", line)
	}
}

// describeValues is one line of a values stage's progress: the level
// (piece size) being valued, its jobs and the pieces of the levels done.
func describeValues(vp coordinator.ValuesProgress) string {
	var sb strings.Builder
	if vp.Stage == coordinator.ValuesStageOutputs {
		fmt.Fprintf(&sb, "values: writing the value columns")
	} else {
		fmt.Fprintf(&sb, "values: level %d/%d (size %d)", min(vp.Level+1, vp.Levels), vp.Levels, vp.Size)
	}
	if vp.JobsTotal > 0 {
		fmt.Fprintf(&sb, "  jobs %d/%d", vp.JobsDone, vp.JobsTotal)
	}
	fmt.Fprintf(&sb, "  %d/%d pieces valued  %s", vp.PiecesDone, vp.Pieces, vp.Elapsed.Round(time.Second))
	return sb.String()
}

// describe is one line of progress: tier k/n, positions, the rate of the
// tiers in positions per second, ETA.
func describe(pr coordinator.Progress) string {
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
	fmt.Fprintf(&sb, "  %d positions", pr.Positions)
	if pr.Rate > 0 {
		fmt.Fprintf(&sb, "  %.0f positions/s", pr.Rate)
	}
	if pr.StoreBytes > 0 {
		fmt.Fprintf(&sb, "  store %s", coordinator.ByteSize(pr.StoreBytes))
	}
	fmt.Fprintf(&sb, "  %s", pr.Elapsed.Round(time.Second))
	if pr.ETA > 0 {
		fmt.Fprintf(&sb, "  ETA %s", pr.ETA.Round(time.Second))
	}
	if pr.NATSWait > 0 {
		fmt.Fprintf(&sb, "  waiting for NATS (%s)", pr.NATSWait.Round(time.Second))
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
	return drawBar(done/units, width)
}

// drawBar draws a bar of width characters, the share done of it filled.
func drawBar(share float64, width int) string {
	n := int(float64(width) * min(max(share, 0), 1))
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

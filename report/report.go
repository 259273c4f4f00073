package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/census-cgt/census/schema"
)

// Options say what Write writes besides report.html.
type Options struct {
	// PNG also writes every chart as DIR/report/RUN-CHART.png, the
	// overlays as DIR/report/all-CHART.png.
	PNG bool
	// Version is the census version the page names.
	Version string
}

// Output lists the files Write wrote.
type Output struct {
	// Runs are the runs reported, in report order.
	Runs []Run
	// HTML is the path of report.html.
	HTML string
	// PNGs are the paths of the PNG files, when Options.PNG is set.
	PNGs []string
}

// HTMLName and PNGDir are where Write puts its files inside the directory.
const (
	HTMLName = "report.html"
	PNGDir   = "report"
)

// Write writes dir/report.html for every run under dir (see Find) and,
// with o.PNG, the charts as PNG files under dir/report. Every chart is
// drawn before any file is written, and each file is written atomically,
// report.html last. It returns an error wrapping ErrNoRuns when dir holds
// no run, Find's errors for runs it cannot read, and an error when a chart
// cannot be drawn or a file cannot be written.
func Write(dir string, o Options) (Output, error) {
	runs, err := Find(dir)
	if err != nil {
		return Output{}, err
	}
	charts := make(map[string][]*chart, len(runs))
	for _, r := range runs {
		if charts[r.ID], err = runCharts(r); err != nil {
			return Output{}, err
		}
	}
	var overlays []*chart
	if tiered := tieredRuns(runs); len(tiered) > 1 {
		if overlays, err = overlayCharts(tiered); err != nil {
			return Output{}, err
		}
	}
	pg, err := newPage(dir, o.Version, runs, charts, overlays)
	if err != nil {
		return Output{}, err
	}
	var html bytes.Buffer
	if err := pg.write(&html); err != nil {
		return Output{}, fmt.Errorf("lay out %s: %w", HTMLName, err)
	}
	pngs := map[string][]byte{}
	if o.PNG {
		if pngs, err = drawPNGs(runs, charts, overlays); err != nil {
			return Output{}, err
		}
	}

	out := Output{Runs: runs, HTML: filepath.Join(dir, HTMLName)}
	if o.PNG {
		pdir := filepath.Join(dir, PNGDir)
		if err := os.MkdirAll(pdir, 0o755); err != nil {
			return Output{}, fmt.Errorf("create %s: %w", pdir, err)
		}
		for _, name := range pngNames(runs, charts, overlays) {
			path := filepath.Join(pdir, name)
			if err := writeFile(path, pngs[name]); err != nil {
				return Output{}, err
			}
			out.PNGs = append(out.PNGs, path)
		}
	}
	if err := writeFile(out.HTML, html.Bytes()); err != nil {
		return Output{}, err
	}
	return out, nil
}

// tieredRuns returns the runs of runs that have tiers, which the
// comparison table and the overlays compare; a loopy game's census has
// its own section only.
func tieredRuns(runs []Run) []Run {
	var tiered []Run
	for _, r := range runs {
		if r.Loopy == nil {
			tiered = append(tiered, r)
		}
	}
	return tiered
}

// pngNames returns the names of the PNG files in report order: each
// run's charts, then the overlays.
func pngNames(runs []Run, charts map[string][]*chart, overlays []*chart) []string {
	var names []string
	for _, r := range runs {
		for _, ch := range charts[r.ID] {
			names = append(names, r.ID+"-"+ch.Name+".png")
		}
	}
	for _, ch := range overlays {
		names = append(names, "all-"+ch.Name+".png")
	}
	return names
}

// drawPNGs draws every chart as PNG, by file name.
func drawPNGs(runs []Run, charts map[string][]*chart, overlays []*chart) (map[string][]byte, error) {
	pngs := map[string][]byte{}
	add := func(name string, ch *chart) error {
		b, err := ch.PNG()
		if err != nil {
			return err
		}
		pngs[name] = b
		return nil
	}
	for _, r := range runs {
		for _, ch := range charts[r.ID] {
			if err := add(r.ID+"-"+ch.Name+".png", ch); err != nil {
				return nil, fmt.Errorf("chart of %s: %w", r.ID, err)
			}
		}
	}
	for _, ch := range overlays {
		if err := add("all-"+ch.Name+".png", ch); err != nil {
			return nil, fmt.Errorf("overlay chart: %w", err)
		}
	}
	return pngs, nil
}

func writeFile(path string, data []byte) error {
	return schema.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

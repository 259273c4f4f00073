package report

import (
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/census-cgt/census/internal/testbin"
)

// browse runs the headless browser on the page with extra flags and
// returns its standard output. The page is a local file; the browser
// gets a profile of its own, removed after the test.
func browse(t *testing.T, browser, page string, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append([]string{"--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}, flags...)
	cmd := exec.CommandContext(ctx, browser, append(args, "file://"+page)...)
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", browser, flags, err, errs.String())
	}
	return out.String()
}

// colours counts the distinct colours in r of img.
func colours(img image.Image, r image.Rectangle) int {
	seen := map[[4]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, b, a}] = true
		}
	}
	return len(seen)
}

// TestBrowserRendersCharts renders the report in a headless browser: every
// chart survives parsing as HTML, and the screenshot shows charts.
func TestBrowserRendersCharts(t *testing.T) {
	browser := testbin.Chromium(t)
	dir, out := publishedReport(t)
	page, err := filepath.Abs(filepath.Join(dir, HTMLName))
	if err != nil {
		t.Fatal(err)
	}

	// One run of the browser both prints the page as parsed and rendered
	// and takes the screenshot.
	shot := filepath.Join(t.TempDir(), "report.png")
	dom := browse(t, browser, page, "--dump-dom", "--screenshot="+shot, "--window-size=1400,4000")
	want := 2 + 5 // the overlays, and the edge-rule joins of the two Amazons runs
	for _, r := range out.Runs {
		if r.Loopy != nil {
			want++ // the random player
		} else {
			want += 4
		}
		if r.Summary.Solved != nil {
			want++ // the outcome classes by tier
		}
	}
	if got := strings.Count(dom, "<svg"); got != want {
		t.Errorf("the rendered page holds %d <svg>, want %d", got, want)
	}
	if got := strings.Count(dom, "</svg>"); got != want {
		t.Errorf("the rendered page closes %d <svg>, want %d", got, want)
	}

	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1400 || b.Dy() != 4000 {
		t.Errorf("screenshot is %v, want 1400x4000", b.Size())
	}
	// Below the comparison table come the overlaid charts: coloured lines
	// of ten runs, with anti-aliasing, give hundreds of colours. A blank or
	// unstyled page gives a few.
	charts := image.Rect(0, 600, 1400, 2600)
	t.Logf("chart area: %d colours, %.1f%% ink", colours(img, charts), 100*inkShare(img, charts))
	if n := colours(img, charts); n < 200 {
		t.Errorf("the chart area of the screenshot has %d colours, want at least 200", n)
	}
	if share := inkShare(img, charts); share < 0.03 {
		t.Errorf("%.1f%% of the chart area is not white, want at least 3%%", 100*share)
	}
}

// inkShare is the share of the pixels of r that are not white.
func inkShare(img image.Image, r image.Rectangle) float64 {
	ink := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r < 0xf000 || g < 0xf000 || b < 0xf000 {
				ink++
			}
		}
	}
	return float64(ink) / float64(r.Dx()*r.Dy())
}

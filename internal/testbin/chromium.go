package testbin

import (
	"os"
	"os/exec"
	"testing"
)

// Chromium returns the path of a headless browser for a test that renders
// or drives a page. Without one the test is skipped, except on CI
// (CI=true), where it fails: .ci/run installs Debian's chromium package.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no chromium on PATH; CI must install the Debian package chromium")
	}
	t.Skip("no chromium on PATH (install the Debian package chromium)")
	return ""
}

package testbin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// SeaweedFS is the S3-compatible server the S3 store's tests, the Docker
// cluster test and the chaos script run against: the `weed` binary of
// github.com/seaweedfs/seaweedfs at SeaweedFSVersion, built from the Go
// module proxy. Its go.mod has replace directives, so it cannot be built
// with `go install module@version`: BuildSeaweedFS downloads the module,
// copies its source tree to a temporary directory and builds ./weed there
// (static, CGO_ENABLED=0; minutes, and a binary of a few hundred MB), once
// per version, under a file lock of its own, into the cache the census
// binaries share. Tests never build it: they ask SeaweedFSBinary, which
// only looks, and skip without it (fail with CI=true). scripts/seaweedfs.sh
// builds it, and .ci/run calls that before `go test ./...`.
const (
	SeaweedFSModule  = "github.com/seaweedfs/seaweedfs"
	SeaweedFSVersion = "v0.0.0-20261109003541-7506e5f91cd6"
	// SeaweedFSEnv names a weed binary to use instead of the cached one.
	SeaweedFSEnv = "CENSUS_SEAWEEDFS"
)

// ErrNoSeaweedFS is wrapped by SeaweedFSBinary's error when the binary is
// not built.
var ErrNoSeaweedFS = errors.New("the SeaweedFS binary is not built (run scripts/seaweedfs.sh)")

// seaweedDir is the cache directory of the SeaweedFS binary of this
// version, OS and architecture. prune leaves it alone: it is built from a
// fixed version, not from the module's sources, and a rebuild costs
// minutes.
func seaweedDir(cache string) string {
	return filepath.Join(cache, seaweedPrefix+SeaweedFSVersion+"-"+runtime.GOOS+"-"+runtime.GOARCH)
}

const seaweedPrefix = "seaweedfs-"

// SeaweedFSBinary returns the path of the weed binary: $CENSUS_SEAWEEDFS
// when set, else the cached build. It builds nothing; when there is no
// binary the error wraps ErrNoSeaweedFS.
func SeaweedFSBinary() (string, error) {
	if p := os.Getenv(SeaweedFSEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", SeaweedFSEnv, p, err)
		}
		return p, nil
	}
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(seaweedDir(cache), "weed")
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("%w: no %s", ErrNoSeaweedFS, bin)
	}
	return bin, nil
}

// BuildSeaweedFS returns the path of the cached weed binary, building it
// first when it is missing; progress goes to log. Concurrent callers, in
// this process or others, wait for one build.
func BuildSeaweedFS(log io.Writer) (string, error) {
	if p := os.Getenv(SeaweedFSEnv); p != "" {
		return SeaweedFSBinary()
	}
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	dir := seaweedDir(cache)
	bin := filepath.Join(dir, "weed")
	unlock, err := lock(filepath.Join(cache, "seaweedfs.lock"))
	if err != nil {
		return "", fmt.Errorf("lock the SeaweedFS cache %s: %w", cache, err)
	}
	defer unlock()
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	start := time.Now()
	if err := buildSeaweedFS(dir, bin, log); err != nil {
		return "", fmt.Errorf("build SeaweedFS %s: %w", SeaweedFSVersion, err)
	}
	fmt.Fprintf(log, "testbin: built SeaweedFS %s in %s: %s\n", SeaweedFSVersion, time.Since(start).Round(time.Second), bin)
	return bin, nil
}

func buildSeaweedFS(dir, bin string, log io.Writer) error {
	work, err := os.MkdirTemp("", "census-seaweedfs-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	// Outside any module, so that the download touches no go.mod.
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=0")
	fmt.Fprintf(log, "testbin: downloading %s@%s\n", SeaweedFSModule, SeaweedFSVersion)
	dl := exec.Command("go", "mod", "download", "-json", SeaweedFSModule+"@"+SeaweedFSVersion)
	dl.Dir, dl.Env = work, env
	out, err := dl.Output()
	var mod struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &mod); jerr != nil && err == nil {
		err = fmt.Errorf("read go mod download's answer: %w", jerr)
	}
	if mod.Error != "" {
		err = errors.New(mod.Error)
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("go mod download: %w\n%s", err, ee.Stderr)
		}
		return fmt.Errorf("go mod download: %w", err)
	}
	// The module cache's copy is read-only; CopyFS makes a writable one.
	src := filepath.Join(work, "src")
	if err := os.CopyFS(src, os.DirFS(mod.Dir)); err != nil {
		return fmt.Errorf("copy the module's source tree: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.tmp-%d", bin, os.Getpid())
	fmt.Fprintf(log, "testbin: building ./weed in %s (several minutes on a cold build cache)\n", src)
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", tmp, "./weed")
	build.Dir, build.Env = src, env
	if out, err := build.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("go build ./weed: %w\n%s", err, tailLines(string(out), 40))
	}
	return os.Rename(tmp, bin)
}

// tailLines is the last n lines of s.
func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

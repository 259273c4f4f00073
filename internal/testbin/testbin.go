// Package testbin builds the census binaries that tests run as processes,
// once per source tree, into a cache shared by every test package.
//
// `go test ./...` runs the test binaries of several packages at once; each
// that runs census as a process used to build it itself, inside its tests'
// time bounds, and on a busy machine with a cold build cache two packages
// compiled the same binary side by side for minutes. Here a binary is
// built under a file lock into a directory named by a hash of everything it
// is built from (the Go version, the build flags, go.mod, go.sum and the
// source files of the module's packages it depends on), so the first
// package to ask builds it and the others wait for that build and reuse it.
// Call it from TestMain, before m.Run, so that no test's time bound
// includes the build.
package testbin

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// A Variant is how a binary is built.
type Variant int

const (
	// Plain is `go build` with the defaults: what a developer runs.
	Plain Variant = iota
	// Static is the binary of the Docker image: CGO_ENABLED=0, -trimpath,
	// stripped, with a version set through -ldflags.
	Static
)

func (v Variant) String() string {
	if v == Static {
		return "static"
	}
	return "plain"
}

// CacheEnv names the environment variable that overrides the cache
// directory.
const CacheEnv = "CENSUS_TESTBIN_CACHE"

// keep is how long a cached binary nobody asked for is kept.
const keep = 24 * time.Hour

// Census returns the path of the census binary of the module (./cmd/census)
// built as v. It fails when the module root cannot be found, or the build
// fails; the error holds the compiler's output.
func Census(v Variant) (string, error) {
	return Build("./cmd/census", v)
}

// Build returns the path of a binary of the main package pkg (a path
// relative to the module root, like ./cmd/census), built as v and cached.
// The version a Static binary reports is "test-" and the start of its
// cache key.
func Build(pkg string, v Variant) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return build(root, pkg, v)
}

// builds counts the builds this process ran, for the tests.
var builds atomic.Int64

// build builds pkg of the module at root.
func build(root, pkg string, v Variant) (string, error) {
	key, err := sourceKey(root, pkg, v)
	if err != nil {
		return "", err
	}
	cache, err := cacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, fmt.Sprintf("%s-%s-%s", filepath.Base(pkg), v, key[:16]))
	bin := filepath.Join(dir, filepath.Base(pkg))
	unlock, err := lock(filepath.Join(cache, "lock"))
	if err != nil {
		return "", fmt.Errorf("lock the test binary cache %s: %w", cache, err)
	}
	defer unlock()
	now := time.Now()
	if _, err := os.Stat(bin); err == nil {
		os.Chtimes(dir, now, now)
		return bin, nil
	}
	prune(cache, now)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create test binary directory: %w", err)
	}
	tmp := fmt.Sprintf("%s.tmp-%d", bin, os.Getpid())
	args := []string{"build", "-o", tmp}
	cmd := exec.Command("go")
	cmd.Dir = root
	cmd.Env = os.Environ()
	if v == Static {
		args = append(args, "-trimpath", "-ldflags", "-s -w -X main.version=test-"+key[:12])
		cmd.Env = append(cmd.Env, "CGO_ENABLED=0")
	}
	cmd.Args = append(cmd.Args, append(args, pkg)...)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("build %s (%s): %w\n%s", pkg, v, err, out)
	}
	builds.Add(1)
	if err := os.Rename(tmp, bin); err != nil {
		return "", fmt.Errorf("install test binary: %w", err)
	}
	fmt.Fprintf(os.Stderr, "testbin: built %s (%s) in %s\n", pkg, v, time.Since(start).Round(time.Millisecond))
	return bin, nil
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("find the module root: go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("find the module root: not in a module")
	}
	return filepath.Dir(gomod), nil
}

// sourceKey hashes what a build of pkg as v depends on: the go command's
// version and settings, the variant, go.mod and go.sum (which fix every other module),
// and the name and contents of every file of the main module's packages
// that pkg imports. `go list` reads only sources, so the key costs no
// compilation.
func sourceKey(root, pkg string, v Variant) (string, error) {
	cmd := exec.Command("go", "list", "-deps",
		"-f", `{{if .Module}}{{if .Module.Main}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{range .CgoFiles}} {{.}}{{end}}{{range .EmbedFiles}} {{.}}{{end}}{{end}}{{end}}`,
		pkg)
	cmd.Dir = root
	if v == Static {
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	}
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("list the sources of %s: %w\n%s", pkg, err, ee.Stderr)
		}
		return "", fmt.Errorf("list the sources of %s: %w", pkg, err)
	}
	// The toolchain and the settings that change what go build makes.
	env := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT")
	if v == Static {
		env.Env = append(os.Environ(), "CGO_ENABLED=0")
	}
	ver, err := env.Output()
	if err != nil {
		return "", fmt.Errorf("go env: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", bytes.TrimSpace(ver), v, pkg)
	files := []string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		for _, f := range fields[1:] {
			files = append(files, filepath.Join(fields[0], f))
		}
	}
	// The main package's profile, if it has one, changes the build too.
	files = append(files, filepath.Join(root, pkg, "default.pgo"))
	for _, f := range files {
		if err := hashFile(h, root, f); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(h io.Writer, root, path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) && (filepath.Base(path) == "go.sum" || filepath.Base(path) == "default.pgo") {
		return nil
	}
	if err != nil {
		return fmt.Errorf("hash sources: %w", err)
	}
	defer f.Close()
	rel, _ := filepath.Rel(root, path)
	fmt.Fprintf(h, "%s\x00", filepath.ToSlash(rel))
	n, err := io.Copy(h, f)
	if err != nil {
		return fmt.Errorf("hash sources: read %s: %w", path, err)
	}
	fmt.Fprintf(h, "\x00%d\x00", n)
	return nil
}

// cacheDir is $CENSUS_TESTBIN_CACHE, or census-testbin in the user's cache
// directory (the temporary directory when there is none).
func cacheDir() (string, error) {
	dir := os.Getenv(CacheEnv)
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		dir = filepath.Join(base, "census-testbin")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create the test binary cache: %w", err)
	}
	return dir, nil
}

// prune removes the binaries nobody asked for within keep: each edit of
// the sources makes a new one. It runs under the lock. The SeaweedFS
// binary stays: it depends on its version alone.
func prune(cache string, now time.Time) {
	entries, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), seaweedPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > keep {
			os.RemoveAll(filepath.Join(cache, e.Name()))
		}
	}
}

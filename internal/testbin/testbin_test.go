package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// module writes a module with one main package that prints msg.
func module(t *testing.T, dir, msg string) {
	t.Helper()
	files := map[string]string{
		"go.mod":            "module example.com/hello\n\ngo 1.22\n",
		"cmd/hello/main.go": "package main\n\nimport \"fmt\"\n\nvar version = \"dev\"\n\nfunc main() { fmt.Println(" + `"` + msg + `"` + ", version) }\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func run(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestBuildOncePerSource(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go build")
	}
	t.Setenv(CacheEnv, t.TempDir())
	root := t.TempDir()
	module(t, root, "one")
	before := builds.Load()

	// Four concurrent callers, as four test packages of one go test run:
	// one build, one binary.
	paths := make([]string, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() { paths[i], errs[i] = build(root, "./cmd/hello", Plain) })
	}
	wg.Wait()
	for i := range paths {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if paths[i] != paths[0] {
			t.Fatalf("callers got %s and %s", paths[0], paths[i])
		}
	}
	if n := builds.Load() - before; n != 1 {
		t.Errorf("%d builds for four callers of one source tree, want 1", n)
	}
	if got := run(t, paths[0]); got != "one dev" {
		t.Errorf("the binary prints %q, want %q", got, "one dev")
	}

	// An edited source is another binary.
	module(t, root, "two")
	edited, err := build(root, "./cmd/hello", Plain)
	if err != nil {
		t.Fatal(err)
	}
	if edited == paths[0] {
		t.Fatalf("an edited source reuses %s", edited)
	}
	if got := run(t, edited); got != "two dev" {
		t.Errorf("the rebuilt binary prints %q, want %q", got, "two dev")
	}
	if n := builds.Load() - before; n != 2 {
		t.Errorf("%d builds for two source trees, want 2", n)
	}
}

func TestStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go build")
	}
	t.Setenv(CacheEnv, t.TempDir())
	root := t.TempDir()
	module(t, root, "static")
	bin, err := build(root, "./cmd/hello", Static)
	if err != nil {
		t.Fatal(err)
	}
	got := run(t, bin)
	if !strings.HasPrefix(got, "static test-") {
		t.Errorf("the static binary prints %q, want its version set to test-KEY", got)
	}
	out, err := exec.Command("go", "version", "-m", bin).CombinedOutput()
	if err != nil {
		t.Fatalf("go version -m: %v\n%s", err, out)
	}
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath=true"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("go version -m lacks %q:\n%s", want, out)
		}
	}
	plain, err := build(root, "./cmd/hello", Plain)
	if err != nil {
		t.Fatal(err)
	}
	if plain == bin {
		t.Error("the plain and static variants share a binary")
	}
}

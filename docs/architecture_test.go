// Package docs holds the project's documentation; its one test keeps
// architecture.md's layers true of the code.
package docs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/census-cgt/census"

// pkg is what go list says of one package.
type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// TestLayers checks the imports of every package of the module against
// the layers architecture.md writes down: a package imports only packages
// of lower layers or of its own top-level folder; the top-level folders'
// imports have no loop; and internal/ is imported by tests alone.
func TestLayers(t *testing.T) {
	layers, err := readLayers("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := listPackages(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages of %s: too few to be the module", len(pkgs), module)
	}
	for _, p := range pkgs {
		for _, msg := range checkPackage(p, layers) {
			t.Error(msg)
		}
	}
	if loop := folderLoop(pkgs); loop != nil {
		t.Errorf("the top-level folders import each other in a loop: %s", strings.Join(loop, " -> "))
	}
}

// TestLayersCatch checks that the rules above catch what they are there
// to catch, on made-up packages.
func TestLayersCatch(t *testing.T) {
	layers := map[string]int{"games": 0, "internal": 1, "jobs": 2, "coordinator": 3}
	for _, c := range []struct {
		p    pkg
		want string
	}{
		{pkg{ImportPath: module + "/games", Imports: []string{module + "/jobs"}}, "back up"},
		{pkg{ImportPath: module + "/jobs", Imports: []string{module + "/internal/refsolve"}}, "internal"},
		{pkg{ImportPath: module + "/nowhere"}, "no layer"},
		{pkg{ImportPath: module + "/coordinator", Imports: []string{module + "/jobs", module + "/games"}, TestImports: []string{module + "/internal/refsolve"}}, ""},
		{pkg{ImportPath: module + "/jobs/jobstest", Imports: []string{module + "/internal/refsolve"}}, ""},
	} {
		got := strings.Join(checkPackage(c.p, layers), "; ")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s importing %v: got %q, want a message with %q", c.p.ImportPath, c.p.Imports, got, c.want)
		}
	}
	loop := folderLoop([]pkg{
		{ImportPath: module + "/a", Imports: []string{module + "/b/c"}},
		{ImportPath: module + "/b/c", Imports: []string{module + "/a"}},
	})
	if len(loop) == 0 {
		t.Error("folderLoop found no loop in a -> b -> a")
	}
}

// readLayers reads the fenced block marked "layers" of the file: a
// line a layer, the top one first, "name: folder folder ...". It returns
// each folder's layer, 0 the lowest.
func readLayers(file string) (map[string]int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var lines []string
	in := false
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		switch {
		case line == "```layers":
			in = true
		case in && line == "```":
			in = false
		case in && line != "":
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s has no ```layers block", file)
	}
	layers := map[string]int{}
	for i, line := range lines {
		_, folders, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s: layers line %q has no colon", file, line)
		}
		for _, f := range strings.Fields(folders) {
			if _, dup := layers[f]; dup {
				return nil, fmt.Errorf("%s: folder %s is in two layers", file, f)
			}
			layers[f] = len(lines) - 1 - i
		}
	}
	return layers, nil
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	// Without -pgo=off, go list names the packages cmd/census imports
	// after the profile it builds them with ("pkg [.../cmd/census]").
	cmd := exec.Command("go", "list", "-pgo=off", "-e", "-json=ImportPath,Imports,TestImports,XTestImports", "./...")
	cmd.Dir = ".."
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	d := json.NewDecoder(bytes.NewReader(out))
	for d.More() {
		var p pkg
		if err := d.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// rel is the path of a package of the module within it, "" for another
// module's.
func rel(imp string) (string, bool) {
	r, ok := strings.CutPrefix(imp, module+"/")
	return r, ok
}

// top is the top-level folder of a path within the module.
func top(r string) string {
	f, _, _ := strings.Cut(r, "/")
	return f
}

func inInternal(r string) bool { return top(r) == "internal" }

// testHelper says whether a package exists for tests alone: its name ends
// in "test" (probe/probetest, games/kerneltest).
func testHelper(r string) bool { return strings.HasSuffix(path.Base(r), "test") }

// checkPackage returns what is wrong with p's imports.
func checkPackage(p pkg, layers map[string]int) []string {
	r, ok := rel(p.ImportPath)
	if !ok {
		return nil
	}
	layer, ok := layers[top(r)]
	if !ok {
		return []string{fmt.Sprintf("%s: folder %s/ has no layer in architecture.md", r, top(r))}
	}
	var msgs []string
	for _, imp := range p.Imports {
		q, ok := rel(imp)
		if !ok {
			continue
		}
		if inInternal(q) && !inInternal(r) && !testHelper(r) {
			msgs = append(msgs, fmt.Sprintf("%s imports %s: internal/ is for tests and test helpers alone", r, q))
			continue
		}
		if top(q) == top(r) {
			continue
		}
		ql, ok := layers[top(q)]
		if !ok {
			msgs = append(msgs, fmt.Sprintf("%s imports %s, whose folder has no layer in architecture.md", r, q))
		} else if ql >= layer {
			msgs = append(msgs, fmt.Sprintf("%s (layer %d) imports %s (layer %d): an arrow back up or across the layers", r, layer, q, ql))
		}
	}
	return msgs
}

// folderLoop returns a loop of top-level folders in the packages'
// imports (tests left out), or nil.
func folderLoop(pkgs []pkg) []string {
	edges := map[string]map[string]bool{}
	for _, p := range pkgs {
		r, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			if q, ok := rel(imp); ok && top(q) != top(r) {
				if edges[top(r)] == nil {
					edges[top(r)] = map[string]bool{}
				}
				edges[top(r)][top(q)] = true
			}
		}
	}
	var folders []string
	for f := range edges {
		folders = append(folders, f)
	}
	sort.Strings(folders)
	state := map[string]int{} // 1 on the path, 2 done
	var path []string
	var visit func(f string) []string
	visit = func(f string) []string {
		switch state[f] {
		case 1:
			for i, g := range path {
				if g == f {
					return append(append([]string{}, path[i:]...), f)
				}
			}
		case 2:
			return nil
		}
		state[f] = 1
		path = append(path, f)
		var next []string
		for g := range edges[f] {
			next = append(next, g)
		}
		sort.Strings(next)
		for _, g := range next {
			if loop := visit(g); loop != nil {
				return loop
			}
		}
		path = path[:len(path)-1]
		state[f] = 2
		return nil
	}
	for _, f := range folders {
		if loop := visit(f); loop != nil {
			return loop
		}
	}
	return nil
}

package report

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/schema"
)

// node is an element of a parsed page.
type node struct {
	name     string
	attr     map[string]string
	children []*node
	text     strings.Builder
}

// parsePage parses the page at path as XML, strictly: the report is
// written to be well-formed XML as well as HTML.
func parsePage(t *testing.T, path string) *node {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	d.Strict = true
	root := &node{name: "#document"}
	stack := []*node{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed: %v", path, err)
		}
		top := stack[len(stack)-1]
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				key := a.Name.Local
				if a.Name.Space != "" {
					key = a.Name.Space + ":" + key
				}
				n.attr[key] = a.Value
			}
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, n := range stack[1:] {
				n.text.Write(tok)
			}
		}
	}
	if len(stack) != 1 {
		t.Fatalf("%s: %d elements left open", path, len(stack)-1)
	}
	return root
}

// all returns every element under n (n included) for which keep is true.
func (n *node) all(keep func(*node) bool) []*node {
	var out []*node
	if keep(n) {
		out = append(out, n)
	}
	for _, c := range n.children {
		out = append(out, c.all(keep)...)
	}
	return out
}

func named(name string) func(*node) bool {
	return func(n *node) bool { return n.name == name }
}

func withAttr(name, key, value string) func(*node) bool {
	return func(n *node) bool { return n.name == name && n.attr[key] == value }
}

// copyRuns copies the summary.json and tiers.parquet or states.parquet of every published
// run under results/ into a temporary directory, so that the report is
// written outside the repository, and returns that directory.
func copyRuns(t testing.TB, dst string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "results", "*", schema.SummaryJSONFile))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no published runs: %v", err)
	}
	for _, p := range paths {
		src := filepath.Dir(p)
		to := filepath.Join(dst, filepath.Base(src))
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		// A tiered run has tiers.parquet, a loopy game's census
		// states.parquet.
		for _, name := range []string{schema.SummaryJSONFile, schema.TiersFile, schema.StatesFile} {
			data, err := os.ReadFile(filepath.Join(src, name))
			if name != schema.SummaryJSONFile && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(to, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// rawSummary reads a summary.json on its own, not through the package, so
// that the test compares the page with the file.
func rawSummary(t *testing.T, path string) map[string]json.Number {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]any
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	if err := d.Decode(&all); err != nil {
		t.Fatal(err)
	}
	out := map[string]json.Number{}
	for k, v := range all {
		if n, ok := v.(json.Number); ok {
			out[k] = n
		}
	}
	return out
}

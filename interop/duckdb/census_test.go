package duckdb

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/census-cgt/census/schema"
)

// censusRun is one census the tests run: a game and a board of the spec, each
// finished in seconds, and whether the run is solved (census run --solve).
type censusRun struct {
	game, board string
	solve       bool
}

// name is the run's directory under the output directory, GAME-BOARD.
func (r censusRun) name() string { return r.game + "-" + r.board }

// censusRuns are the spec's boards with reference numbers. All but one are
// solved, so the queries meet tiers files with and without the outcome
// columns in one glob.
var censusRuns = []censusRun{
	{game: "clobber", board: "4x4", solve: true},
	{game: "clobber", board: "3x4", solve: true},
	{game: "domineering", board: "4x4", solve: true},
	{game: "amazons", board: "3x4"},
}

// outputs is what every test reads: one output directory holding all the
// runs, with each run's summary.json.
type outputs struct {
	dir string
	// summaries holds summary.json of each run by run name, decoded with
	// encoding/json.
	summaries map[string]schema.Summary
	// raw holds the same files decoded into generic maps, so a query's
	// column can be compared to the summary key of the same name.
	raw map[string]map[string]any
}

var (
	outputsOnce sync.Once
	sharedOut   *outputs
	outputsErr  error
	// workDir holds the census binary and the outputs for the whole test
	// binary; TestMain removes it.
	workDir string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "census-duckdb-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "make temp dir:", err)
		os.Exit(1)
	}
	workDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// censusOutputs builds the census binary and runs every census once per test
// binary; the tests share the outputs, which they only read.
func censusOutputs(t *testing.T) *outputs {
	t.Helper()
	outputsOnce.Do(func() { sharedOut, outputsErr = makeOutputs(workDir) })
	if outputsErr != nil {
		t.Fatal(outputsErr)
	}
	return sharedOut
}

func makeOutputs(dir string) (*outputs, error) {
	bin, err := buildCensus(dir)
	if err != nil {
		return nil, err
	}
	o := &outputs{
		dir:       filepath.Join(dir, "out"),
		summaries: map[string]schema.Summary{},
		raw:       map[string]map[string]any{},
	}
	for _, r := range censusRuns {
		args := []string{"run", r.game, r.board, "--out", o.dir, "--quiet", "--metrics-addr", ""}
		// Every run writes its positions table, since the documented
		// queries read it for more than one run.
		args = append(args, "--positions")
		// Every run is valued too, for the queries over the value columns.
		args = append(args, "--values")
		if r.solve {
			args = append(args, "--solve")
		}
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("census %s: %w: %s", strings.Join(args, " "), err, out)
		}
		if err := o.readSummary(r.name()); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// buildCensus builds the census binary of the parent module without cgo, as
// it ships, and returns its path.
func buildCensus(dir string) (string, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", fmt.Errorf("find the census module: %w", err)
	}
	bin := filepath.Join(dir, "census")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/census")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build census in %s: %w: %s", root, err, out)
	}
	return bin, nil
}

func (o *outputs) readSummary(run string) error {
	data, err := os.ReadFile(filepath.Join(o.dir, run, "summary.json"))
	if err != nil {
		return fmt.Errorf("read summary of %s: %w", run, err)
	}
	var s schema.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("decode summary of %s: %w", run, err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("decode summary of %s: %w", run, err)
	}
	o.summaries[run] = s
	o.raw[run] = raw
	return nil
}

// summary returns the summary of the run GAME-BOARD, failing the test when
// the query named a run the tests did not make.
func (o *outputs) summary(t *testing.T, game, board string) schema.Summary {
	t.Helper()
	s, ok := o.summaries[game+"-"+board]
	if !ok {
		t.Fatalf("query returned run %s-%s, which the tests did not run", game, board)
	}
	return s
}

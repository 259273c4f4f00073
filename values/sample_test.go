package values

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
)

var resultsSample = flag.Int("results-sample", 100,
	"pieces of each larger board of results/ that TestOutcomeResults checks against brute force (the published check: 10000)")

// resultsBoards lists the boards of the three games published under
// results/ that have more than 12 squares (the smaller ones are all in
// boards), read from their summary.json files.
func resultsBoards(tb testing.TB) []struct{ game, board string } {
	files, err := filepath.Glob(filepath.Join("..", "results", "*", "summary.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no summaries under results/: %v", err)
	}
	var out []struct{ game, board string }
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var s struct{ Game, Board string }
		if err := json.Unmarshal(data, &s); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		if !slices.Contains(all.Names, s.Game) {
			continue
		}
		rows, cols, err := games.ParseBoard(s.Board)
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		if rows*cols > 12 {
			out = append(out, struct{ game, board string }{s.Game, s.Board})
		}
	}
	return out
}

// sampleMaxSize is the largest piece (stones for Clobber, squares
// otherwise) that TestOutcomeResults samples: brute force solves a piece by
// search over every position it leads to, which for the largest pieces of
// these boards is the census of the board itself (Domineering 6x6: 768
// million positions), far past a test's memory.
var sampleMaxSize = map[string]int{"clobber": 14, "domineering": 16, "amazons": 12}

// samplePieces returns n distinct translated live pieces of at most maxSize
// of positions of g reached by random walks from the start (any move of
// either player, as the census counts positions), each walk stopping after
// a number of moves drawn uniformly from 0 to the number of squares, so
// that pieces of every size are drawn. It gives up after 50n walks.
func samplePieces(g games.Game, n, maxSize int, rng *rand.Rand) []games.PieceKey {
	seen := map[games.PieceKey]bool{}
	var out []games.PieceKey
	ms := games.NewMoveStats(false)
	var pieces []games.Piece
	var succ []uint64
	squares := g.Board().Rows * g.Board().Cols
	for walks := 0; len(out) < n && walks < 50*n; walks++ {
		pos := g.Start()
		for range rng.IntN(squares + 1) {
			pieces = g.Pieces(pos, pieces[:0])
			succ = g.Expand(g.DeadFree(pos, pieces), pieces, succ[:0], ms, 1)
			if len(succ) == 0 {
				break
			}
			pos = succ[rng.IntN(len(succ))]
		}
		var live []games.PieceKey
		for _, p := range g.Pieces(pos, pieces[:0]) {
			if k := g.Translate(p.Key); p.Live && g.Size(k) <= maxSize {
				live = append(live, k)
			}
		}
		if len(live) == 0 {
			continue
		}
		if k := live[rng.IntN(len(live))]; !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// TestOutcomeResults checks the outcome class of a sample of the live
// pieces of every larger board published under results/, up to
// sampleMaxSize, against brute force: -results-sample pieces a board (go test ./values -run
// TestOutcomeResults -results-sample 10000 -timeout 2h is the published
// check). The pieces come from random walks, not from the census, so that
// boards whose census takes minutes are sampled in seconds.
func TestOutcomeResults(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for _, bc := range resultsBoards(t) {
		t.Run(bc.game+"/"+bc.board, func(t *testing.T) {
			g, err := all.New(bc.game, bc.board, "")
			if err != nil {
				t.Fatal(err)
			}
			keys := samplePieces(g, *resultsSample, sampleMaxSize[bc.game], rand.New(rand.NewPCG(5, 5)))
			if len(keys) < *resultsSample {
				t.Fatalf("only %d distinct pieces drawn, want %d", len(keys), *resultsSample)
			}
			v, err := New(bc.game, 0)
			if err != nil {
				t.Fatal(err)
			}
			bf := newBruteForce(t, bc.game)
			bySize := map[int]int{}
			for _, k := range keys {
				bySize[v.box(k).Size(k)]++
				val := v.Value(k)
				if want := bf.pieceOutcome(t, k); val.Outcome.String() != want {
					t.Errorf("%s: outcome %s (value %s), brute force %s", v.box(k).Picture(k), val.Outcome, v.String(val), want)
				}
			}
			t.Logf("%d pieces, by size %v", len(keys), bySize)
		})
	}
}

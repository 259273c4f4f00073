package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values"
	"github.com/census-cgt/census/values/brute"
)

// valuedRun runs census run GAME BOARD --values into a temporary OUT and
// returns OUT/GAME-BOARD.
func valuedRun(t *testing.T, game, board string) string {
	t.Helper()
	out := t.TempDir()
	if _, stderr, code := census(t, "run", game, board, "--out", out, "--values", "--quiet"); code != 0 {
		t.Fatalf("census run %s %s --values: exit %d: %s", game, board, code, stderr)
	}
	return filepath.Join(out, game+"-"+board)
}

// TestValueIndexEveryPiece looks up every piece of a run's pieces table,
// placed alone on the run's board, and checks the answer against the
// piece's own row: the same outcome, and the same value string unless the
// row is capped, when the answer names the piece as capped.
func TestValueIndexEveryPiece(t *testing.T) {
	dir := valuedRun(t, "clobber", "3x4")
	x, err := values.LoadIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := schema.PiecesParts(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := x.Game().Board()
	n := 0
	for _, part := range parts {
		err := schema.ScanPiecesFile(part, func(p schema.Piece) error {
			n++
			pos, err := x.Position(padDiagram(p.Picture, b.Rows, b.Cols))
			if err != nil {
				t.Fatalf("piece %s: %v", p.Picture, err)
			}
			a := x.Value(pos)
			if got := a.Outcome.String(); got != p.Outcome {
				t.Errorf("piece %s: outcome %s, its row %s", p.Picture, got, p.Outcome)
			}
			switch {
			case p.ValueCapped && len(a.Capped) != 1:
				t.Errorf("piece %s is capped, answer names %d capped pieces", p.Picture, len(a.Capped))
			case !p.ValueCapped && x.String(a) != p.Value:
				t.Errorf("piece %s: value %s, its row %s", p.Picture, x.String(a), p.Value)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n != x.Len() || n == 0 {
		t.Errorf("%d rows, %d pieces indexed", n, x.Len())
	}
}

// padDiagram places a piece's picture in the top-left corner of an empty
// rows x cols board.
func padDiagram(picture string, rows, cols int) string {
	lines := strings.Split(picture, "/")
	for i := range rows {
		if i < len(lines) {
			lines[i] += strings.Repeat(".", cols-len(lines[i]))
		} else {
			lines = append(lines, strings.Repeat(".", cols))
		}
	}
	return strings.Join(lines, "/")
}

// TestValueIndexBruteForce values random positions of boards of at most 12
// squares, reached by random play from the start (so every piece is in the
// pieces table) and drawn at random (so some are not), and checks every
// decided outcome against whole-board minimax.
func TestValueIndexBruteForce(t *testing.T) {
	for _, bc := range []struct{ game, board string }{
		{"clobber", "3x4"},
		{"domineering", "3x4"},
		{"amazons", "2x4"},
	} {
		t.Run(bc.game+"-"+bc.board, func(t *testing.T) {
			x, err := values.LoadIndex(valuedRun(t, bc.game, bc.board))
			if err != nil {
				t.Fatal(err)
			}
			bf, err := brute.New(bc.game)
			if err != nil {
				t.Fatal(err)
			}
			g := x.Game().(games.Mover)
			rng := rand.New(rand.NewPCG(25, 1))
			played, decided, missing := 0, 0, 0
			for i := range 600 {
				pos := g.Start()
				if i%2 == 0 {
					pos = randomPlay(g, pos, rng)
				} else {
					pos = randomDiagram(t, x, rng)
				}
				a := x.Value(pos)
				if i%2 == 0 {
					played++
					if len(a.Missing) > 0 {
						t.Fatalf("%s: reached by play, yet pieces %v are missing", g.Format(pos), a.Missing)
					}
				}
				missing += len(a.Missing)
				if a.Outcome == 0 {
					continue
				}
				decided++
				if want := bf.Outcome(g, pos); a.Outcome.String() != want {
					t.Fatalf("%s: outcome %s (value %s), brute force %s", g.Format(pos), a.Outcome, x.String(a), want)
				}
			}
			if decided < played || missing == 0 {
				t.Errorf("%d positions decided of %d played; %d missing pieces among the drawn", decided, played, missing)
			}
		})
	}
}

// randomPlay plays a random number of random moves from pos.
func randomPlay(g games.Mover, pos uint64, rng *rand.Rand) uint64 {
	for moves := rng.IntN(g.MaxTier() + 1); moves > 0; moves-- {
		opts := g.Options(pos, rng.IntN(2) == 0, nil)
		if len(opts) == 0 {
			break
		}
		pos = opts[rng.IntN(len(opts))]
	}
	return pos
}

// randomDiagram draws a random position of the index's board in the
// characters of its start.
func randomDiagram(t *testing.T, x *values.Index, rng *rand.Rand) uint64 {
	t.Helper()
	g := x.Game()
	chars := map[string]string{"clobber": "xo..", "domineering": ".#", "amazons": "xo..."}[g.Name()]
	b := g.Board()
	for {
		var s strings.Builder
		for r := range b.Rows {
			if r > 0 {
				s.WriteByte('/')
			}
			for range b.Cols {
				s.WriteByte(chars[rng.IntN(len(chars))])
			}
		}
		// An Amazons diagram needs the start's amazons; draw again until
		// one is accepted.
		if pos, err := x.Position(s.String()); err == nil {
			return pos
		}
	}
}

// TestValueCommand runs census value on arguments, a file on standard
// input and --json, and checks that bad input exits 2 with one line naming
// it and prints nothing else.
func TestValueCommand(t *testing.T) {
	dir := valuedRun(t, "clobber", "2x4")
	stdout, stderr, code := census(t, "value", dir, "xo../....", "xx../....", "xoxo/oxox")
	if code != 0 {
		t.Fatalf("census value: exit %d: %s", code, stderr)
	}
	// xo alone is *, two black stones are 0 (no move), and the start's
	// outcome is brute force's.
	x, err := values.LoadIndex(dir)
	if err != nil {
		t.Fatal(err)
	}
	bf, err := brute.New("clobber")
	if err != nil {
		t.Fatal(err)
	}
	g := x.Game().(games.Mover)
	start := x.Value(g.Start())
	want := "xo../....\tN\t*\nxx../....\tP\t0\nxoxo/oxox\t" + bf.Outcome(g, g.Start()) + "\t" + x.String(start) + "\n"
	if stdout != want {
		t.Errorf("census value printed\n%s\nwant\n%s", stdout, want)
	}

	in := filepath.Join(t.TempDir(), "diagrams")
	if err := os.WriteFile(in, []byte("# positions\nxo../....\n\nxx../o...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = census(t, "value", dir, "--json", "--file", in)
	if code != 0 {
		t.Fatalf("census value --json --file: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("census value --json printed %d lines: %s", len(lines), stdout)
	}
	var got []valueAnswer
	for _, l := range lines {
		var a valueAnswer
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		got = append(got, a)
	}
	// xx../o... is {0 | *} = ^: Black's capture leaves two black stones
	// (0), White's leaves xo (*).
	if got[0].Value == nil || *got[0].Value != "*" || got[1].Value == nil || *got[1].Value != "^" || *got[1].Outcome != "L" {
		t.Errorf("census value --json: %s", stdout)
	}

	plain := t.TempDir()
	if _, stderr, code := census(t, "run", "clobber", "2x4", "--out", plain, "--quiet"); code != 0 {
		t.Fatalf("census run: exit %d: %s", code, stderr)
	}
	// A run whose summary.json is gone is not a finished run.
	noSummary := t.TempDir()
	if _, stderr, code := census(t, "run", "clobber", "2x4", "--out", noSummary, "--quiet"); code != 0 {
		t.Fatalf("census run: exit %d: %s", code, stderr)
	}
	if err := os.Remove(filepath.Join(noSummary, "clobber-2x4", "summary.json")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		args  []string
		names string
	}{
		{[]string{"value", dir, "xoxo/oxox/xoxo"}, "xoxo/oxox/xoxo"},
		{[]string{"value", filepath.Join(noSummary, "clobber-2x4"), "xoxo/oxox"}, "summary.json"},
		{[]string{"value", dir, "xoxo/oxoq"}, "xoxo/oxoq"},
		{[]string{"value", dir, "xo../....", "xoxoo/oxox"}, "xoxoo/oxox"},
		{[]string{"value", filepath.Join(plain, "clobber-2x4"), "xoxo/oxox"}, "not valued"},
		{[]string{"value", plain, "xoxo/oxox"}, plain},
		{[]string{"value", dir}, "diagrams"},
	} {
		stdout, stderr, code := census(t, bad.args...)
		if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, bad.names) {
			t.Errorf("census %q: exit %d, stdout %q, stderr %q; want exit 2, one line naming %q", bad.args, code, stdout, stderr, bad.names)
		}
	}
}

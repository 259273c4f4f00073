package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/probe"
)

type probeFlags struct {
	file   string
	toMove string
	json   bool
	brief  bool
}

func probeCmd() *cobra.Command {
	var f probeFlags
	c := &cobra.Command{
		Use:   "probe DIR [DIAGRAM...]",
		Short: "Ask a solved run's tablebase who wins a position, in how many moves, and which moves do it",
		Long: `Answer for each position given, a board diagram of the solved run in DIR
(OUT/GAME-BOARD of a run solved by census solve or census run --solve):
rows top to bottom separated by '/', in the characters of the run's game
('x' Black/Left, 'o' White/Right, '.' empty, '#' burnt or covered).

Each answer gives the position's class (L: Left wins whoever starts, R:
Right wins whoever starts, N: the player to move wins, P: the player to
move loses) and, for each player to move (or only the one --to-move
names), win or loss and the remoteness: the number of moves to the end
of the game with best play, the winner ending it as fast as it can and
the loser lasting as long as it can. Then every legal move of that
player, best first (winning moves by least remoteness, then losing
moves by greatest), with its result for the mover and the remoteness
after it, and the line of best play to the end. Left is Black in
Clobber and Amazons and the vertical player in Domineering. Squares are
named by column letter from "a" on the left and row number from 1 at
the top: b1xc1 (Clobber: b1 captures c1), a1-a2 (Domineering: a domino
on a1 and a2), a1-c3/c1 (Amazons: from a1 to c3, arrow to c1). When the
run was valued (census values), each live piece's canonical value and
their sum are given too.

Diagrams come from the arguments, or with --file F one a line from F
("-" for standard input; blank lines and lines starting with '#' are
skipped). A diagram given as an argument that is not a position of the
run (another board size, a character not of the game, another number of
amazons, a position not reachable from the run's start) is refused (exit
2), naming it, before any answer is printed; in --file mode such a line
is answered in place ("error" with --json) and the others go on. With
--json each answer is one JSON object on a line; --brief leaves out the
moves, the best line and the values.`,
		Example: `  census run clobber 3x4 --solve --out results
  census probe results/clobber-3x4 xoxo/oxox/xoxo
  census probe results/clobber-3x4 'x..o/.x../..o.' --to-move left --json
  census probe results/clobber-3x4 --file positions.txt --json --brief`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) < 1 {
				return usagef("%s wants DIR and diagrams, got no arguments", c.CommandPath())
			}
			if len(args) == 1 && f.file == "" {
				return usagef("%s wants diagrams after DIR, or --file F", c.CommandPath())
			}
			if len(args) > 1 && f.file != "" {
				return usagef("%s takes diagrams as arguments or --file %s, not both", c.CommandPath(), f.file)
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return runProbe(f, args[0], args[1:], c.InOrStdin(), c.OutOrStdout())
		},
	}
	c.Flags().StringVar(&f.file, "file", "", `read diagrams from this file, one a line ("-" for standard input)`)
	c.Flags().StringVar(&f.toMove, "to-move", "", "answer for this player to move only: left or right (default both)")
	c.Flags().BoolVar(&f.json, "json", false, "print each answer as a JSON object on a line")
	c.Flags().BoolVar(&f.brief, "brief", false, "leave out the moves, the best line and the values")
	return c
}

func runProbe(f probeFlags, dir string, diagrams []string, stdin io.Reader, stdout io.Writer) error {
	toMove, err := probe.ParsePlayer(f.toMove)
	if err != nil {
		return usagef("--to-move: %v", err)
	}
	var in io.Reader
	if f.file != "" {
		in = stdin
		if f.file != "-" {
			file, err := os.Open(f.file)
			if err != nil {
				return usagef("--file %s: %v", f.file, err)
			}
			defer file.Close()
			in = file
		}
	}
	t, err := probe.Open(dir)
	if errors.Is(err, probe.ErrNoTablebase) {
		return usagef("DIR %v", err)
	}
	if err != nil {
		if _, serr := os.Stat(dir); serr != nil {
			return usagef("DIR %s: %v", dir, serr)
		}
		return usagef("DIR %v", err)
	}
	defer t.Close()
	p := prober{t: t, toMove: toMove, brief: f.brief, json: f.json}
	w := bufio.NewWriterSize(stdout, 1<<16)
	if in == nil {
		// Every diagram is checked before any answer is written, so that
		// a bad one leaves nothing partial.
		answers := make([]*probe.Answer, len(diagrams))
		for i, d := range diagrams {
			if answers[i], err = p.answer(d); err != nil {
				if errors.Is(err, probe.ErrCorrupt) {
					return err
				}
				return usagef("DIAGRAM %v", err)
			}
		}
		for _, a := range answers {
			if err := p.write(w, a); err != nil {
				return err
			}
		}
		return w.Flush()
	}
	if err := p.lines(in, w); err != nil {
		return err
	}
	return w.Flush()
}

// prober answers diagrams from one table.
type prober struct {
	t      *probe.Table
	toMove probe.Player
	brief  bool
	json   bool
}

// answer answers diagram d, briefly when asked.
func (p *prober) answer(d string) (*probe.Answer, error) {
	if !p.brief {
		return p.t.Probe(d, p.toMove)
	}
	pos, err := p.t.Position(d)
	if err != nil {
		return nil, err
	}
	return p.t.Brief(pos, p.toMove)
}

// lines answers every diagram of in, one a line, in order, several at a
// time on the machine's cores; a bad line is answered in place.
func (p *prober) lines(in io.Reader, w *bufio.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	const batch = 512
	workers := runtime.GOMAXPROCS(0)
	for {
		var ds []string
		for len(ds) < batch*workers && sc.Scan() {
			if d := strings.TrimSpace(sc.Text()); d != "" && !strings.HasPrefix(d, "#") {
				ds = append(ds, d)
			}
		}
		if len(ds) == 0 {
			break
		}
		outs := make([][]byte, len(ds))
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for k := range workers {
			wg.Go(func() {
				var buf strings.Builder
				for i := k; i < len(ds); i += workers {
					buf.Reset()
					a, err := p.answer(ds[i])
					if errors.Is(err, probe.ErrCorrupt) {
						errs[k] = err
						return
					}
					if err != nil {
						a = &probe.Answer{Diagram: ds[i], Error: err.Error()}
					}
					if err := p.write(&buf, a); err != nil {
						errs[k] = err
						return
					}
					outs[i] = []byte(buf.String())
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		for _, o := range outs {
			if _, err := w.Write(o); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read diagrams from %s: %w", "--file", err)
	}
	return nil
}

// write writes one answer: a JSON object on a line, or the text below.
func (p *prober) write(w io.Writer, a *probe.Answer) error {
	if p.json {
		data, err := json.Marshal(a)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", data)
		return err
	}
	if a.Error != "" {
		_, err := fmt.Fprintf(w, "%s\terror: %s\n", a.Diagram, a.Error)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\t%s\tleft first: %s in %d\tright first: %s in %d",
		a.Diagram, a.Outcome, a.LeftFirst.Result, a.LeftFirst.Remoteness, a.RightFirst.Result, a.RightFirst.Remoteness)
	if a.Value != nil {
		fmt.Fprintf(&b, "\tvalue %s", *a.Value)
	}
	b.WriteByte('\n')
	for _, pl := range []probe.Player{probe.Left, probe.Right} {
		moves, ok := a.Moves[pl.String()]
		if !ok {
			continue
		}
		if len(moves) == 0 {
			fmt.Fprintf(&b, "  %s to move: no move\n", pl)
			continue
		}
		fmt.Fprintf(&b, "  %s to move:", pl)
		for _, m := range moves {
			fmt.Fprintf(&b, " %s (%s %d)", m.Move, m.Result, m.Remoteness)
		}
		b.WriteString("\n    best line:")
		for _, m := range a.BestLine[pl.String()] {
			fmt.Fprintf(&b, " %s", m.Move)
		}
		b.WriteByte('\n')
	}
	for _, pc := range a.Pieces {
		v := pc.Value
		if v == "" {
			v = pc.Note
		}
		fmt.Fprintf(&b, "  piece %s = %s\n", pc.Picture, v)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"

	"github.com/census-cgt/census/probe"
	"github.com/census-cgt/census/serve"
)

// defaultServeAddr is where census serve listens unless told otherwise:
// this machine only.
const defaultServeAddr = "127.0.0.1:8080"

func serveCmd() *cobra.Command {
	var addr string
	c := &cobra.Command{
		Use:   "serve OUT [OUT...]",
		Short: "Serve solved runs' tablebases: a JSON API and a position explorer in the browser",
		Long: `Serve every solved run found under the directories given (each OUT, or any
directory below it, holding a run finished by census solve with its
tablebase) over HTTP until SIGINT or SIGTERM:

  /                      the runs, each linked to its position explorer
  /runs/RUN/             the position explorer: the board, the class of the
                         position, the result and remoteness for the player to
                         move, every legal move coloured by result (click one,
                         or click it on the board), undo and redo, the best
                         line, and play against census; ?d=DIAGRAM&to_move=left
                         links a position
  /api/v1/runs           the runs (JSON)
  /api/v1/runs/RUN       one run
  /api/v1/runs/RUN/position?diagram=D[&to_move=left|right]
                         what the tablebase knows of one position: what
                         census probe --json prints
  /api/v1/runs/RUN/positions
                         POST {"diagrams": [...], "to_move": "left"}: up to
                         1000 positions at once
  /metrics               Prometheus metrics of the server

RUN is the run's directory name, GAME-BOARD; two runs of one name cannot be
served together. A diagram gives the rows top to bottom separated by '/':
'x' Black (Left), 'o' White (Right), '.' empty, '#' burnt (Amazons) or
covered (Domineering). The server listens on 127.0.0.1:8080, this machine
only; --addr serves elsewhere (0.0.0.0:8080 on every interface). Errors of
the API are JSON, {"error": "..."}.

An OUT that does not exist, or holds no solved run with a tablebase, is
refused (exit 2): census solve DIR solves the run in DIR and keeps its
tablebase.`,
		Example: `  census run clobber 3x5 --solve --out results && census serve results
  census solve results/clobber-4x4 && census serve results more-results --addr 127.0.0.1:9000
  curl 'http://127.0.0.1:8080/api/v1/runs/clobber-3x5/position?diagram=xoxox/oxoxo/xoxox&to_move=left'`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("%s wants OUT, a directory holding solved runs, got no arguments", c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			return runServe(c, args, addr)
		},
	}
	c.Flags().StringVar(&addr, "addr", defaultServeAddr, "address host:port to serve on (0.0.0.0:8080 for every interface)")
	return c
}

// runServe opens every solved run under outs and serves them on addr.
func runServe(c *cobra.Command, outs []string, addr string) error {
	tables, err := openRuns(outs)
	defer func() {
		for _, t := range tables {
			t.Close()
		}
	}()
	if err != nil {
		return err
	}
	runs := make([]serve.Run, len(tables))
	for i, t := range tables {
		runs[i] = t
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	s, err := serve.New(runs, reg)
	if err != nil {
		return usageError{err}
	}
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	listening := false
	err = serve.ListenAndServe(ctx, addr, s.Handler(), func(a net.Addr) {
		listening = true
		printServing(c.OutOrStdout(), tables, a)
	})
	if err != nil && !listening {
		return usagef("--addr %s: %v", addr, errors.Unwrap(err))
	}
	return err
}

// openRuns opens the tablebase of every solved run under outs. An OUT
// that is missing or holds none is a usage error naming it; the tables
// opened before an error are returned with it, for the caller to close.
func openRuns(outs []string) ([]*probe.Table, error) {
	var tables []*probe.Table
	dirOf := map[string]string{} // run name -> its directory
	seen := map[string]bool{}    // the run directories opened, absolute
	for _, out := range outs {
		fi, err := os.Stat(out)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return tables, usagef("OUT %s: no such directory; give the directory of runs solved by census solve DIR", out)
		case err != nil:
			return tables, usagef("OUT %s: %v", out, err)
		case !fi.IsDir():
			return tables, usagef("OUT %s: not a directory; give the directory of runs solved by census solve DIR", out)
		}
		dirs, err := probe.Find(out)
		if err != nil {
			return tables, usagef("OUT %s: %v", out, err)
		}
		if len(dirs) == 0 {
			return tables, usagef("OUT %s: no solved run with a tablebase under it; census solve DIR solves the run in DIR and keeps its tablebase", out)
		}
		for _, dir := range dirs {
			// OUTs that overlap (results and results/clobber-3x4) give a
			// run once.
			if abs, err := filepath.Abs(dir); err == nil {
				if seen[abs] {
					continue
				}
				seen[abs] = true
			}
			t, err := probe.Open(dir)
			if errors.Is(err, probe.ErrNoTablebase) {
				// The error names dir and says how to gain a tablebase.
				return tables, usagef("%v", err)
			}
			if err != nil {
				return tables, fmt.Errorf("open the tablebase of %s: %w", dir, err)
			}
			tables = append(tables, t)
			name := t.Info().Name
			if first, dup := dirOf[name]; dup {
				return tables, usagef("runs %s and %s are both named %s; serve one of them", first, dir, name)
			}
			dirOf[name] = dir
		}
	}
	return tables, nil
}

// printServing says what is served, one line a run, and where.
func printServing(w io.Writer, tables []*probe.Table, addr net.Addr) {
	for _, t := range tables {
		i := t.Info()
		valued := ""
		if i.Valued {
			valued = ", valued"
		}
		fmt.Fprintf(w, "serving %s: %s %s, %d positions, start class %s%s\n", i.Name, i.Game, i.Board, i.Positions, i.StartOutcome, valued)
	}
	fmt.Fprintf(w, "open http://%s/ (Ctrl-C stops)\n", addr)
}

// Command census is the one binary of census. On a board of Clobber,
// Domineering or Amazons it runs a census (census run: every reachable
// position, its pieces, what a solver would store at each level), in one
// process with an embedded NATS server or on a cluster (census coordinator,
// census worker, census server, census status); on a finished run it values
// the pieces (census values, census value), solves every position and keeps
// a tablebase (census solve), answers one position from the tablebase
// (census probe), serves the tablebase over HTTP and in the browser (census
// serve), plays players against each other (census play), writes CGSuite
// positions (census export) and an HTML report (census report). It also
// takes Mū tōrere and rows of Kōnane (see census run --help). Bad input
// exits with code 2 and one line naming the bad value.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/census-cgt/census/host/hugepages"
	"github.com/census-cgt/census/schema"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// usageError marks bad input: the command exits with code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

func main() {
	// Every Parquet file this process writes names this version.
	schema.SetVersion(version)
	stop := hugepages.Start()
	code := run(os.Args[1:])
	stop()
	os.Exit(code)
}

func run(args []string) int {
	root := &cobra.Command{
		Use:           "census",
		Short:         "Count the positions and pieces of Clobber, Domineering and Amazons",
		Long:          "census enumerates every position reachable from the start of a game on a board,\ndecomposes each into its independent pieces, canonicalises and deduplicates the\npieces, and writes what a solver would have to store at each level as Parquet\ntables and summary.json.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.DisableSuggestions = true
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(runCmd(), coordinatorCmd(), workerCmd(), serverCmd(), statusCmd(), reportCmd(), exportCmd(), valuesCmd(), valueCmd(), solveCmd(), probeCmd(), serveCmd(), playCmd(), versionCmd())
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "census:", err)
	var u usageError
	if errors.As(err, &u) || isCobraUsage(err) {
		return 2
	}
	return 1
}

// isCobraUsage recognises cobra's own complaints about commands and
// arguments, which are usage errors too.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// exactArgs is cobra.ExactArgs with a usage error naming what is wanted.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s wants %s, got %d argument(s): %q", c.CommandPath(), what, len(args), args)
		}
		return nil
	}
}

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of census",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			fmt.Fprintln(c.OutOrStdout(), "census", version)
			return nil
		},
	}
}

// Command seaweedfs builds the SeaweedFS binary the S3 tests run, when it
// is not cached yet, and prints its path (internal/testbin.BuildSeaweedFS).
// scripts/seaweedfs.sh runs it.
package main

import (
	"fmt"
	"os"

	"github.com/census-cgt/census/internal/testbin"
)

func main() {
	bin, err := testbin.BuildSeaweedFS(os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(bin)
}

//go:build !unix

package chaos_test

import (
	"os"
	"os/exec"
)

func setProcessGroup(cmd *exec.Cmd) {}

func terminateGroup(cmd *exec.Cmd) error { return cmd.Process.Signal(os.Interrupt) }

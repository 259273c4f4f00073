//go:build unix

package chaos_test

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts cmd and its children in a process group of their own.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminateGroup sends SIGTERM to cmd's process group: chaos.sh and the
// docker commands it waits on, so that its trap runs at once.
func terminateGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
}

//go:build unix

package coordinator

import (
	"errors"
	"syscall"
)

// processGone reports whether no process with this pid runs on this host.
func processGone(pid int) bool {
	return pid > 0 && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

//go:build unix

package main

import "syscall"

// freeze stops the process (SIGSTOP) so that it cannot ack, fetch or
// heartbeat until thaw; a process that has ended is left alone.
func (p *proc) freeze() {
	if !p.exited() {
		p.cmd.Process.Signal(syscall.SIGSTOP)
	}
}

// thaw continues a frozen process (SIGCONT).
func (p *proc) thaw() {
	if !p.exited() {
		p.cmd.Process.Signal(syscall.SIGCONT)
	}
}

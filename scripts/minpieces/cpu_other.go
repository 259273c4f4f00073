//go:build !linux

package main

import "time"

// threadCPU returns 0 where the thread's CPU time is not read: the
// program measures CPU time on Linux only.
func threadCPU() time.Duration { return 0 }

// processCPU returns 0 where the process's CPU time is not read.
func processCPU() time.Duration { return 0 }

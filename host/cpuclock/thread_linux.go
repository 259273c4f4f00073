package cpuclock

import (
	"syscall"
	"time"
)

// PerThread tells whether Measure measures CPU time rather than wall time.
const PerThread = true

// rusageThread is RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

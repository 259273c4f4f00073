//go:build unix && !linux

package tablebase

// advise does nothing where package syscall has no madvise.
func advise(data []byte, advice int) {}

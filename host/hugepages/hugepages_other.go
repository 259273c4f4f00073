//go:build !linux

package hugepages

// Start does nothing on systems other than Linux.
func Start() (stop func()) { return func() {} }

func buffersAdvised() bool { return false }

func advise(p, n uintptr) {}

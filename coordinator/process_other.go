//go:build !unix

package coordinator

// processGone cannot tell here: a waiting coordinator waits for the lease
// to expire.
func processGone(pid int) bool { return false }

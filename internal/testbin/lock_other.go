//go:build !unix

package testbin

// lock is a no-op where there is no flock: concurrent packages may then
// build the same binary twice, each into its own temporary file.
func lock(string) (func(), error) { return func() {}, nil }

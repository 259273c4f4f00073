//go:build unix

package coordinator

import "syscall"

// freeBytes is the space in dir's filesystem that an unprivileged process
// may still write.
func freeBytes(dir string) (uint64, bool, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false, err
	}
	return st.Bavail * uint64(st.Bsize), true, nil
}

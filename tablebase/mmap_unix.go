//go:build unix

package tablebase

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps the file at path into memory, read only and shared, and
// advises the kernel that its pages will be read at random: a lookup reads
// one block, and reading ahead would fill the page cache with others.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size < minFile {
		// Too short to map usefully (and mmap of 0 bytes fails).
		return nil, corrupt("%d bytes is too short for a tablebase", size)
	}
	if size != int64(int(size)) {
		return nil, fmt.Errorf("%d bytes do not fit in memory", size)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map %d bytes: %w", size, err)
	}
	advise(data, syscall.MADV_RANDOM)
	return data, nil
}

// adviseIndex asks the kernel to read the index, from dataEnd on, ahead:
// Open reads all of it.
func adviseIndex(data []byte, dataEnd int) {
	page := os.Getpagesize()
	advise(data[dataEnd/page*page:], syscall.MADV_WILLNEED)
}

func unmap(data []byte) error { return syscall.Munmap(data) }

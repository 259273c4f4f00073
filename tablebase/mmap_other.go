//go:build !unix

package tablebase

import "os"

// mapFile reads the whole file where there is no mmap.
func mapFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < minFile {
		return nil, corrupt("%d bytes is too short for a tablebase", len(data))
	}
	return data, nil
}

func adviseIndex(data []byte, dataEnd int) {}

func unmap(data []byte) error { return nil }

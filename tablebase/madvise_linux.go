package tablebase

import "syscall"

// advise passes advice on data, which starts at a page boundary; it is
// only advice, and its failure is ignored.
func advise(data []byte, advice int) { _ = syscall.Madvise(data, advice) }

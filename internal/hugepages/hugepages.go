// Package hugepages asks the kernel to back the heap of a census process
// with transparent huge pages where the system leaves that to each
// process (Linux with /sys/kernel/mm/transparent_hugepage/enabled set to
// madvise, the default of many distributions).
//
// A census job's buffers are large and short-lived: the first touch of
// each 4 KiB page of fresh memory is a page fault, which costs some
// microseconds on a virtual machine whose host backs the guest's memory
// lazily: a Clobber 4x4 census faults in some 24,000 pages, and some
// 3,000 with its heap advised, taking a quarter less CPU time
// (docs/performance.md). A huge page is one fault for 512 such pages. The Go
// runtime does not ask for huge pages for its heap, so Start does: it
// advises the heap's mappings with MADV_HUGEPAGE, and again whenever the
// process maps more memory.
package hugepages

// EnvVar names the environment variable that turns the advice off when
// set to "off".
const EnvVar = "CENSUS_HUGEPAGES"

// Package hugepages asks the kernel to back a census process's large
// record buffers (Advise) and, when the user asks for it, its whole heap
// (Start) with transparent huge pages where the system leaves that to
// each process (Linux with /sys/kernel/mm/transparent_hugepage/enabled
// set to madvise, the default of many distributions).
//
// A census job's buffers are large and short-lived: the first touch of
// each 4 KiB page of fresh memory is a page fault, which costs some
// microseconds on a virtual machine whose host backs the guest's memory
// lazily: a Clobber 4x4 census faults in some 24,000 pages, and some
// 3,000 with its heap advised, which took a quarter less CPU time on such
// a machine (docs/performance.md). A huge page is one fault for 512 such
// pages. The Go runtime does not ask for huge pages for its heap, so
// Start does: it advises the heap's mappings with MADV_HUGEPAGE, and again
// whenever the process maps more memory.
//
// Start's advice of the whole heap is off unless EnvVar is "on":
// khugepaged (with its default max_ptes_none of 511) collapses an advised
// 2 MiB range into a huge page as soon as one of its 4 KiB pages is in
// use, so a heap whose free pages the runtime has handed back grows again
// in the background, by as much as the timing of the collapses makes it:
// Clobber 4x5's peak RSS was 0.63 to 1.55 GB over six runs with the
// advice, 0.61 to 0.65 GB without, for the same CPU time; and where faults
// are cheap (the machine of the section on a resumed run's times in
// docs/history/performance-rounds.md) the advice saved nothing.
//
// Advise is narrower, and on unless EnvVar is "off": it advises the huge
// pages inside one large buffer that is about to be filled from its start,
// such as a job's record buffer sized before it fills, so that the
// advised ranges are ones the process fills anyway. A heap range advised
// so and later reused keeps the advice; the memory it can add is bounded
// by the largest buffers a process has held at once.
package hugepages

import "unsafe"

// EnvVar names the environment variable that turns Start's advice of the
// whole heap on when set to "on", and every advice off when set to "off".
const EnvVar = "CENSUS_HUGEPAGES"

// hugePage is the size of a transparent huge page on amd64 and arm64
// with 4 KiB pages.
const hugePage = 2 << 20

// adviseMin is the smallest buffer Advise advises: two huge pages, so that
// at least one lies wholly inside it.
const adviseMin = 2 * hugePage

// Advise asks the kernel to back the whole huge pages inside the backing
// array of b, up to its capacity, with huge pages when they are first
// touched. b should be fresh memory that the caller is about to fill: a
// page it has touched already stays as it is until khugepaged collapses
// it. Advise does nothing for a buffer under adviseMin bytes, when
// EnvVar is "off", where the kernel gives huge pages to every mapping or
// to none, on systems other than Linux, and under the race detector.
func Advise[T any](b []T) {
	var zero T
	n := uintptr(cap(b)) * unsafe.Sizeof(zero)
	if n < adviseMin || !buffersAdvised() {
		return
	}
	advise(uintptr(unsafe.Pointer(unsafe.SliceData(b))), n)
}

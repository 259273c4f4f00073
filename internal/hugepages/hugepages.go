// Package hugepages asks the kernel, when the user asks for it, to back
// the heap of a census process with transparent huge pages where the
// system leaves that to each process (Linux with
// /sys/kernel/mm/transparent_hugepage/enabled set to madvise, the default
// of many distributions).
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
// It is off unless EnvVar is "on": khugepaged (with its default
// max_ptes_none of 511) collapses an advised 2 MiB range into a huge page
// as soon as one of its 4 KiB pages is in use, so a heap whose free pages
// the runtime has handed back grows again in the background, by as much
// as the timing of the collapses makes it: Clobber 4x5's peak RSS was
// 0.63 to 1.55 GB over six runs with the advice, 0.61 to 0.65 GB without,
// for the same CPU time; and where faults are cheap (the machine of
// docs/performance.md's section on a resumed run's times) the advice
// saved nothing.
package hugepages

// EnvVar names the environment variable that turns the advice on when
// set to "on".
const EnvVar = "CENSUS_HUGEPAGES"

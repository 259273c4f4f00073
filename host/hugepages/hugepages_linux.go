package hugepages

import (
	"bytes"
	"os"
	"runtime/metrics"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// chunk is the unit in which the Go runtime maps heap memory (its
// pallocChunkBytes): a heap mapping starts and ends on a multiple of it.
const chunk = 4 << 20

// Start looks whether the process has mapped more memory every
// fastest, and, while it has not, less and less often, down to once every
// slowest: an idle server or worker wakes ten times a second.
const (
	fastest = 10 * time.Millisecond
	slowest = 100 * time.Millisecond
)

// Start advises the heap's mappings now and whenever the process has
// mapped more memory since, until stop is called. It does nothing unless
// the environment variable EnvVar is "on" and the kernel gives huge pages
// only where advised, nor in a build with the race detector.
func Start() (stop func()) {
	if raceEnabled || os.Getenv(EnvVar) != "on" || !advisedOnly() {
		return func() {}
	}
	a := &adviser{done: map[[2]uint64]bool{}, sample: []metrics.Sample{{Name: "/memory/classes/total:bytes"}}}
	reserve()
	a.check()
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		wait := fastest
		t := time.NewTimer(wait)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				if a.check() {
					wait = fastest
				} else {
					wait = min(2*wait, slowest)
				}
				t.Reset(wait)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(quit)
			wg.Wait()
		})
	}
}

// buffersAdvised says whether Advise advises: where the kernel gives huge
// pages only where advised, unless EnvVar is "off", and not under the
// race detector.
var buffersAdvised = sync.OnceValue(func() bool {
	return !raceEnabled && os.Getenv(EnvVar) != "off" && advisedOnly()
})

// advise advises the whole huge pages of the n bytes from p.
func advise(p, n uintptr) {
	lo := (p + hugePage - 1) &^ (hugePage - 1)
	hi := (p + n) &^ (hugePage - 1)
	if hi > lo {
		syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_HUGEPAGE)
	}
}

// advisedOnly reports whether the kernel backs memory with transparent
// huge pages only where madvise asks for them.
func advisedOnly() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}

// reserveBytes is how much heap Start has the runtime map before it
// advises the heap: a small census's heap then grows into advised memory
// from its first page. Memory mapped and never touched costs nothing.
const reserveBytes = 128 << 20

// reserved keeps reserve's allocation from being optimised away.
var reserved []byte

// reserve has the runtime map reserveBytes of heap, untouched: a fresh
// mapping is known to be zero, so an allocation of pointer-free memory
// from it is not cleared, and once it is garbage its pages are free for
// the allocations that follow, in the same mappings.
func reserve() {
	reserved = make([]byte, reserveBytes)
	reserved = nil
}

type adviser struct {
	done   map[[2]uint64]bool // mappings advised, by start and end
	mapped uint64             // the process's mapped memory at the last scan
	sample []metrics.Sample
}

// check scans the mappings when the process has mapped a chunk or more
// of memory since the last scan, and says whether it had.
func (a *adviser) check() bool {
	metrics.Read(a.sample)
	if a.sample[0].Value.Kind() != metrics.KindUint64 {
		return false
	}
	m := a.sample[0].Value.Uint64()
	if m < a.mapped+chunk && a.mapped != 0 {
		return false
	}
	a.mapped = m
	a.scan()
	return true
}

// scan advises every mapping of the heap not advised before: private,
// readable and writable, anonymous, and starting and ending on a multiple
// of chunk (threads' stacks and the C allocator's arenas do not).
func (a *adviser) scan() {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	for len(maps) > 0 {
		var line []byte
		line, maps, _ = bytes.Cut(maps, []byte{'\n'})
		start, end, ok := heapMapping(line)
		if !ok || a.done[[2]uint64{start, end}] {
			continue
		}
		a.done[[2]uint64{start, end}] = true
		syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_HUGEPAGE)
	}
}

// heapMapping parses a line of /proc/self/maps and reports the range of a
// mapping that may be the heap's.
func heapMapping(line []byte) (start, end uint64, ok bool) {
	f := bytes.Fields(line)
	if len(f) < 5 || string(f[1]) != "rw-p" || string(f[4]) != "0" {
		return 0, 0, false
	}
	if len(f) > 5 && !bytes.HasPrefix(f[5], []byte("[anon:")) {
		return 0, 0, false // a file, [heap], [stack]
	}
	lo, hi, found := bytes.Cut(f[0], []byte{'-'})
	if !found {
		return 0, 0, false
	}
	start, err1 := strconv.ParseUint(string(lo), 16, 64)
	end, err2 := strconv.ParseUint(string(hi), 16, 64)
	if err1 != nil || err2 != nil || start%chunk != 0 || end%chunk != 0 || end <= start {
		return 0, 0, false
	}
	return start, end, true
}

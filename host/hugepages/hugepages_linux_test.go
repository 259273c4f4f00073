package hugepages

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func TestHeapMapping(t *testing.T) {
	for _, c := range []struct {
		line       string
		start, end uint64
		ok         bool
	}{
		{"1d0471400000-1d049d800000 rw-p 00000000 00:00 0 ", 0x1d0471400000, 0x1d049d800000, true},
		{"c000000000-c004000000 rw-p 00000000 00:00 0                          [anon: Go: heap]", 0xc000000000, 0xc004000000, true},
		{"7f5fc27fe000-7f5fc2ffe000 rw-p 00000000 00:00 0 ", 0, 0, false},                                    // a thread's stack: not on chunks
		{"c000000000-c004000000 ---p 00000000 00:00 0 ", 0, 0, false},                                        // reserved, not mapped
		{"c000000000-c004000000 rw-s 00000000 00:00 0 ", 0, 0, false},                                        // shared
		{"c000000000-c004000000 rw-p 00000000 fe:00 247278                     /work/data.bin", 0, 0, false}, // a file
		{"7ffc00000000-7ffc00400000 rw-p 00000000 00:00 0                          [stack]", 0, 0, false},
		{"1f800000-1fc00000 rw-p 00000000 00:00 0                          [heap]", 0, 0, false}, // the C heap
		{"garbage", 0, 0, false},
	} {
		start, end, ok := heapMapping([]byte(c.line))
		if start != c.start || end != c.end || ok != c.ok {
			t.Errorf("heapMapping(%q) = %#x, %#x, %v; want %#x, %#x, %v", c.line, start, end, ok, c.start, c.end, c.ok)
		}
	}
}

// TestStartAdvisesHeap checks, where the kernel gives huge pages only
// where advised, that Start makes the mapping of a large heap buffer
// allocated after it eligible for them, as /proc/self/smaps reports.
func TestStartAdvisesHeap(t *testing.T) {
	if !advisedOnly() {
		t.Skip("the kernel does not give transparent huge pages only where advised")
	}
	if raceEnabled {
		t.Skip("Start does nothing under the race detector")
	}
	t.Setenv(EnvVar, "on")
	stop := Start()
	defer stop()
	buf := make([]byte, 512<<20) // past what Start reserved: the heap grows
	buf[len(buf)-1] = 1
	addr := uint64(uintptr(unsafe.Pointer(&buf[len(buf)-1])))
	deadline := time.Now().Add(5 * time.Second)
	for {
		eligible, err := thpEligible(addr)
		if err != nil {
			t.Fatal(err)
		}
		if eligible {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the mapping of %#x is not eligible for huge pages 5 s after it was allocated", addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	buf[0] = 1
}

// TestStartOffByDefault checks, where the kernel gives huge pages only
// where advised, that Start leaves a large heap buffer allocated after it
// ineligible for them unless EnvVar is "on", for longer than an adviser
// takes (TestStartAdvisesHeap). Each value runs in a process of its own,
// whose heap no other test has advised.
func TestStartOffByDefault(t *testing.T) {
	if !advisedOnly() {
		t.Skip("the kernel does not give transparent huge pages only where advised")
	}
	if os.Getenv("HUGEPAGES_TEST_CHILD") == "1" {
		stop := Start()
		defer stop()
		buf := make([]byte, 512<<20)
		buf[len(buf)-1] = 1
		time.Sleep(20 * fastest)
		eligible, err := thpEligible(uint64(uintptr(unsafe.Pointer(&buf[len(buf)-1]))))
		if err != nil {
			t.Fatal(err)
		}
		if eligible {
			t.Errorf("%s=%q: a heap buffer is eligible for huge pages", EnvVar, os.Getenv(EnvVar))
		}
		buf[0] = 1
		return
	}
	for _, v := range []string{"", "off", "yes"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStartOffByDefault$", "-test.count=1")
		cmd.Env = append(os.Environ(), "HUGEPAGES_TEST_CHILD=1", EnvVar+"="+v)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s=%q: %v\n%s", EnvVar, v, err, out)
		}
	}
}

// thpEligible reads THPeligible of the mapping that holds addr from
// /proc/self/smaps.
func thpEligible(addr uint64) (bool, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return false, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0:
		case !strings.HasSuffix(f[0], ":"): // a mapping's first line: its range first
			lo, hi, _ := strings.Cut(f[0], "-")
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && start <= addr && addr < end
		case in && f[0] == "THPeligible:" && len(f) > 1:
			return f[1] == "1", nil
		}
	}
	if err := sc.Err(); err != nil {
		return false, err
	}
	return false, fmt.Errorf("no mapping of /proc/self/smaps holds %#x, or it has no THPeligible", addr)
}

// TestAdviseBuffer checks, where the kernel gives huge pages only where
// advised, that Advise makes a large buffer eligible for them unless
// EnvVar is "off", and leaves a buffer of less than adviseMin bytes
// alone. Each value runs in a process of its own, which reads EnvVar once.
func TestAdviseBuffer(t *testing.T) {
	if !advisedOnly() {
		t.Skip("the kernel does not give transparent huge pages only where advised")
	}
	if raceEnabled {
		t.Skip("Advise does nothing under the race detector")
	}
	if os.Getenv("HUGEPAGES_TEST_CHILD") == "1" {
		want := os.Getenv(EnvVar) != "off"
		big := make([]uint64, 8<<20) // 64 MiB
		small := make([]byte, adviseMin-1)
		Advise(big)
		Advise(small)
		for _, c := range []struct {
			name string
			addr *byte
			want bool
		}{
			{"64 MiB", (*byte)(unsafe.Pointer(&big[len(big)/2])), want},
			{"4 MiB less a byte", &small[len(small)/2], false},
		} {
			*c.addr = 1
			eligible, err := thpEligible(uint64(uintptr(unsafe.Pointer(c.addr))))
			if err != nil {
				t.Fatal(err)
			}
			if eligible != c.want {
				t.Errorf("%s=%q: a buffer of %s advised is eligible for huge pages: %v, want %v", EnvVar, os.Getenv(EnvVar), c.name, eligible, c.want)
			}
		}
		return
	}
	for _, v := range []string{"", "on", "off"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAdviseBuffer$", "-test.count=1")
		cmd.Env = append(os.Environ(), "HUGEPAGES_TEST_CHILD=1", EnvVar+"="+v)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s=%q: %v\n%s", EnvVar, v, err, out)
		}
	}
}

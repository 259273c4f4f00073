package main

import (
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"time"
)

// startProfile writes a CPU profile to path until the returned func runs.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// startHeapProfile writes to path a heap profile taken when the heap of
// live and not yet collected objects is at its largest, until the returned
// func runs: it samples the heap every 100ms and profiles again whenever
// the heap has grown by a twentieth since the last profile.
func startHeapProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	f.Close()
	const heapObjects = "/memory/classes/heap/objects:bytes"
	sample := []metrics.Sample{{Name: heapObjects}}
	stop, done := make(chan struct{}), make(chan struct{})
	var last uint64
	profile := func() {
		metrics.Read(sample)
		if now := sample[0].Value.Uint64(); now > last+last/20 {
			last = now
			if f, err := os.Create(path); err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		}
	}
	go func() {
		defer close(done)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				profile()
			}
		}
	}()
	return func() {
		close(stop)
		<-done
	}, nil
}

// startTrace writes an execution trace (go tool trace) to path until the
// returned func runs: where the wall time of a run goes while its CPUs
// wait, which a CPU profile does not show.
func startTrace(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := trace.Start(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		trace.Stop()
		f.Close()
	}, nil
}

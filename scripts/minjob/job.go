package main

import (
	"encoding/binary"
	"io"
	"math/bits"
	"os"
	"syscall"
	"unsafe"
)

// The stages of a job whose thread CPU time is measured.
const (
	stageRead   = iota // read and merge the input files
	stageGen           // generate and canonicalise successors, no appends
	stageAppend        // the appends: the fused pass less stageGen's pass
	stageSort          // sort and drop repeats, each target shard
	stageWrite         // encode and write each target shard's file
	stageFused         // the fused pass: generate, canonicalise and append
	numStages
)

// job is one shard of one tier, with the files that hold its input.
type job struct {
	tier, shard int
	inputs      []string
}

// result is what a job did and what its stages cost.
type result struct {
	tier, shard int
	stored      int64    // distinct input positions, each expanded once
	positions   int64    // their orbits' sizes added up
	succ        int64    // successors generated
	kept        int64    // distinct successors written, all target shards
	outputs     []string // outputs[s] is the file for target shard s, or ""
	cpu         [numStages]int64
	sink        uint64 // stageGen's result, so that it is not optimised away
	err         error
}

// worker runs jobs one at a time, reusing its buffers from job to job.
type worker struct {
	b      *board
	shards int
	split  bool // run the extra pass without appends to time stageGen
	dir    string
	files  [][]byte   // the input files' contents
	keys   []uint64   // the job's merged input
	bufs   [][]uint64 // bufs[s] holds the successors of target shard s
	enc    []byte
	sort   sorter
	rate   float64 // successors per position of the last job
}

// threadCPU returns the CPU time of the calling thread in nanoseconds
// (clock_gettime of CLOCK_THREAD_CPUTIME_ID, clock 3).
func threadCPU() int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// run runs j and times its stages. It must run on a goroutine locked to
// its thread.
func (w *worker) run(j job) result {
	r := result{tier: j.tier, shard: j.shard}
	var t [6]int64
	t[0] = threadCPU()
	if r.err = w.readMerge(j.inputs); r.err != nil {
		return r
	}
	t[1] = threadCPU()
	if w.split {
		r.sink = w.expandOnly()
	}
	t[2] = threadCPU()
	r.positions, r.succ = w.expand()
	r.stored = int64(len(w.keys))
	t[3] = threadCPU()
	for s, buf := range w.bufs {
		w.bufs[s] = w.sort.unique(buf)
		r.kept += int64(len(w.bufs[s]))
	}
	t[4] = threadCPU()
	r.outputs, r.err = w.write(j.tier+1, j.shard)
	t[5] = threadCPU()
	r.cpu[stageRead] = t[1] - t[0]
	r.cpu[stageGen] = t[2] - t[1]
	r.cpu[stageFused] = t[3] - t[2]
	r.cpu[stageAppend] = r.cpu[stageFused] - r.cpu[stageGen]
	r.cpu[stageSort] = t[4] - t[3]
	r.cpu[stageWrite] = t[5] - t[4]
	return r
}

// readMerge reads the input files, each a sorted run of distinct keys,
// and merges them into w.keys, dropping the keys that repeat across
// files.
func (w *worker) readMerge(paths []string) error {
	for len(w.files) < len(paths) {
		w.files = append(w.files, nil)
	}
	runs := make([]run, 0, len(paths))
	total := 0
	for i, p := range paths {
		data, err := readInto(p, w.files[i])
		if err != nil {
			return err
		}
		w.files[i] = data
		r := run{data: data}
		r.left, r.i = uvarint(data, 0)
		total += int(r.left)
		if r.next() {
			runs = append(runs, r)
		}
	}
	keys := reserve(w.keys, total)
	for len(runs) > 0 {
		j := 0
		for i := 1; i < len(runs); i++ {
			if runs[i].cur < runs[j].cur {
				j = i
			}
		}
		if v := runs[j].cur; len(keys) == 0 || v != keys[len(keys)-1] {
			keys = append(keys, v)
		}
		if !runs[j].next() {
			runs[j] = runs[len(runs)-1]
			runs = runs[:len(runs)-1]
		}
	}
	w.keys = keys
	return nil
}

// readInto reads the file at path into buf, grown if need be.
func readInto(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if n := int(st.Size()); cap(buf) < n {
		buf = make([]byte, n)
	} else {
		buf = buf[:n]
	}
	_, err = io.ReadFull(f, buf)
	return buf, err
}

// run is a sorted run of keys being decoded: a count, then the first key
// and the differences from each key to the next, as unsigned varints.
type run struct {
	data []byte
	i    int
	left uint64 // keys not yet decoded
	cur  uint64 // the key decoded last
}

// next decodes the next key into r.cur, or reports that there is none.
func (r *run) next() bool {
	if r.left == 0 {
		return false
	}
	var d uint64
	d, r.i = uvarint(r.data, r.i)
	r.cur += d
	r.left--
	return true
}

// uvarint decodes the unsigned varint at data[i] and returns it and the
// index after it.
func uvarint(data []byte, i int) (uint64, int) {
	var x uint64
	for s := uint(0); ; s += 7 {
		c := data[i]
		i++
		x |= uint64(c&0x7f) << (s & 63)
		if c < 0x80 {
			return x, i
		}
	}
}

// expandOnly generates and canonicalises the successors of every input
// position as expand does, but folds them into a checksum rather than
// appending them.
func (w *worker) expandOnly() uint64 {
	b, ng := w.b, w.b.ng
	var img [8]uint64
	var src [movePairs]uint64
	var sink uint64
	for _, key := range w.keys {
		b.images(key, &img)
		sink += uint64(orbit(key, &img, ng))
		b.sources(key, &src)
		for p, m := range src {
			moves := (*[64][8]uint64)(b.move[p*64:])
			for m != 0 {
				d := &moves[bits.TrailingZeros64(m)&63]
				m &= m - 1
				sink += canonMove(&img, d, ng)
			}
		}
	}
	return sink
}

// expand generates the successors of every input position, of both
// colours, canonicalises each and appends it to its target shard's
// buffer. It returns the positions the input stands for, its orbits'
// sizes added up, and the number of successors.
func (w *worker) expand() (positions, succ int64) {
	b, ng := w.b, w.b.ng
	// Each buffer gets room for its share of the successors at the rate
	// of the worker's last job and a tenth more, so that few appends have
	// to grow it.
	room := int(float64(len(w.keys)) * max(w.rate, 1) * 1.1 / float64(len(w.bufs)))
	for s := range w.bufs {
		w.bufs[s] = reserve(w.bufs[s], room)
	}
	var img [8]uint64
	var src [movePairs]uint64
	bufs := w.bufs
	for _, key := range w.keys {
		b.images(key, &img)
		positions += int64(orbit(key, &img, ng))
		b.sources(key, &src)
		for p, m := range src {
			moves := (*[64][8]uint64)(b.move[p*64:])
			succ += int64(bits.OnesCount64(m))
			for m != 0 {
				d := &moves[bits.TrailingZeros64(m)&63]
				m &= m - 1
				c := canonMove(&img, d, ng)
				s := shardOf(c, w.shards)
				bufs[s] = append(bufs[s], c)
			}
		}
	}
	if len(w.keys) > 0 {
		w.rate = float64(succ) / float64(len(w.keys))
	}
	return positions, succ
}

// write writes each target shard's distinct successors, delta and varint
// encoded, to a file of tier from the job of shard from, and returns the
// files' names.
func (w *worker) write(tier, from int) ([]string, error) {
	out := make([]string, len(w.bufs))
	for s, keys := range w.bufs {
		if len(keys) == 0 {
			continue
		}
		w.enc = encode(w.enc[:0], keys)
		out[s] = fileName(w.dir, tier, s, from)
		if err := os.WriteFile(out[s], w.enc, 0o644); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// encode appends to buf the count of keys, then the first key and the
// difference from each key to the next, as unsigned varints.
func encode(buf []byte, keys []uint64) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	var prev uint64
	for _, k := range keys {
		buf = binary.AppendUvarint(buf, k-prev)
		prev = k
	}
	return buf
}

// reserve returns buf emptied, with room for n keys: a new buffer, with a
// quarter more room, if buf has too little.
func reserve(buf []uint64, n int) []uint64 {
	if cap(buf) >= n {
		return buf[:0]
	}
	return make([]uint64, 0, n+n/4)
}

package parquetpages

import (
	"encoding/binary"
	"math/bits"
)

// dictEncoder encodes the byte arrays of a column chunk as a dictionary,
// the distinct values in the order they came, PLAIN, and the pages as
// indices into it: a bit width, then runs of the RLE/bit-packed hybrid.
type dictEncoder struct {
	index   map[string]int32
	plain   []byte // the dictionary page: each value's length and bytes
	last    []byte // a copy of the last value added
	lastIdx int32
	// runs are the indices of the current page, as runs of one index:
	// a column that repeats one value down the page (the game and board
	// of a pieces table) needs a run a page, where a slice of every
	// index grew to a page's rows.
	runs []dictRun
	n    int // indices of the current page
}

// dictRun is n indices idx in a row.
type dictRun struct {
	idx int32
	n   int32
}

// addDict adds the value s to the dictionary, when it is not there yet,
// and its index to the page.
func addDict[S string | []byte](d *dictEncoder, s S) {
	if d.n == 0 || string(s) != string(d.last) {
		i, ok := d.index[string(s)]
		if !ok {
			if d.index == nil {
				d.index = map[string]int32{}
			}
			i = int32(len(d.index))
			d.index[string(s)] = i
			d.plain = binary.LittleEndian.AppendUint32(d.plain, uint32(len(s)))
			d.plain = append(d.plain, s...)
		}
		d.last, d.lastIdx = append(d.last[:0], s...), i
	}
	if r := len(d.runs) - 1; r >= 0 && d.runs[r].idx == d.lastIdx {
		d.runs[r].n++
	} else {
		d.runs = append(d.runs, dictRun{idx: d.lastIdx, n: 1})
	}
	d.n++
}

// resetPage forgets the indices of the page.
func (d *dictEncoder) resetPage() { d.runs, d.n = d.runs[:0], 0 }

// reset forgets the dictionary and the page, for the next column chunk.
func (d *dictEncoder) reset() {
	clear(d.index)
	d.plain = d.plain[:0]
	d.resetPage()
}

// bitWidth is the bits of an index into a dictionary of n values, as
// arrow-go writes it: 0 for an empty dictionary, 1 for one value.
func bitWidth(n int) int {
	if n <= 1 {
		return n
	}
	return bits.Len32(uint32(n - 1))
}

// hybridGroups is the most groups of 8 values in one bit-packed run: one
// byte of run header, as parquet-mr writes them.
const hybridGroups = 63

// finishPage appends the page's data to dst: the bit width, then one RLE
// run when every index of the page is the same, else bit-packed runs.
func (d *dictEncoder) finishPage(dst []byte) []byte {
	w := bitWidth(len(d.index))
	dst = append(dst, byte(w))
	if len(d.runs) <= 1 {
		var idx int32
		if len(d.runs) == 1 {
			idx = d.runs[0].idx
		}
		dst = binary.AppendUvarint(dst, uint64(d.n)<<1)
		for b := 0; b < (w+7)/8; b++ {
			dst = append(dst, byte(idx>>(8*b)))
		}
		return dst
	}
	var vals [8 * hybridGroups]uint64
	runs, left := d.runs, d.runs[0].n // left: of runs[0]
	for rest := d.n; rest > 0; {
		n := min(rest, len(vals))
		groups := (n + 7) / 8
		clear(vals[:8*groups])
		for i := range n {
			for left == 0 {
				runs = runs[1:]
				left = runs[0].n
			}
			vals[i] = uint64(runs[0].idx)
			left--
		}
		dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
		dst = packBits(dst, vals[:8*groups], w)
		rest -= n
	}
	return dst
}

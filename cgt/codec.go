package cgt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// ErrCorrupt marks an encoding that Decode cannot read.
var ErrCorrupt = errors.New("corrupt encoding of games")

// Encode appends to dst the canonical forms of roots as a self-contained
// DAG, and returns the extended slice. Each distinct game among the roots
// and their followers is written once, options before the games that hold
// them, as the uvarint counts and local indexes of its Left and Right
// options; then the roots, as local indexes. The encoding does not depend
// on the table's IDs, so any table can Decode it.
func (t *Table) Encode(dst []byte, roots []ID) []byte {
	// Every option of a game is stored before it, so sorting the closure
	// by ID puts options first.
	seen := map[ID]bool{}
	var all []ID
	stack := slices.Clone(roots)
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[g] {
			continue
		}
		seen[g] = true
		all = append(all, g)
		stack = append(append(stack, t.nodes[g].left...), t.nodes[g].right...)
	}
	slices.Sort(all)
	local := make(map[ID]uint64, len(all))
	dst = binary.AppendUvarint(dst, uint64(len(all)))
	for i, g := range all {
		local[g] = uint64(i)
		for _, side := range [2][]ID{t.nodes[g].left, t.nodes[g].right} {
			dst = binary.AppendUvarint(dst, uint64(len(side)))
			for _, o := range side {
				dst = binary.AppendUvarint(dst, local[o])
			}
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(roots)))
	for _, g := range roots {
		dst = binary.AppendUvarint(dst, local[g])
	}
	return dst
}

// Decode reads one encoding written by Encode from the start of src into
// t, and returns the roots as IDs of t and the number of bytes read. Each
// game is rebuilt with New, so a well-formed encoding of non-canonical
// forms still yields canonical ones. It returns an error wrapping
// ErrCorrupt when src is truncated or an index points forward.
func (t *Table) Decode(src []byte) (roots []ID, n int, err error) {
	return t.decode(src, t.New)
}

// DecodeCanonical is Decode for an encoding that Encode wrote, whose games
// are canonical: it stores each game as it is given, without the search for
// dominated and reversible options that New makes, which dominates the cost
// of Decode. Given non-canonical forms, it stores them as if canonical and
// the table's equality is no longer the games'; guard the encoding (a
// checksum) where it could be damaged.
func (t *Table) DecodeCanonical(src []byte) (roots []ID, n int, err error) {
	return t.decode(src, func(left, right []ID) ID {
		slices.Sort(left)
		slices.Sort(right)
		return t.intern(slices.Compact(left), slices.Compact(right))
	})
}

func (t *Table) decode(src []byte, build func(left, right []ID) ID) (roots []ID, n int, err error) {
	d := decoder{src: src}
	count := d.uvarint(uint64(len(src)))
	ids := make([]ID, 0, count)
	var sides [2][]ID
	for i := uint64(0); i < count && d.err == nil; i++ {
		for s := range sides {
			k := d.uvarint(uint64(len(src)))
			sides[s] = sides[s][:0]
			for j := uint64(0); j < k && d.err == nil; j++ {
				if x := d.index(i); d.err == nil {
					sides[s] = append(sides[s], ids[x])
				}
			}
		}
		if d.err == nil {
			ids = append(ids, build(sides[0], sides[1]))
		}
	}
	k := d.uvarint(uint64(len(src)))
	for j := uint64(0); j < k && d.err == nil; j++ {
		if x := d.index(uint64(len(ids))); d.err == nil {
			roots = append(roots, ids[x])
		}
	}
	if d.err != nil {
		return nil, 0, d.err
	}
	return roots, d.off, nil
}

type decoder struct {
	src []byte
	off int
	err error
}

// uvarint reads one uvarint of at most limit.
func (d *decoder) uvarint(limit uint64) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.src[d.off:])
	switch {
	case n <= 0:
		d.err = fmt.Errorf("%w: bad uvarint at byte %d", ErrCorrupt, d.off)
		return 0
	case v > limit:
		d.err = fmt.Errorf("%w: %d at byte %d, want at most %d", ErrCorrupt, v, d.off, limit)
		return 0
	}
	d.off += n
	return v
}

// index reads a local index below n.
func (d *decoder) index(n uint64) uint64 {
	if n == 0 && d.err == nil {
		d.err = fmt.Errorf("%w: an index at byte %d before any game", ErrCorrupt, d.off)
	}
	if d.err != nil {
		return 0
	}
	return d.uvarint(n - 1)
}

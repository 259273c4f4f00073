package tablebase

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"

	"github.com/census-cgt/census/solve"
)

// The record code: every (Left, Right) pair of a file is one symbol of a
// canonical Huffman code whose lengths are at most maxCodeLen bits. At most
// maxSyms symbols have a code; when a file holds more distinct pairs, the
// least frequent go through the escape symbol, followed by the pair's 14
// raw bits.
const (
	maxCodeLen = 12
	maxSyms    = 1024
	escBits    = 14   // an escaped pair: Left in 7 bits, then Right in 7
	escByte    = 0xFF // Left and Right of the escape symbol in the code table
	symEntry   = 3    // bytes of a code table entry: left, right, length
)

// symbol is a code table entry: a pair (or the escape, escByte twice) and
// the length of its code.
type symbol struct {
	left, right uint8
	len         uint8
}

func (s symbol) esc() bool { return s.left == escByte }

// key orders symbols canonically: by length, then pair, the escape last.
func (s symbol) key() uint32 { return uint32(s.len)<<16 | uint32(s.left)<<8 | uint32(s.right) }

// pairIndex is the index of the pair (l, r) in a frequency table.
func pairIndex(l, r uint8) int { return int(l)<<7 | int(r) }

// code is the bits a writer emits for one pair: the code, bit-reversed so
// that the first bit read is its first bit, and the number of bits.
type code struct {
	bits uint32
	n    uint8
}

// buildCode chooses the symbols of a file from the frequency of each pair
// (indexed by pairIndex) and their code lengths. It returns the symbols in
// canonical order and the code of each pair (zero length for an escaped
// pair) with the escape's code.
func buildCode(freq []uint64) (syms []symbol, codes []code, esc code) {
	type pf struct {
		pair int
		n    uint64
	}
	var seen []pf
	for p, n := range freq {
		if n > 0 {
			seen = append(seen, pf{p, n})
		}
	}
	codes = make([]code, len(freq))
	if len(seen) == 0 {
		return nil, codes, code{}
	}
	// The most frequent first; ties by pair, so that a file is a function
	// of its contents.
	slices.SortFunc(seen, func(a, b pf) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return cmp.Compare(a.pair, b.pair)
	})
	// Each pair with a code takes maxCodeLen bits or fewer, and at least
	// 2^-maxCodeLen of the code space: a long tail of rare pairs with codes
	// would lengthen the codes of the frequent ones. So the table holds
	// the m most frequent pairs, or m-1 and the escape, for the m of a
	// few candidates that makes the file shortest, counting the table.
	bestCost := ^uint64(0)
	for _, m := range alphabetSizes(len(seen)) {
		weights := make([]uint64, m)
		cand := make([]symbol, m)
		var cost uint64
		for i := range m {
			s := seen[i]
			if m < len(seen) && i == m-1 {
				for _, t := range seen[i:] {
					weights[i] += t.n
				}
				cost += weights[i] * escBits
				cand[i] = symbol{left: escByte, right: escByte}
				break
			}
			weights[i] = s.n
			cand[i] = symbol{left: uint8(s.pair >> 7), right: uint8(s.pair & 127)}
		}
		if m > 1 {
			for i, l := range limitedLengths(weights, maxCodeLen) {
				cand[i].len = l
				cost += weights[i] * uint64(l)
			}
		}
		if cost += 8 * symEntry * uint64(m); cost < bestCost {
			syms, bestCost = cand, cost
		}
	}
	slices.SortFunc(syms, func(a, b symbol) int { return cmp.Compare(a.key(), b.key()) })
	for i, c := range canonical(syms) {
		s := syms[i]
		if s.esc() {
			esc = c
		} else {
			codes[pairIndex(s.left, s.right)] = c
		}
	}
	return syms, codes, esc
}

// alphabetSizes are the sizes of code table tried for a file of n distinct
// pairs: all of them when the table can hold them, and about every power
// of 2^(1/4) from 2 to maxSyms below n.
func alphabetSizes(n int) []int {
	if n <= 1 {
		return []int{n}
	}
	var out []int
	for m := 2.0; int(m) < min(n, maxSyms+1); m *= 1.19 {
		if len(out) == 0 || int(m) != out[len(out)-1] {
			out = append(out, int(m))
		}
	}
	if n <= maxSyms {
		out = append(out, n)
	} else if out[len(out)-1] != maxSyms {
		out = append(out, maxSyms)
	}
	return out
}

// canonical assigns the canonical codes to syms, which are in canonical
// order: the first symbol gets all zeros, each next one the previous code
// plus one, shifted left to its length. Codes are returned bit-reversed.
func canonical(syms []symbol) []code {
	out := make([]code, len(syms))
	var c uint32
	for i, s := range syms {
		if i > 0 {
			c = (c + 1) << (s.len - syms[i-1].len)
		}
		out[i] = code{bits: reverse(c, s.len), n: s.len}
	}
	return out
}

func reverse(c uint32, n uint8) uint32 {
	if n == 0 {
		return 0
	}
	return bits.Reverse32(c) >> (32 - n)
}

// limitedLengths returns the lengths of an optimal prefix code for
// weights whose lengths are at most limit, by package-merge (Larmore and
// Hirschberg): with the symbols sorted by weight, each of limit-1 rounds
// pairs up the previous round's list into packages and merges them with
// the symbols; a symbol's length is the number of times it occurs in the
// first 2n-2 items of the last list. It needs 2 <= len(weights) <=
// 1<<limit.
func limitedLengths(weights []uint64, limit int) []uint8 {
	n := len(weights)
	type item struct {
		w    uint64
		leaf int32 // symbol, or -1 for a package of items a and b
		a, b int32
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(weights[a], weights[b]) })
	items := make([]item, 0, n*(limit+1))
	leaves := make([]int32, n)
	for i, s := range order {
		items = append(items, item{w: weights[s], leaf: s})
		leaves[i] = int32(i)
	}
	list := slices.Clone(leaves)
	next := make([]int32, 0, 2*n)
	for round := 1; round < limit; round++ {
		packs := make([]int32, 0, len(list)/2)
		for i := 0; i+1 < len(list); i += 2 {
			a, b := list[i], list[i+1]
			items = append(items, item{w: items[a].w + items[b].w, leaf: -1, a: a, b: b})
			packs = append(packs, int32(len(items)-1))
		}
		next = next[:0]
		i, j := 0, 0
		for i < len(leaves) || j < len(packs) {
			if j == len(packs) || i < len(leaves) && items[leaves[i]].w <= items[packs[j]].w {
				next = append(next, leaves[i])
				i++
			} else {
				next = append(next, packs[j])
				j++
			}
		}
		list, next = next, list
	}
	lens := make([]uint8, n)
	stack := slices.Clone(list[:2*n-2])
	for len(stack) > 0 {
		it := items[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		if it.leaf >= 0 {
			lens[it.leaf]++
		} else {
			stack = append(stack, it.a, it.b)
		}
	}
	return lens
}

// decoder decodes records: tab, indexed by the next maxCodeLen bits of
// the stream, holds the symbol's index shifted left 5 and the bits its
// record takes, the code's length and, for the escape, the 14 bits after
// it (8 KiB a file, whatever its code).
type decoder struct {
	tab  *[1 << maxCodeLen]uint16
	syms []solve.Record
	esc  uint16 // index of the escape symbol, noEsc if none
}

const noEsc = 0xFFFF

// newDecoder checks a code table read from a file and builds its decoder:
// entries in canonical order, each pair at most solve.MaxRemoteness or the
// escape, lengths 1..maxCodeLen whose code is complete (Kraft sum 1), or a
// single pair of length 0.
func newDecoder(syms []symbol) (*decoder, error) {
	d := &decoder{tab: new([1 << maxCodeLen]uint16), esc: noEsc, syms: make([]solve.Record, len(syms))}
	if len(syms) == 0 {
		return d, nil
	}
	var kraft uint64
	for i, s := range syms {
		switch {
		case s.esc() && s.right != escByte, !s.esc() && (s.left > solve.MaxRemoteness || s.right > solve.MaxRemoteness):
			return nil, fmt.Errorf("code table entry %d: bad pair (%d, %d)", i, s.left, s.right)
		case i > 0 && s.key() <= syms[i-1].key():
			return nil, fmt.Errorf("code table entry %d: (%d, %d) length %d out of order", i, s.left, s.right, s.len)
		case len(syms) == 1 && (s.len != 0 || s.esc()):
			return nil, fmt.Errorf("code table of one pair: length %d, pair (%d, %d)", s.len, s.left, s.right)
		case len(syms) > 1 && (s.len < 1 || s.len > maxCodeLen):
			return nil, fmt.Errorf("code table entry %d: bad length %d", i, s.len)
		}
		if s.esc() {
			d.esc = uint16(i)
		} else {
			d.syms[i] = solve.Record{Left: s.left, Right: s.right}
		}
		if s.len > 0 {
			kraft += 1 << (maxCodeLen - s.len)
		}
	}
	if len(syms) > 1 && kraft != 1<<maxCodeLen {
		return nil, fmt.Errorf("code table is not a complete code (Kraft sum %d/%d)", kraft, 1<<maxCodeLen)
	}
	for i, c := range canonical(syms) {
		for j := c.bits; j < uint32(len(d.tab)); j += 1 << c.n {
			d.tab[j] = uint16(i)<<5 | uint16(c.n)
			if uint16(i) == d.esc {
				d.tab[j] += escBits
			}
		}
	}
	return d, nil
}

package parquetpages

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// TestDictEncoderPages checks the data pages of the dictionary encoder,
// which keeps a page's indices as runs, against the RLE / bit-packed
// hybrid written from the plain list of indices: one RLE run when every
// index is the same, else bit-packed runs of at most 63 groups of 8.
func TestDictEncoderPages(t *testing.T) {
	abc := []string{"a", "b", "c"}
	for _, tc := range []struct {
		name string
		vals func(i int) string
		n    int
	}{
		{"one value", func(int) string { return "4x4" }, 1000},
		{"one row", func(int) string { return "x" }, 1},
		{"alternating", func(i int) string { return abc[i%2] }, 1001},
		{"long runs across groups", func(i int) string { return abc[(i/700)%3] }, 5000},
		{"a change at the end", func(i int) string {
			if i == 599 {
				return "b"
			}
			return "a"
		}, 600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d dictEncoder
			for page := 0; page < 2; page++ { // the second page after resetPage
				var indices []int32
				seen := map[string]int32{}
				for k, v := range d.index {
					seen[k] = v
				}
				for i := 0; i < tc.n; i++ {
					s := tc.vals(i + page)
					addDict(&d, s)
					if _, ok := seen[s]; !ok {
						seen[s] = int32(len(seen))
					}
					indices = append(indices, seen[s])
				}
				got := d.finishPage(nil)
				want := hybridPage(indices, bitWidth(len(seen)))
				if !bytes.Equal(got, want) {
					t.Fatalf("page %d: %x, want %x", page, got, want)
				}
				d.resetPage()
			}
		})
	}
}

// hybridPage is a dictionary data page of indices at bit width w.
func hybridPage(indices []int32, w int) []byte {
	dst := []byte{byte(w)}
	same := true
	for _, i := range indices {
		same = same && i == indices[0]
	}
	if same {
		dst = binary.AppendUvarint(dst, uint64(len(indices))<<1)
		for b := 0; b < (w+7)/8; b++ {
			dst = append(dst, byte(indices[0]>>(8*b)))
		}
		return dst
	}
	for len(indices) > 0 {
		n := min(len(indices), 8*hybridGroups)
		groups := (n + 7) / 8
		dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
		// Bit-pack 8*groups values, least significant bit first.
		var acc uint64
		var nacc int
		for i := 0; i < 8*groups; i++ {
			var v uint64
			if i < n {
				v = uint64(indices[i])
			}
			acc |= v << nacc
			nacc += w
			for nacc >= 8 {
				dst = append(dst, byte(acc))
				acc >>= 8
				nacc -= 8
			}
		}
		if nacc > 0 {
			panic(fmt.Sprint("8 values of ", w, " bits end on a byte"))
		}
		indices = indices[n:]
	}
	return dst
}

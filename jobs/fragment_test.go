package jobs

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/census-cgt/census/codec/fragment"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/store"
)

const maxKey = ^uint64(0)

func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestBlobMismatch checks that a fragment that does not match the job's
// blob, or the job's game, is refused.
func TestBlobMismatch(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	g := mustGame(t, "clobber", "2x3", "")
	keys := []uint64{0, 9, 1 << 35}
	good, err := putKeys(ctx, st, "run/t0003/b00000/s00000-p000.frag", headerFor(g, KindPositions, 3), keys)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readBlob(st, good, KindPositions, g, (*fragment.Reader).NextKey); err != nil || !slices.Equal(got, keys) {
		t.Fatalf("undamaged: %v, %v", got, err)
	}
	with := func(f func(*Blob)) Blob {
		b := good
		f(&b)
		return b
	}
	tests := []struct {
		name string
		blob Blob
		kind Kind
		game games.Game
		want error
	}{
		{"wrong sum", with(func(b *Blob) { b.Sum ^= 1 }), KindPositions, g, ErrCorrupt},
		{"size one more", with(func(b *Blob) { b.Size++ }), KindPositions, g, ErrCorrupt},
		{"size one less", with(func(b *Blob) { b.Size-- }), KindPositions, g, ErrCorrupt},
		{"count one more", with(func(b *Blob) { b.Count++ }), KindPositions, g, ErrCorrupt},
		{"count one less", with(func(b *Blob) { b.Count-- }), KindPositions, g, ErrCorrupt},
		{"count zero", with(func(b *Blob) { b.Count = 0 }), KindPositions, g, ErrCorrupt},
		{"read as dead-free boards", with(func(b *Blob) { b.Kind = KindDeadFree }), KindDeadFree, g, ErrCorrupt},
		{"read as in-place pieces", good, KindInPlace, g, ErrCorrupt},
		{"another game", good, KindPositions, mustGame(t, "domineering", "2x3", ""), ErrCorrupt},
		{"another board", good, KindPositions, mustGame(t, "clobber", "3x2", ""), ErrCorrupt},
		{"missing", with(func(b *Blob) { b.Name = "run/t0003/b00000/none.frag" }), KindPositions, g, store.ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readBlob(st, tc.blob, tc.kind, tc.game, (*fragment.Reader).NextKey)
			if !errors.Is(err, tc.want) {
				t.Errorf("read %v, error %v; want an error wrapping %v", got, err, tc.want)
			}
		})
	}
}

// TestBlobSections writes three fragments back to back into one blob, as a
// spill does, and reads each through its section; a section with the
// offset of another fragment, or one byte off, is refused.
func TestBlobSections(t *testing.T) {
	ctx := context.Background()
	st := newStore(t)
	g := mustGame(t, "domineering", "4x4", "")
	w, err := st.Create(ctx, "run/t0002/s00000-p000.frag")
	if err != nil {
		t.Fatal(err)
	}
	parts := [][]uint64{{0, 3}, {5}, {1 << 20, 1 << 30, maxKey}}
	var secs []Blob
	var offset int64
	for _, keys := range parts {
		b, err := writeKeys(w, headerFor(g, KindPositions, 2), keys)
		if err != nil {
			t.Fatal(err)
		}
		b.Name, b.Offset = "run/t0002/s00000-p000.frag", offset
		offset += b.Size
		secs = append(secs, b)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	for i, b := range secs {
		got, err := readBlob(st, b, KindPositions, g, (*fragment.Reader).NextKey)
		if err != nil || !slices.Equal(got, parts[i]) {
			t.Errorf("section %d: %v, %v; want %v", i, got, err, parts[i])
		}
	}
	// The whole blob read as one fragment has bytes after the first
	// trailer.
	whole := secs[0]
	whole.Size = 0
	if _, err := readBlob(st, whole, KindPositions, g, (*fragment.Reader).NextKey); !errors.Is(err, ErrCorrupt) {
		t.Errorf("the whole blob as one fragment: %v, want ErrCorrupt", err)
	}
	tests := []struct {
		name string
		b    Blob
	}{
		{"offset of the next fragment", func() Blob { b := secs[0]; b.Offset = secs[1].Offset; return b }()},
		{"offset of the previous fragment", func() Blob { b := secs[2]; b.Offset = secs[1].Offset; return b }()},
		{"one byte late", func() Blob { b := secs[1]; b.Offset++; return b }()},
		{"one byte early", func() Blob { b := secs[1]; b.Offset--; return b }()},
		{"past the end", func() Blob { b := secs[2]; b.Offset = offset; return b }()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := readBlob(st, tc.b, KindPositions, g, (*fragment.Reader).NextKey); !errors.Is(err, ErrCorrupt) {
				t.Errorf("read %v, %v; want ErrCorrupt", got, err)
			}
		})
	}
}

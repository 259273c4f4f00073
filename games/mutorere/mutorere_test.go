package mutorere

import (
	"errors"
	"slices"
	"testing"
)

func mustNew(t *testing.T, points int, v Variant) *Rules {
	t.Helper()
	r, err := New(points, v)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNewRejects(t *testing.T) {
	for _, points := range []int{-2, 0, 1, 2, 3, 5, 7, 9, 32} {
		if _, err := New(points, Classic); !errors.Is(err, ErrPoints) {
			t.Errorf("New(%d): err %v, want ErrPoints", points, err)
		}
	}
	if _, err := New(8, Variant(9)); err == nil {
		t.Error("New(8, Variant(9)) succeeded")
	}
}

func TestCounts(t *testing.T) {
	// (n+1)·C(n, n/2): the empty place, then Black's places among the rest.
	for _, tc := range []struct {
		points int
		want   uint64
	}{{4, 30}, {6, 140}, {8, 630}, {10, 2772}, {12, 12012}} {
		if got := mustNew(t, tc.points, Classic).NumArrangements(); got != tc.want {
			t.Errorf("%d points: %d arrangements, want %d", tc.points, got, tc.want)
		}
	}
}

// TestRank checks that Rank numbers the arrangements densely, one to one,
// against a brute-force enumeration of every placement of k Black and k
// White counters.
func TestRank(t *testing.T) {
	for _, points := range []int{4, 6, 8, 10} {
		r := mustNew(t, points, Classic)
		seen := make([]bool, r.NumArrangements())
		places := points + 1
		for m := 0; m < 1<<places; m++ {
			for w := 0; w < 1<<places; w++ {
				if m&w != 0 || popcount(m) != points/2 || popcount(w) != points/2 {
					continue
				}
				a := arrangement(uint32(m), uint32(w))
				i := r.Rank(a)
				if i >= r.NumArrangements() || seen[i] {
					t.Fatalf("%d points: %s has rank %d, out of range or taken", points, r.String(a), i)
				}
				seen[i] = true
				if b := r.Unrank(i); b != a {
					t.Fatalf("%d points: Unrank(Rank(%s)) = %s", points, r.String(a), r.String(b))
				}
			}
		}
		if slices.Contains(seen, false) {
			t.Errorf("%d points: some ranks unused", points)
		}
	}
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func TestStartAndParse(t *testing.T) {
	r := mustNew(t, 8, Classic)
	if got := r.String(r.Start()); got != "BBBBWWWW." {
		t.Errorf("start %q, want BBBBWWWW.", got)
	}
	for _, s := range []string{"BBBBWWWW.", "BWBW.WBWB", "BBBWWWW.B"} {
		a, err := r.Parse(s)
		if err != nil || r.String(a) != s {
			t.Errorf("Parse(%q) = %q, %v", s, r.String(a), err)
		}
	}
	for _, s := range []string{"BBBBWWWW", "BBBBWWWWW", "BBBBWWWX.", "BBBBBWWW."} {
		if _, err := r.Parse(s); err == nil {
			t.Errorf("Parse(%q) succeeded", s)
		}
	}
}

// TestMoves checks hand-worked positions of the 8-point game.
func TestMoves(t *testing.T) {
	for _, tc := range []struct {
		name    string
		variant Variant
		from    string
		mover   Colour
		want    []string
	}{
		// From the start only the counters beside an opponent may enter.
		{"start black", Classic, "BBBBWWWW.", Black, []string{".BBBWWWWB", "BBB.WWWWB"}},
		{"start white", Classic, "BBBBWWWW.", White, []string{"BBBB.WWWW", "BBBBWWW.W"}},
		{"start black free", FreeCentre, "BBBBWWWW.", Black, []string{".BBBWWWWB", "B.BBWWWWB", "BB.BWWWWB", "BBB.WWWWB"}},
		// Empty point 0: its circle neighbours 7 and 1, and the centre.
		{"empty point", Classic, ".BBBWWWWB", Black, []string{"B.BBWWWWB", "BBBBWWWW."}},
		{"empty point white", Classic, ".BBBWWWWB", White, []string{"WBBBWWW.B"}},
		// Out of the centre to the one empty point.
		{"out of centre", Classic, "BBBB.WWWW", White, []string{"BBBBW.WWW", "BBBBWWWW."}},
		// A side with no counter next to the gap and none in the centre is stuck.
		{"stuck", Classic, "BBBBW.WWW", Black, nil},
		{"not stuck", Classic, "BBBBW.WWW", White, []string{"BBBB.WWWW", "BBBBWW.WW", "BBBBWWWW."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustNew(t, 8, tc.variant)
			a, err := r.Parse(tc.from)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range r.Moves(a, tc.mover, nil) {
				got = append(got, r.String(b))
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("moves of %s for %s: %q, want %q", tc.from, tc.mover, got, want)
			}
		})
	}
}

// TestUnmoves checks that Unmoves inverts Moves edge for edge, on every
// arrangement of small stars under both variants.
func TestUnmoves(t *testing.T) {
	for _, v := range []Variant{Classic, FreeCentre} {
		for _, points := range []int{4, 6, 8, 10} {
			r := mustNew(t, points, v)
			forward := map[[2]Arrangement]int{}
			backward := map[[2]Arrangement]int{}
			for i := range r.NumArrangements() {
				a := r.Unrank(i)
				for _, c := range []Colour{Black, White} {
					for _, b := range r.Moves(a, c, nil) {
						forward[[2]Arrangement{a, b}]++
					}
					for _, b := range r.Unmoves(a, c, nil) {
						backward[[2]Arrangement{b, a}]++
					}
				}
			}
			if len(forward) != len(backward) {
				t.Fatalf("%s %d points: %d moves, %d unmoves", v, points, len(forward), len(backward))
			}
			for e, n := range forward {
				if backward[e] != n {
					t.Fatalf("%s %d points: move %s -> %s: %d forward, %d backward", v, points, r.String(e[0]), r.String(e[1]), n, backward[e])
				}
			}
		}
	}
}

// TestSymmetries checks that the 2n symmetries are distinct, form a group
// closed under composition, and commute with the moves.
func TestSymmetries(t *testing.T) {
	r := mustNew(t, 8, Classic)
	if r.NumSymmetries() != 16 {
		t.Fatalf("%d symmetries, want 16", r.NumSymmetries())
	}
	// An arrangement with no symmetry of its own has 16 distinct images.
	a, _ := r.Parse("BBWBWWB.W")
	images := map[Arrangement]int{}
	for i := range 16 {
		images[r.Symmetry(a, i)] = i
	}
	if len(images) != 16 {
		t.Fatalf("%d distinct images, want 16", len(images))
	}
	for i := range 16 {
		for j := range 16 {
			if _, ok := images[r.Symmetry(r.Symmetry(a, i), j)]; !ok {
				t.Fatalf("symmetry %d then %d leaves the group", i, j)
			}
		}
	}
	for x := range r.NumArrangements() {
		b := r.Unrank(x)
		for i := range 16 {
			for _, c := range []Colour{Black, White} {
				var img, moved []Arrangement
				for _, m := range r.Moves(b, c, nil) {
					img = append(img, r.Symmetry(m, i))
				}
				moved = r.Moves(r.Symmetry(b, i), c, nil)
				slices.Sort(img)
				slices.Sort(moved)
				if !slices.Equal(img, moved) {
					t.Fatalf("symmetry %d does not commute with the moves of %s", i, r.String(b))
				}
			}
		}
	}
}

func TestCanonical(t *testing.T) {
	r := mustNew(t, 8, Classic)
	orbits := map[Arrangement]bool{}
	for x := range r.NumArrangements() {
		a := r.Unrank(x)
		c := r.Canonical(a)
		for i := range 16 {
			if r.Canonical(r.Symmetry(a, i)) != c {
				t.Fatalf("canonical forms differ within the orbit of %s", r.String(a))
			}
		}
		orbits[c] = true
	}
	// Burnside's lemma, by hand: the identity fixes all 630 arrangements.
	// A rotation moves every point, so it fixes only arrangements with
	// the centre empty: rotation by 4 the C(4,2) = 6 of period 4,
	// rotations by 2 and 6 the C(2,1) = 2 of period 2 each, odd ones none.
	// A reflection through two opposite points has three fixed places
	// (those points and the centre) and three swapped pairs; the empty
	// place is one of the three (3 ways), the other two are both Black
	// with one Black pair (3 ways) or both White with two Black pairs (3
	// ways): 18 each, 72 for the 4. A reflection through edge midpoints
	// swaps four pairs: centre empty, two Black pairs, C(4,2) = 6 each, 24
	// for the 4. Orbits: (630 + 6 + 4 + 72 + 24) / 16 = 46.
	const want = 46
	if b := burnside(r); b != want {
		t.Errorf("Burnside's lemma by counting fixed arrangements: %d, by hand %d", b, want)
	}
	if len(orbits) != want {
		t.Errorf("%d orbits, want %d by Burnside's lemma", len(orbits), want)
	}
}

// burnside counts the orbits as the mean number of arrangements fixed by a
// symmetry.
func burnside(r *Rules) int {
	fixed := 0
	for i := range r.NumSymmetries() {
		for x := range r.NumArrangements() {
			a := r.Unrank(x)
			if r.Symmetry(a, i) == a {
				fixed++
			}
		}
	}
	return fixed / r.NumSymmetries()
}

func TestGraph(t *testing.T) {
	r := mustNew(t, 8, Classic)
	if r.NumStates() != 1260 {
		t.Errorf("%d states, want 1260", r.NumStates())
	}
	for s := range r.NumStates() {
		a, c := r.State(s)
		if r.Index(a, c) != s {
			t.Fatalf("state %d round-trips to %d", s, r.Index(a, c))
		}
		for _, u := range r.Successors(s, nil) {
			if !slices.Contains(r.Predecessors(u, nil), s) {
				t.Fatalf("state %d is not a predecessor of its successor %d", s, u)
			}
		}
	}
	if a, c := r.State(r.StartState()); r.String(a) != "BBBBWWWW." || c != Black {
		t.Errorf("start state is %s with %s to move", r.String(a), c)
	}
}

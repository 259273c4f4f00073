package mutorere

import "math/bits"

// The symmetries of the star are the 2n rotations and reflections of its
// circle (the dihedral group of order 2n: 16 for the game's 8 points); each
// fixes the centre. Swapping the colours is not among them: Black and White
// counters start differently and Black moves first.

// NumSymmetries is 2n.
func (r *Rules) NumSymmetries() int { return 2 * r.n }

// Symmetry is the image of a under symmetry i in [0, 2n): for i < n the
// rotation taking point p to p+i, for i >= n the reflection taking point p
// to i-n-p (mod n). Symmetry 0 is the identity.
func (r *Rules) Symmetry(a Arrangement, i int) Arrangement {
	return arrangement(r.mapPlaces(a.Black(), i), r.mapPlaces(a.White(), i))
}

func (r *Rules) mapPlaces(set uint32, i int) uint32 {
	centre := set & (1 << r.n) // the centre stays put
	pts := set &^ centre
	if i >= r.n {
		// p -> n-1-p, then a rotation by i-n+1 gives p -> i-n-p.
		pts = bits.Reverse32(pts) >> (32 - r.n)
		i = (i - r.n + 1) % r.n
	}
	pts = (pts<<i | pts>>(r.n-i)) & (1<<r.n - 1)
	return pts | centre
}

// StateImages appends to dst the images of state s under the 2n
// symmetries, in order (the identity first), each with the same player to
// move.
func (r *Rules) StateImages(s uint64, dst []uint64) []uint64 {
	a, c := r.State(s)
	for i := range r.NumSymmetries() {
		dst = append(dst, r.Index(r.Symmetry(a, i), c))
	}
	return dst
}

// Canonical is the least image of a under the symmetries, by Rank: one
// arrangement stands for its whole orbit.
func (r *Rules) Canonical(a Arrangement) Arrangement {
	best, bestRank := a, r.Rank(a)
	for i := 1; i < r.NumSymmetries(); i++ {
		b := r.Symmetry(a, i)
		if rk := r.Rank(b); rk < bestRank {
			best, bestRank = b, rk
		}
	}
	return best
}

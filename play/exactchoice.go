package play

import (
	"math"
	"sync"
)

// The exact choice of a minimax over fresh uniform leaves.
//
// Scored from the root mover's side, a node's score has a distribution on
// [0, 1] made of an atom a0 at 0 (a game the root mover has lost), an atom
// a1 at 1 (one it has won) and a continuous part with cumulative G(x) and
// density g(x) on (0, 1). A leaf at the horizon is uniform: G(x) = x. The
// scores of different children are independent (every leaf is drawn
// afresh), so a max node has P(V ≤ x) = Π P(V_j ≤ x) and a min node
// P(V > x) = Π P(V_j > x); G and g are polynomials whose degree is at
// most the number of uniform leaves below.
//
// The root takes child i when its score beats all others, ties broken
// uniformly. Ties have probability zero in the continuous part, so
//
//	P(i) = ∫ g_i(x) Π_{j≠i} (a0_j + G_j(x)) dx
//	     + a1_i · E[1/(1+K_i)] + Π_j a0_j / n,
//
// where K_i counts the other children scoring 1. The integrand is a
// polynomial of degree below the number L of uniform leaves, which
// Gauss–Legendre quadrature with L/2+1 points integrates exactly (up to
// rounding); the tree is evaluated at each point as values and
// derivatives, never as coefficients, which would lose all precision at
// these degrees.

// node kinds of a search tree stored in post-order.
const (
	kindLost    = iota // the root mover has lost: the atom at 0
	kindWon            // the root mover has won: the atom at 1
	kindUniform        // a fresh leaf at the horizon
	kindMax            // the root mover to move
	kindMin            // the opponent to move
)

type treeNode struct {
	kind     uint8
	children int32
}

// tree is the search tree of one choice: each root child's subtree in
// post-order, one after the other.
type tree struct {
	nodes  []treeNode
	leaves int
}

// dist is a score's distribution at one point x.
type dist struct{ a0, a1, G, g float64 }

// build appends the subtree of s, with depth moves left to search, to t; it
// reports false once the tree has more than maxLeaves uniform leaves.
func (m *Minimax) build(s State, depth int, rootMoves bool, ply int) bool {
	t := &m.tree
	if ply == len(m.bufs) {
		m.bufs = append(m.bufs, nil)
	}
	moves := m.Rules.Moves(s, m.bufs[ply][:0])
	m.bufs[ply] = moves
	switch {
	case len(moves) == 0 && rootMoves:
		t.nodes = append(t.nodes, treeNode{kind: kindLost})
	case len(moves) == 0:
		t.nodes = append(t.nodes, treeNode{kind: kindWon})
	case depth == 0:
		t.leaves++
		t.nodes = append(t.nodes, treeNode{kind: kindUniform})
		return t.leaves <= m.MaxLeaves
	default:
		// The moves live in m.bufs[ply], which deeper plies leave alone.
		for i := range moves {
			if !m.build(m.bufs[ply][i], depth-1, !rootMoves, ply+1) {
				return false
			}
		}
		k := uint8(kindMin)
		if rootMoves {
			k = kindMax
		}
		t.nodes = append(t.nodes, treeNode{kind: k, children: int32(len(moves))})
	}
	return true
}

// Dist computes the probability of each move exactly, unless the search
// tree has more than MaxLeaves uniform leaves.
func (m *Minimax) Dist(s State, moves []State, p []float64) bool {
	m.tree.nodes, m.tree.leaves = m.tree.nodes[:0], 0
	for _, t := range moves {
		if !m.build(t, m.Depth-1, false, 0) {
			return false
		}
	}
	choiceProbabilities(m.tree.nodes, m.tree.leaves, len(moves), p)
	return true
}

// choiceProbabilities sets p[i] to the probability that the root takes its
// child i, given the n children's subtrees in post-order in nodes, with
// leaves uniform leaves in all.
func choiceProbabilities(nodes []treeNode, leaves, n int, p []float64) {
	var stack []dist
	// The atoms do not depend on x: evaluate once at any point.
	roots := evalTree(nodes, 0.5, stack)
	allLost := 1.0
	for _, d := range roots {
		allLost *= d.a0
	}
	for i := range n {
		p[i] = roots[i].a1*meanShare(roots, i) + allLost/float64(n)
	}
	if leaves == 0 {
		return
	}
	xs, ws := gaussLegendre(leaves/2 + 1)
	below := make([]float64, n+1) // prefix products of P(V_j < x)
	above := make([]float64, n+1) // suffix products
	for k, x := range xs {
		ds := evalTree(nodes, x, stack)
		below[0], above[n] = 1, 1
		for j := range n {
			below[j+1] = below[j] * (ds[j].a0 + ds[j].G)
		}
		for j := n - 1; j >= 0; j-- {
			above[j] = above[j+1] * (ds[j].a0 + ds[j].G)
		}
		for i := range n {
			p[i] += ws[k] * ds[i].g * below[i] * above[i+1]
		}
	}
}

// meanShare is E[1/(1+K)], K the number of children other than i that
// score 1: child i's share of a tie at 1.
func meanShare(roots []dist, i int) float64 {
	// pk[k] is the probability that k of the others score 1.
	pk := []float64{1}
	for j, d := range roots {
		if j == i {
			continue
		}
		next := make([]float64, len(pk)+1)
		for k, q := range pk {
			next[k] += q * (1 - d.a1)
			next[k+1] += q * d.a1
		}
		pk = next
	}
	e := 0.0
	for k, q := range pk {
		e += q / float64(k+1)
	}
	return e
}

// evalTree evaluates the roots' score distributions at x, using stack as
// scratch; it returns the roots' distributions in order.
func evalTree(nodes []treeNode, x float64, stack []dist) []dist {
	stack = stack[:0]
	for _, nd := range nodes {
		switch nd.kind {
		case kindLost:
			stack = append(stack, dist{a0: 1})
		case kindWon:
			stack = append(stack, dist{a1: 1})
		case kindUniform:
			stack = append(stack, dist{G: x, g: 1})
		case kindMax, kindMin:
			c := stack[len(stack)-int(nd.children):]
			stack = append(stack[:len(stack)-len(c)], combine(c, nd.kind == kindMax))
		}
	}
	return stack
}

// combine is the distribution of the max (or min) of independent scores.
func combine(c []dist, isMax bool) dist {
	// For a max the factors are P(V_j ≤ x) = a0 + G; for a min they are
	// P(V_j > x) = 1 - a0 - G, whose derivative is -g.
	var out dist
	prodAtom, prodOther, prodF := 1.0, 1.0, 1.0
	sumDeriv := 0.0
	for _, d := range c {
		f := d.a0 + d.G
		if !isMax {
			f = 1 - f
		}
		// d/dx Π f_j = Σ f_j' Π_{k≠j} f_k, accumulated as the product
		// grows: (P·f)' = P'·f + P·f'.
		sumDeriv = sumDeriv*f + prodF*d.g
		prodF *= f
		if isMax {
			prodAtom *= d.a0
			prodOther *= 1 - d.a1
		} else {
			prodAtom *= d.a1
			prodOther *= 1 - d.a0
		}
	}
	if isMax {
		out.a0, out.a1 = prodAtom, 1-prodOther
		out.G, out.g = prodF-out.a0, sumDeriv
	} else {
		out.a1, out.a0 = prodAtom, 1-prodOther
		out.G, out.g = 1-prodF-out.a0, sumDeriv
	}
	return out
}

var (
	glMu    sync.Mutex
	glCache = map[int][2][]float64{}
)

// gaussLegendre returns the n nodes and weights of Gauss–Legendre
// quadrature on [0, 1], exact for polynomials of degree below 2n.
func gaussLegendre(n int) (xs, ws []float64) {
	glMu.Lock()
	defer glMu.Unlock()
	if c, ok := glCache[n]; ok {
		return c[0], c[1]
	}
	xs, ws = make([]float64, n), make([]float64, n)
	for i := 0; i < (n+1)/2; i++ {
		// Newton's method on P_n from the Chebyshev-like first guess.
		z := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		var pp float64
		for iter := 0; iter < 100; iter++ {
			p1, p2 := 1.0, 0.0
			for j := 1; j <= n; j++ {
				p1, p2 = ((2*float64(j)-1)*z*p1-(float64(j)-1)*p2)/float64(j), p1
			}
			pp = float64(n) * (z*p1 - p2) / (z*z - 1)
			z1 := z
			z = z1 - p1/pp
			if math.Abs(z-z1) < 1e-15 {
				break
			}
		}
		w := 2 / ((1 - z*z) * pp * pp)
		// Map [-1, 1] to [0, 1]: x = (1 ± z)/2, weight w/2.
		xs[i], xs[n-1-i] = (1-z)/2, (1+z)/2
		ws[i], ws[n-1-i] = w/2, w/2
	}
	glCache[n] = [2][]float64{xs, ws}
	return xs, ws
}

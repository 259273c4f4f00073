package games

import "slices"

// A Visit is what a tier job asks of one stored position, computed in one
// pass by a Kernel: the position's representative and orbit, its pieces
// with the canonical in-place and translated key of each live one, the
// canonical dead-free board, and the canonical key of every successor.
type Visit struct {
	// Canon and Orbit are the group's CanonOrbit of the position.
	Canon, Orbit uint64
	// Pieces are the position's pieces, live and dead, as Game.Pieces
	// gives them.
	Pieces []Piece
	// InPlace[i] is the group's Canon of the key of the i-th live piece,
	// Translated[i] the game's Translate of it.
	InPlace    []uint64
	Translated []PieceKey
	// DeadFree is the group's Canon of the game's DeadFree board.
	DeadFree uint64
	// Succ are the group's Canon of every successor, one per legal move of
	// either player, in no order.
	Succ []uint64
}

// Reset empties v, keeping its slices' arrays, for a kernel to fill it.
func (v *Visit) Reset() {
	v.Pieces, v.InPlace, v.Translated, v.Succ = v.Pieces[:0], v.InPlace[:0], v.Translated[:0], v.Succ[:0]
}

// A Kernel computes Visits for one game under one group. Visit fills v for
// pos (reusing v's slices) and adds the per-move measures of pos to m,
// each counted v.Orbit times, exactly as Expand with the pieces of pos
// and the weight v.Orbit would. With successors false it leaves v.Succ
// empty and counts the moves only (a backward or listed tier, which sends
// no successors). A Kernel is not safe for concurrent use: each goroutine
// takes its own from NewKernel.
type Kernel interface {
	Visit(pos uint64, v *Visit, m *MoveStats, successors bool)
}

// KernelMaker is a Game with a kernel of its own, fitted to its rules and
// packing, for a group of its key maps.
type KernelMaker interface {
	NewKernel(gr *Group) Kernel
}

// NewKernel is the game's own kernel for the group when it has one, and
// otherwise the kernel built from the Game and Group methods (the
// reference every game's own kernel is tested against).
func NewKernel(g Game, gr *Group) Kernel {
	if km, ok := g.(KernelMaker); ok {
		return km.NewKernel(gr)
	}
	return NewPlainKernel(g, gr)
}

// NewPlainKernel is the kernel that computes a Visit by the Game and Group
// methods one after another.
func NewPlainKernel(g Game, gr *Group) Kernel {
	k := &plainKernel{g: g, gr: gr}
	k.counter, _ = g.(MoveCounter)
	return k
}

type plainKernel struct {
	g       Game
	gr      *Group
	counter MoveCounter
}

func (k *plainKernel) Visit(pos uint64, v *Visit, m *MoveStats, successors bool) {
	g, gr := k.g, k.gr
	v.Reset()
	v.Canon, v.Orbit = gr.CanonOrbit(pos)
	v.Pieces = g.Pieces(pos, v.Pieces)
	for _, p := range v.Pieces {
		if p.Live {
			v.InPlace = append(v.InPlace, gr.Canon(p.Key))
			v.Translated = append(v.Translated, g.Translate(p.Key))
		}
	}
	v.DeadFree = gr.Canon(g.DeadFree(pos, v.Pieces))
	if !successors && k.counter != nil {
		k.counter.CountMoves(pos, v.Pieces, m, v.Orbit)
		return
	}
	v.Succ = g.Expand(pos, v.Pieces, v.Succ, m, v.Orbit)
	if !successors {
		v.Succ = v.Succ[:0]
		return
	}
	for i, s := range v.Succ {
		v.Succ[i] = gr.Canon(s)
	}
}

// SameVisit reports whether a and b hold the same Visit: equal fields, the
// successors compared as multisets. It sorts both Succ slices.
func SameVisit(a, b *Visit) bool {
	slices.Sort(a.Succ)
	slices.Sort(b.Succ)
	return a.Canon == b.Canon && a.Orbit == b.Orbit && a.DeadFree == b.DeadFree &&
		slices.Equal(a.Pieces, b.Pieces) && slices.Equal(a.InPlace, b.InPlace) &&
		slices.Equal(a.Translated, b.Translated) && slices.Equal(a.Succ, b.Succ)
}

package values

import (
	"encoding/binary"

	"github.com/census-cgt/census/cgt"
)

// outcomeBySearch finds the outcome class of a capped piece from its
// options: Left wins moving first when some Left option is a loss for
// Right moving first in it, and Left wins moving second when every Right
// option is a win for Left moving first in it.
//
// An option is a sum of the canonical forms of its uncapped pieces (added
// into one canonical game) and of capped pieces. wins plays such a sum out
// by memoised minimax: a move is a move in the canonical part (to one of
// its canonical options) or a move in one capped piece (replacing it by
// the pieces it leaves, whose uncapped values join the canonical part).
// Once no capped piece is left, the canonical part alone decides: the
// player to move wins iff the part is not <= 0 (Left) or not >= 0 (Right).
// Every move shrinks a capped piece or the birthday of the canonical part,
// so the search ends; it stores one bit per distinct sum and player.
func (v *Valuer) outcomeBySearch(left, right []sum) cgt.Outcome {
	leftFirst := false
	for _, s := range left {
		if !v.wins(s, false) {
			leftFirst = true
			break
		}
	}
	leftSecond := true
	for _, s := range right {
		if !v.wins(s, true) {
			leftSecond = false
			break
		}
	}
	return cgt.OutcomeOf(leftFirst, leftSecond)
}

// wins reports whether the player to move (Left when left) wins s.
func (v *Valuer) wins(s sum, left bool) bool {
	t := v.table
	if len(s.capped) == 0 {
		if left {
			return !t.Le(s.part, cgt.Zero)
		}
		return !t.Le(cgt.Zero, s.part)
	}
	key := binary.AppendUvarint(nil, uint64(s.part))
	if left {
		key = append(key, 1)
	} else {
		key = append(key, 0)
	}
	for _, k := range s.capped {
		key = binary.AppendUvarint(key, k.Hi)
		key = binary.AppendUvarint(key, k.Lo)
	}
	if w, ok := v.winMemo[string(key)]; ok {
		return w
	}
	w := v.anyWinningMove(s, left)
	v.winMemo[string(key)] = w
	return w
}

func (v *Valuer) anyWinningMove(s sum, left bool) bool {
	t := v.table
	opts := t.Right(s.part)
	if left {
		opts = t.Left(s.part)
	}
	for _, o := range opts {
		if !v.wins(sum{part: o, capped: s.capped}, !left) {
			return true
		}
	}
	for i, k := range s.capped {
		rest := append(append([]gamesKey(nil), s.capped[:i]...), s.capped[i+1:]...)
		g := v.box(k)
		for _, o := range v.options(g, k, left) {
			next := sum{part: t.Add(s.part, o.part), capped: append(append([]gamesKey(nil), rest...), o.capped...)}
			sortKeys(next.capped)
			if !v.wins(next, !left) {
				return true
			}
		}
	}
	return false
}

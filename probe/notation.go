package probe

import (
	"fmt"
	"strconv"
)

// Squares are named as on a chessboard but read as the diagram reads: the
// column by a letter from "a" on the left, the row by a number from 1 at
// the top. A move is written by its squares:
//
//	Clobber      b1xc1     the stone on b1 captures the stone on c1
//	Domineering  a1-a2     a domino on a1 and a2 (vertical: Left's)
//	Amazons      a1-c3/c1  the amazon on a1 goes to c3 and shoots c1
//
// SquareName is square i's name on a board of cols columns.
func SquareName(i, cols int) string {
	return string(rune('a'+i%cols)) + strconv.Itoa(i/cols+1)
}

// describe reads the move from pos to next off their diagrams, cells in
// the spec's characters, row by row without separators: it returns the
// squares in the order of Move.Squares and the move's notation.
func describe(game string, before, after []byte, cols int) ([]int, string, error) {
	var changed []int
	for i := range before {
		if before[i] != after[i] {
			changed = append(changed, i)
		}
	}
	name := func(i int) string { return SquareName(i, cols) }
	switch game {
	case "clobber":
		// The mover's stone leaves its square empty; the captured one
		// takes the mover's colour.
		if len(changed) == 2 {
			from, to := changed[0], changed[1]
			if after[from] != '.' {
				from, to = to, from
			}
			if after[from] == '.' && after[to] == before[from] {
				return []int{from, to}, name(from) + "x" + name(to), nil
			}
		}
	case "domineering":
		if len(changed) == 2 {
			return changed, name(changed[0]) + "-" + name(changed[1]), nil
		}
	case "amazons":
		return describeAmazons(before, after, changed, name)
	}
	return nil, "", fmt.Errorf("no %s move leads from %s to %s", game, before, after)
}

// describeAmazons finds the amazon's square, its destination and the
// arrow's; the arrow may land on the square the amazon left.
func describeAmazons(before, after []byte, changed []int, name func(int) string) ([]int, string, error) {
	from, to, arrow := -1, -1, -1
	for _, i := range changed {
		switch {
		case (before[i] == 'x' || before[i] == 'o') && after[i] == '.':
			from = i
		case (before[i] == 'x' || before[i] == 'o') && after[i] == '#':
			from, arrow = i, i
		case before[i] == '.' && after[i] == '#':
			arrow = i
		case before[i] == '.' && (after[i] == 'x' || after[i] == 'o'):
			to = i
		}
	}
	if from < 0 || to < 0 || arrow < 0 || before[from] != after[to] {
		return nil, "", fmt.Errorf("no amazons move leads from %s to %s", before, after)
	}
	return []int{from, to, arrow}, name(from) + "-" + name(to) + "/" + name(arrow), nil
}

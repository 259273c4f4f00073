// Command refrun runs the reference census (package refcensus) on one game
// and board from the standard start and prints its position and move
// counts on one line, for timing against the real census:
//
//	go run ./internal/refcensus/refrun clobber 4x4
//	positions 1809927 moves 12192184
//
// The reference is deliberately simple and slow; it is meant for boards of
// up to about 16 squares.
package main

import (
	"fmt"
	"os"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/internal/refcensus"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: refrun GAME BOARD (e.g. refrun clobber 4x4)")
		os.Exit(2)
	}
	game, board := os.Args[1], os.Args[2]
	rows, cols, err := games.ParseBoard(board)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refrun:", err)
		os.Exit(2)
	}
	start, err := refcensus.Start(game, rows, cols)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refrun:", err)
		os.Exit(2)
	}
	res, err := refcensus.Census(game, rows, cols, start)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refrun:", err)
		os.Exit(1)
	}
	fmt.Printf("positions %d moves %d\n", res.Positions, res.Moves)
}

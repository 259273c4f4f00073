package retro_test

import (
	"context"
	"fmt"

	"github.com/census-cgt/census/games/mutorere"
	"github.com/census-cgt/census/retro"
)

// Solve Mū tōrere and look at the start, and at an arrangement with point 4
// empty and White in the centre. Black to move slides 3 to 4 and the game
// goes on; White to move slides 5 to 4 and leaves Black nothing (the empty
// point 5 lies between White counters and White holds the centre), so White
// wins in 1.
func ExampleSolve() {
	r, err := mutorere.New(8, mutorere.Classic)
	if err != nil {
		panic(err)
	}
	res, err := retro.Solve(context.Background(), r)
	if err != nil {
		panic(err)
	}
	fmt.Println("start:", res.Verdict[r.StartState()])
	a, err := r.Parse("BBBB.WWWW")
	if err != nil {
		panic(err)
	}
	for _, mover := range []mutorere.Colour{mutorere.Black, mutorere.White} {
		s := r.Index(a, mover)
		fmt.Printf("%s with %s to move: %s, remoteness %d\n", r.String(a), mover, res.Verdict[s], res.Remoteness[s])
	}
	// Output:
	// start: D
	// BBBB.WWWW with B to move: D, remoteness 0
	// BBBB.WWWW with W to move: W, remoteness 1
}

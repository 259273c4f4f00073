package values_test

import (
	"fmt"

	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/values"
)

func Example() {
	// The piece xxo of Clobber: Black (Left) stones at columns 0 and 1.
	g, _ := all.New("clobber", "1x3", "xxo")
	k := g.Translate(g.Start())
	v, _ := values.New("clobber", 0)
	val := v.Value(k)
	fmt.Println(v.String(val), val.Outcome, val.Nodes, val.Cost)
	// Its colour swap oox has the negative value.
	neg := v.Value(games.SwapPlanes(k))
	fmt.Println(v.String(neg), neg.Outcome)
	// Output:
	// ^ L 3 2
	// v R
}

package cgt_test

import (
	"fmt"

	"github.com/census-cgt/census/cgt"
)

func Example() {
	t := cgt.NewTable()
	up := t.New([]cgt.ID{cgt.Zero}, []cgt.ID{t.Star()}) // {0|*}
	s := t.Sum(up, up, t.Star())
	fmt.Println(t.String(up), t.String(s), t.Outcome(s))
	fmt.Println(t.String(t.MustParse("{1|-1}")), t.Confused(up, t.Star()))
	mean, temp := t.MeanTemp(t.MustParse("{3|1}"))
	fmt.Println(mean, temp)
	// Output:
	// ^ ^^* L
	// +-1 true
	// 2 1
}

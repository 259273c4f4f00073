package konanecensus

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games/konane"
)

// MaxLen is the longest row Count accepts: 3^14 = 4,782,969
// arrangements, all of them held in the memo. Measured with `census run
// konane 1xN --all-arrangements` on one core: 2.9 s and 132 MB at peak
// for N = 13, 9.2 s and 342 MB for N = 14; each square more triples the
// rows.
const MaxLen = 14

// Independent reports whether the stones of a row a and of a row b, set
// down in one row as a, then gap empty squares, then b, never interact, so
// that the value of a ++ gap ++ b is the value of a padded on its right
// plus the value of b padded on its left, each with room for all its
// moves. A move removes a stone and carries a stone at most one square
// beyond the outermost stone of its group, so a group of k stones never
// reaches more than k-1 squares beyond its outermost stone; the groups
// stay apart, and neither lands on a square the other needs, when k_a +
// k_b - 1 or more empty squares lie between the last stone of a and the
// first stone of b. (The bound is sound, not tight: two empty squares are
// not always enough, see the package comment.)
func Independent(a, b konane.Row, gap int) bool {
	ka, kb := a.Stones(), b.Stones()
	if ka == 0 || kb == 0 {
		return true
	}
	return trailingEmpty(a)+gap+leadingEmpty(b) >= ka+kb-1
}

func leadingEmpty(r konane.Row) int {
	i := 0
	for i < r.Len() && r.At(i) == konane.Empty {
		i++
	}
	return i
}

func trailingEmpty(r konane.Row) int { return leadingEmpty(r.Reverse()) }

// ValueCount is one value of a census and the number of rows that have it.
type ValueCount struct {
	// Value is the canonical form in CGSuite's notation.
	Value string `json:"value"`
	// Outcome is the value's outcome class: L, R, N or P.
	Outcome string `json:"outcome"`
	// Count is the number of arrangements with this value.
	Count int `json:"count"`
	// Example is the first arrangement with this value in index order
	// (konane.FromIndex).
	Example string `json:"example"`
}

// Census is the count of the values of every arrangement of a row.
type Census struct {
	// Squares is N, the length of the row.
	Squares int `json:"squares"`
	// Arrangements is 3^N: every row of N squares, each empty, Black or
	// White, including the rows with no stones or with stones of one
	// colour only.
	Arrangements int `json:"arrangements"`
	// Outcomes counts the arrangements by outcome class, keys L, R, N, P.
	Outcomes map[string]int `json:"outcomes"`
	// DistinctValues is the number of distinct canonical values.
	DistinctValues int `json:"distinct_values"`
	// Values lists each value with its count, the most frequent first,
	// ties in the order of their first arrangement.
	Values []ValueCount `json:"values"`
	// RowsValued is the number of rows the memo held at the end: the
	// arrangements of N squares, which include every option.
	RowsValued int `json:"rows_valued"`
}

// Count values every arrangement of a row of n squares, 1 <= n <= MaxLen.
// It returns ctx's error when ctx is cancelled during the count.
func Count(ctx context.Context, n int) (*Census, error) {
	if n < 1 || n > MaxLen {
		return nil, fmt.Errorf("count rows of %d squares: want 1 to %d", n, MaxLen)
	}
	total := 1
	for range n {
		total *= 3
	}
	v := NewValuer[konane.Row]()
	type entry struct {
		first, count int
		example      konane.Row
	}
	byValue := map[cgt.ID]*entry{}
	outcomes := map[string]int{"L": 0, "R": 0, "N": 0, "P": 0}
	for i := 0; i < total; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("count rows of %d squares: %w", n, err)
			}
		}
		r := konane.FromIndex(n, uint64(i))
		id := v.Value(r)
		outcomes[v.table.Outcome(id).String()]++
		e := byValue[id]
		if e == nil {
			e = &entry{first: i, example: r}
			byValue[id] = e
		}
		e.count++
	}
	ids := make([]cgt.ID, 0, len(byValue))
	for id := range byValue {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b cgt.ID) int {
		ea, eb := byValue[a], byValue[b]
		if ea.count != eb.count {
			return eb.count - ea.count
		}
		return ea.first - eb.first
	})
	c := &Census{Squares: n, Arrangements: total, Outcomes: outcomes,
		DistinctValues: len(ids), RowsValued: v.Len()}
	for _, id := range ids {
		e := byValue[id]
		c.Values = append(c.Values, ValueCount{Value: v.table.String(id),
			Outcome: v.table.Outcome(id).String(), Count: e.count, Example: e.example.String()})
	}
	return c, nil
}

// Table writes the census's values as text, one value a line: count,
// outcome, value, example.
func (c *Census) Table() string {
	var b strings.Builder
	for _, e := range c.Values {
		fmt.Fprintf(&b, "%8d  %s  %-24s %s\n", e.Count, e.Outcome, e.Value, e.Example)
	}
	return b.String()
}

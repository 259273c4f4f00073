package konanecensus

import "github.com/census-cgt/census/cgt"

// Position is a Kōnane position: a row (konane.Row) or a board
// (konane.Board).
type Position[P any] interface {
	comparable
	// Options appends the positions one move of Left (left) or Right
	// reaches.
	Options(left bool, dst []P) []P
}

// Valuer values Kōnane positions of one kind. It is not safe for
// concurrent use.
type Valuer[P Position[P]] struct {
	table *cgt.Table
	memo  map[P]cgt.ID
	bufs  [][]P // an option buffer per recursion depth
	depth int
	// limit caps the memo (0: no cap); exceeded is set once it is full.
	limit    int
	exceeded bool
}

// NewValuer returns a Valuer with an empty table and memo.
func NewValuer[P Position[P]]() *Valuer[P] {
	return &Valuer[P]{table: cgt.NewTable(), memo: map[P]cgt.ID{}}
}

// Table is the table the values' IDs belong to.
func (v *Valuer[P]) Table() *cgt.Table { return v.table }

// SetLimit caps the positions the Valuer holds at n (0: no cap). Once the
// cap is reached, Exceeded is true and Value returns meaningless IDs
// without valuing anything more.
func (v *Valuer[P]) SetLimit(n int) { v.limit = n }

// Exceeded reports whether the cap set by SetLimit was reached.
func (v *Valuer[P]) Exceeded() bool { return v.exceeded }

// Len is the number of positions valued so far.
func (v *Valuer[P]) Len() int { return len(v.memo) }

// Value returns the canonical value of the position r.
func (v *Valuer[P]) Value(r P) cgt.ID {
	if id, ok := v.memo[r]; ok {
		return id
	}
	if v.exceeded {
		return cgt.Zero
	}
	if v.depth == len(v.bufs) {
		v.bufs = append(v.bufs, nil)
	}
	d := v.depth
	v.depth++
	defer func() { v.depth-- }()

	v.bufs[d] = r.Options(true, v.bufs[d][:0])
	nl := len(v.bufs[d])
	v.bufs[d] = r.Options(false, v.bufs[d])
	opts := make([]cgt.ID, len(v.bufs[d]))
	for i := range opts {
		// Deeper calls use their own buffers, so v.bufs[d] stays put.
		opts[i] = v.Value(v.bufs[d][i])
	}
	if v.exceeded {
		return cgt.Zero
	}
	id := v.table.New(opts[:nl], opts[nl:])
	v.memo[r] = id
	if v.limit > 0 && len(v.memo) >= v.limit {
		v.exceeded = true
	}
	return id
}

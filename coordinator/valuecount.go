package coordinator

import (
	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values"
)

// tooLong stands, in valueCounter.strings, for a string longer than
// schema.MaxValueString; no value string is empty.
const tooLong = ""

// valueCounter turns values into pieces rows' value columns and counts
// them for summary.json.
type valueCounter struct {
	v *values.Valuer
	// maxSize, when positive, is the largest piece size valued: a
	// larger piece's row gets null value columns and counts in
	// notValued only.
	maxSize    int32
	notValued  uint64
	strings    map[cgt.ID]string
	translated map[string]uint64
	symmetric  map[string]uint64
	seenSym    map[games.PieceKey]bool
	distinct   map[cgt.ID]bool
	capped     uint64
	// levels are the costs of the piece sizes, by size, and the forms
	// within the cap counted in each.
	levels map[int32]*schema.ValueLevel
	forms  map[int32]uint64
	nodes  map[int32]uint64
	order  []int32
}

func newValueCounter(v *values.Valuer, costs []schema.ValueLevel, maxSize int) *valueCounter {
	levels := make(map[int32]*schema.ValueLevel, len(costs))
	order := make([]int32, len(costs))
	for i := range costs {
		levels[int32(costs[i].Size)] = &costs[i]
		order[i] = int32(costs[i].Size)
	}
	return &valueCounter{
		levels: levels, order: order, forms: map[int32]uint64{}, nodes: map[int32]uint64{},
		v: v, maxSize: int32(maxSize), strings: map[cgt.ID]string{},
		translated: map[string]uint64{"L": 0, "R": 0, "N": 0, "P": 0},
		symmetric:  map[string]uint64{"L": 0, "R": 0, "N": 0, "P": 0},
		seenSym:    map[games.PieceKey]bool{}, distinct: map[cgt.ID]bool{},
	}
}

// value returns the value columns of the row p and counts them.
func (c *valueCounter) value(p schema.Piece) schema.PieceValue {
	if c.maxSize > 0 && p.Size > c.maxSize {
		c.notValued++
		return schema.PieceValue{}
	}
	val := c.v.Value(games.PieceKey{Hi: p.KeyHi, Lo: p.KeyLo})
	pv := schema.PieceValue{
		Valued: true, Outcome: val.Outcome.String(), ValueCapped: val.Capped,
		ValueNodes: int32(val.Nodes), Cost: uint64(val.Cost),
	}
	if !val.Capped {
		c.distinct[val.ID] = true
		s, ok := c.strings[val.ID]
		if !ok {
			s = c.v.String(val)
			if len(s) > schema.MaxValueString {
				// Remember that it is too long, not the string: such a
				// string can take hundreds of kilobytes.
				s = tooLong
			}
			c.strings[val.ID] = s
		}
		if s == tooLong {
			pv.ValueCapped = true
		} else {
			pv.Value = s
		}
	}
	if pv.ValueCapped {
		c.capped++
	}
	if l := c.levels[p.Size]; l != nil {
		if pv.ValueCapped {
			l.Capped++
		}
		if pv.ValueNodes > 0 {
			c.forms[p.Size]++
			c.nodes[p.Size] += uint64(pv.ValueNodes)
			l.MaxNodes = max(l.MaxNodes, pv.ValueNodes)
		}
	}
	c.translated[pv.Outcome]++
	if sym := (games.PieceKey{Hi: p.SymmetricHi, Lo: p.SymmetricLo}); !c.seenSym[sym] {
		c.seenSym[sym] = true
		c.symmetric[pv.Outcome]++
	}
	return pv
}

func (c *valueCounter) values() *schema.Values {
	vals := &schema.Values{
		OutcomesTranslated: c.translated, OutcomesSymmetric: c.symmetric,
		DistinctValues: uint64(len(c.distinct)), ValuesCapped: c.capped,
	}
	if c.notValued > 0 {
		vals.MaxSize, vals.PiecesNotValued = int(c.maxSize), c.notValued
	}
	for _, size := range c.order {
		l := c.levels[size]
		if n := c.forms[size]; n > 0 {
			l.MeanNodes = float64(c.nodes[size]) / float64(n)
		}
		vals.Levels = append(vals.Levels, *l)
	}
	return vals
}

package coordinator

import (
	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/schema"
	"github.com/census-cgt/census/values"
)

// valueCounter turns values into pieces rows' value columns and counts
// them for summary.json.
type valueCounter struct {
	v          *values.Valuer
	strings    map[cgt.ID]string
	translated map[string]uint64
	symmetric  map[string]uint64
	seenSym    map[games.PieceKey]bool
	distinct   map[cgt.ID]bool
	capped     uint64
}

func newValueCounter(v *values.Valuer) *valueCounter {
	return &valueCounter{
		v: v, strings: map[cgt.ID]string{},
		translated: map[string]uint64{"L": 0, "R": 0, "N": 0, "P": 0},
		symmetric:  map[string]uint64{"L": 0, "R": 0, "N": 0, "P": 0},
		seenSym:    map[games.PieceKey]bool{}, distinct: map[cgt.ID]bool{},
	}
}

// value returns the value columns of the row p and counts them.
func (c *valueCounter) value(p schema.Piece) schema.PieceValue {
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
			c.strings[val.ID] = s
		}
		if len(s) > schema.MaxValueString {
			pv.ValueCapped = true
		} else {
			pv.Value = s
		}
	}
	if pv.ValueCapped {
		c.capped++
	}
	c.translated[pv.Outcome]++
	if sym := (games.PieceKey{Hi: p.SymmetricHi, Lo: p.SymmetricLo}); !c.seenSym[sym] {
		c.seenSym[sym] = true
		c.symmetric[pv.Outcome]++
	}
	return pv
}

func (c *valueCounter) values() *schema.Values {
	return &schema.Values{
		OutcomesTranslated: c.translated, OutcomesSymmetric: c.symmetric,
		DistinctValues: uint64(len(c.distinct)), ValuesCapped: c.capped,
	}
}

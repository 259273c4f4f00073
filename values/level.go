package values

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
)

// ErrCorrupt marks a level encoding that Load cannot read.
var ErrCorrupt = errors.New("corrupt values encoding")

// levelMagic starts every encoding of values, with its version.
const levelMagic = "census-values-1\n"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Set records val as the value of the translated piece k, as if Value had
// computed it; val.ID must belong to v.Table(). It lets a Valuer start from
// values computed elsewhere (see Load).
func (v *Valuer) Set(k games.PieceKey, val Value) { v.memo.set(k, val) }

// Each calls fn with every translated piece valued so far and its value,
// in no particular order.
func (v *Valuer) Each(fn func(games.PieceKey, Value)) {
	v.memo.each(fn)
}

// Fresh returns the translated pieces that Value has valued (not those
// recorded by Set or Load), sorted by key.
func (v *Valuer) Fresh() []games.PieceKey {
	out := slices.Clone(v.fresh)
	slices.SortFunc(out, games.PieceKey.Compare)
	return out
}

// Append appends to dst the values of the pieces keys, which must all have
// been valued, as a self-contained encoding that Load reads into any
// Valuer of the same game: the magic, the count, per piece its key, capped
// flag, outcome, nodes and cost, then the canonical forms of the uncapped
// ones as one cgt DAG (cgt.Table.Encode), and a CRC-32C of all that. It
// panics on a key that has not been valued.
func (v *Valuer) Append(dst []byte, keys []games.PieceKey) []byte {
	start := len(dst)
	dst = append(dst, levelMagic...)
	dst = binary.AppendUvarint(dst, uint64(len(keys)))
	var roots []cgt.ID
	for _, k := range keys {
		val, ok := v.memo.get(k)
		if !ok {
			panic(fmt.Sprintf("values: append the value of %v, not valued", k))
		}
		dst = binary.LittleEndian.AppendUint64(dst, k.Hi)
		dst = binary.LittleEndian.AppendUint64(dst, k.Lo)
		flags := byte(val.Outcome) << 1
		if val.Capped {
			flags |= 1
		} else {
			roots = append(roots, val.ID)
		}
		dst = append(dst, flags)
		dst = binary.AppendUvarint(dst, uint64(val.Nodes))
		dst = binary.AppendUvarint(dst, uint64(val.Cost))
	}
	dst = v.table.Encode(dst, roots)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// Load reads an encoding written by Append and records its values with
// Set. It returns the number of pieces read, or an error wrapping
// ErrCorrupt, having recorded nothing, when the encoding is damaged.
func (v *Valuer) Load(src []byte) (int, error) {
	if len(src) < len(levelMagic)+4 || string(src[:len(levelMagic)]) != levelMagic {
		return 0, fmt.Errorf("%w: no %q header", ErrCorrupt, levelMagic[:len(levelMagic)-1])
	}
	body, sum := src[:len(src)-4], binary.LittleEndian.Uint32(src[len(src)-4:])
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return 0, fmt.Errorf("%w: crc32c %08x, recorded %08x", ErrCorrupt, got, sum)
	}
	b := body[len(levelMagic):]
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)) {
		return 0, fmt.Errorf("%w: bad count", ErrCorrupt)
	}
	b = b[w:]
	keys := make([]games.PieceKey, n)
	vals := make([]Value, n)
	uncapped := 0
	for i := range keys {
		if len(b) < 17 {
			return 0, fmt.Errorf("%w: truncated at piece %d", ErrCorrupt, i)
		}
		keys[i] = games.PieceKey{Hi: binary.LittleEndian.Uint64(b), Lo: binary.LittleEndian.Uint64(b[8:])}
		flags := b[16]
		b = b[17:]
		nodes, w1 := binary.Uvarint(b)
		if w1 <= 0 {
			return 0, fmt.Errorf("%w: truncated at piece %d", ErrCorrupt, i)
		}
		cost, w2 := binary.Uvarint(b[w1:])
		if w2 <= 0 {
			return 0, fmt.Errorf("%w: truncated at piece %d", ErrCorrupt, i)
		}
		b = b[w1+w2:]
		o := cgt.Outcome(flags >> 1)
		if o < cgt.L || o > cgt.P {
			return 0, fmt.Errorf("%w: outcome %d at piece %d", ErrCorrupt, o, i)
		}
		vals[i] = Value{Capped: flags&1 != 0, Outcome: o, Nodes: int(nodes), Cost: int(cost)}
		if !vals[i].Capped {
			uncapped++
		}
	}
	// The checksum above guards the forms, which Append wrote canonical.
	roots, _, err := v.table.DecodeCanonical(b)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if len(roots) != uncapped {
		return 0, fmt.Errorf("%w: %d forms for %d uncapped pieces", ErrCorrupt, len(roots), uncapped)
	}
	v.memo.reserve(len(keys))
	for i, k := range keys {
		if !vals[i].Capped {
			vals[i].ID, roots = roots[0], roots[1:]
		}
		v.Set(k, vals[i])
	}
	return len(keys), nil
}

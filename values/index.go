package values

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/census-cgt/census/cgt"
	"github.com/census-cgt/census/games"
	"github.com/census-cgt/census/games/all"
	"github.com/census-cgt/census/schema"
)

// ErrNotValued marks a run whose pieces table has no values.
var ErrNotValued = errors.New("run not valued")

// Index answers what a position of a valued run is worth: it holds the
// value of every piece of the run's pieces table, read once, and values a
// position by splitting it into pieces, looking each one up and adding
// their canonical forms. The run may be partial (census values
// --max-size): its pieces larger than MaxSize are indexed without a value.
// It is not safe for concurrent use (its table memoises sums).
type Index struct {
	game  games.Game
	table *cgt.Table
	// maxSize is the run's values_max_size, 0 when every piece is valued.
	maxSize int
	// keys is sorted; vals[i] is the value of keys[i].
	keys []games.PieceKey
	vals []entry
	// pieces is a buffer for the pieces of the position being valued.
	pieces []games.Piece
}

// entry is one piece's value: its canonical form unless capped, nothing
// (not even its outcome) when unvalued.
type entry struct {
	id       cgt.ID
	outcome  cgt.Outcome
	capped   bool
	unvalued bool
}

// LoadIndex reads the pieces table of the finished, valued run in dir
// (OUT/GAME-BOARD). A value string is parsed once however many pieces
// share it. In a partial run (summary.json's values_max_size) the pieces
// larger than values_max_size are indexed as unvalued. It fails with an
// error wrapping ErrNotValued when any other piece has no value, and when
// the run's files cannot be read.
func LoadIndex(dir string) (*Index, error) {
	m, err := schema.ReadManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("load values of %s: %w", dir, err)
	}
	s, err := schema.ReadSummaryJSON(dir)
	if errors.Is(err, fs.ErrNotExist) {
		// A run without its summary is not finished, so not valued.
		return nil, fmt.Errorf("load values of %s: no %s: %w", dir, schema.SummaryJSONFile, ErrNotValued)
	}
	if err != nil {
		return nil, fmt.Errorf("load values of %s: %w", dir, err)
	}
	g, err := all.New(m.Game, m.Board, m.Start)
	if err != nil {
		return nil, fmt.Errorf("load values of %s: %w", dir, err)
	}
	parts, err := schema.PiecesParts(dir)
	if err != nil {
		return nil, fmt.Errorf("load values of %s: %w", dir, err)
	}
	x := &Index{game: g, table: cgt.NewTable()}
	if s.Partial() {
		x.maxSize = s.MaxSize
	}
	parsed := map[string]cgt.ID{}
	for _, part := range parts {
		err := schema.ScanPiecesFile(part, func(p schema.Piece) error {
			key := games.PieceKey{Hi: p.KeyHi, Lo: p.KeyLo}
			if !p.Valued {
				if !s.LeftUnvalued(int(p.Size)) {
					return fmt.Errorf("piece %s of %s: %w (run census values %s)", p.Picture, part, ErrNotValued, dir)
				}
				x.keys = append(x.keys, key)
				x.vals = append(x.vals, entry{unvalued: true})
				return nil
			}
			e := entry{outcome: outcomeOf(p.Outcome), capped: p.ValueCapped}
			if e.outcome == 0 {
				return fmt.Errorf("piece %s of %s: outcome %q", p.Picture, part, p.Outcome)
			}
			if !e.capped {
				id, ok := parsed[p.Value]
				if !ok {
					if id, err = x.table.Parse(p.Value); err != nil {
						return fmt.Errorf("piece %s of %s: %w", p.Picture, part, err)
					}
					parsed[p.Value] = id
				}
				e.id = id
			}
			x.keys = append(x.keys, key)
			x.vals = append(x.vals, e)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("load values of %s: %w", dir, err)
		}
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("load values of %s: no pieces table: %w", dir, ErrNotValued)
	}
	x.sort()
	return x, nil
}

// sort orders keys and vals by key, for the binary search of lookup.
func (x *Index) sort() {
	order := make([]int, len(x.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return x.keys[a].Compare(x.keys[b]) })
	keys, vals := make([]games.PieceKey, len(order)), make([]entry, len(order))
	for i, j := range order {
		keys[i], vals[i] = x.keys[j], x.vals[j]
	}
	x.keys, x.vals = keys, vals
}

func outcomeOf(s string) cgt.Outcome {
	for _, o := range []cgt.Outcome{cgt.L, cgt.R, cgt.N, cgt.P} {
		if o.String() == s {
			return o
		}
	}
	return 0
}

// Game is the game of the run, on its board.
func (x *Index) Game() games.Game { return x.game }

// Table is the table the answers' forms belong to.
func (x *Index) Table() *cgt.Table { return x.table }

// Len is the number of pieces indexed, valued or not.
func (x *Index) Len() int { return len(x.keys) }

// MaxSize is the size (stones for Clobber, squares otherwise) of the
// largest pieces a partial run valued, its values_max_size: larger pieces
// are indexed without a value. It is 0 when every piece is valued.
func (x *Index) MaxSize() int { return x.maxSize }

// Answer is the value of one position.
type Answer struct {
	// Sum is the sum of the canonical forms of the pieces that have one:
	// the position's value when Capped, Missing and NotValued are empty.
	Sum cgt.ID
	// Outcome is the outcome class of the position, 0 when it is not
	// decided by what the index knows.
	Outcome cgt.Outcome
	// Capped are the pieces whose forms are capped (their outcomes are
	// known), Missing those not in the index, NotValued those larger than
	// a partial run's MaxSize (nothing is known of them), as translated
	// keys.
	Capped, Missing, NotValued []games.PieceKey
}

// Complete reports whether a is the position's exact value.
func (a Answer) Complete() bool {
	return len(a.Capped) == 0 && len(a.Missing) == 0 && len(a.NotValued) == 0
}

// Value values the position pos of the index's game.
func (x *Index) Value(pos uint64) Answer {
	a := Answer{Sum: cgt.Zero}
	var cappedOutcomes []cgt.Outcome
	x.pieces = x.game.Pieces(pos, x.pieces[:0])
	for _, p := range x.pieces {
		if !p.Live {
			continue
		}
		k := x.game.Translate(p.Key)
		e, ok := x.lookup(k)
		switch {
		case !ok:
			a.Missing = append(a.Missing, k)
		case e.unvalued:
			a.NotValued = append(a.NotValued, k)
		case e.capped:
			a.Capped = append(a.Capped, k)
			cappedOutcomes = append(cappedOutcomes, e.outcome)
		default:
			a.Sum = x.table.Add(a.Sum, e.id)
		}
	}
	// A missing or unvalued piece could be any game, so the sum's outcome
	// is decided only without one.
	if len(a.Missing) == 0 && len(a.NotValued) == 0 {
		a.Outcome = sumOutcome(x.table.Outcome(a.Sum), cappedOutcomes)
	}
	return a
}

// PieceValue is what the index knows of one live piece of a position.
type PieceValue struct {
	// Key is the piece translated to its corner.
	Key games.PieceKey
	// Value is its canonical form when Valued; Outcome its class, 0 when
	// the index does not know it (Missing, NotValued).
	Value   cgt.ID
	Valued  bool
	Outcome cgt.Outcome
	// Capped: its form is capped (its class is known); Missing: it is not
	// in the index; NotValued: it is larger than a partial run's MaxSize.
	Capped, Missing, NotValued bool
}

// Pieces lists the live pieces of pos, each with what the index knows of
// it, in the order the game lists them. Unlike Value it keeps no buffer,
// and reads the index only.
func (x *Index) Pieces(pos uint64) []PieceValue {
	var out []PieceValue
	for _, p := range x.game.Pieces(pos, nil) {
		if !p.Live {
			continue
		}
		k := x.game.Translate(p.Key)
		e, ok := x.lookup(k)
		pv := PieceValue{Key: k}
		switch {
		case !ok:
			pv.Missing = true
		case e.unvalued:
			pv.NotValued = true
		case e.capped:
			pv.Capped, pv.Outcome = true, e.outcome
		default:
			pv.Value, pv.Valued, pv.Outcome = e.id, true, e.outcome
		}
		out = append(out, pv)
	}
	return out
}

// lookup finds the value of the translated piece k.
func (x *Index) lookup(k games.PieceKey) (entry, bool) {
	i, ok := slices.BinarySearchFunc(x.keys, k, games.PieceKey.Compare)
	if !ok {
		return entry{}, false
	}
	return x.vals[i], true
}

// sumOutcome is the outcome class of a sum of games of the given classes,
// or 0 when the classes alone do not decide it. A P game is 0 and drops
// out; a sum of games >= 0 (L or P) is >= 0, and > 0 if one of them is;
// the same for <= 0; one game left decides by itself.
func sumOutcome(known cgt.Outcome, others []cgt.Outcome) cgt.Outcome {
	var nonzero []cgt.Outcome
	for _, o := range append([]cgt.Outcome{known}, others...) {
		if o != cgt.P {
			nonzero = append(nonzero, o)
		}
	}
	switch {
	case len(nonzero) == 0:
		return cgt.P
	case len(nonzero) == 1:
		return nonzero[0]
	case !slices.ContainsFunc(nonzero, func(o cgt.Outcome) bool { return o != cgt.L }):
		return cgt.L
	case !slices.ContainsFunc(nonzero, func(o cgt.Outcome) bool { return o != cgt.R }):
		return cgt.R
	}
	return 0
}

// Position reads a board diagram of the run's board (rows separated by
// '/', the characters of the run's start) into a position. It fails,
// wrapping games.ErrBadDiagram, on a diagram of another size or with
// another character.
func (x *Index) Position(diagram string) (uint64, error) {
	g, err := all.New(x.game.Name(), x.game.Board().String(), diagram)
	if err != nil {
		return 0, err
	}
	return g.Start(), nil
}

// String writes a's value in CGSuite's notation: the sum's canonical
// form when a is complete; otherwise the sum of the known pieces (left out
// when 0) followed by capped(PICTURE) for each capped piece,
// missing(PICTURE) for each piece not in the index and unvalued(PICTURE)
// for each piece larger than a partial run's MaxSize, joined by " + ".
func (x *Index) String(a Answer) string {
	if a.Complete() {
		return x.table.String(a.Sum)
	}
	var parts []string
	if a.Sum != cgt.Zero {
		parts = append(parts, x.table.String(a.Sum))
	}
	for _, k := range a.Capped {
		parts = append(parts, "capped("+x.game.Picture(k)+")")
	}
	for _, k := range a.Missing {
		parts = append(parts, "missing("+x.game.Picture(k)+")")
	}
	for _, k := range a.NotValued {
		parts = append(parts, "unvalued("+x.game.Picture(k)+")")
	}
	return strings.Join(parts, " + ")
}

// IndexOf is the index of every piece v has valued, as positions of g (a
// game of v's on any board) are split into; its forms are v's table. It
// serves where the values are in memory rather than in a run's pieces
// table.
func IndexOf(g games.Game, v *Valuer) *Index {
	x := &Index{game: g, table: v.table}
	v.Each(func(k games.PieceKey, val Value) {
		x.keys = append(x.keys, k)
		x.vals = append(x.vals, entry{id: val.ID, outcome: val.Outcome, capped: val.Capped})
	})
	x.sort()
	return x
}

package schema

import (
	"cmp"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
)

// writeFile writes a test file into a fresh temporary directory through
// WriteFileAtomic and returns its path.
func writeFile(t *testing.T, name string, write func(w io.Writer) error) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := WriteFileAtomic(path, write); err != nil {
		t.Fatalf("WriteFileAtomic(%s): %v", name, err)
	}
	return path
}

// openParquet opens a Parquet file for metadata inspection.
func openParquet(t *testing.T, path string) *file.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	pf, err := file.NewParquetReader(f)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { pf.Close() })
	return pf
}

func ptr[T any](v T) *T { return &v }

// clobberSummary is a summary with every optional field set, using the
// spec's Clobber 4x4 numbers.
func clobberSummary() Summary {
	return Summary{
		SchemaVersion:   Version,
		Game:            "clobber",
		Board:           "4x4",
		Start:           "xoxo/oxox/xoxo/oxox",
		Positions:       1809927,
		Moves:           12192184,
		Tiers:           16,
		PositionsByTier: []uint64{1, 48, 878, 7972, 40216, 125696, 274116, 419284, 430528, 313516, 141088, 45856, 8916, 1676, 120, 16},
		SplitByTier:     []uint64{0, 0, 0, 112, 4366, 33124, 105674, 172568, 169215, 84508, 22584, 3244, 126, 0, 0, 0},
		SplitPositions:  595521,
		SplitShare:      0.32903,
		// Exact ratios in general are not representable; the round trip
		// must keep every bit anyway.
		MeanLivePiecesWhenSplit: 2.0852 + 1e-15,
		PositionsWithDead:       1353000,
		DeadShare:               0.7475,
		DeadFreeBoards:          791655,
		PiecesInPlace:           424085,
		PiecesTranslated:        395947,
		PiecesSymmetric:         52000,
		PiecesNegation:          26500,
		SelfNegativeSymmetric:   300,
		PiecesBySize: map[int]uint64{2: 4, 3: 36, 4: 266, 5: 1830, 6: 11100, 7: 41422, 8: 76122,
			9: 93688, 10: 82170, 11: 54692, 12: 26682, 13: 7032, 14: 854, 15: 48, 16: 1},
		Joins:                        0,
		EdgeRuleJoins:                ptr(uint64(51234)),
		MovedPieceFraction:           ptr(0.7158),
		MovedPieceFractionAfterSplit: ptr(0.6368),
	}
}

// randomPieces returns n pieces with distinct keys, sorted by key, as a
// census writes them.
func randomPieces(n int, seed uint64) []Piece {
	rng := rand.New(rand.NewPCG(seed, 1))
	pictures := []string{"xo", "x/o", "xo./.ox", "xox/oxo", "#a./..b"}
	seen := make(map[[2]uint64]bool, n)
	out := make([]Piece, 0, n)
	for len(out) < n {
		rows, cols := rng.Int32N(4)+1, rng.Int32N(4)+1
		key := [2]uint64{uint64(rows)<<8 | uint64(cols), rng.Uint64()}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, Piece{
			Game:         "clobber",
			Board:        "4x4",
			KeyHi:        key[0],
			KeyLo:        key[1],
			Rows:         rows,
			Cols:         cols,
			Size:         rng.Int32N(rows*cols) + 1,
			Picture:      pictures[rng.IntN(len(pictures))],
			SymmetricHi:  key[0],
			SymmetricLo:  key[1] >> rng.UintN(8),
			NegationHi:   key[0],
			NegationLo:   key[1] >> rng.UintN(16),
			SelfNegative: rng.IntN(2) == 0,
			Positions:    rng.Uint64N(1 << 40),
			FirstTier:    rng.Int32N(16),
		})
	}
	slices.SortFunc(out, func(a, b Piece) int {
		return cmp.Or(cmp.Compare(a.KeyHi, b.KeyHi), cmp.Compare(a.KeyLo, b.KeyLo))
	})
	return out
}

// writePieces writes rows through a PieceWriter with the given sizes.
func writePieces(rows []Piece, o writeOptions) func(w io.Writer) error {
	return func(w io.Writer) error {
		pw, err := newPieceWriter(w, o)
		if err != nil {
			return err
		}
		for _, p := range rows {
			if err := pw.Write(p); err != nil {
				return err
			}
		}
		return pw.Close()
	}
}

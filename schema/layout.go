package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
)

// The layout of a run's output directory, OUT/GAME-BOARD/:
//
//	run.json                               the manifest, written last
//	summary.json, summary.parquet          the summary
//	tiers.parquet                          the tiers table
//	pieces/part-NNNNN.parquet              the pieces table, one part per reduce bucket
//	positions/tier=TT/part-SSSSS.parquet   the positions table, when asked for
//
// Every name below is the one spelling of its file: the coordinator writes
// them, and the export, the report and the tests read them through these
// names. Relative names use slashes, as in the manifest.
const (
	// ManifestFile is run.json: its presence marks the outputs complete.
	ManifestFile = "run.json"
	// SummaryJSONFile and SummaryFile hold the summary, as JSON and as
	// Parquet with the same keys.
	SummaryJSONFile = "summary.json"
	SummaryFile     = "summary.parquet"
	// TiersFile is the tiers table.
	TiersFile = "tiers.parquet"
	// StatesFile is the states table of a loopy game's census, which has
	// no tiers.
	StatesFile = "states.parquet"
	// PiecesDir holds the parts of the pieces table.
	PiecesDir = "pieces"
	// PositionsDir holds the positions table, hive-partitioned by tier.
	PositionsDir = "positions"
	// PartGlob matches the name of every part of a table.
	PartGlob = "part-*.parquet"
)

// RunDir is the output directory of a run of game on board under out:
// OUT/GAME-BOARD.
func RunDir(out, game, board string) string {
	return filepath.Join(out, RunName(game, board))
}

// RunName is the name of a run's output directory, GAME-BOARD.
func RunName(game, board string) string { return game + "-" + board }

// PartName is the file name of part n of a table: part-NNNNN.parquet.
func PartName(n int) string { return fmt.Sprintf("part-%05d.parquet", n) }

// PiecesPart is the relative name of part n of the pieces table.
func PiecesPart(n int) string { return path.Join(PiecesDir, PartName(n)) }

// TierDir is the hive partition of a tier, tier=TT: zero-padded to two
// digits so that the directories sort by tier.
func TierDir(tier int) string { return fmt.Sprintf("tier=%02d", tier) }

// PositionsTierDir is the relative name of the positions of a tier.
func PositionsTierDir(tier int) string { return path.Join(PositionsDir, TierDir(tier)) }

// PositionsPart is the relative name of the part of the positions table
// that shard wrote for tier.
func PositionsPart(tier, shard int) string {
	return path.Join(PositionsTierDir(tier), PartName(shard))
}

// ParseTierDir reads the tier of a partition name tier=TT; ok is false for
// any other name.
func ParseTierDir(name string) (tier int, ok bool) {
	const prefix = "tier="
	if len(name) <= len(prefix) || name[:len(prefix)] != prefix {
		return 0, false
	}
	t, err := strconv.Atoi(name[len(prefix):])
	if err != nil || t < 0 {
		return 0, false
	}
	return t, true
}

// PiecesParts returns the paths of the parts of the pieces table of the
// run in dir, in part order.
func PiecesParts(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, PiecesDir, PartGlob))
}

// PositionsParts returns the paths of every part of the positions table
// of the run in dir, by tier then shard.
func PositionsParts(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, PositionsDir, "tier=*", PartGlob))
}

// Manifest is run.json, written last into a run's output directory: its
// presence marks the outputs as complete.
type Manifest struct {
	SchemaVersion int    `json:"schema_version"`
	Census        string `json:"census_version"`
	Run           string `json:"run"`
	Game          string `json:"game"`
	Board         string `json:"board"`
	Start         string `json:"start"`
	// Files lists every other file of the directory.
	Files []OutputFile `json:"files"`
}

// OutputFile is one file of a run's outputs.
type OutputFile struct {
	// Path is relative to the run's directory, with slashes.
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
}

// ReadManifest reads the run.json of the run in dir. It returns an error
// wrapping fs.ErrNotExist when there is none, and an error naming the file
// when it cannot be read or parsed.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	p := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(p)
	if err != nil {
		return m, fmt.Errorf("read manifest: %w", err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("read manifest %s: %w", p, err)
	}
	return m, nil
}

// ReadSummaryJSON reads the summary.json of the run in dir. It returns an
// error wrapping fs.ErrNotExist when there is none, and an error naming the
// file when it cannot be read or parsed.
func ReadSummaryJSON(dir string) (Summary, error) {
	var s Summary
	p := filepath.Join(dir, SummaryJSONFile)
	data, err := os.ReadFile(p)
	if err != nil {
		return s, fmt.Errorf("read summary: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("read summary %s: %w", p, err)
	}
	return s, nil
}

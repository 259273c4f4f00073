package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// A solved run's tablebase lies in its outputs under tablebase/: one
// file a stored tier shard (package tablebase describes its bytes) and
// an index of them, written last, which marks the tablebase complete.
const (
	// TablebaseDir is the tablebase's directory.
	TablebaseDir = "tablebase"
	// TablebaseIndexFile is its index.
	TablebaseIndexFile = "tablebase/index.json"
)

// TablebaseFile is the relative name of the tablebase file of shard of
// tier.
func TablebaseFile(tier, shard int) string {
	return path.Join(TablebaseDir, fmt.Sprintf("t%04d-s%05d.tb", tier, shard))
}

// TablebaseIndex lists a tablebase's files, tier by tier.
type TablebaseIndex struct {
	// Run is the ID of the census run whose positions it holds; Game,
	// Board and Start name the run's game (Start "" for the standard
	// start) and NoSymmetry says that every position is stored, not one
	// an orbit of the start's symmetries.
	Run        string `json:"run"`
	Game       string `json:"game"`
	Board      string `json:"board"`
	Start      string `json:"start"`
	NoSymmetry bool   `json:"no_symmetry,omitempty"`
	// Stored counts the stored positions, Bytes the files' bytes.
	Stored uint64          `json:"stored"`
	Bytes  int64           `json:"bytes"`
	Tiers  []TablebaseTier `json:"tiers"`
}

// TablebaseTier is one tier's files: the tier's shards, and the file of
// each shard that holds positions.
type TablebaseTier struct {
	Shards int                  `json:"shards"`
	Files  []TablebaseFileEntry `json:"files"`
}

// TablebaseFileEntry is one file: its shard, relative name, positions,
// size and the crc32c of its bytes as written.
type TablebaseFileEntry struct {
	Shard int    `json:"shard"`
	Name  string `json:"name"`
	Count uint64 `json:"count"`
	Size  int64  `json:"size"`
	Sum   uint32 `json:"sum"`
}

// ErrNoTablebase marks outputs without a complete tablebase.
var ErrNoTablebase = errors.New("no tablebase")

// ReadTablebaseIndex reads dir's tablebase index. It fails with an error
// wrapping ErrNoTablebase when dir has none.
func ReadTablebaseIndex(dir string) (TablebaseIndex, error) {
	var idx TablebaseIndex
	p := filepath.Join(dir, filepath.FromSlash(TablebaseIndexFile))
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return idx, fmt.Errorf("%s has no %s: %w", dir, TablebaseIndexFile, ErrNoTablebase)
	}
	if err != nil {
		return idx, err
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return idx, fmt.Errorf("read %s: %w", p, err)
	}
	return idx, nil
}

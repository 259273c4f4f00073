package schema

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestLayout checks the names against the layout COLUMNS.md documents.
func TestLayout(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"run dir", RunDir("out", "clobber", "4x4"), filepath.Join("out", "clobber-4x4")},
		{"pieces part", PiecesPart(3), "pieces/part-00003.parquet"},
		{"pieces part beyond five digits", PiecesPart(123456), "pieces/part-123456.parquet"},
		{"tier dir", TierDir(8), "tier=08"},
		{"tier dir of three digits", TierDir(104), "tier=104"},
		{"positions part", PositionsPart(12, 7), "positions/tier=12/part-00007.parquet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestParseTierDir(t *testing.T) {
	for _, tier := range []int{0, 7, 10, 99, 100, 1234} {
		if got, ok := ParseTierDir(TierDir(tier)); !ok || got != tier {
			t.Errorf("ParseTierDir(%q) = %d, %t; want %d", TierDir(tier), got, ok, tier)
		}
	}
	for _, bad := range []string{"", "tier=", "tier=x", "tier=-1", "tiers=01", "part-00000.parquet"} {
		if _, ok := ParseTierDir(bad); ok {
			t.Errorf("ParseTierDir(%q) accepts it", bad)
		}
	}
}

func TestReadManifest(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadManifest(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no run.json: %v, want fs.ErrNotExist", err)
	}
	js := `{"schema_version": 2, "census_version": "v1", "run": "r", "game": "clobber", "board": "2x3",
		"start": "xox/oxo", "files": [{"path": "pieces/part-00000.parquet", "bytes": 10}]}`
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Run != "r" || m.Board != "2x3" || len(m.Files) != 1 || m.Files[0] != (OutputFile{Path: PiecesPart(0), Bytes: 10}) {
		t.Errorf("read %+v", m)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifest(dir); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a broken run.json: %v, want a parse error", err)
	}
}

package schema

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}

func TestWriteFileAtomic(t *testing.T) {
	errBoom := errors.New("boom")
	tests := []struct {
		name    string
		old     string // contents before, "" for no file
		write   func(w io.Writer) error
		panics  bool
		wantErr error  // nil for success
		want    string // contents after
	}{
		{"new file", "", func(w io.Writer) error { _, err := io.WriteString(w, "hello\n"); return err }, false, nil, "hello\n"},
		{"replaces old file", "old\n", func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }, false, nil, "new\n"},
		{"empty file", "old\n", func(w io.Writer) error { return nil }, false, nil, ""},
		{"large file", "", func(w io.Writer) error {
			_, err := io.WriteString(w, strings.Repeat("x", 3<<20))
			return err
		}, false, nil, strings.Repeat("x", 3<<20)},
		{"write fails, no file before", "", func(w io.Writer) error {
			io.WriteString(w, strings.Repeat("partial", 1<<18))
			return errBoom
		}, false, errBoom, ""},
		{"write fails, old file kept", "old\n", func(w io.Writer) error {
			io.WriteString(w, "partial")
			return errBoom
		}, false, errBoom, "old\n"},
		{"write panics, old file kept", "old\n", func(w io.Writer) error {
			io.WriteString(w, "partial")
			panic("boom")
		}, true, nil, "old\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.parquet")
			if tt.old != "" {
				if err := os.WriteFile(path, []byte(tt.old), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := func() (err error) {
				defer func() {
					if r := recover(); r != nil && !tt.panics {
						panic(r)
					}
				}()
				return WriteFileAtomic(path, tt.write)
			}()
			switch {
			case tt.panics:
			case tt.wantErr == nil && err != nil:
				t.Fatalf("WriteFileAtomic: %v", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Fatalf("WriteFileAtomic error %v, want %v", err, tt.wantErr)
			}

			got, rerr := os.ReadFile(path)
			noFile := tt.old == "" && (tt.wantErr != nil || tt.panics)
			switch {
			case noFile && !errors.Is(rerr, os.ErrNotExist):
				t.Errorf("file exists after failure (read err %v)", rerr)
			case !noFile && rerr != nil:
				t.Errorf("read back: %v", rerr)
			case !noFile && string(got) != tt.want:
				t.Errorf("contents %.20q (%d bytes), want %.20q (%d bytes)", got, len(got), tt.want, len(tt.want))
			}

			wantEntries := 1
			if noFile {
				wantEntries = 0
			}
			if names := entries(t, dir); len(names) != wantEntries {
				t.Errorf("directory holds %v, want only out.parquet or nothing (no temp file)", names)
			}
			if tt.wantErr == nil && !tt.panics {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if perm := fi.Mode().Perm(); perm != outputPerm {
					t.Errorf("mode %v, want %v", perm, os.FileMode(outputPerm))
				}
			}
		})
	}
}

func TestWriteFileAtomicMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "x.json")
	called := false
	err := WriteFileAtomic(path, func(io.Writer) error { called = true; return nil })
	if err == nil || called {
		t.Errorf("err %v, write called %t; want an error before write", err, called)
	}
}

func TestWriteJSONAtomic(t *testing.T) {
	clobber := clobberSummary()
	domineering := clobberSummary()
	domineering.EdgeRuleJoins, domineering.MovedPieceFraction, domineering.MovedPieceFractionAfterSplit = nil, nil, nil

	tests := []struct {
		name    string
		v       any
		present []string
		absent  []string
	}{
		{"clobber summary", clobber, []string{`"moved_piece_fraction": 0.7158`, `"edge_rule_joins": 51234`, `"16": 1`}, nil},
		{"domineering summary", domineering, []string{`"pieces_by_size": {`}, []string{"edge_rule_joins", "moved_piece_fraction"}},
		{"plain map", map[string]int{"a": 1}, []string{"{\n  \"a\": 1\n}\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "summary.json")
			if err := WriteJSONAtomic(path, tt.v); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			if !strings.HasSuffix(text, "}\n") || strings.HasSuffix(text, "\n\n") {
				t.Errorf("want one trailing newline: %q", text[max(0, len(text)-10):])
			}
			for _, s := range tt.present {
				if !strings.Contains(text, s) {
					t.Errorf("missing %q in\n%s", s, text)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(text, s) {
					t.Errorf("unexpected %q in\n%s", s, text)
				}
			}
			if s, ok := tt.v.(Summary); ok {
				var back Summary
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatal(err)
				}
				if back.Positions != s.Positions || len(back.PiecesBySize) != len(s.PiecesBySize) {
					t.Errorf("JSON round trip lost data: %+v", back)
				}
			}
		})
	}

	t.Run("unencodable value", func(t *testing.T) {
		dir := t.TempDir()
		if err := WriteJSONAtomic(filepath.Join(dir, "x.json"), make(chan int)); err == nil {
			t.Error("WriteJSONAtomic(chan) succeeded")
		}
		if names := entries(t, dir); len(names) != 0 {
			t.Errorf("directory holds %v after failure", names)
		}
	})
}

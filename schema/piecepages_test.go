package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

// writeUnvalued writes rows through an UnvaluedPieceWriter with row groups
// of rowGroupRows rows, compressed with zstd.
func writeUnvalued(rows []Piece, rowGroupRows int64) func(w io.Writer) error {
	return writeUnvaluedCodec(rows, rowGroupRows, CodecZstd)
}

// writeUnvaluedCodec is writeUnvalued with pages compressed with codec.
func writeUnvaluedCodec(rows []Piece, rowGroupRows int64, codec Codec) func(w io.Writer) error {
	return func(w io.Writer) error {
		pw, err := newUnvaluedPieceWriter(w, rowGroupRows, codec)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := pw.Write(r); err != nil {
				return err
			}
		}
		return pw.Close()
	}
}

// extremePieces are rows whose keys and counts sit at the ends of their
// types: deltas of the key columns that wrap around, unsigned statistics
// on both sides of 1<<63, and every miniblock width up to 64 bits.
func extremePieces() []Piece {
	his := []uint64{0, 1, 2, math.MaxInt64 - 1, math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64 - 1, math.MaxUint64}
	var rows []Piece
	for i, hi := range his {
		for j := range 40 {
			lo := uint64(j) << (j % 64)
			if j%3 == 0 {
				lo = math.MaxUint64 - uint64(j)
			}
			rows = append(rows, Piece{
				Game: "clobber", Board: "5x5", KeyHi: hi, KeyLo: lo,
				Rows: int32(j % 5), Cols: int32(-j), Size: int32(i),
				Picture:     "x" + string(rune('a'+j%26)),
				SymmetricHi: hi, SymmetricLo: lo ^ uint64(i), NegationHi: ^hi, NegationLo: lo,
				SelfNegative: j%7 == 0, Positions: math.MaxUint64 - uint64(j), FirstTier: int32(-i),
			})
		}
	}
	return rows
}

// variedPieces is randomPieces with several games and, in its first 300
// rows, as many boards, the board of the last of them in every later row:
// dictionaries of several values, pages of bit-packed indices, and (past
// the first page of 262,144 rows) a page whose every index is 299.
func variedPieces(n int, seed uint64) []Piece {
	rows := randomPieces(n, seed)
	for i := range rows {
		rows[i].Game = fmt.Sprint("game", i%3)
		rows[i].Board = fmt.Sprint("board", min(i, 299))
	}
	return rows
}

// TestUnvaluedPieceWriterMatchesPqarrow writes the same rows through
// UnvaluedPieceWriter and through pqarrow from Arrow builders, and compares
// the two files as TestPieceWriterMatchesPqarrow does: the rows read back,
// the Parquet schema, the key-value metadata, the row groups, and each
// column chunk's type, encodings, compression and statistics.
func TestUnvaluedPieceWriterMatchesPqarrow(t *testing.T) {
	tests := []struct {
		name string
		rows []Piece
		rg   int64
	}{
		{"empty", nil, DefaultRowGroupRows},
		{"one row", randomPieces(1, 1), DefaultRowGroupRows},
		{"two rows", randomPieces(2, 1), DefaultRowGroupRows},
		{"small row groups", randomPieces(1000, 2), 300},
		{"partial blocks and miniblocks", randomPieces(129+33, 3), 100},
		{"extremes", extremePieces(), 97},
		{"default sizes", randomPieces(20000, 4), DefaultRowGroupRows},
		{"several pages a chunk", randomPieces(300_000, 5), 250_000},
		{"varied dictionaries", variedPieces(3000, 8), DefaultRowGroupRows},
		{"a page of one index past a byte", variedPieces(270_000, 9), DefaultRowGroupRows},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got, want bytes.Buffer
			if err := writeUnvalued(tt.rows, tt.rg)(&got); err != nil {
				t.Fatalf("UnvaluedPieceWriter: %v", err)
			}
			if err := writePiecesArrow(tt.rows, writeOptions{batchRows: DefaultBatchRows, rowGroupRows: tt.rg})(&want); err != nil {
				t.Fatalf("pqarrow: %v", err)
			}
			gotRows, err := ReadPieces(bytes.NewReader(got.Bytes()))
			if err != nil {
				t.Fatalf("read UnvaluedPieceWriter's file: %v", err)
			}
			if len(tt.rows) == 0 {
				tt.rows = []Piece{}
			}
			if !reflect.DeepEqual(gotRows, tt.rows) {
				t.Fatalf("rows read back differ from the rows written (%d rows read, %d written)", len(gotRows), len(tt.rows))
			}
			compareFileMetadata(t, fileMetadata(t, got.Bytes()), fileMetadata(t, want.Bytes()))
		})
	}
}

// TestUnvaluedPieceWriterCodecs writes the same rows with each codec
// through UnvaluedPieceWriter and through pqarrow with that codec, and
// compares the files as TestUnvaluedPieceWriterMatchesPqarrow does (the
// rows read back, and each column chunk's compression among the rest);
// it also checks that every column chunk says the codec, that the codecs
// make files of different sizes from the same rows, and that a codec
// census does not know is refused, by name.
func TestUnvaluedPieceWriterCodecs(t *testing.T) {
	rows := variedPieces(300_000, 10) // several pages a column chunk
	sizes := map[int]Codec{}
	for _, codec := range Codecs {
		t.Run(string(codec), func(t *testing.T) {
			var got, want bytes.Buffer
			if err := writeUnvaluedCodec(rows, 250_000, codec)(&got); err != nil {
				t.Fatalf("UnvaluedPieceWriter: %v", err)
			}
			if err := writePiecesArrow(rows, writeOptions{batchRows: DefaultBatchRows, rowGroupRows: 250_000, codec: codec})(&want); err != nil {
				t.Fatalf("pqarrow: %v", err)
			}
			gotRows, err := ReadPieces(bytes.NewReader(got.Bytes()))
			if err != nil {
				t.Fatalf("read UnvaluedPieceWriter's file: %v", err)
			}
			if !reflect.DeepEqual(gotRows, rows) {
				t.Fatalf("rows read back differ from the rows written (%d rows read, %d written)", len(gotRows), len(rows))
			}
			md := fileMetadata(t, got.Bytes())
			compareFileMetadata(t, md, fileMetadata(t, want.Bytes()))
			for rg := range md.NumRowGroups() {
				for c := range md.Schema.NumColumns() {
					cc, err := md.RowGroup(rg).ColumnChunk(c)
					if err != nil {
						t.Fatal(err)
					}
					if cc.Compression() != codec.compression() {
						t.Fatalf("row group %d column %d compressed with %s, want %s", rg, c, cc.Compression(), codec)
					}
				}
			}
			if other, ok := sizes[got.Len()]; ok {
				t.Errorf("%s and %s make files of the same size, %d bytes", codec, other, got.Len())
			}
			sizes[got.Len()] = codec
		})
	}
	for _, name := range []string{"gzip", "zstd9", "lz4", "none"} {
		var buf bytes.Buffer
		if _, err := NewUnvaluedPieceWriter(&buf, 1<<10, Codec(name)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", name)) {
			t.Errorf("codec %q: error %v, want one naming it", name, err)
		}
	}
}

// TestParseCodec checks the names ParseCodec takes: every codec by its
// name in any case, and the empty name as zstd.
func TestParseCodec(t *testing.T) {
	for _, c := range Codecs {
		for _, name := range []string{string(c), strings.ToUpper(string(c))} {
			if got, err := ParseCodec(name); err != nil || got != c {
				t.Errorf("ParseCodec(%q) = %q, %v, want %q", name, got, err, c)
			}
		}
	}
	if got, err := ParseCodec(""); err != nil || got != CodecZstd {
		t.Errorf("ParseCodec(\"\") = %q, %v, want zstd", got, err)
	}
	if _, err := ParseCodec("brotli"); err == nil || !strings.Contains(err.Error(), `"brotli"`) || !strings.Contains(err.Error(), "lz4_raw") {
		t.Errorf("ParseCodec(brotli): error %v, want one naming it and the codecs there are", err)
	}
}

// TestUnvaluedPieceWriterWriteDrawn checks that rows written through
// WriteDrawn, their pictures in one buffer reused from row to row, make
// the file their Write makes, byte for byte.
func TestUnvaluedPieceWriterWriteDrawn(t *testing.T) {
	for _, rows := range [][]Piece{randomPieces(300_000, 6), extremePieces()} {
		var want, got bytes.Buffer
		if err := writeUnvalued(rows, 1000)(&want); err != nil {
			t.Fatal(err)
		}
		pw, err := newUnvaluedPieceWriter(&got, 1000, CodecZstd)
		if err != nil {
			t.Fatal(err)
		}
		var buf []byte
		for _, r := range rows {
			buf = append(buf[:0], r.Picture...)
			r.Picture = "unread"
			if err := pw.WriteDrawn(&r, buf); err != nil {
				t.Fatal(err)
			}
		}
		if err := pw.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d rows: WriteDrawn's file (%d bytes) differs from Write's (%d bytes)", len(rows), got.Len(), want.Len())
		}
	}
}

// TestUnvaluedPieceWriterRefusesValues checks that a row with values
// fails the writer, and that every later call fails too.
func TestUnvaluedPieceWriterRefusesValues(t *testing.T) {
	var buf bytes.Buffer
	pw, err := NewUnvaluedPieceWriter(&buf, 1<<10, CodecZstd)
	if err != nil {
		t.Fatal(err)
	}
	rows := valuedPieces(3, 1)
	if err := pw.Write(rows[1]); err != nil {
		t.Fatalf("row without values: %v", err)
	}
	if err := pw.Write(rows[0]); !errors.Is(err, errValued) {
		t.Fatalf("row with values: error %v, want %v", err, errValued)
	}
	if err := pw.Write(rows[1]); !errors.Is(err, errValued) {
		t.Errorf("write after the failure: error %v, want %v", err, errValued)
	}
	if err := pw.Close(); !errors.Is(err, errValued) {
		t.Errorf("close after the failure: error %v, want %v", err, errValued)
	}
}

// TestUnvaluedPieceWriterAfterClose checks that Write and Close fail after
// Close.
func TestUnvaluedPieceWriterAfterClose(t *testing.T) {
	var buf bytes.Buffer
	pw, err := NewUnvaluedPieceWriter(&buf, 1<<10, CodecZstd)
	if err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pw.Write(randomPieces(1, 1)[0]); !errors.Is(err, errClosed) {
		t.Errorf("write after close: error %v, want %v", err, errClosed)
	}
	if err := pw.Close(); !errors.Is(err, errClosed) {
		t.Errorf("second close: error %v, want %v", err, errClosed)
	}
}

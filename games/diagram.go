package games

import (
	"bytes"
	"slices"
	"strings"
)

// ParseDiagram reads a board diagram (rows top to bottom separated by '/')
// into one character per square, index r*cols+c. It fails, naming the
// diagram, when the rows or columns do not match the board or a character is
// not in allowed.
func ParseDiagram(diagram string, b Board, allowed string) ([]byte, error) {
	rows := strings.Split(diagram, "/")
	if len(rows) != b.Rows {
		return nil, errorf(ErrBadDiagram, "%q has %d rows, board %s has %d", diagram, len(rows), b, b.Rows)
	}
	cells := make([]byte, 0, b.Squares())
	for r, row := range rows {
		if len(row) != b.Cols {
			return nil, errorf(ErrBadDiagram, "%q: row %d is %q, %d squares long; board %s has %d columns", diagram, r+1, row, len(row), b, b.Cols)
		}
		for c := 0; c < len(row); c++ {
			if !strings.ContainsRune(allowed, rune(row[c])) {
				return nil, errorf(ErrBadDiagram, "%q: character %q at row %d column %d is not one of %q", diagram, row[c], r+1, c+1, allowed)
			}
			cells = append(cells, row[c])
		}
	}
	return cells, nil
}

// FormatDiagram draws a rows x cols rectangle, asking cell for the character
// of each square.
func FormatDiagram(rows, cols int, cell func(i int) byte) string {
	return formatRows(rows, cols, '/', cell)
}

// formatRows draws a rows x cols rectangle, the rows separated by sep.
func formatRows(rows, cols int, sep byte, cell func(i int) byte) string {
	var sb strings.Builder
	sb.Grow(rows * (cols + 1))
	for r := 0; r < rows; r++ {
		if r > 0 {
			sb.WriteByte(sep)
		}
		for c := 0; c < cols; c++ {
			sb.WriteByte(cell(r*cols + c))
		}
	}
	return sb.String()
}

// FormatDiagramPlanes draws a rows x cols rectangle whose square i has the
// character chars[p0>>i&1 | (p1>>i&1)<<1]: FormatDiagram for the games
// whose keys hold one bit per square in each of one or two planes, without
// a call per square.
func FormatDiagramPlanes(rows, cols int, p0, p1 uint64, chars *[4]byte) string {
	return formatPlanes(rows, cols, '/', p0, p1, chars)
}

// FormatCGSuitePlanes is FormatCGSuite as FormatDiagramPlanes is
// FormatDiagram.
func FormatCGSuitePlanes(rows, cols int, p0, p1 uint64, chars *[4]byte) string {
	return formatPlanes(rows, cols, CGSuiteRowSeparator, p0, p1, chars)
}

// AppendDiagramPlanes appends FormatDiagramPlanes(rows, cols, p0, p1,
// chars) to dst.
func AppendDiagramPlanes(dst []byte, rows, cols int, p0, p1 uint64, chars *[4]byte) []byte {
	return appendPlanes(dst, rows, cols, '/', p0, p1, chars)
}

// ParseDiagramPlanes reads a diagram of b in the characters allowed into
// two planes, the inverse of FormatDiagramPlanes: square i of a cell drawn
// as chars[j] (the first j that draws it) is set in p0 when j has bit 0
// and in p1 when j has bit 1. It fails like ParseDiagram.
func ParseDiagramPlanes(diagram string, b Board, allowed string, chars *[4]byte) (p0, p1 uint64, err error) {
	cells, err := ParseDiagram(diagram, b, allowed)
	if err != nil {
		return 0, 0, err
	}
	for i, ch := range cells {
		j := bytes.IndexByte(chars[:], ch)
		p0 |= uint64(j&1) << i
		p1 |= uint64(j>>1&1) << i
	}
	return p0, p1, nil
}

// formatPlanes draws into a buffer on the stack for boards of up to 64
// squares, so that the string is the only allocation.
func formatPlanes(rows, cols int, sep byte, p0, p1 uint64, chars *[4]byte) string {
	var stack [128]byte
	return string(appendPlanes(stack[:0], rows, cols, sep, p0, p1, chars))
}

// appendPlanes appends the rows x cols rectangle of the planes p0 and p1
// to dst, the rows separated by sep.
func appendPlanes(dst []byte, rows, cols int, sep byte, p0, p1 uint64, chars *[4]byte) []byte {
	dst = slices.Grow(dst, rows*(cols+1))
	for r := 0; r < rows; r++ {
		if r > 0 {
			dst = append(dst, sep)
		}
		a, b := p0>>(r*cols), p1>>(r*cols)
		for c := 0; c < cols; c++ {
			dst = append(dst, chars[a&1|b&1<<1])
			a, b = a>>1, b>>1
		}
	}
	return dst
}

// PlaneDiagrams is the drawing of a game whose keys hold two 32-bit
// planes, the low and the high half of a key (Clobber, Amazons): square i
// of a plane pair p0, p1 draws as chars[p0>>i&1 | (p1>>i&1)<<1], the
// characters of the spec, which are also those of the game's CGSuite
// ruleset. The game embeds it, made by NewPlaneDiagrams, for Game's
// Picture, CGSuite and Format and for PieceDrawer.
type PlaneDiagrams struct {
	rows, cols int
	chars      *[4]byte
}

// NewPlaneDiagrams draws the positions of b, and pieces, in chars.
func NewPlaneDiagrams(b Board, chars *[4]byte) PlaneDiagrams {
	return PlaneDiagrams{rows: b.Rows, cols: b.Cols, chars: chars}
}

// Picture draws a translated piece.
func (d *PlaneDiagrams) Picture(k PieceKey) string {
	rows, cols := k.Dims()
	return FormatDiagramPlanes(rows, cols, k.Lo&0xffffffff, k.Lo>>32, d.chars)
}

// CGSuite draws a translated piece as a grid string for the game's CGSuite
// ruleset.
func (d *PlaneDiagrams) CGSuite(k PieceKey) string {
	rows, cols := k.Dims()
	return FormatCGSuitePlanes(rows, cols, k.Lo&0xffffffff, k.Lo>>32, d.chars)
}

// AppendPicture appends Picture(k) to dst.
func (d *PlaneDiagrams) AppendPicture(dst []byte, k PieceKey) []byte {
	rows, cols := k.Dims()
	return AppendDiagramPlanes(dst, rows, cols, k.Lo&0xffffffff, k.Lo>>32, d.chars)
}

// Format draws a position of the board.
func (d *PlaneDiagrams) Format(pos uint64) string {
	return FormatDiagramPlanes(d.rows, d.cols, pos&0xffffffff, pos>>32, d.chars)
}

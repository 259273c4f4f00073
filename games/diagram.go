package games

import (
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

package games

// CGSuite (https://github.com/aaron-siegel/cgsuite, the combinatorial game
// suite) builds a position of a grid game from a string:
// game.grid.Clobber("xo|ox") in CGSuite 2.x. The string lists the rows top
// to bottom separated by '|'; each character is looked up in the ruleset's
// CharMap, the n-th character standing for grid value n (Grid.parse in
// lib/core/src/main/scala/org/cgsuite/util/Grid.scala, and GridRuleset.Eval
// in lib/core/src/main/resources/org/cgsuite/lang/resources/game/grid/GridRuleset.cgs).
// Every row must be as long as the first. Each game's CGSuite method gives
// its CharMap and says what stands for a cell of a piece's box that is not
// part of the piece.

// CGSuiteRowSeparator separates the rows of a CGSuite grid string.
const CGSuiteRowSeparator = '|'

// FormatCGSuite draws a rows x cols rectangle as a CGSuite grid string,
// asking cell for the character of each square.
func FormatCGSuite(rows, cols int, cell func(i int) byte) string {
	return formatRows(rows, cols, CGSuiteRowSeparator, cell)
}
